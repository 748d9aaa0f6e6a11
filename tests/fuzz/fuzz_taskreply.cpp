// Differential fuzzing of the tasks/get reader (Mcp::TaskReplyParser, on Mcp::JsonScanner)
// against the two readers it must agree with, for any bytes:
//  - the nlohmann SAX reader it replaced, kept here only: both decline, or both accept with the
//    same TaskState (forms byte for byte). Two differences are allowed, both declines of the new
//    reader: a document nested deeper than JsonScanner::kMaxDepth (the full path refuses it too),
//    and bytes after a NUL that follows the value (nlohmann stops reading at a NUL byte outside
//    a string; the new reader calls them trailing garbage and leaves them to the full path);
//  - the client's full path (depth guard, DOM, envelope, resultType, TaskState::parse): whatever
//    the new reader accepts, the full path accepts with an equal TaskState;
//  - the scanner alone against nlohmann::json::accept: the same grammar, the same strictness.
#include "app/mcp/jsonscanner.h"
#include "app/mcp/taskreplyparser.h"
#include "tests/fuzz/fuzzcheck.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>

using namespace Eddy::Mcp;
using nlohmann::json;

namespace {

// ---- The SAX reader as it was before JsonScanner (commit 84833a1), unchanged. ----

// A char iterator over the body that publishes how far the lexer has read, so the handler can
// cut a member's exact bytes out of the body. nlohmann's lexer reads nothing past a `{` or `}`
// before reporting it, so at start_object / end_object the position is just past that brace.
class TrackingIterator
{
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char *;
    using reference = const char &;

    TrackingIterator(const char *at, const char **readTo) : m_at(at), m_readTo(readTo) {}
    reference operator*() const { return *m_at; }
    TrackingIterator &operator++()
    {
        *m_readTo = ++m_at;
        return *this;
    }
    TrackingIterator operator++(int)
    {
        TrackingIterator before = *this;
        ++*this;
        return before;
    }
    bool operator==(const TrackingIterator &other) const { return m_at == other.m_at; }
    bool operator!=(const TrackingIterator &other) const { return m_at != other.m_at; }

private:
    const char *m_at;
    const char **m_readTo;
};

// Where the SAX walk is: depth 1 is the JSON-RPC envelope, depth 2 the result object, and
// `_meta` subtrees (depth >= 3 below a `_meta` key of the result) are skipped whole. The
// inputRequests object is skipped the same way, then kept as its exact bytes (RawJson).
class GetReplyHandler final
{
public:
    GetReplyHandler(TaskState *state, const char *const *readTo)
        : m_state(state)
        , m_readTo(readTo)
    {}

    enum class Field {
        None, JsonRpc, Id, Result, // envelope
        TaskId, Status, StatusMessage, CreatedAt, LastUpdatedAt, ResultType,
        TtlMs, Ttl, PollIntervalMs, PollInterval, Meta, InputRequests, Ignored,
    };

    bool null() { return scalar(Kind::Null, 0, 0.0, {}); }
    bool boolean(bool) { return scalar(Kind::Other, 0, 0.0, {}); }
    bool number_integer(json::number_integer_t v) { return scalar(Kind::Integer, v, 0.0, {}); }
    bool number_unsigned(json::number_unsigned_t v)
    {
        if (m_skipDepth == 0 && v > json::number_unsigned_t(std::numeric_limits<qint64>::max()))
            return decline();
        return scalar(Kind::Integer, qint64(v), 0.0, {});
    }
    bool number_float(json::number_float_t v, const json::string_t &)
    {
        return scalar(Kind::Float, 0, v, {});
    }
    bool string(json::string_t &v) { return scalar(Kind::String, 0, 0.0, v); }
    bool binary(json::binary_t &) { return decline(); }

    bool start_object(std::size_t)
    {
        ++m_depth;
        if (m_skipDepth > 0)
            return true;
        if (m_depth == 1)
            return true;
        if (m_depth == 2 && m_field == Field::Result) {
            if (m_sawResult)
                return decline(); // a repeated key: let the full parser decide which wins
            m_inResult = true;
            m_sawResult = true;
            return true;
        }
        if (m_depth == 3 && m_field == Field::Meta) {
            m_skipDepth = m_depth;
            return true;
        }
        if (m_depth == 3 && m_field == Field::InputRequests) {
            // The elicitation forms: skipped like _meta, their bytes kept at the closing brace.
            m_captureFrom = *m_readTo - 1;
            if (*m_captureFrom != '{')
                return decline();
            m_skipDepth = m_depth;
            return true;
        }
        return decline(); // result, error, a nested task, anything else
    }
    bool end_object()
    {
        if (m_skipDepth == m_depth) {
            m_skipDepth = 0;
            if (m_captureFrom) {
                const char *end = *m_readTo;
                if (end[-1] != '}')
                    return decline();
                m_inputRequests = RawJson::fromText(
                    std::string_view(m_captureFrom, size_t(end - m_captureFrom)));
                m_captureFrom = nullptr;
                m_sawInputRequests = true;
            }
        }
        if (m_depth == 2 && m_inResult && m_skipDepth == 0)
            m_inResult = false;
        --m_depth;
        m_field = Field::None;
        return true;
    }
    bool start_array(std::size_t)
    {
        if (m_skipDepth > 0) {
            ++m_depth;
            return true;
        }
        return decline();
    }
    bool end_array()
    {
        --m_depth;
        return true;
    }
    bool key(json::string_t &k)
    {
        if (m_skipDepth > 0)
            return true;
        if (m_depth == 1) {
            if (k == "jsonrpc")
                m_field = Field::JsonRpc;
            else if (k == "id")
                m_field = Field::Id;
            else if (k == "result")
                m_field = Field::Result;
            else
                return decline(); // error, method, or something the full parser should judge
            return true;
        }
        m_field = resultField(k);
        return true;
    }
    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &)
    {
        return decline();
    }

    bool finish(qint64 requestId, const std::string &taskId)
    {
        if (m_declined || !m_sawResult || m_jsonRpc != 1 || !m_id || *m_id != requestId)
            return false;
        if (m_resultType && *m_resultType != "complete" && *m_resultType != "task")
            return false;
        if (m_state->taskId.empty() || m_state->taskId != taskId || !m_status)
            return false;
        m_state->status = *m_status;
        // The terminal shapes carry a result or error object: rare, left to the full parser.
        if (m_state->status == TaskStatus::Completed || m_state->status == TaskStatus::Failed)
            return false;
        if (m_state->status == TaskStatus::InputRequired && m_sawInputRequests)
            m_state->inputRequests = std::move(m_inputRequests);
        if (!millis(m_ttlMs, m_ttl, &m_state->ttlMs)
            || !millis(m_pollIntervalMs, m_pollInterval, &m_state->pollIntervalMs))
            return false;
        return true;
    }

private:
    enum class Kind { Null, Integer, Float, String, Other };
    struct Millis
    {
        Kind kind = Kind::Null;
        qint64 integer = 0;
        double real = 0;
    };

    static Field resultField(const std::string &k)
    {
        if (k == "taskId")
            return Field::TaskId;
        if (k == "status")
            return Field::Status;
        if (k == "statusMessage")
            return Field::StatusMessage;
        if (k == "createdAt")
            return Field::CreatedAt;
        if (k == "lastUpdatedAt")
            return Field::LastUpdatedAt;
        if (k == "resultType")
            return Field::ResultType;
        if (k == "ttlMs")
            return Field::TtlMs;
        if (k == "ttl")
            return Field::Ttl;
        if (k == "pollIntervalMs")
            return Field::PollIntervalMs;
        if (k == "pollInterval")
            return Field::PollInterval;
        if (k == "_meta")
            return Field::Meta;
        if (k == "inputRequests")
            return Field::InputRequests;
        return Field::Ignored;
    }

    // The modern spelling wins, null or absent means none, an integer or a float in [0, 9e15] is
    // taken; anything else is declined here, so that TaskState::parse reads it (it clamps or
    // ignores such a field with a warning).
    static bool millis(const std::optional<Millis> &modern, const std::optional<Millis> &legacy,
                       std::optional<qint64> *out)
    {
        const std::optional<Millis> &m = modern ? modern : legacy;
        if (!m || m->kind == Kind::Null) {
            *out = std::nullopt;
            return true;
        }
        if (m->kind == Kind::Integer && m->integer >= 0 && m->integer <= qint64(9.0e15)) {
            *out = m->integer;
            return true;
        }
        if (m->kind == Kind::Float && m->real >= 0 && m->real < 9.0e15) {
            *out = qint64(m->real);
            return true;
        }
        return false;
    }

    bool decline()
    {
        m_declined = true;
        return false; // stops the SAX walk
    }

    bool scalar(Kind kind, qint64 integer, double real, std::string_view text)
    {
        if (m_skipDepth > 0)
            return true;
        const Field field = m_field;
        m_field = Field::None;
        if (m_depth == 1) {
            switch (field) {
            case Field::JsonRpc:
                m_jsonRpc = kind == Kind::String && text == "2.0" ? 1 : 0;
                return true;
            case Field::Id:
                if (kind != Kind::Integer)
                    return decline();
                m_id = integer;
                return true;
            default:
                return decline(); // a result that is not an object
            }
        }
        if (m_depth != 2 || !m_inResult)
            return decline();
        switch (field) {
        case Field::TaskId:
            if (kind != Kind::String)
                return decline();
            m_state->taskId.assign(text);
            return true;
        case Field::Status: {
            if (kind != Kind::String)
                return decline();
            m_status = taskStatusFromString(text);
            return m_status ? true : decline();
        }
        case Field::StatusMessage:
            if (kind == Kind::String)
                m_state->statusMessage = QString::fromUtf8(text.data(), qsizetype(text.size()));
            else
                m_state->statusMessage.reset();
            return true;
        case Field::CreatedAt:
            m_state->createdAt = kind == Kind::String ? Eddy::Mcp::TaskReplyParser::parseIsoTime(text) : QDateTime();
            return true;
        case Field::LastUpdatedAt:
            m_state->lastUpdatedAt = kind == Kind::String ? Eddy::Mcp::TaskReplyParser::parseIsoTime(text)
                                                          : QDateTime();
            return true;
        case Field::ResultType:
            if (kind != Kind::String)
                return decline();
            m_resultType.emplace(text);
            return true;
        case Field::TtlMs:
            m_ttlMs = Millis{kind, integer, real};
            return true;
        case Field::Ttl:
            m_ttl = Millis{kind, integer, real};
            return true;
        case Field::PollIntervalMs:
            m_pollIntervalMs = Millis{kind, integer, real};
            return true;
        case Field::PollInterval:
            m_pollInterval = Millis{kind, integer, real};
            return true;
        case Field::InputRequests: // must be an object (null included: the full parser says why)
            return decline();
        case Field::Meta: // a non-object _meta is harmless to the task
        case Field::Ignored:
        case Field::None:
        default:
            return true;
        }
    }

    TaskState *m_state;
    int m_depth = 0;
    int m_skipDepth = 0;
    Field m_field = Field::None;
    bool m_inResult = false;
    bool m_sawResult = false;
    bool m_declined = false;
    int m_jsonRpc = -1;
    std::optional<qint64> m_id;
    std::optional<TaskStatus> m_status;
    std::optional<std::string> m_resultType;
    std::optional<Millis> m_ttlMs, m_ttl, m_pollIntervalMs, m_pollInterval;
    const char *const *m_readTo;       // how far the lexer has read the body
    const char *m_captureFrom = nullptr; // the `{` of inputRequests while inside it
    RawJson m_inputRequests;
    bool m_sawInputRequests = false;
};


bool saxParse(std::string_view body, qint64 requestId, const std::string &taskId, TaskState *state)
{
    *state = TaskState();
    const char *readTo = body.data();
    GetReplyHandler handler(state, &readTo);
    const bool parsed = json::sax_parse(TrackingIterator(body.data(), &readTo),
                                        TrackingIterator(body.data() + body.size(), &readTo),
                                        &handler, json::input_format_t::json, /*strict=*/true);
    return parsed && handler.finish(requestId, taskId);
}

// ---- The references. ----

// The deepest nesting of brackets outside strings (what exchange.cpp's tooDeep measures).
int depthOf(std::string_view body)
{
    int depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (const char c : body) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

// Where nlohmann stops reading: the first NUL byte outside a string, else the end.
size_t nulCut(std::string_view body)
{
    bool inString = false, escaped = false;
    for (size_t i = 0; i < body.size(); ++i) {
        const char c = body[i];
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '\0') {
            return i;
        }
    }
    return body.size();
}

// What client.cpp makes of a tasks/get body on its full path.
bool fullParse(const json &doc, qint64 requestId, const std::string &taskId, TaskState *state)
{
    if (!doc.is_object() || doc.value("jsonrpc", json()) != "2.0")
        return false;
    const auto id = doc.find("id");
    if (id == doc.end() || !id->is_number_integer() || id->get<qint64>() != requestId)
        return false;
    const auto result = doc.find("result");
    if (result == doc.end() || !result->is_object())
        return false;
    if (const auto rt = result->find("resultType");
        rt != result->end() && !(rt->is_string() && (*rt == "complete" || *rt == "task")))
        return false;
    *state = TaskState::parse(*result, Era::Modern, TaskState::Source::GetResult);
    return state->isValid() && state->taskId == taskId;
}

bool sameState(const TaskState &a, const TaskState &b, bool sameFormBytes)
{
    return a.taskId == b.taskId && a.status == b.status && a.statusMessage == b.statusMessage
           && a.createdAt == b.createdAt && a.createdAt.isValid() == b.createdAt.isValid()
           && a.lastUpdatedAt == b.lastUpdatedAt
           && a.lastUpdatedAt.isValid() == b.lastUpdatedAt.isValid() && a.ttlMs == b.ttlMs
           && a.pollIntervalMs == b.pollIntervalMs
           && (sameFormBytes ? a.inputRequests.text() == b.inputRequests.text()
                             : a.inputRequests == b.inputRequests)
           && a.result == b.result && a.error == b.error;
}

void checkReader(std::string_view body, const json &doc, int depth, qint64 requestId,
                 const std::string &taskId)
{
    TaskState fresh, before, full;
    const bool accepted = TaskReplyParser::parseGetResponse(body, requestId, taskId, &fresh);
    const bool acceptedBefore = saxParse(body, requestId, taskId, &before);
    FUZZ_CHECK(acceptedBefore || !accepted);
    if (acceptedBefore && !accepted) {
        const size_t cut = nulCut(body);
        TaskState prefix;
        FUZZ_CHECK(depth > JsonScanner::kMaxDepth
                   || (cut < body.size()
                       && TaskReplyParser::parseGetResponse(body.substr(0, cut), requestId, taskId, &prefix)
                       && sameState(prefix, before, true)));
        return;
    }
    if (!accepted)
        return;
    FUZZ_CHECK(sameState(fresh, before, true));
    FUZZ_CHECK(!doc.is_discarded() && fullParse(doc, requestId, taskId, &full));
    FUZZ_CHECK(sameState(fresh, full, false));
    FUZZ_CHECK(fresh.result.is_null() && fresh.error.is_null());
    FUZZ_CHECK(fresh.status != TaskStatus::Completed && fresh.status != TaskStatus::Failed);
}

// The scanner's grammar is nlohmann's, up to the depth limit and the NUL quirk; a lone string
// or number reads the same.
void checkScanner(std::string_view body, const json &doc, int depth)
{
    JsonScanner s(body);
    const bool valid = s.skipValue(0) && s.atEnd();
    const bool validBefore = json::accept(body.begin(), body.end());
    FUZZ_CHECK(validBefore || !valid);
    if (validBefore && !valid && depth <= JsonScanner::kMaxDepth) {
        const size_t cut = nulCut(body);
        JsonScanner prefix(body.substr(0, cut));
        FUZZ_CHECK(cut < body.size() && prefix.skipValue(0) && prefix.atEnd());
    }
    JsonScanner one(body);
    JsonScanner::String text;
    if (one.readString(&text) && one.atEnd()) {
        FUZZ_CHECK(doc.is_string());
        FUZZ_CHECK(JsonScanner::decode(text) == doc.get<std::string>());
        FUZZ_CHECK(JsonScanner::equals(text, doc.get<std::string>()));
    }
    JsonScanner number(body);
    JsonScanner::Number n;
    if (number.readNumber(&n) && number.atEnd()) {
        FUZZ_CHECK(doc.is_number());
        switch (n.kind) {
        case JsonScanner::Number::Kind::Integer:
            FUZZ_CHECK(doc.is_number_integer() && doc.get<std::int64_t>() == n.integer);
            break;
        case JsonScanner::Number::Kind::BigUnsigned:
            FUZZ_CHECK(doc.is_number_unsigned()
                       && doc.get<std::uint64_t>() > std::uint64_t(std::numeric_limits<std::int64_t>::max()));
            break;
        case JsonScanner::Number::Kind::Float:
            FUZZ_CHECK(doc.is_number_float() && doc.get<double>() == n.real);
            break;
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view body(reinterpret_cast<const char *>(data), size);
    const int depth = depthOf(body);
    // The reference tree (nlohmann recurses; libFuzzer's inputs are short enough for it).
    const json doc = json::parse(body.begin(), body.end(), nullptr, false);
    checkScanner(body, doc, depth);
    // The id and task the seeds use, and the ones this body names, so mutated answers still
    // reach past the envelope checks.
    checkReader(body, doc, depth, 7, "b7f3c2a9e1d04f5e8a6b");
    if (doc.is_object()) {
        const auto id = doc.find("id");
        const auto result = doc.find("result");
        if (id != doc.end() && id->is_number_integer() && result != doc.end() && result->is_object()) {
            const auto taskId = result->find("taskId");
            if (taskId != result->end() && taskId->is_string())
                checkReader(body, doc, depth, id->get<qint64>(), taskId->get<std::string>());
        }
    }
    return 0;
}
