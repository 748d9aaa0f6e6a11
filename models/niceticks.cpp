#include "models/niceticks.h"

#include <algorithm>
#include <cmath>

namespace Eddy {

namespace {

// 10^e exactly for the exponents an axis meets (powers of ten are exact doubles up to 1e22).
double pow10(int e)
{
    return std::pow(10.0, e);
}

} // namespace

NiceTicks NiceTicks::forRange(double from, double to, int approxCount)
{
    NiceTicks t;
    if (!std::isfinite(from) || !std::isfinite(to) || !(to > from) || approxCount < 1)
        return t;
    const double raw = (to - from) / approxCount;
    if (!(raw > 0) || !std::isfinite(raw))
        return t;
    int exponent = int(std::floor(std::log10(raw)));
    int mantissa = 10;
    for (int m : {1, 2, 5, 10}) {
        if (m * pow10(exponent) >= raw * (1 - 1e-9)) {
            mantissa = m;
            break;
        }
    }
    if (mantissa == 10) {
        mantissa = 1;
        ++exponent;
    }
    // k x step as (k x mantissa) / 10^-e for negative exponents: one correctly rounded division,
    // so the value is the double nearest the decimal the label shows.
    const auto value = [&](double k) {
        return exponent < 0 ? k * mantissa / pow10(-exponent) : k * mantissa * pow10(exponent);
    };
    t.step = value(1);
    const double kFirst = std::ceil(from / t.step - 1e-9);
    const double kLast = std::floor(to / t.step + 1e-9);
    if (kLast - kFirst > 10'000) // only for approxCount beyond any axis
        return {};
    for (double k = kFirst; k <= kLast; ++k)
        t.values << (k == 0 ? 0.0 : value(k));
    const double largest = std::max(std::fabs(from), std::fabs(to));
    t.scientific = largest >= 1e6 || (exponent < -4 && largest < 1e-3);
    if (t.scientific) {
        // The mantissa of the largest value needs digits down to the step's exponent.
        const int lead = int(std::floor(std::log10(largest)));
        t.decimals = std::clamp(lead - exponent, 0, 15);
    } else {
        t.decimals = std::max(0, -exponent);
    }
    return t;
}

QString NiceTicks::label(double value) const
{
    if (value == 0 || (isValid() && std::fabs(value) < step * 1e-9))
        return QStringLiteral("0");
    return QString::number(value, scientific ? 'e' : 'f', decimals);
}

QString NiceTicks::printfFormat() const
{
    return QStringLiteral("%.%1%2").arg(decimals).arg(scientific ? QLatin1Char('e') : QLatin1Char('f'));
}

} // namespace Eddy
