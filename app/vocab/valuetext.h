#pragma once

#include <QLocale>
#include <QString>

namespace Eddy {

// The one rule for a numeric result value as a person reads it, in every view that shows one (the
// task table, the sweep table, the compare view, the result view, the sweep report): six
// significant digits, %g style (3.14159, 1.5e-07), C locale unless a view passes its own.
QString formatValue(double value, const QLocale &locale = QLocale::c());

// A value for a file a program reads back (the CSV and JSON exports): the shortest text that
// parses to the same double, C locale. Full precision, none of %.17g's noise (0.1, not
// 0.10000000000000001).
QString formatValueExact(double value);

} // namespace Eddy
