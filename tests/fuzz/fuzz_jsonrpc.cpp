// The client's decoding of what a server sends: a JSON body or an SSE stream of JSON-RPC messages
// (responses, errors, notifications), read the way app/mcp/client.cpp reads them: TaskState::parse
// for every place a task appears, Error::fromJsonRpcObject for errors, Tool::fromJson for
// tools/list. A parse either succeeds with a usable task or fails with a sentence; an error keeps
// the server's code.
#include "app/mcp/error.h"
#include "app/mcp/headers.h"
#include "app/mcp/taskstate.h"
#include "app/mcp/tool.h"
#include "app/net/sseparser.h"
#include "tests/fuzz/fuzzcheck.h"

#include <cstddef>
#include <cstdint>
#include <limits>

using namespace Eddy::Mcp;
using nlohmann::json;

namespace {

void checkTask(const json &object, Era era, TaskState::Source source)
{
    QString why;
    const TaskState s = TaskState::parse(object, era, source, &why);
    if (!s.isValid()) {
        FUZZ_CHECK(!why.isEmpty()); // every refusal says which field is bad
        return;
    }
    FUZZ_CHECK(why.isEmpty());
    FUZZ_CHECK(!s.taskId.empty());
    FUZZ_CHECK(s.isTerminal() == isTerminal(s.status));
    FUZZ_CHECK(taskStatusFromString(toString(s.status).toStdString()) == s.status);
    if (!s.result.is_null())
        FUZZ_CHECK(s.status == TaskStatus::Completed && s.result.is_object());
    if (!s.error.is_null())
        FUZZ_CHECK(s.status == TaskStatus::Failed && s.error.is_object());
    if (!s.inputRequests.is_null())
        FUZZ_CHECK(s.status == TaskStatus::InputRequired && s.inputRequests.is_object());
    if (s.isToolError())
        FUZZ_CHECK(s.hasPayload());
    // Parsing is a function of the input.
    const TaskState again = TaskState::parse(object, era, source);
    FUZZ_CHECK(again.taskId == s.taskId && again.status == s.status
               && again.pollIntervalMs == s.pollIntervalMs && again.ttlMs == s.ttlMs);
    // A legacy payload always ends the task.
    TaskState folded = s;
    folded.applyLegacyPayload(s.result, s.error);
    if (s.result.is_object() || s.error.is_object())
        FUZZ_CHECK(folded.isTerminal() && folded.hasPayload());
}

void checkError(const json &error)
{
    const Error e = Error::fromJsonRpcObject(error, QStringLiteral("tasks/get"), 200);
    FUZZ_CHECK(!e.isOk());
    FUZZ_CHECK(!e.message().isEmpty());
    FUZZ_CHECK(e.httpStatus() == 200);
    if (e.kind() == Error::Kind::JsonRpc) {
        // The code the server sent is the code the client acts on (e.g. isTaskGone for -32602);
        // the only rewrite is the documented stale -32003 -> -32021.
        const json &code = error["code"];
        FUZZ_CHECK(code.is_number_integer());
        const bool staleRewrite = e.code() == ErrorCode::MissingRequiredClientCapability
                                  && code == ErrorCode::StaleMissingCapability;
        FUZZ_CHECK(staleRewrite || code == e.code());
    }
}

void checkMessage(const json &message)
{
    if (!message.is_object())
        return;
    if (const auto r = message.find("result"); r != message.end()) {
        for (auto source : {TaskState::Source::CreateResult, TaskState::Source::GetResult})
            for (auto era : {Era::Modern, Era::Legacy})
                checkTask(*r, era, source);
        if (r->is_object()) {
            if (const auto tools = r->find("tools"); tools != r->end() && tools->is_array()) {
                for (const json &t : *tools) {
                    Tool tool;
                    QString why;
                    if (Tool::fromJson(t, &tool, &why))
                        FUZZ_CHECK(!tool.name.isEmpty());
                    else
                        FUZZ_CHECK(!why.isEmpty());
                }
            }
        }
    }
    if (const auto e = message.find("error"); e != message.end())
        checkError(*e);
    if (const auto p = message.find("params"); p != message.end()) {
        for (auto era : {Era::Modern, Era::Legacy})
            checkTask(*p, era, TaskState::Source::Notification);
        if (p->is_object())
            if (const auto t = p->find("task"); t != p->end())
                checkTask(*t, Era::Modern, TaskState::Source::Notification);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray body(reinterpret_cast<const char *>(data), qsizetype(size));
    // A JSON body...
    const json doc = json::parse(body.constBegin(), body.constEnd(), nullptr, false);
    if (!doc.is_discarded()) {
        checkMessage(doc);
        if (doc.is_array()) // a batch
            for (const json &m : doc)
                checkMessage(m);
    }
    // ...or the same bytes as a text/event-stream body whose data fields are messages.
    Eddy::Net::SseParser sse;
    auto events = sse.feed(body);
    for (auto &e : sse.feed("\n\n"))
        events.push_back(std::move(e));
    for (const auto &e : events) {
        const json m = json::parse(e.data.constBegin(), e.data.constEnd(), nullptr, false);
        if (!m.is_discarded())
            checkMessage(m);
    }
    // Header values the server echoes: decoding never crashes, and what Eddy encodes decodes back.
    bool ok = false;
    const QString decoded = Headers::decodeValue(body, &ok);
    if (ok) {
        const QByteArray encoded = Headers::encodeValue(decoded);
        bool ok2 = false;
        FUZZ_CHECK(Headers::decodeValue(encoded, &ok2) == decoded && ok2);
    }
    const qint64 retry = Error::parseRetryAfter(body);
    FUZZ_CHECK(retry >= -1 && retry <= 24LL * 3600 * 1000);
    return 0;
}
