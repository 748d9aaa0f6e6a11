#pragma once

// eddy-cfd-server's debug log (--log-level debug: one line per tasks/get and tasks/update, the
// task id redacted to its first characters), read back as timed lines for poll-discipline tests.
#include <QByteArray>
#include <QList>
#include <QRegularExpression>
#include <QString>

namespace Eddy::Test {

// One debug line about a method: time of day in ms, the redacted task id, the rest.
struct LogLine
{
    qint64 atMs = 0;
    QString task;
    QString rest;
};

inline QList<LogLine> serverLines(const QByteArray &log, const QString &method)
{
    QList<LogLine> out;
    static const QRegularExpression re(QStringLiteral(
        "^(\\d\\d):(\\d\\d):(\\d\\d)\\.(\\d\\d\\d) eddy\\.server debug: (\\S+) (\\S+)(.*)$"));
    for (const QByteArray &raw : log.split('\n')) {
        const auto m = re.match(QString::fromUtf8(raw));
        if (!m.hasMatch() || m.captured(5) != method)
            continue;
        LogLine l;
        l.atMs = ((m.captured(1).toLongLong() * 60 + m.captured(2).toLongLong()) * 60
                  + m.captured(3).toLongLong())
                     * 1000
                 + m.captured(4).toLongLong();
        if (!out.isEmpty() && l.atMs < out.last().atMs)
            l.atMs += 24 * 3600 * 1000; // past midnight
        l.task = m.captured(6);
        l.rest = m.captured(7).trimmed();
        out << l;
    }
    return out;
}

} // namespace Eddy::Test
