#pragma once

#include "app/mcp/taskstate.h"

#include <QByteArray>
#include <QDateTime>

#include <string_view>

namespace Eddy::Mcp {

// Reads the JSON-RPC response to a 2026-07-28 `tasks/get` straight into a TaskState in one pass
// over the bytes (JsonScanner: as strict as nlohmann's parser, nothing built or copied on the way),
// for the steady-state poll answers: a working, cancelled or input_required task (its
// inputRequests object is kept as the exact bytes received, a RawJson; no JSON tree is built).
// Every other shape (an error, an inline result or error, a wrong id, anything odd, anything
// invalid) is declined so the caller runs the full parser and its exact error messages. Pure
// function, any thread.
class TaskReplyParser final
{
public:
    // True when `body` was the common shape and *state is filled (and equals what the full
    // parser would produce); false means "use the full parser" and leaves *state unspecified.
    static bool parseGetResponse(std::string_view body, qint64 requestId,
                                 std::string_view taskId, TaskState *state);
    // ISO 8601 "YYYY-MM-DDTHH:MM:SS[.mmm]Z" without going through QString; anything else goes
    // to QDateTime::fromString(Qt::ISODateWithMs), so results match TaskState::parse exactly.
    static QDateTime parseIsoTime(std::string_view text);
};

} // namespace Eddy::Mcp
