#include "app/cli/taskcommands.h"

#include "app/cli/ctl_p.h"
#include "app/cli/invocation.h"

#include "app/monitor/heaptrim.h"
#include "app/monitor/review.h"

namespace Eddy::Cli {

namespace {

// The text parts of a CallToolResult, on one line and cut short: the whole answer stays stored
// with the task (eddyctl result shows it), so a flood from the server does not fill the terminal.
QString resultText(const QString &resultJson)
{
    const json result = parseJsonText(resultJson);
    QStringList parts;
    if (result.is_object() && result.contains("content") && result["content"].is_array())
        for (const json &c : result["content"])
            if (c.is_object() && c.value("type", std::string()) == "text")
                parts << Json::string(c, "text").simplified();
    QString text = parts.join(QLatin1Char(' ')).trimmed();
    if (text.size() > 500)
        text = text.left(500) + QStringLiteral("...");
    return text.isEmpty() ? QStringLiteral("(the server gave no text)") : text;
}

} // namespace

TaskCommands::TaskCommands(Invocation &run)
    : m_run(run)
{}

void TaskCommands::sweepSubmit()
{
    if (m_run.args().size() != 4 || m_run.args()[1] != QLatin1String("submit"))
        return m_run.fail(
            QStringLiteral("usage: eddyctl sweep submit URL SPEC.json [--session NAME]"), Usage);
    QFile f(m_run.args()[3]);
    if (!f.open(QIODevice::ReadOnly))
        return m_run.fail(QStringLiteral("cannot read the sweep file %1: %2")
                              .arg(m_run.args()[3], f.errorString()));
    const QByteArray spec = f.readAll();
    QString error;
    if (!Monitor::SweepSpec::fromText(spec, &error))
        return m_run.fail(QStringLiteral("%1: %2").arg(m_run.args()[3], error), Usage);
    if (!m_run.openEngine(true))
        return;
    const auto id = m_run.serverFor(m_run.args()[2]);
    if (!id)
        return;
    std::optional<qint64> session;
    if (!m_run.options().session.isEmpty()) {
        if (auto s = m_run.engine().catalogue().sessionByName(m_run.options().session))
            session = s->id;
        else if (qint64 sid = m_run.engine().createSession(m_run.options().session); sid > 0)
            session = sid;
        else
            return m_run.finish(Failure);
    }
    // Only this sweep's cases count; other unsent cases in the database go out too.
    auto total = std::make_shared<int>(-1);
    auto doneCount = std::make_shared<int>(0);
    auto sweepId = std::make_shared<qint64>(-1);
    auto deferred = std::make_shared<int>(0); // no answer after the last retry: left for watch
    // Answered at once with a tool error (isError): the engine stores the answer as a finished
    // task of the case, so the call was answered, but nothing runs.
    auto toolErrors = std::make_shared<int>(0);
    auto maybeFinish = [this, total, doneCount, sweepId, deferred, toolErrors] {
        if (*total >= 0 && *doneCount >= *total) {
            const int submitted = *total - m_rejected - *deferred - *toolErrors;
            if (m_run.options().jsonOutput) {
                m_run.out() << QString::fromStdString(json{
                    {"sweep", *sweepId},
                    {"cases", *total},
                    {"rejected", m_rejected},
                    {"toolErrors", *toolErrors},
                    {"unsent", *deferred}}.dump())
                            << Qt::endl;
            } else {
                QString line = QStringLiteral("sweep %1: %2 case(s) submitted, %3 rejected")
                                   .arg(*sweepId)
                                   .arg(submitted)
                                   .arg(m_rejected);
                if (*toolErrors > 0)
                    line += QStringLiteral(", %1 failed at once (tool error)").arg(*toolErrors);
                if (*deferred > 0)
                    line += QStringLiteral(", %1 kept unsent (eddyctl watch sends them with the "
                                           "same idempotency keys)")
                                .arg(*deferred);
                m_run.out() << line << Qt::endl;
            }
            m_run.finish(m_rejected || *deferred || *toolErrors ? Failure : Ok);
        }
    };
    QObject::connect(&m_run.engine(),
                     &Monitor::Engine::submissionRejected,
                     &m_run,
                     [this](const QString &m) { m_run.fail(m); });
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::sweepSubmitted,
        &m_run,
        [this, total, sweepId, doneCount, maybeFinish](qint64 sid, int n) {
            *sweepId = sid;
            *total = n;
            const auto cases = m_run.engine().catalogue().cases(sid);
            for (const Store::CaseRecord &c : cases) {
                if (c.state == Store::CaseState::Pending || c.state == Store::CaseState::Sent)
                    m_expectCases.insert(c.id);
                else
                    ++*doneCount;
            }
            m_run.err() << QStringLiteral("sweep %1: %2 case(s) journalled").arg(sid).arg(n)
                        << Qt::endl;
            maybeFinish();
        });
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::caseSubmitted,
        &m_run,
        [this, sweepId, doneCount, toolErrors, maybeFinish](qint64 caseId, qint64 taskId) {
            if (!m_expectCases.remove(caseId))
                return;
            ++*doneCount;
            // Read back from the store: what was kept is what eddyctl result shows.
            const auto t = m_run.engine().catalogue().task(taskId);
            if (t && t->status == Store::TaskStatus::Completed && t->isToolError) {
                ++*toolErrors;
                // The sweep's case number, as in eddyctl export and the sweep window.
                const auto c = m_run.engine().catalogue().caseRecord(caseId);
                const QString which
                    = c ? QStringLiteral("case %1 of sweep %2").arg(c->index + 1).arg(*sweepId)
                        : QStringLiteral("a case of sweep %1").arg(*sweepId);
                m_run.err() << QStringLiteral(
                                   "%1 failed at once: the server answered its call with a tool "
                                   "error: \"%2\". Its answer is stored as task %3 (eddyctl "
                                   "result %3); correct what the server names and run the case "
                                   "again (Relaunch with Edits... in Eddy, or eddyctl call).")
                                   .arg(which, resultText(t->result), QString::number(taskId))
                            << Qt::endl;
            } else if (!m_run.options().jsonOutput) {
                m_run.err() << QStringLiteral("case %1 -> task %2").arg(caseId).arg(taskId)
                            << Qt::endl;
            }
            maybeFinish();
        });
    QObject::connect(&m_run.engine(),
                     &Monitor::Engine::caseRejected,
                     &m_run,
                     [this, doneCount, maybeFinish](qint64 caseId, const QString &m) {
                         if (!m_expectCases.remove(caseId))
                             return;
                         ++*doneCount;
                         ++m_rejected;
                         m_run.err() << QStringLiteral("case %1 rejected: %2").arg(caseId).arg(m)
                                     << Qt::endl;
                         maybeFinish();
                     });
    // A server that does not answer: each retry is said, and a case whose retries ran out ends
    // this command (it stays journalled) rather than keeping it waiting without a word.
    QObject::connect(&m_run.engine(),
                     &Monitor::Engine::caseRetrying,
                     &m_run,
                     [this](qint64 caseId, int, int, qint64, const QString &message) {
                         if (m_expectCases.contains(caseId))
                             m_run.err() << QStringLiteral("call %1: %2").arg(caseId).arg(message)
                                         << Qt::endl;
                     });
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::caseDeferred,
        &m_run,
        [this, doneCount, deferred, maybeFinish](qint64 caseId, const QString &message) {
            if (!m_expectCases.remove(caseId))
                return;
            ++*doneCount;
            ++*deferred;
            m_run.err() << QStringLiteral("call %1: %2").arg(caseId).arg(message) << Qt::endl;
            maybeFinish();
        });
    m_run.engine().submitSweep(*id, spec, session);
}

void TaskCommands::tasks()
{
    if (m_run.args().size() != 1)
        return m_run.fail(QStringLiteral("usage: eddyctl tasks [--json] [--status S] [--tag TAG]"),
                          Usage);
    Store::TaskQuery q;
    if (!m_run.options().status.isEmpty()) {
        q.status = Store::taskStatusFromString(m_run.options().status);
        if (!q.status)
            return m_run.fail(
                QStringLiteral(
                    "unknown status \"%1\" (use working, input_required, completed, failed, "
                    "cancelled, expired or lost).")
                    .arg(m_run.options().status),
                Usage);
    }
    if (!m_run.openEngine(false))
        return;
    QList<Store::TaskRecord> tasks = m_run.engine().catalogue().tasks(q);
    if (!m_run.options().tag.isEmpty()) { // the tasks whose case carries the tag
        QSet<qint64> tagged;
        for (const Store::CaseRecord &c : m_run.engine().review()->annotatedCases())
            if (c.tags.contains(m_run.options().tag))
                tagged.insert(c.id);
        tasks.removeIf([&tagged](const Store::TaskRecord &t) {
            return !t.caseId || !tagged.contains(*t.caseId);
        });
    }
    if (m_run.options().jsonOutput) {
        json arr = json::array();
        for (const Store::TaskRecord &t : tasks)
            arr.push_back(m_run.taskJson(t));
        m_run.out() << QString::fromStdString(arr.dump(2)) << Qt::endl;
    } else {
        m_run.out() << QStringLiteral("%1  %2  %3  %4  %5\n")
                           .arg(QStringLiteral("ID"), -6)
                           .arg(QStringLiteral("STATUS"), -16)
                           .arg(QStringLiteral("SWEEP"), -5)
                           .arg(QStringLiteral("TOOL"), -14)
                           .arg(QStringLiteral("MESSAGE"));
        for (const Store::TaskRecord &t : tasks)
            m_run.out() << QStringLiteral("%1  %2  %3  %4  %5\n")
                               .arg(t.id, -6)
                               .arg(Store::toText(t.status)
                                        + (t.isToolError ? QStringLiteral("*") : QString()),
                                    -16)
                               .arg(t.sweepId ? QString::number(*t.sweepId) : QStringLiteral("-"),
                                    -5)
                               .arg(t.tool, -14)
                               .arg(t.statusMessage);
    }
    m_run.finish(Ok);
}

void TaskCommands::watch()
{
    if (m_run.args().size() != 1)
        return m_run.fail(QStringLiteral("usage: eddyctl watch [--until-done] [--answers FILE]"),
                          Usage);
    m_run.hookInput();
    new Monitor::HeapTrim(&m_run); // a watch runs for days: free heap pages go back once a minute
    m_run.printChanges();
    QObject::connect(&m_run.engine(),
                     &Monitor::Engine::caseDeferred,
                     &m_run,
                     [this](qint64 caseId, const QString &message) {
                         m_run.err()
                             << QStringLiteral("call %1: %2").arg(caseId).arg(message) << Qt::endl;
                     });
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::ttlWarning,
        &m_run,
        [this](qint64 taskId, qint64 msLeft) {
            m_run.err() << QStringLiteral(
                               "task %1: the server may forget it in %2 s; its result is at risk")
                               .arg(taskId)
                               .arg(msLeft / 1000)
                        << Qt::endl;
        });
    QObject::connect(&m_run.engine(), &Monitor::Engine::idle, &m_run, [this] {
        if (!m_run.options().untilDone)
            return;
        tellPausedSweeps();
        m_run.err() << QStringLiteral("all tasks finished") << Qt::endl;
        m_run.finish(Ok);
    });
    // Everything is set up before open(): reattach happens inside it.
    m_run.engine().setMonitoring(true);
    if (!m_run.loadAnswers())
        return;
    if (!m_run.openEngine(true))
        return;
    if (!m_run.options().jsonOutput)
        m_run.err()
            << QStringLiteral("watching %1 live task(s)").arg(m_run.engine().liveTaskCount())
            << Qt::endl;
    tellPausedSweeps();
}

void TaskCommands::tellPausedSweeps()
{
    for (qint64 id : m_run.engine().review()->pausedSweeps()) {
        const int unsent = unsentCount(m_run.engine().catalogue().cases(id));
        if (unsent > 0)
            m_run.err() << QStringLiteral(
                               "sweep %1 is paused: its %2 unsent case(s) are not sent until "
                               "eddyctl resume %1")
                               .arg(id)
                               .arg(unsent)
                        << Qt::endl;
    }
}

std::optional<qint64> TaskCommands::taskArgument(qsizetype argCount, const QString &usage)
{
    if (m_run.args().size() != argCount) {
        m_run.fail(usage, Usage);
        return std::nullopt;
    }
    bool ok = false;
    const qint64 task = m_run.args()[1].toLongLong(&ok);
    if (!ok) {
        m_run.fail(QStringLiteral("TASK is Eddy's task number, as shown by eddyctl tasks."), Usage);
        return std::nullopt;
    }
    return task;
}

std::optional<Store::TaskRecord> TaskCommands::storedTaskArgument(const QString &usage)
{
    const std::optional<qint64> task = taskArgument(2, usage);
    if (!task || !m_run.openEngine(false))
        return std::nullopt;
    std::optional<Store::TaskRecord> t = m_run.engine().catalogue().task(*task);
    if (!t)
        m_run.fail(
            QStringLiteral("there is no task %1; list tasks with eddyctl tasks.").arg(*task));
    return t;
}

void TaskCommands::answer()
{
    const std::optional<qint64> number
        = taskArgument(4, QStringLiteral("usage: eddyctl answer TASK KEY JSON"));
    if (!number)
        return;
    const qint64 task = *number;
    json answer = parseJson(m_run.args()[3]);
    if (answer.is_discarded() || !answer.is_object())
        return m_run.fail(QStringLiteral("JSON must be an object: an ElicitResult like "
                                         "{\"action\":\"accept\",\"content\":{...}} "
                                         "or plain form values like {\"action\":\"repair\"}."),
                          Usage);
    if (!m_run.openEngine(false))
        return;
    const auto rec = m_run.engine().catalogue().inputRequest(task, m_run.args()[2]);
    if (!rec)
        return m_run.fail(
            QStringLiteral(
                "task %1 has no question \"%2\"; run eddyctl watch to collect questions, "
                "or eddyctl tasks --status input_required.")
                .arg(task)
                .arg(m_run.args()[2]));
    // Plain form values become the content of an accept, checked against the question's form.
    const bool isElicitResult
        = answer.contains("action") && answer["action"].is_string()
          && (answer["action"] == "accept" || answer["action"] == "decline"
              || answer["action"] == "cancel")
          && (answer.size() == 1 || (answer.size() == 2 && answer.contains("content")));
    if (!isElicitResult) {
        QString error;
        answer = Monitor::InputInbox::answerFromValues(parseJsonText(rec->request), answer, &error);
        if (answer.is_null())
            return m_run.fail(error);
    }
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::inputAnswered,
        &m_run,
        [this, task](qint64 taskId, const QString &key, bool ok, const QString &message) {
            if (taskId != task || key != m_run.args()[2])
                return;
            if (!ok)
                return m_run.fail(message);
            m_run.out() << QStringLiteral("task %1: answered \"%2\"").arg(taskId).arg(key)
                        << Qt::endl;
            m_run.finish(Ok);
        });
    m_run.engine().answerInput(
        task, m_run.args()[2], QByteArray::fromStdString(answer.dump()), QStringLiteral("eddyctl"));
}

void TaskCommands::cancel()
{
    const std::optional<Store::TaskRecord> t
        = storedTaskArgument(QStringLiteral("usage: eddyctl cancel TASK"));
    if (!t)
        return;
    const qint64 task = t->id;
    QObject::connect(
        &m_run.engine(),
        &Monitor::Engine::cancelSent,
        &m_run,
        [this, task](qint64 taskId, bool ok, const QString &message) {
            if (taskId != task)
                return;
            if (!ok)
                return m_run.fail(message);
            m_run.out()
                << QStringLiteral(
                       "task %1: cancel requested (the server decides; watch shows the outcome)")
                       .arg(taskId)
                << Qt::endl;
            m_run.finish(Ok);
        });
    m_run.engine().cancelTasks({task});
}

void TaskCommands::result()
{
    const std::optional<Store::TaskRecord> t
        = storedTaskArgument(QStringLiteral("usage: eddyctl result TASK"));
    if (!t)
        return;
    const qint64 task = t->id;
    if (t->isLive())
        return m_run.fail(
            QStringLiteral("task %1 is still %2 (%3); run eddyctl watch --until-done first.")
                .arg(task)
                .arg(Store::toText(t->status), t->statusMessage));
    if (!t->result.isEmpty()) {
        m_run.out() << QString::fromStdString(parseJsonText(t->result).dump(2)) << Qt::endl;
        return m_run.finish(t->isToolError ? Failure : Ok);
    }
    if (!t->error.isEmpty())
        m_run.out() << QString::fromStdString(parseJsonText(t->error).dump(2)) << Qt::endl;
    m_run.err() << QStringLiteral("task %1 ended %2: %3")
                       .arg(task)
                       .arg(Store::toText(t->status), t->statusMessage)
                << Qt::endl;
    m_run.finish(Failure);
}

void TaskCommands::exportSweep()
{
    if (m_run.args().size() != 2)
        return m_run.fail(QStringLiteral("usage: eddyctl export SWEEP --format csv|json"), Usage);
    bool ok = false;
    const qint64 sweep = m_run.args()[1].toLongLong(&ok);
    if (!ok)
        return m_run.fail(
            QStringLiteral("SWEEP is the sweep number printed by eddyctl sweep submit."), Usage);
    const QString format
        = m_run.options().format.isEmpty()
              ? (m_run.options().jsonOutput ? QStringLiteral("json") : QStringLiteral("csv"))
              : m_run.options().format;
    if (format != QLatin1String("csv") && format != QLatin1String("json"))
        return m_run.fail(QStringLiteral("--format must be csv or json."), Usage);
    if (!m_run.openEngine(false))
        return;
    if (!m_run.engine().catalogue().sweep(sweep))
        return m_run.fail(QStringLiteral("there is no sweep %1.").arg(sweep));
    // One row per design point, its latest attempt (a re-run or a relaunch that kept the varied
    // values), in case order: what the window's table, plot and CSV show.
    auto cases = Monitor::SweepExport::latestAttempts(m_run.engine().catalogue().cases(sweep));
    std::stable_sort(
        cases.begin(), cases.end(), [](const Store::CaseRecord &a, const Store::CaseRecord &b) {
            return a.index < b.index;
        });
    struct Row
    {
        Store::CaseRecord c;
        std::optional<Store::TaskRecord> t;
        json args;
        json result;
        QString answer; // InputInbox::answerSummary() of the task's questions
    };
    std::vector<Row> rows;
    for (const Store::CaseRecord &c : cases) {
        Row r{c,
              c.taskId ? m_run.engine().catalogue().task(*c.taskId) : std::nullopt,
              parseJsonText(c.arguments),
              json(),
              QString()};
        r.args.erase("idempotency_key");
        if (r.t && !r.t->result.isEmpty())
            r.result = parseJsonText(r.t->result);
        if (r.t)
            r.answer = Monitor::InputInbox::answerSummary(
                m_run.engine().catalogue().inputRequests(r.t->id));
        rows.push_back(std::move(r));
    }
    if (format == QLatin1String("json")) {
        json arr = json::array();
        for (const Row &r : rows) {
            json j{{"case", r.c.index + 1},
                   {"task", r.t ? json(r.t->id) : json()},
                   {"status",
                    r.t ? Store::toText(r.t->status).toStdString()
                        : Store::toText(r.c.state).toStdString()},
                   {"outcome",
                    r.t ? Monitor::OutcomeText::key(Monitor::outcomeOf(*r.t)).toStdString()
                        : std::string()},
                   {"arguments", r.args},
                   {"isError", r.t ? r.t->isToolError : false},
                   {"result", r.result}};
            if (!r.answer.isEmpty())
                j["answer"] = r.answer.toStdString();
            json tags = json::array();
            for (const QString &tag : r.c.tags)
                tags.push_back(tag.toStdString());
            j["note"] = r.c.note.toStdString();
            j["tags"] = tags;
            if (r.t && !r.t->error.isEmpty())
                j["error"] = parseJsonText(r.t->error);
            else if (!r.c.error.isEmpty())
                j["error"] = parseJsonText(r.c.error);
            arr.push_back(std::move(j));
        }
        m_run.out() << QString::fromStdString(arr.dump(2)) << Qt::endl;
        return m_run.finish(Ok);
    }
    // CSV: the same code path as the GUI's Export CSV (case order, outcome, is_error, every
    // argument, every scalar of structuredContent).
    const auto sw = m_run.engine().catalogue().sweep(sweep);
    m_run.out() << Monitor::SweepExport::csv(m_run.engine().catalogue().exportRows(sweep),
                                             Monitor::SweepExport::variedNames(sw->spec));
    m_run.out().flush();
    m_run.finish(Ok);
}

} // namespace Eddy::Cli
