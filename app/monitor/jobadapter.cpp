#include "app/monitor/jobadapter.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cctype>
#include <charconv>

#include <cmath>

namespace Eddy::Monitor {

using nlohmann::json;

namespace {

QString str(const json &o, const char *key)
{
    if (!o.is_object())
        return {};
    const auto it = o.find(key);
    return it != o.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                            : QString();
}

void put(json &o, const char *key, const QString &value)
{
    if (!value.isEmpty())
        o[key] = value.toStdString();
}

bool validPointer(const QString &p)
{
    if (p.isEmpty())
        return true;
    try {
        json::json_pointer ptr(p.toStdString());
        Q_UNUSED(ptr)
        return true;
    } catch (const json::exception &) {
        return false;
    }
}

const QStringList &modelStates()
{
    static const QStringList s{QStringLiteral("working"), QStringLiteral("input_required"),
                               QStringLiteral("completed"), QStringLiteral("failed"),
                               QStringLiteral("cancelled")};
    return s;
}

// RFC 6901: "~" and "/" inside a key.
QString pointerToken(const std::string &key)
{
    QString t = QString::fromStdString(key);
    t.replace(QLatin1Char('~'), QLatin1String("~0")).replace(QLatin1Char('/'), QLatin1String("~1"));
    return t;
}

// An id value as a submit answer would carry it: a number, or one word of at most 200
// characters.
bool plausibleId(const json &v)
{
    if (v.is_number_integer())
        return true;
    if (!v.is_string())
        return false;
    const std::string &s = v.get_ref<const std::string &>();
    return !s.empty() && s.size() <= 200
           && std::none_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

// The id-like field of a structuredContent, best first: the status tool's own argument name,
// then "id" inside an object ("job": {"id": ...}), then any other id-like name; nearer the top
// wins a tie. Empty when there is none.
QString idPointerIn(const json &doc, const QString &idArgument)
{
    QString best;
    int bestScore = 0;
    const auto walk = [&](const auto &self, const json &o, const QString &at, int depth) -> void {
        if (!o.is_object() || depth > 4)
            return;
        for (auto it = o.begin(); it != o.end(); ++it) {
            const QString key = QString::fromStdString(it.key());
            const QString here = at + QLatin1Char('/') + pointerToken(it.key());
            if (plausibleId(*it) && looksLikeIdName(key)) {
                const int rank = key == idArgument                               ? 3
                                 : depth > 0 && key.compare(QLatin1String("id"),
                                                            Qt::CaseInsensitive) == 0 ? 2
                                                                                      : 1;
                const int score = rank * 10 - depth;
                if (score > bestScore) {
                    best = here;
                    bestScore = score;
                }
            }
            self(self, *it, here, depth + 1);
        }
    };
    walk(walk, doc, QString(), 0);
    return best;
}

// "queued as job sim-7f3a", "Job ID: 4711": an id with at least one digit after the word "job".
const QString &jobWordRegex()
{
    static const QString re = QStringLiteral(
        "(?i)\\bjob\\b(?:[ _-]?id)?\\W+([A-Za-z0-9._:-]*[0-9][A-Za-z0-9._:-]*[A-Za-z0-9]|[0-9])");
    return re;
}

} // namespace

bool looksLikeIdName(const QString &arg)
{
    QString n = arg.toLower();
    n.remove(QLatin1Char('_')).remove(QLatin1Char('-'));
    static const QSet<QString> exact{"id", "jobid", "runid", "taskid", "handle", "task", "job",
                                     "workflowid", "executionid", "workflow", "workflowname",
                                     "uuid", "ticket", "operationid", "run", "name"};
    // "run_id", "jobId", "execution-ID" (but not "grid" or "fluid").
    const bool idSuffix = arg.endsWith(QLatin1String("_id"), Qt::CaseInsensitive)
                          || arg.endsWith(QLatin1String("-id"), Qt::CaseInsensitive)
                          || arg.endsWith(QLatin1String("Id")) || arg.endsWith(QLatin1String("ID"));
    return exact.contains(n) || (idSuffix && n.size() <= 16);
}

std::optional<JobAdapter> JobAdapter::learnedFrom(const json &result) const
{
    if (!learnJobId || !result.is_object())
        return std::nullopt;
    JobAdapter learned = *this;
    learned.learnJobId = false;
    if (const auto structured = result.find("structuredContent"); structured != result.end()) {
        const QString pointer = idPointerIn(*structured, idArgument);
        if (!pointer.isEmpty()) {
            learned.jobIdPointer = pointer;
            return learned;
        }
    }
    learned.jobIdRegex = jobWordRegex();
    if (!learned.jobIdFrom(result).isEmpty())
        return learned;
    return std::nullopt;
}

const json &jsonAt(const json &doc, const QString &pointer)
{
    // Walked token by token (RFC 6901): no json_pointer to build and no exception per lookup on
    // the status poll's path, where it runs several times for every job.
    static const json none;
    if (pointer.isEmpty())
        return doc;
    if (pointer.front() != QLatin1Char('/'))
        return none;
    const json *at = &doc;
    std::string token;
    for (qsizetype from = 1;;) {
        const qsizetype slash = pointer.indexOf(QLatin1Char('/'), from);
        const QStringView raw = QStringView(pointer).mid(from, slash < 0 ? -1 : slash - from);
        token.clear();
        if (std::all_of(raw.begin(), raw.end(), [](QChar c) { return c.unicode() < 0x80; })) {
            for (const QChar c : raw)
                token += char(c.unicode());
        } else {
            token = raw.toUtf8().toStdString();
        }
        // ~1 is "/" and ~0 is "~" (ASCII: never inside a UTF-8 sequence).
        if (token.find('~') != std::string::npos) {
            std::string plain;
            for (std::size_t i = 0; i < token.size(); ++i) {
                if (token[i] != '~') {
                    plain += token[i];
                } else if (i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
                    plain += token[i + 1] == '0' ? '~' : '/';
                    ++i;
                } else {
                    return none;
                }
            }
            token = std::move(plain);
        }
        if (at->is_object()) {
            const auto it = at->find(token);
            if (it == at->end())
                return none;
            at = &*it;
        } else if (at->is_array()) {
            std::size_t index = 0;
            const auto [end, ec]
                = std::from_chars(token.data(), token.data() + token.size(), index);
            if (token.empty() || ec != std::errc() || end != token.data() + token.size()
                || (token.size() > 1 && token[0] == '0') || index >= at->size())
                return none;
            at = &(*at)[index];
        } else {
            return none;
        }
        if (slash < 0)
            return *at;
        from = slash + 1;
    }
}

json JobAdapter::toJson() const
{
    json submit = {{"tool", submitTool.toStdString()}};
    put(submit, "jobIdPointer", jobIdPointer);
    put(submit, "jobIdRegex", jobIdRegex);
    if (learnJobId)
        submit["learnJobId"] = true;
    json status = {{"tool", statusTool.toStdString()},
                   {"idArgument", idArgument.toStdString()},
                   {"statePointer", statePointer.toStdString()}};
    put(status, "batchArgument", batchArgument);
    put(status, "batchResultPointer", batchResultPointer);
    if (canBatch())
        status["maxBatch"] = maxBatch;
    json table = json::object();
    for (const auto &[from, to] : states)
        table[from.toStdString()] = to.toStdString();
    status["states"] = table;
    put(status, "progressPointer", progressPointer);
    put(status, "messagePointer", messagePointer);
    put(status, "questionPointer", questionPointer);
    json out = {{"version", FormatVersion}, {"submit", submit}, {"status", status}};
    put(out, "cancelTool", cancelTool);
    put(out, "resultTool", resultTool);
    put(out, "answerTool", answerTool);
    out["poll"] = {{"intervalMs", pollIntervalMs},
                   {"backoff", backoff},
                   {"maxIntervalMs", maxPollIntervalMs}};
    return out;
}

std::optional<JobAdapter> JobAdapter::fromText(const QString &text, QString *error)
{
    json doc;
    try {
        doc = json::parse(text.toStdString());
    } catch (const json::parse_error &e) {
        if (error)
            *error = tr("The adapter is not valid JSON (%1). Fix the syntax and try again.")
                         .arg(QString::fromUtf8(e.what()));
        return std::nullopt;
    }
    return fromJson(doc, error);
}

std::optional<JobAdapter> JobAdapter::fromJson(const json &doc, QString *error)
{
    QStringList problems;
    JobAdapter a;
    if (!doc.is_object()) {
        if (error)
            *error = tr("The adapter must be a JSON object with \"submit\" and \"status\".");
        return std::nullopt;
    }
    if (doc.contains("version")
        && (!doc["version"].is_number_integer() || doc["version"].get<int>() != FormatVersion))
        problems << tr("\"version\" must be %1 (the only adapter format this Eddy reads).")
                        .arg(FormatVersion);
    const json submit = doc.value("submit", json());
    const json status = doc.value("status", json());
    a.submitTool = str(submit, "tool");
    if (a.submitTool.isEmpty())
        problems << tr("\"submit.tool\" is missing: name the tool that starts a job.");
    a.jobIdPointer = str(submit, "jobIdPointer");
    a.jobIdRegex = str(submit, "jobIdRegex");
    if (a.jobIdPointer.isEmpty() && a.jobIdRegex.isEmpty())
        problems << tr("\"submit\" needs \"jobIdPointer\" (a JSON pointer into "
                       "structuredContent, e.g. \"/job_id\") or \"jobIdRegex\" (over the text).");
    if (submit.is_object() && submit.contains("learnJobId")) {
        if (!submit["learnJobId"].is_boolean())
            problems << tr("\"submit.learnJobId\" must be true or false.");
        else
            a.learnJobId = submit["learnJobId"].get<bool>();
    }
    if (!validPointer(a.jobIdPointer))
        problems << tr("\"submit.jobIdPointer\" is not a JSON pointer: it must start with \"/\".");
    if (!a.jobIdRegex.isEmpty() && !QRegularExpression(a.jobIdRegex).isValid())
        problems << tr("\"submit.jobIdRegex\" is not a valid regular expression: %1.")
                        .arg(QRegularExpression(a.jobIdRegex).errorString());
    a.statusTool = str(status, "tool");
    if (a.statusTool.isEmpty())
        problems << tr("\"status.tool\" is missing: name the tool that reports a job's state.");
    a.idArgument = str(status, "idArgument");
    if (a.idArgument.isEmpty())
        problems << tr("\"status.idArgument\" is missing: name the argument that takes the job "
                       "id (e.g. \"job_id\").");
    a.batchArgument = str(status, "batchArgument");
    a.batchResultPointer = str(status, "batchResultPointer");
    if (a.batchArgument.isEmpty() != a.batchResultPointer.isEmpty())
        problems << tr("\"status.batchArgument\" and \"status.batchResultPointer\" go together: "
                       "give both (batched polling) or neither.");
    if (status.is_object() && status.contains("maxBatch")) {
        if (!status["maxBatch"].is_number_integer() || status["maxBatch"].get<int>() < 1)
            problems << tr("\"status.maxBatch\" must be a whole number of at least 1.");
        else
            a.maxBatch = status["maxBatch"].get<int>();
    }
    if (status.is_object() && status.contains("statePointer"))
        a.statePointer = str(status, "statePointer");
    a.progressPointer = str(status, "progressPointer");
    a.messagePointer = str(status, "messagePointer");
    a.questionPointer = str(status, "questionPointer");
    for (const auto &[name, value] :
         {std::pair{"status.statePointer", a.statePointer},
          std::pair{"status.batchResultPointer", a.batchResultPointer},
          std::pair{"status.progressPointer", a.progressPointer},
          std::pair{"status.messagePointer", a.messagePointer},
          std::pair{"status.questionPointer", a.questionPointer}}) {
        if (!validPointer(value))
            problems << tr("\"%1\" is not a JSON pointer: it must start with \"/\".")
                            .arg(QLatin1String(name));
    }
    const json table = status.is_object() ? status.value("states", json()) : json();
    if (!table.is_object() || table.empty()) {
        problems << tr("\"status.states\" is missing: map each state the server reports "
                       "(e.g. \"running\") onto working, input_required, completed, failed or "
                       "cancelled.");
    } else {
        bool hasCompleted = false;
        for (auto it = table.begin(); it != table.end(); ++it) {
            const QString to = it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                : QString();
            if (!modelStates().contains(to)) {
                problems << tr("\"status.states\" maps \"%1\" onto \"%2\": use one of %3.")
                                .arg(QString::fromStdString(it.key()), to,
                                     modelStates().join(QLatin1String(", ")));
                continue;
            }
            hasCompleted = hasCompleted || to == QLatin1String("completed");
            a.states[QString::fromStdString(it.key()).toLower()] = to;
        }
        if (!hasCompleted)
            problems << tr("\"status.states\" maps nothing onto \"completed\": Eddy would never "
                           "see a job finish.");
    }
    a.cancelTool = str(doc, "cancelTool");
    a.resultTool = str(doc, "resultTool");
    a.answerTool = str(doc, "answerTool");
    if (!a.answerTool.isEmpty() && a.questionPointer.isEmpty())
        problems << tr("\"answerTool\" needs \"status.questionPointer\": where the status "
                       "answer holds the question to answer.");
    const json poll = doc.value("poll", json::object());
    if (poll.contains("intervalMs")) {
        if (!poll["intervalMs"].is_number_integer() || poll["intervalMs"].get<int>() < 100)
            problems << tr("\"poll.intervalMs\" must be a whole number of at least 100 (ms).");
        else
            a.pollIntervalMs = poll["intervalMs"].get<int>();
    }
    if (poll.contains("backoff")) {
        if (!poll["backoff"].is_number() || poll["backoff"].get<double>() < 1.0
            || poll["backoff"].get<double>() > 10.0)
            problems << tr("\"poll.backoff\" must be a number from 1 (no backoff) to 10.");
        else
            a.backoff = poll["backoff"].get<double>();
    }
    if (poll.contains("maxIntervalMs")) {
        if (!poll["maxIntervalMs"].is_number_integer())
            problems << tr("\"poll.maxIntervalMs\" must be a whole number (ms).");
        else
            a.maxPollIntervalMs = poll["maxIntervalMs"].get<int>();
    }
    if (a.maxPollIntervalMs < a.pollIntervalMs)
        problems << tr("\"poll.maxIntervalMs\" must be at least \"poll.intervalMs\".");
    if (!problems.isEmpty()) {
        if (error)
            *error = problems.join(QLatin1Char('\n'));
        return std::nullopt;
    }
    return a;
}

QString JobAdapter::jobIdFrom(const json &result) const
{
    if (!result.is_object())
        return {};
    if (const auto structured = result.find("structuredContent");
        !jobIdPointer.isEmpty() && structured != result.end()) {
        const json &v = jsonAt(*structured, jobIdPointer);
        if (v.is_string())
            return QString::fromStdString(v.get<std::string>());
        if (v.is_number_integer())
            return QString::number(v.get<qint64>());
    }
    if (!jobIdRegex.isEmpty()) {
        const QRegularExpression re(jobIdRegex);
        for (const json &c : result.value("content", json::array())) {
            if (!c.is_object() || c.value("type", "") != "text")
                continue;
            const auto m = re.match(QString::fromStdString(c.value("text", "")));
            if (m.hasMatch())
                return m.lastCapturedIndex() >= 1 ? m.captured(1) : m.captured(0);
        }
    }
    return {};
}

const json &JobAdapter::statusPayload(const json &result, json &parsed) const
{
    static const json none;
    if (!result.is_object())
        return none;
    if (const auto it = result.find("structuredContent"); it != result.end() && !it->is_null())
        return *it;
    const auto content = result.find("content");
    if (content == result.end() || !content->is_array())
        return none;
    for (const json &c : *content) {
        const auto type = c.is_object() ? c.find("type") : c.end();
        const auto text = c.is_object() ? c.find("text") : c.end();
        if (type == c.end() || *type != "text" || text == c.end() || !text->is_string())
            continue;
        parsed = json::parse(text->get_ref<const std::string &>(), nullptr, false);
        if (!parsed.is_discarded())
            return parsed;
    }
    parsed = json();
    return parsed;
}

JobAdapter::Status JobAdapter::mapStatus(const json &o) const
{
    Status s;
    const json &state = jsonAt(o, statePointer);
    s.rawState = state.is_string() ? QString::fromStdString(state.get_ref<const std::string &>())
                                   : QString();
    const auto it = states.find(s.rawState.toLower());
    if (it != states.end())
        s.status = Mcp::taskStatusFromString(it->second.toStdString())
                       .value_or(Mcp::TaskStatus::Working);
    if (!progressPointer.isEmpty()) {
        const json &p = jsonAt(o, progressPointer);
        if (p.is_number()) {
            double f = p.get<double>();
            if (f > 1.0)
                f /= 100.0;
            if (std::isfinite(f))
                s.progress = std::clamp(f, 0.0, 1.0);
        }
    }
    if (!messagePointer.isEmpty()) {
        const json &m = jsonAt(o, messagePointer);
        if (m.is_string())
            s.message = QString::fromStdString(m.get_ref<const std::string &>());
    }
    if (s.message.isEmpty())
        s.message = s.rawState;
    if (s.progress && !s.message.contains(QLatin1Char('%')))
        s.message = QStringLiteral("%1 % %2")
                        .arg(qRound(*s.progress * 100))
                        .arg(s.message)
                        .trimmed();
    if (s.status == Mcp::TaskStatus::InputRequired && !questionPointer.isEmpty()) {
        const json &q = jsonAt(o, questionPointer);
        if (q.is_object())
            s.question = q;
    }
    return s;
}

json JobAdapter::statusArguments(const QStringList &jobIds) const
{
    if (jobIds.size() == 1 || !canBatch())
        return idArguments(jobIds.value(0));
    json ids = json::array();
    for (const QString &id : jobIds)
        ids.push_back(id.toStdString());
    return {{batchArgument.toStdString(), ids}};
}

json JobAdapter::idArguments(const QString &jobId) const
{
    return {{idArgument.toStdString(), jobId.toStdString()}};
}

int JobAdapter::nextIntervalMs(int currentMs) const
{
    const double next = std::max(currentMs, pollIntervalMs) * backoff;
    return int(std::min<double>(next, maxPollIntervalMs));
}

} // namespace Eddy::Monitor
