#pragma once

#include "app/monitor/jobadapter.h"

#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <optional>

namespace Eddy {

// The job adapter as the Job Adapter dialog edits it: one field per key of the stored format
// (docs/eddyctl.md "Job adapters"), validated by the same rules as `eddyctl adapter set`
// (JobAdapter::fromJson) plus what only the server's tool list can tell (a tool it does not
// offer, an id argument its status tool does not take). Every problem names its field. Pure.
class JobAdapterForm final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::JobAdapterForm)

public:
    // Field keys, as the format names them ("submit.tool", "status.states", "poll.intervalMs").
    static const QStringList &fieldKeys();
    // What the dialog calls a field ("Status ▸ Id argument").
    static QString fieldLabel(const QString &key);

    struct Problem
    {
        QString field;   // one of fieldKeys(), or empty when the problem has no single field
        QString message; // "Status ▸ Id argument: ..."; says what to fix
    };

    // The adapter in `adapter` (the stored format) checked against the server's tools (a
    // tools/list array; empty: not known, not checked). Null + *problems when anything is wrong.
    static std::optional<Monitor::JobAdapter>
    validate(const nlohmann::json &adapter, const nlohmann::json &tools, QList<Problem> *problems);
    // The names of the tools in a tools/list array, and the argument names of one of them.
    static QStringList toolNames(const nlohmann::json &tools);
    static QStringList argumentNames(const nlohmann::json &tools, const QString &tool);
};

} // namespace Eddy
