#include "app/vocab/valuetext.h"

namespace Eddy {

namespace {
constexpr int SignificantDigits = 6;
}

QString formatValue(double value, const QLocale &locale)
{
    return locale.toString(value, 'g', SignificantDigits);
}

QString formatValueExact(double value)
{
    return QString::number(value, 'g', QLocale::FloatingPointShortest);
}

} // namespace Eddy
