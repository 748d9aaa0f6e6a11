#include "app/mcp/taskreplyparser.h"

#include "app/mcp/jsonscanner.h"

#include <optional>
#include <utility>

namespace Eddy::Mcp {

namespace {

enum class Kind { Null, Integer, Float, String, Other };

// A member's value when it is not an object or array.
struct Scalar
{
    Kind kind = Kind::Null;
    qint64 integer = 0;
    double real = 0;
    JsonScanner::String text;
};

struct Millis
{
    Kind kind = Kind::Null;
    qint64 integer = 0;
    double real = 0;
};

enum class Field {
    TaskId, Status, StatusMessage, CreatedAt, LastUpdatedAt, ResultType,
    TtlMs, Ttl, PollIntervalMs, PollInterval, Meta, InputRequests, Ignored,
};

// The text of a string value: the bytes themselves unless it has escapes.
std::string_view textOf(const JsonScanner::String &s, std::string *buffer)
{
    if (!s.hasEscapes)
        return s.raw;
    *buffer = JsonScanner::decode(s);
    return *buffer;
}

Field resultField(const JsonScanner::String &key)
{
    // Keys are compared as text, so an escaped spelling ("task\u0049d") is the same key.
    std::string buffer;
    const std::string_view k = textOf(key, &buffer);
    static constexpr std::pair<std::string_view, Field> kFields[] = {
        {"taskId", Field::TaskId},
        {"status", Field::Status},
        {"statusMessage", Field::StatusMessage},
        {"createdAt", Field::CreatedAt},
        {"lastUpdatedAt", Field::LastUpdatedAt},
        {"resultType", Field::ResultType},
        {"ttlMs", Field::TtlMs},
        {"ttl", Field::Ttl},
        {"pollIntervalMs", Field::PollIntervalMs},
        {"pollInterval", Field::PollInterval},
        {"_meta", Field::Meta},
        {"inputRequests", Field::InputRequests},
    };
    for (const auto &[name, field] : kFields)
        if (k == name)
            return field;
    return Field::Ignored;
}

// Reads a scalar member value. False for malformed text, for an object or array, and for an
// integer above INT64_MAX: nlohmann keeps that as unsigned, which the full parser judges.
bool readScalar(JsonScanner &s, Scalar *out)
{
    const char c = s.peek();
    if (c == '"') {
        out->kind = Kind::String;
        return s.readString(&out->text);
    }
    if (c == 't' || c == 'f' || c == 'n') {
        out->kind = c == 'n' ? Kind::Null : Kind::Other;
        return s.readLiteral();
    }
    JsonScanner::Number n;
    if (!s.readNumber(&n) || n.kind == JsonScanner::Number::Kind::BigUnsigned)
        return false;
    out->kind = n.kind == JsonScanner::Number::Kind::Float ? Kind::Float : Kind::Integer;
    out->integer = n.integer;
    out->real = n.real;
    return true;
}

// The modern spelling wins, null or absent means none, an integer or a float in [0, 9e15] is
// taken; anything else is declined here, so that TaskState::parse reads it (it clamps or
// ignores such a field with a warning).
bool millis(const std::optional<Millis> &modern, const std::optional<Millis> &legacy,
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

// One tasks/get answer, read in a single pass: the JSON-RPC envelope (depth 1), the result
// object (depth 2), whose `_meta` and `inputRequests` objects are validated and skipped, the
// latter kept as its span of the body. Anything outside that shape declines.
class GetReplyReader final
{
public:
    explicit GetReplyReader(TaskState *state)
        : m_state(state)
    {}

    bool read(std::string_view body)
    {
        JsonScanner s(body);
        if (!s.consume('{'))
            return false;
        if (!s.consume('}')) {
            do {
                JsonScanner::String key;
                if (!s.readString(&key) || !s.consume(':') || !envelopeMember(s, key))
                    return false;
            } while (s.consume(','));
            if (!s.consume('}'))
                return false;
        }
        return s.atEnd();
    }

    bool finish(qint64 requestId, std::string_view taskId)
    {
        if (!m_sawResult || m_jsonRpc != 1 || !m_id || *m_id != requestId)
            return false;
        if (m_resultType && *m_resultType != "complete" && *m_resultType != "task")
            return false;
        if (m_state->taskId.empty() || m_state->taskId != taskId || !m_status)
            return false;
        m_state->status = *m_status;
        // The terminal shapes carry a result or error object: rare, left to the full parser.
        if (m_state->status == TaskStatus::Completed || m_state->status == TaskStatus::Failed)
            return false;
        if (m_state->status == TaskStatus::InputRequired && m_inputRequests)
            m_state->inputRequests = RawJson::fromText(*m_inputRequests);
        return millis(m_ttlMs, m_ttl, &m_state->ttlMs)
               && millis(m_pollIntervalMs, m_pollInterval, &m_state->pollIntervalMs);
    }

private:
    bool envelopeMember(JsonScanner &s, const JsonScanner::String &key)
    {
        if (JsonScanner::equals(key, "result")) {
            // A repeated result is left to the full parser, which decides which one wins.
            if (m_sawResult || !s.consume('{'))
                return false;
            m_sawResult = true;
            return resultMembers(s);
        }
        const bool isJsonRpc = JsonScanner::equals(key, "jsonrpc");
        if (!isJsonRpc && !JsonScanner::equals(key, "id"))
            return false; // error, method, or anything else the full parser should judge
        Scalar v;
        if (!readScalar(s, &v))
            return false;
        if (isJsonRpc) {
            m_jsonRpc = v.kind == Kind::String && JsonScanner::equals(v.text, "2.0") ? 1 : 0;
            return true;
        }
        if (v.kind != Kind::Integer)
            return false;
        m_id = v.integer;
        return true;
    }

    // The result object's members, its `{` already read.
    bool resultMembers(JsonScanner &s)
    {
        if (s.consume('}'))
            return true;
        do {
            JsonScanner::String key;
            if (!s.readString(&key) || !s.consume(':'))
                return false;
            const Field field = resultField(key);
            const char c = s.peek();
            if (c == '{') {
                const char *from = s.position();
                if (field != Field::Meta && field != Field::InputRequests)
                    return false; // a nested task, an inline result or error: the full parser's
                if (!s.skipValue(2))
                    return false;
                if (field == Field::InputRequests)
                    m_inputRequests.emplace(from, size_t(s.position() - from));
            } else if (c == '[') {
                return false;
            } else {
                Scalar v;
                if (!readScalar(s, &v) || !resultScalar(field, v))
                    return false;
            }
        } while (s.consume(','));
        return s.consume('}');
    }

    bool resultScalar(Field field, const Scalar &v)
    {
        std::string buffer;
        switch (field) {
        case Field::TaskId:
            if (v.kind != Kind::String)
                return false;
            m_state->taskId.assign(textOf(v.text, &buffer));
            return true;
        case Field::Status:
            m_status = v.kind == Kind::String ? taskStatusFromString(textOf(v.text, &buffer))
                                              : std::nullopt;
            return m_status.has_value();
        case Field::StatusMessage:
            if (v.kind == Kind::String) {
                const std::string_view text = textOf(v.text, &buffer);
                m_state->statusMessage = QString::fromUtf8(text.data(), qsizetype(text.size()));
            } else {
                m_state->statusMessage.reset();
            }
            return true;
        case Field::CreatedAt:
        case Field::LastUpdatedAt:
            (field == Field::CreatedAt ? m_state->createdAt : m_state->lastUpdatedAt)
                = v.kind == Kind::String ? TaskReplyParser::parseIsoTime(textOf(v.text, &buffer))
                                         : QDateTime();
            return true;
        case Field::ResultType:
            if (v.kind != Kind::String)
                return false;
            m_resultType.emplace(textOf(v.text, &buffer));
            return true;
        case Field::TtlMs:
            m_ttlMs = Millis{v.kind, v.integer, v.real};
            return true;
        case Field::Ttl:
            m_ttl = Millis{v.kind, v.integer, v.real};
            return true;
        case Field::PollIntervalMs:
            m_pollIntervalMs = Millis{v.kind, v.integer, v.real};
            return true;
        case Field::PollInterval:
            m_pollInterval = Millis{v.kind, v.integer, v.real};
            return true;
        case Field::InputRequests: // must be an object (null included: the full parser says why)
            return false;
        case Field::Meta: // a non-object _meta is harmless to the task
        case Field::Ignored:
            return true;
        }
        return true;
    }

    TaskState *m_state;
    bool m_sawResult = false;
    int m_jsonRpc = -1;
    std::optional<qint64> m_id;
    std::optional<TaskStatus> m_status;
    std::optional<std::string> m_resultType;
    std::optional<Millis> m_ttlMs, m_ttl, m_pollIntervalMs, m_pollInterval;
    std::optional<std::string_view> m_inputRequests; // the last inputRequests object's bytes
};

int digits(std::string_view s, size_t at, size_t count, bool *ok)
{
    int v = 0;
    for (size_t i = at; i < at + count; ++i) {
        const char c = s[i];
        if (c < '0' || c > '9') {
            *ok = false;
            return 0;
        }
        v = v * 10 + (c - '0');
    }
    return v;
}

} // namespace

QDateTime TaskReplyParser::parseIsoTime(std::string_view s)
{
    // 2026-11-29T23:38:18Z or 2026-11-29T23:38:18.123Z
    const bool withMs = s.size() == 24 && s[19] == '.';
    if ((s.size() == 20 || withMs) && s[4] == '-' && s[7] == '-' && s[10] == 'T' && s[13] == ':'
        && s[16] == ':' && s.back() == 'Z') {
        bool ok = true;
        const int year = digits(s, 0, 4, &ok), month = digits(s, 5, 2, &ok),
                  day = digits(s, 8, 2, &ok);
        const int hour = digits(s, 11, 2, &ok), minute = digits(s, 14, 2, &ok),
                  second = digits(s, 17, 2, &ok), ms = withMs ? digits(s, 20, 3, &ok) : 0;
        const QDate date(year, month, day);
        const QTime time(hour, minute, second, ms);
        if (ok && date.isValid() && time.isValid())
            return QDateTime(date, time, Qt::UTC);
    }
    return QDateTime::fromString(QString::fromUtf8(s.data(), qsizetype(s.size())),
                                 Qt::ISODateWithMs);
}

bool TaskReplyParser::parseGetResponse(std::string_view body, qint64 requestId,
                                       std::string_view taskId, TaskState *state)
{
    *state = TaskState();
    GetReplyReader reader(state);
    return reader.read(body) && reader.finish(requestId, taskId);
}

} // namespace Eddy::Mcp
