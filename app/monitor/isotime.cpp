#include "app/monitor/isotime.h"

#include <chrono>

namespace Eddy::Monitor {

namespace {

void put(char *out, int value, int digits)
{
    for (int i = digits - 1; i >= 0; --i) {
        out[i] = char('0' + value % 10);
        value /= 10;
    }
}

} // namespace

QString isoTimeUtc(const QDateTime &t)
{
    if (!t.isValid())
        return {};
    using namespace std::chrono;
    const qint64 ms = t.toMSecsSinceEpoch();
    const sys_days day = floor<days>(sys_time<milliseconds>(milliseconds(ms)));
    const year_month_day ymd(day);
    const int y = int(ymd.year());
    if (y < 1 || y > 9999) // Qt writes other years its own way (and has no year 0)
        return t.toUTC().toString(Qt::ISODateWithMs);
    const qint64 msOfDay = ms - duration_cast<milliseconds>(day.time_since_epoch()).count();
    char s[24];
    put(s, y, 4);
    s[4] = '-';
    put(s + 5, int(unsigned(ymd.month())), 2);
    s[7] = '-';
    put(s + 8, int(unsigned(ymd.day())), 2);
    s[10] = 'T';
    put(s + 11, int(msOfDay / 3600000), 2);
    s[13] = ':';
    put(s + 14, int(msOfDay / 60000 % 60), 2);
    s[16] = ':';
    put(s + 17, int(msOfDay / 1000 % 60), 2);
    s[19] = '.';
    put(s + 20, int(msOfDay % 1000), 3);
    s[23] = 'Z';
    return QString::fromLatin1(s, 24);
}

} // namespace Eddy::Monitor
