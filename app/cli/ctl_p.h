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

// Cases of a sweep that have no answer from the server yet (never sent, or sent without one).
inline int unsentCount(const QList<Store::CaseRecord> &cases)
{
    return int(std::count_if(cases.cbegin(), cases.cend(), [](const Store::CaseRecord &c) {
        return c.state == Store::CaseState::Pending || c.state == Store::CaseState::Sent;
    }));
}

} // namespace

} // namespace Eddy::Cli
