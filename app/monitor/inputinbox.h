#pragma once

#include "app/mcp/rawjson.h"
#include "app/vocab/records.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>

#include <nlohmann/json.hpp>

namespace Eddy::Store {
class TaskStore;
}

namespace Eddy::Monitor {

// Every question any task asks, deduplicated by (task, key) across polls and restarts through
// the store: a key is asked once and answered once; an answered key stays answered even while
// the server's eventually consistent ack still lists it. A poll that repeats a task's last
// questions byte for byte is recognised by a hash and costs neither a parse nor a store query.
// Lives on the engine thread.
class InputInbox final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::Monitor::InputInbox)

public:
    explicit InputInbox(Store::TaskStore &store) : m_store(store) {}

    // Records a poll's inputRequests object; returns the requests seen for the first time.
    QList<Store::InputRequestRecord> observe(qint64 taskId, const nlohmann::json &inputRequests);
    // The same for the text a poll carried: parsed only when it differs from the task's last.
    QList<Store::InputRequestRecord> observe(qint64 taskId, const Mcp::RawJson &inputRequests);
    // The task no longer asks (answered, finished or gone): drops what observe() remembered.
    void forget(qint64 taskId) { m_lastSeen.remove(taskId); }
    // Stores the answer and marks it being sent; false (+ *error) when the key is unknown or was
    // answered already.
    bool beginAnswer(qint64 taskId, const QString &key, const nlohmann::json &answer, QString *error,
                     const QString &answeredBy = {});
    // The tasks/update ack arrived (answered for good) or failed (the question is open again).
    void answerSent(qint64 taskId, const QString &key, bool ok);
    QList<Store::InputRequestRecord> pending() const;

    // An ElicitResult for a form request from ready-made values (e.g. eddyctl --answers): the
    // requestedSchema's fields taken from `values` by name, defaults for the rest, action accept.
    // Fails (empty + *error) when a required field has neither a value nor a default, or a value
    // breaks the field's schema. A URL-mode or unknown request is declined.
    // The answers given to a task's questions for exports, one per answered question, joined by
    // "; ": the action, the content as compact JSON, who and when (UTC), e.g.
    // accept {"action":"repair","smoothing_passes":5} by alice at 2026-12-01T14:40:12Z
    static QString answerSummary(const QList<Store::InputRequestRecord> &requests);

    static nlohmann::json answerFromValues(const nlohmann::json &request, const nlohmann::json &values,
                                           QString *error);

private:
    // Stores every key of `inputRequests`; *complete is false when the store refused one.
    QList<Store::InputRequestRecord> record(qint64 taskId, const nlohmann::json &inputRequests,
                                            bool *complete);

    Store::TaskStore &m_store;
    QHash<qint64, size_t> m_lastSeen; // task -> hash of the inputRequests text last recorded
};

} // namespace Eddy::Monitor
