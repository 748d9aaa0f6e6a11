#include "app/monitor/adapterproposal.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace Eddy::Monitor {

using nlohmann::json;

namespace {

enum class Family { None, Submit, Status, Cancel, Result, Answer };

// "submitCfdCase", "get-job.status", "squeue" -> lower-case words.
QStringList words(const QString &name)
{
    QString spaced;
    for (int i = 0; i < name.size(); ++i) {
        const QChar c = name.at(i);
        if (c.isUpper() && i > 0 && name.at(i - 1).isLower())
            spaced += QLatin1Char(' ');
        spaced += c.isLetterOrNumber() ? c.toLower() : QChar(QLatin1Char(' '));
    }
    return spaced.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

const QSet<QString> &verbsOf(Family f)
{
    static const QSet<QString> submit{"submit", "start", "run", "launch", "create", "queue",
                                      "enqueue", "sbatch", "schedule", "trigger", "begin"};
    static const QSet<QString> status{"status", "state", "poll", "check", "squeue", "progress",
                                      "describe", "info", "inspect", "watch"};
    static const QSet<QString> cancel{"cancel", "kill", "stop", "abort", "terminate", "scancel",
                                      "halt", "delete"};
    static const QSet<QString> result{"result", "results", "output", "outputs", "fetch",
                                      "download", "collect", "artifacts", "logs"};
    static const QSet<QString> answer{"answer", "respond", "reply", "provide", "input"};
    static const QSet<QString> none;
    switch (f) {
    case Family::Submit: return submit;
    case Family::Status: return status;
    case Family::Cancel: return cancel;
    case Family::Result: return result;
    case Family::Answer: return answer;
    case Family::None: break;
    }
    return none;
}

// Words that say nothing about which thing a tool works on.
const QSet<QString> &fillers()
{
    static const QSet<QString> s{"get", "the", "a", "of", "for", "to", "job", "jobs", "my",
                                 "by", "id", "list", "read", "show", "new"};
    return s;
}

struct ToolInfo
{
    QString name;
    QStringList words;
    QString description;
    json input;
    json output;
    QStringList idArgs;      // id-like string arguments
    QStringList requiredArgs;
    QString arrayIdArg;      // an array argument of ids (batch)
};

ToolInfo info(const json &t)
{
    ToolInfo i;
    i.name = QString::fromStdString(t.value("name", ""));
    i.words = words(i.name);
    i.description = QString::fromStdString(t.value("description", "")).toLower();
    i.input = t.value("inputSchema", json::object());
    i.output = t.value("outputSchema", json());
    for (const json &r : i.input.value("required", json::array()))
        if (r.is_string())
            i.requiredArgs << QString::fromStdString(r.get<std::string>());
    const json props = i.input.value("properties", json::object());
    if (props.is_object()) {
        for (auto it = props.begin(); it != props.end(); ++it) {
            const QString arg = QString::fromStdString(it.key());
            const std::string type = it->is_object() ? it->value("type", "") : "";
            if (type == "array" && looksLikeIdName(arg.endsWith(QLatin1Char('s')) ? arg.chopped(1) : arg))
                i.arrayIdArg = arg;
            else if ((type.empty() || type == "string" || type == "integer") && looksLikeIdName(arg))
                i.idArgs << arg;
        }
    }
    // Prefer the required id argument, then the most specific name ("job_id" over "name").
    std::stable_sort(i.idArgs.begin(), i.idArgs.end(), [&](const QString &a, const QString &b) {
        const bool ra = i.requiredArgs.contains(a), rb = i.requiredArgs.contains(b);
        if (ra != rb)
            return ra;
        const auto rank = [](const QString &s) {
            const QString l = s.toLower();
            return l == QLatin1String("name") ? 2 : l == QLatin1String("id") ? 1 : 0;
        };
        return rank(a) < rank(b);
    });
    return i;
}

bool inFamily(const ToolInfo &t, Family f)
{
    const QSet<QString> &verbs = verbsOf(f);
    for (const QString &w : t.words)
        if (verbs.contains(w))
            return true;
    return false;
}

// The words that name what the tool works on ("cfd", "case").
QSet<QString> subject(const ToolInfo &t)
{
    QSet<QString> s;
    for (const QString &w : t.words) {
        bool verb = fillers().contains(w);
        for (Family f : {Family::Submit, Family::Status, Family::Cancel, Family::Result,
                         Family::Answer})
            verb = verb || verbsOf(f).contains(w);
        if (!verb)
            s.insert(w);
    }
    return s;
}

// Properties of an output schema (object), or empty.
json outputProps(const ToolInfo &t)
{
    return t.output.is_object() ? t.output.value("properties", json::object()) : json::object();
}

QString firstProp(const json &props, const QStringList &names)
{
    if (!props.is_object())
        return {};
    for (const QString &n : names)
        if (props.contains(n.toStdString()))
            return n;
    return {};
}

QString mapWord(const QString &state)
{
    static const QHash<QString, QString> words{
        {"queued", "working"}, {"pending", "working"}, {"submitted", "working"},
        {"waiting", "working"}, {"running", "working"}, {"working", "working"},
        {"in_progress", "working"}, {"inprogress", "working"}, {"started", "working"},
        {"configuring", "working"}, {"completing", "working"}, {"scheduled", "working"},
        {"active", "working"}, {"suspended", "working"}, {"held", "working"},
        {"input_required", "input_required"}, {"needs_input", "input_required"},
        {"awaiting_input", "input_required"}, {"waiting_for_input", "input_required"},
        {"completed", "completed"}, {"complete", "completed"}, {"succeeded", "completed"},
        {"success", "completed"}, {"successful", "completed"}, {"done", "completed"},
        {"finished", "completed"},
        {"failed", "failed"}, {"failure", "failed"}, {"error", "failed"},
        {"errored", "failed"}, {"timeout", "failed"}, {"node_fail", "failed"},
        {"out_of_memory", "failed"}, {"boot_fail", "failed"}, {"deadline", "failed"},
        {"preempted", "failed"},
        {"cancelled", "cancelled"}, {"canceled", "cancelled"}, {"killed", "cancelled"},
        {"aborted", "cancelled"}, {"stopped", "cancelled"}, {"terminated", "cancelled"},
        {"revoked", "cancelled"}};
    return words.value(state.toLower());
}

int pairScore(const ToolInfo &submit, const ToolInfo &other, const QString &idArg)
{
    int score = 0;
    const QSet<QString> a = subject(submit), b = subject(other);
    score += 3 * int(QSet<QString>(a).intersect(b).size());
    if (!a.isEmpty() && a == b)
        score += 2;
    if (other.requiredArgs.contains(idArg))
        score += 2;
    // The submit tool names its id argument in its output schema or description.
    if (outputProps(submit).contains(idArg.toStdString())
        || submit.description.contains(idArg.toLower()))
        score += 3;
    if (other.description.contains(QString::fromStdString(submit.name.toStdString()).toLower()))
        score += 2;
    return score;
}

} // namespace

AdapterProposal AdapterProposer::propose(const json &tools)
{
    AdapterProposal p;
    QList<ToolInfo> all;
    for (const json &t : tools.is_array() ? tools : json::array())
        if (t.is_object() && t.contains("name"))
            all << info(t);

    QList<ToolInfo> submits, statuses;
    for (const ToolInfo &t : std::as_const(all)) {
        // A submit tool starts a job: it does not take an existing job's id.
        const bool takesId = std::any_of(t.idArgs.begin(), t.idArgs.end(), [&](const QString &a) {
            return t.requiredArgs.contains(a) && a.toLower() != QLatin1String("name");
        });
        if (inFamily(t, Family::Submit) && !takesId && !inFamily(t, Family::Status))
            submits << t;
        else if (inFamily(t, Family::Status) && !t.idArgs.isEmpty())
            statuses << t;
    }
    if (submits.isEmpty()) {
        p.reason = tr("No tool looks like a submit tool (submit, start, run, launch... that "
                      "takes no job id): write an adapter by hand and store it with "
                      "'eddyctl adapter set'.");
        return p;
    }
    if (statuses.isEmpty()) {
        QStringList names;
        for (const ToolInfo &s : std::as_const(submits))
            names << s.name;
        p.reason = tr("The server offers %1 but no status tool (status, state, poll, check...) "
                      "that takes a job id, so Eddy cannot follow a job; without one, a call "
                      "can only be made and waited for.")
                       .arg(names.join(QLatin1String(", ")));
        return p;
    }

    struct Pair
    {
        int submit;
        int status;
        QString idArg;
        int score;
    };
    QList<Pair> pairs;
    for (int s = 0; s < submits.size(); ++s)
        for (int t = 0; t < statuses.size(); ++t)
            for (const QString &arg : statuses[t].idArgs)
                pairs << Pair{s, t, arg, pairScore(submits[s], statuses[t], arg)};
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const Pair &a, const Pair &b) { return a.score > b.score; });
    const Pair best = pairs.first();
    const ToolInfo &submit = submits[best.submit];
    const ToolInfo &status = statuses[best.status];

    JobAdapter a;
    a.submitTool = submit.name;
    a.statusTool = status.name;
    a.idArgument = best.idArg;
    p.confidence = 0.5;
    p.why << tr("'%1' starts a job and '%2' reports on one by '%3'.")
                 .arg(submit.name, status.name, best.idArg);
    if (!subject(submit).isEmpty() && subject(submit) == subject(status))
        p.confidence += 0.15;

    // Where the job id is in the submit result.
    const json submitOut = outputProps(submit);
    QString idField;
    if (submitOut.is_object()) {
        for (auto it = submitOut.begin(); it != submitOut.end(); ++it) {
            const QString k = QString::fromStdString(it.key());
            if (k == best.idArg || (idField.isEmpty() && looksLikeIdName(k)))
                idField = k;
        }
    }
    if (!idField.isEmpty()) {
        p.confidence += 0.1;
        p.why << tr("Its output schema names the job id '%1'.").arg(idField);
    } else {
        idField = best.idArg;
        a.learnJobId = true;
        p.why << tr("No output schema names the job id: Eddy reads structuredContent.%1, or "
                    "else the first id after \"%1\" or \"id\" in the text. If the first "
                    "submit's answer has neither, Eddy finds the id in it and stores where.")
                     .arg(idField);
    }
    a.jobIdPointer = QLatin1Char('/') + idField;
    a.jobIdRegex = QStringLiteral("(?:%1|job[ _-]?id|\\bid)\\W+([A-Za-z0-9](?:[A-Za-z0-9._:-]*[A-Za-z0-9])?)")
                       .arg(QRegularExpression::escape(idField));

    // The status answer.
    const json statusOut = outputProps(status);
    const QString batchList = firstProp(statusOut, {"jobs", "results", "items", "statuses"});
    if (!status.arrayIdArg.isEmpty()) {
        a.batchArgument = status.arrayIdArg;
        a.batchResultPointer = QLatin1Char('/')
                               + (batchList.isEmpty() ? QStringLiteral("jobs") : batchList);
        p.why << tr("'%1' takes several ids at once in '%2': status polls are batched.")
                     .arg(status.name, a.batchArgument);
        if (batchList.isEmpty())
            p.why << tr("The batch answer's list is assumed at '%1' (no output schema says).")
                         .arg(a.batchResultPointer);
    }
    const QString stateField = firstProp(statusOut, {"state", "status", "phase", "job_state",
                                                      "jobState", "State", "Status", "Phase"});
    QString stateKey = stateField;
    if (stateKey.isEmpty()) {
        // Argo-like servers say "phase" in their descriptions.
        stateKey = status.description.contains(QLatin1String("phase")) ? QStringLiteral("phase")
                   : status.description.contains(QLatin1String("state")) ? QStringLiteral("state")
                                                                          : QStringLiteral("status");
        p.why << tr("No output schema names the state field: Eddy assumes '%1'.").arg(stateKey);
    } else {
        p.confidence += 0.1;
    }
    a.statePointer = QLatin1Char('/') + stateKey;
    // The state table: the schema's enum where there is one, over a table of common words.
    for (const char *w : {"queued", "pending", "running", "completed", "succeeded", "done",
                          "failed", "error", "timeout", "cancelled", "canceled", "killed",
                          "input_required"})
        a.states[QLatin1String(w)] = mapWord(QLatin1String(w));
    const json stateEnum = stateField.isEmpty() || !statusOut[stateField.toStdString()].is_object()
                               ? json()
                               : statusOut[stateField.toStdString()].value("enum", json());
    for (const json &v : stateEnum.is_array() ? stateEnum : json::array()) {
        if (!v.is_string())
            continue;
        const QString s = QString::fromStdString(v.get<std::string>());
        const QString to = mapWord(s);
        if (to.isEmpty()) {
            p.why << tr("The state '%1' is not a word Eddy knows: it counts as working; edit "
                        "\"status.states\" if it means an end.")
                         .arg(s);
            p.confidence -= 0.05;
        } else {
            a.states[s.toLower()] = to;
        }
    }
    const QString progressField = firstProp(statusOut, {"progress", "percent", "fraction",
                                                        "percent_complete", "percentComplete"});
    a.progressPointer = QLatin1Char('/')
                        + (progressField.isEmpty() ? QStringLiteral("progress") : progressField);
    const QString messageField = firstProp(statusOut, {"message", "status_message",
                                                       "statusMessage", "detail", "details"});
    a.messagePointer = QLatin1Char('/')
                       + (messageField.isEmpty() ? QStringLiteral("message") : messageField);
    const QString questionField = firstProp(statusOut, {"question", "input_request",
                                                        "inputRequest", "prompt"});

    // The optional tools: the best-matching tool of each family taking the same id argument.
    const auto pick = [&](Family f) -> QString {
        int bestScore = -1;
        QString name;
        for (const ToolInfo &t : std::as_const(all)) {
            if (t.name == submit.name || t.name == status.name || !inFamily(t, f)
                || !t.idArgs.contains(best.idArg))
                continue;
            const int score = pairScore(submit, t, best.idArg);
            if (score > bestScore) {
                bestScore = score;
                name = t.name;
            }
        }
        return name;
    };
    a.cancelTool = pick(Family::Cancel);
    a.resultTool = pick(Family::Result);
    const QString answer = pick(Family::Answer);
    if (!a.cancelTool.isEmpty()) {
        p.confidence += 0.05;
        p.why << tr("'%1' cancels a job.").arg(a.cancelTool);
    } else {
        p.why << tr("No cancel tool: Eddy cannot stop a job on this server.");
    }
    if (!a.resultTool.isEmpty()) {
        p.confidence += 0.05;
        p.why << tr("'%1' fetches a finished job's result.").arg(a.resultTool);
    } else {
        p.why << tr("No result tool: the last status answer is the result.");
    }
    if (!answer.isEmpty() && !questionField.isEmpty()) {
        a.answerTool = answer;
        a.questionPointer = QLatin1Char('/') + questionField;
        p.why << tr("'%1' answers the question at '%2' of an input_required job.")
                     .arg(answer, a.questionPointer);
    } else if (!answer.isEmpty()) {
        p.why << tr("'%1' looks like an answer tool, but no status field holds a question: set "
                    "\"answerTool\" and \"status.questionPointer\" by hand.")
                     .arg(answer);
    }

    // Doubts: another pairing nearly as good.
    for (int i = 1; i < pairs.size(); ++i) {
        const Pair &o = pairs[i];
        if (o.score < best.score - 1)
            break;
        if (o.submit == best.submit && o.status == best.status)
            continue;
        p.confidence -= 0.15;
        p.why << tr("Ambiguous: '%1' with '%2' fits almost as well; edit the adapter if that is "
                    "the pair you use.")
                     .arg(submits[o.submit].name, statuses[o.status].name);
    }
    p.confidence = std::clamp(p.confidence, 0.05, 1.0);
    p.adapter = a;
    return p;
}

} // namespace Eddy::Monitor
