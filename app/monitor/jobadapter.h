#pragma once

#include "app/mcp/taskstatus.h"

#include <QStringList>

#include <QCoreApplication>
#include <QString>

#include <nlohmann/json.hpp>

#include <map>
#include <optional>

namespace Eddy::Monitor {

// How a server's classic job-id tools (submit, status, cancel, result, answer) map onto Eddy's
// task model. Stored per server as JSON (format in docs/eddyctl.md "Job adapters"); validated
// by fromJson(), which names every field that needs fixing.
struct JobAdapter
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::Monitor::JobAdapter)

public:
    static constexpr int FormatVersion = 1;

    // submit: the tool that starts a job, and where its job id is in the result: a JSON pointer
    // into structuredContent, or (when jobIdPointer is empty) a regex over the text content whose
    // first capture group (or whole match) is the id.
    QString submitTool;
    QString jobIdPointer;
    QString jobIdRegex;
    // Set by a proposal that could not tell where the job id is (no output schema names it):
    // the first submit answer that jobIdFrom() cannot read teaches it (learnedFrom()).
    bool learnJobId = false;

    // status: the tool, the argument that takes one id, and optionally the argument that takes
    // an array of ids (answered as an array at batchResultPointer, in the same order).
    QString statusTool;
    QString idArgument;
    QString batchArgument;
    QString batchResultPointer;
    int maxBatch = 100;
    QString statePointer = QStringLiteral("/state");
    // Lower-cased server state -> "working", "input_required", "completed", "failed" or
    // "cancelled". A value not in the table counts as working.
    std::map<QString, QString> states;
    QString progressPointer;      // a fraction 0..1 (or 0..100 when > 1), optional
    QString messagePointer;       // the status text, optional
    QString questionPointer;      // {key?, message, requestedSchema} in input_required, optional

    // Optional tools; each takes the id in idArgument.
    QString cancelTool;
    QString resultTool;
    QString answerTool;

    // Polling: the first interval, the factor it grows by while nothing changes, and the cap.
    int pollIntervalMs = 5000;
    double backoff = 1.5;
    int maxPollIntervalMs = 60000;

    bool isValid() const { return !submitTool.isEmpty() && !statusTool.isEmpty(); }
    bool canBatch() const { return !batchArgument.isEmpty() && !batchResultPointer.isEmpty(); }

    nlohmann::json toJson() const;
    // Null + *error (every problem, one a line, each saying what to fix) when invalid.
    static std::optional<JobAdapter> fromJson(const nlohmann::json &json, QString *error);
    static std::optional<JobAdapter> fromText(const QString &text, QString *error);

    // The job id in a submit tool's CallToolResult, or empty.
    QString jobIdFrom(const nlohmann::json &callToolResult) const;
    // When learnJobId: this adapter reading the id from where this submit answer has one (an
    // id-like field of structuredContent, else "job <id>" in the text), with learnJobId
    // cleared; nullopt when the answer shows no plausible id either.
    std::optional<JobAdapter> learnedFrom(const nlohmann::json &callToolResult) const;

    // One job's status object mapped onto the task model.
    struct Status
    {
        Mcp::TaskStatus status = Mcp::TaskStatus::Working;
        QString rawState;
        QString message;                    // the message, with the progress as "NN %" if any
        std::optional<double> progress;     // 0..1
        nlohmann::json question;            // null unless input_required with a question
    };
    Status mapStatus(const nlohmann::json &statusObject) const;
    // The status object(s) of a status tool's CallToolResult: its structuredContent, or the
    // first text content parsed as JSON (into `parsed`, which the answer then refers to). For a
    // batch, the array at batchResultPointer. Null when there is none.
    const nlohmann::json &statusPayload(const nlohmann::json &callToolResult,
                                        nlohmann::json &parsed) const;

    // Arguments for the status tool (one id or a batch), and for cancel/result/answer.
    nlohmann::json statusArguments(const QStringList &jobIds) const;
    nlohmann::json idArguments(const QString &jobId) const;

    // The next interval after `current` when nothing changed (current * backoff, capped).
    int nextIntervalMs(int currentMs) const;
};

// Whether an argument or field name reads as an id: "id", "job_id", "runId", "handle" (but not
// "grid" or "fluid").
bool looksLikeIdName(const QString &name);

// A JSON pointer lookup that never throws: the value inside doc, or null when the pointer is
// malformed or absent.
const nlohmann::json &jsonAt(const nlohmann::json &doc, const QString &pointer);

} // namespace Eddy::Monitor
