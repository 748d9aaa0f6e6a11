#pragma once

#include <QHash>
#include <QString>

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace Eddy::Mcp {

// The stable keys of a 2025-11-25 task's questions. Such a server numbers its requests per
// session (srv:<id>), so a restart asks the same question under a new id: the client keys each
// question by what it asks (method and params) and how many times the task was already asked
// exactly that. A pending question keeps its key; an answered one's key is never handed out
// again. Per task, it remembers the server's current request id behind each key. No I/O.
class QuestionKeys final
{
public:
    // The keys a task's questions were given before, in the order they were first asked, each
    // with whether it was answered (Client::QuestionRecord).
    using Known = std::vector<std::pair<QString, bool>>;
    using Record = std::function<Known(const std::string &taskId)>;

    // Keys the server's current requests of the task ({request key: request}) and returns them
    // as {stable key: request}; forgets the task's earlier mapping. `record` (may be empty) is
    // read only for an object of requests.
    nlohmann::json
    assign(const std::string &taskId, const nlohmann::json &requests, const Record &record);
    // The server's request key behind `key` as of the last assign() of the task, or empty.
    QString askedAs(const std::string &taskId, const QString &key) const;
    void forget(const std::string &taskId) { m_asked.erase(taskId); }

private:
    // Per task, the key a question was reported under -> its request key in the server's current
    // session (as of the last poll that saw the task asking).
    std::map<std::string, QHash<QString, QString>> m_asked;
};

} // namespace Eddy::Mcp
