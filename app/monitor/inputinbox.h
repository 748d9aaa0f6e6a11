#pragma once

#include "app/store/records.h"

#include <QList>
#include <QString>

#include <nlohmann/json.hpp>

namespace Eddy::Store {
class TaskStore;
}

namespace Eddy::Monitor {

// Every question any task asks, deduplicated by (task, key) across polls and restarts through
// the store: a key is asked once and answered once; an answered key stays answered even while
// the server's eventually consistent ack still lists it. Lives on the engine thread.
class InputInbox final
{
public:
    explicit InputInbox(Store::TaskStore &store) : m_store(store) {}

    // Records a poll's inputRequests object; returns the requests seen for the first time.
    QList<Store::InputRequestRecord> observe(qint64 taskId, const nlohmann::json &inputRequests);
    // Stores the answer and marks it being sent; false (+ *error) when the key is unknown or was
    // answered already.
    bool beginAnswer(qint64 taskId, const QString &key, const nlohmann::json &answer, QString *error);
    // The tasks/update ack arrived (answered for good) or failed (the question is open again).
    void answerSent(qint64 taskId, const QString &key, bool ok);
    QList<Store::InputRequestRecord> pending() const;

    // An ElicitResult for a form request from ready-made values (e.g. eddyctl --answers): the
    // requestedSchema's fields taken from `values` by name, defaults for the rest, action accept.
    // Fails (empty + *error) when a required field has neither a value nor a default, or a value
    // breaks the field's schema. A URL-mode or unknown request is declined.
    static nlohmann::json answerFromValues(const nlohmann::json &request, const nlohmann::json &values,
                                           QString *error);

private:
    Store::TaskStore &m_store;
};

} // namespace Eddy::Monitor
