#pragma once

// Private to the TaskStore sources: the row readers and helpers its parts share.

#include "app/store/taskstore.h"
#include "app/store/log.h"

#include <QDateTime>
#include <QDir>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

namespace Eddy::Store {

namespace {

inline qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// A row another process needs to hear of that no trigger logs: a server added, edited, retired,
// brought back or deleted ("servers"; not the discovery and tools a refresh stores, which no
// other process needs), or a server's job adapter stored ("job_adapters", by server id). Read by
// ChangeFeed; sets the database error when it cannot log.
inline bool logChange(Database &db, QLatin1String kind, qint64 rowId)
{
    Statement st = db.prepare(QStringLiteral("INSERT INTO change_log(tbl, row_id) VALUES(?, ?)"));
    st.bind(1, QString(kind)).bind(2, rowId);
    if (st.exec())
        return true;
    db.setError(QStringLiteral("Cannot log the change of %1 %2 for other processes: %3")
                    .arg(QString(kind))
                    .arg(rowId)
                    .arg(st.errorString()));
    return false;
}

inline bool logServerChange(Database &db, qint64 serverId)
{
    return logChange(db, QLatin1String("servers"), serverId);
}

} // namespace

namespace {

const char *const s_taskColumns =
    "t.id, t.server_id, t.case_id, t.sweep_id, t.tool, t.arguments, t.server_task_id, t.status, "
    "t.status_message, t.created_at, t.last_updated_at, t.ttl_ms, t.poll_interval_ms, "
    "t.next_poll_at, t.traceparent, t.result, t.error, t.is_tool_error, t.cancel_requested, "
    "t.first_seen_at, t.updated_at, t.finished_at, t.pattern, t.stream_owner";

const char *const s_caseColumns =
    "id, sweep_id, server_id, idx, tool, arguments, idempotency_key, state, attempts, task_id, "
    "error, traceparent, created_at, parent_case_id, pending_input, note, tags";

// Tags as stored: a JSON array of strings, '' when there are none.
inline QString tagsText(const QStringList &tags)
{
    const QStringList normal = normalizeTags(tags);
    if (normal.isEmpty())
        return QStringLiteral("");
    nlohmann::json a = nlohmann::json::array();
    for (const QString &t : normal)
        a.push_back(t.toStdString());
    return QString::fromStdString(a.dump());
}

inline QStringList tagsFromText(const QString &text)
{
    QStringList out;
    if (text.isEmpty())
        return out;
    const nlohmann::json a = nlohmann::json::parse(text.toStdString(), nullptr, false);
    if (!a.is_array())
        return out;
    for (const auto &t : a)
        if (t.is_string())
            out << QString::fromStdString(t.get<std::string>());
    return out;
}

inline InputRequestRecord readInput(Statement &st)
{
    InputRequestRecord r;
    r.id = st.int64(0);
    r.taskId = st.int64(1);
    r.key = st.text(2);
    r.request = st.text(3);
    r.state = inputStateFromString(st.text(4)).value_or(InputState::Pending);
    r.answer = st.text(5);
    r.firstSeenAtMs = st.int64(6);
    r.answeredAtMs = st.optInt64(7);
    r.answeredBy = st.text(8);
    return r;
}

const char *const s_inputColumns =
    "id, task_id, key, request, state, answer, first_seen_at, answered_at, answered_by";

// Every row of a statement, each read by read(st).
template<typename Read>
auto readAll(Statement &st, Read read)
{
    QList<decltype(read(st))> out;
    while (st.step() == Statement::StepResult::Row)
        out << read(st);
    return out;
}

// The first row, when there is one.
template<typename Read>
auto readOne(Statement &st, Read read) -> std::optional<decltype(read(st))>
{
    if (st.step() == Statement::StepResult::Row)
        return read(st);
    return std::nullopt;
}

} // namespace

namespace {
// Numbers bound as text would not compare equal to integer columns; bind them as numbers.
inline void bindMixed(Statement &st, int index, const QString &value)
{
    bool isInt = false;
    const qint64 i = value.toLongLong(&isInt);
    if (isInt) {
        st.bind(index, i);
        return;
    }
    bool isReal = false;
    const double d = value.toDouble(&isReal);
    if (isReal) {
        st.bind(index, d);
        return;
    }
    if (value == QLatin1String("true") || value == QLatin1String("false")) {
        st.bind(index, qint64(value == QLatin1String("true")));
        return;
    }
    st.bind(index, value);
}
} // namespace

namespace {
// The row of task_events for the task's current status and message, ready to exec().
inline Statement prepareTaskEvent(Database &db, const TaskRecord &task, qint64 atMs)
{
    Statement ev = db.prepare(QStringLiteral(
        "INSERT INTO task_events(task_id, at, status, status_message) VALUES(?,?,?,?)"));
    ev.bind(1, task.id).bind(2, atMs).bind(3, toText(task.status)).bind(4, task.statusMessage + QString(""));
    return ev;
}
} // namespace

} // namespace Eddy::Store
