#pragma once

// Private to the eddyctl sources: the JSON and time helpers its command groups share.

#include "app/cli/invocation.h"

#include "app/agent/agent.h"
#include "app/vocab/jsonfield.h"

#include "app/monitor/sweepexport.h"
#include "app/vocab/outcome.h"
#include "app/vocab/records.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QRegularExpression>
#include <QUrl>

#include <cstdio>
#include <unistd.h>

namespace Eddy::Cli {

using json = nlohmann::json;

namespace {

inline json parseJson(const QString &text)
{
    return json::parse(text.toStdString(), nullptr, false);
}

inline json parseJsonText(const QString &text)
{
    return Json::parseText<json>(text);
}

inline QString isoMs(std::optional<qint64> ms)
{
    if (!ms || *ms <= 0)
        return {};
    return QDateTime::fromMSecsSinceEpoch(*ms, Qt::UTC).toString(Qt::ISODateWithMs);
}

inline QString scalarText(const json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_null())
        return {};
    return QString::fromStdString(v.dump());
}

// One NAME=VALUE term of a task query (eddyctl attach, handles export) into `q`: server=URL,
// tool=NAME, status=S, sweep=N, from=DATE, to=DATE (ISO, on first-seen time), anything else an
// argument value (reynolds=400, or arg.NAME=VALUE). Empty, or what is wrong with the term.
inline QString addQueryTerm(const QString &key, const QString &value, Store::TaskQuery &q)
{
    if (key == QLatin1String("server")) {
        q.serverUrl = value;
    } else if (key == QLatin1String("tool")) {
        q.tool = value;
    } else if (key == QLatin1String("status")) {
        q.status = Store::taskStatusFromString(value);
        if (!q.status)
            return QStringLiteral("unknown status \"%1\".").arg(value);
    } else if (key == QLatin1String("sweep")) {
        q.sweepId = value.toLongLong();
    } else if (key == QLatin1String("from") || key == QLatin1String("to")) {
        QDateTime t = QDateTime::fromString(value, Qt::ISODate);
        if (!t.isValid())
            t = QDate::fromString(value, Qt::ISODate).startOfDay(Qt::UTC);
        if (!t.isValid())
            return QStringLiteral(
                       "%1=%2: use an ISO date such as 2026-11-29 or 2026-11-29T20:00:00Z.")
                .arg(key, value);
        (key == QLatin1String("from") ? q.fromMs : q.toMs) = t.toMSecsSinceEpoch();
    } else {
        q.arguments.append({key.startsWith(QLatin1String("arg.")) ? key.mid(4) : key, value});
    }
    return {};
}

// Cases of a sweep that have no answer from the server yet (never sent, or sent without one).
inline int unsentCount(const QList<Store::CaseRecord> &cases)
{
    return int(std::count_if(cases.cbegin(), cases.cend(), [](const Store::CaseRecord &c) {
        return c.state == Store::CaseState::Pending || c.state == Store::CaseState::Sent;
    }));
}

} // namespace

} // namespace Eddy::Cli
