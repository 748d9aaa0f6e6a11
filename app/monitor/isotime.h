#pragma once

#include <QDateTime>
#include <QString>

namespace Eddy::Monitor {

// t in UTC as "yyyy-MM-ddTHH:mm:ss.zzzZ", exactly what t.toUTC().toString(Qt::ISODateWithMs)
// gives (empty when t is invalid), without Qt's format machinery: every poll stores the task's
// two server times this way, and toString() was about 7 % of the engine's CPU per poll.
QString isoTimeUtc(const QDateTime &t);

} // namespace Eddy::Monitor
