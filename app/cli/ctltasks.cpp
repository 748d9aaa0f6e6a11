#include "app/cli/ctl.h"
#include "app/cli/ctl_p.h"

#include "app/monitor/heaptrim.h"
#include "app/monitor/review.h"

namespace Eddy::Cli {

void Ctl::cmdSweepSubmit()
{
    if (m_args.size() != 4 || m_args[1] != QLatin1String("submit"))
        return fail(QStringLiteral("usage: eddyctl sweep submit URL SPEC.json [--session NAME]"), Usage);
    QFile f(m_args[3]);
    if (!f.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read the sweep file %1: %2").arg(m_args[3], f.errorString()));
    const QByteArray spec = f.readAll();
    QString error;
    if (!Monitor::SweepSpec::fromText(spec, &error))
        return fail(QStringLiteral("%1: %2").arg(m_args[3], error), Usage);
    if (!openEngine(true))
        return;
    const auto id = serverFor(m_args[2]);
    if (!id)
        return;
    std::optional<qint64> session;
    if (!m_session.isEmpty()) {
        if (auto s = m_engine.catalogue().sessionByName(m_session))
            session = s->id;
        else if (qint64 sid = m_engine.createSession(m_session); sid > 0)
            session = sid;
        else
            return finish(Failure);
    }
    // Only this sweep's cases count; other unsent cases in the database go out too.
    auto total = std::make_shared<int>(-1);
    auto doneCount = std::make_shared<int>(0);
    auto sweepId = std::make_shared<qint64>(-1);
    auto deferred = std::make_shared<int>(0); // no answer after the last retry: left for watch
    auto maybeFinish = [this, total, doneCount, sweepId, deferred] {
        if (*total >= 0 && *doneCount >= *total) {
            const int submitted = *total - m_rejected - *deferred;
            if (m_json)
                m_out << QString::fromStdString(json{{"sweep", *sweepId}, {"cases", *total}, {"rejected", m_rejected},
                                                     {"unsent", *deferred}}.dump()) << Qt::endl;
            else if (*deferred == 0)
                m_out << QStringLiteral("sweep %1: %2 case(s) submitted, %3 rejected").arg(*sweepId).arg(submitted).arg(m_rejected) << Qt::endl;
            else
                m_out << QStringLiteral("sweep %1: %2 case(s) submitted, %3 rejected, %4 kept unsent (eddyctl watch "
                                        "sends them with the same idempotency keys)")
                             .arg(*sweepId).arg(submitted).arg(m_rejected).arg(*deferred)
                      << Qt::endl;
            finish(m_rejected || *deferred ? Failure : Ok);
        }
    };
    connect(&m_engine, &Monitor::Engine::submissionRejected, this, [this](const QString &m) { fail(m); });
    connect(&m_engine, &Monitor::Engine::sweepSubmitted, this, [this, total, sweepId, doneCount, maybeFinish](qint64 sid, int n) {
        *sweepId = sid;
        *total = n;
        const auto cases = m_engine.catalogue().cases(sid);
        for (const Store::CaseRecord &c : cases) {
            if (c.state == Store::CaseState::Pending || c.state == Store::CaseState::Sent)
                m_expectCases.insert(c.id);
            else
                ++*doneCount;
        }
        m_err << QStringLiteral("sweep %1: %2 case(s) journalled").arg(sid).arg(n) << Qt::endl;
        maybeFinish();
    });
    connect(&m_engine, &Monitor::Engine::caseSubmitted, this, [this, doneCount, maybeFinish](qint64 caseId, qint64 taskId) {
        if (!m_expectCases.remove(caseId))
            return;
        ++*doneCount;
        if (!m_json)
            m_err << QStringLiteral("case %1 -> task %2").arg(caseId).arg(taskId) << Qt::endl;
        maybeFinish();
    });
    connect(&m_engine, &Monitor::Engine::caseRejected, this, [this, doneCount, maybeFinish](qint64 caseId, const QString &m) {
        if (!m_expectCases.remove(caseId))
            return;
        ++*doneCount;
        ++m_rejected;
        m_err << QStringLiteral("case %1 rejected: %2").arg(caseId).arg(m) << Qt::endl;
        maybeFinish();
    });
    // A server that does not answer: each retry is said, and a case whose retries ran out ends
    // this command (it stays journalled) rather than keeping it waiting without a word.
    connect(&m_engine, &Monitor::Engine::caseRetrying, this,
            [this](qint64 caseId, int, int, qint64, const QString &message) {
                if (m_expectCases.contains(caseId))
                    m_err << QStringLiteral("call %1: %2").arg(caseId).arg(message) << Qt::endl;
            });
    connect(&m_engine, &Monitor::Engine::caseDeferred, this,
            [this, doneCount, deferred, maybeFinish](qint64 caseId, const QString &message) {
                if (!m_expectCases.remove(caseId))
                    return;
                ++*doneCount;
                ++*deferred;
                m_err << QStringLiteral("call %1: %2").arg(caseId).arg(message) << Qt::endl;
                maybeFinish();
            });
    m_engine.submitSweep(*id, spec, session);
}

void Ctl::cmdTasks()
{
    if (m_args.size() != 1)
        return fail(QStringLiteral("usage: eddyctl tasks [--json] [--status S] [--tag TAG]"), Usage);
    Store::TaskQuery q;
    if (!m_status.isEmpty()) {
        q.status = Store::taskStatusFromString(m_status);
        if (!q.status)
            return fail(QStringLiteral("unknown status \"%1\" (use working, input_required, completed, failed, "
                                       "cancelled, expired or lost).").arg(m_status), Usage);
    }
    if (!openEngine(false))
        return;
    QList<Store::TaskRecord> tasks = m_engine.catalogue().tasks(q);
    if (!m_tag.isEmpty()) { // the tasks whose case carries the tag
        QSet<qint64> tagged;
        for (const Store::CaseRecord &c : m_engine.review()->annotatedCases())
            if (c.tags.contains(m_tag))
                tagged.insert(c.id);
        tasks.removeIf([&tagged](const Store::TaskRecord &t) {
            return !t.caseId || !tagged.contains(*t.caseId);
        });
    }
    if (m_json) {
        json arr = json::array();
        for (const Store::TaskRecord &t : tasks)
            arr.push_back(taskJson(t));
        m_out << QString::fromStdString(arr.dump(2)) << Qt::endl;
    } else {
        m_out << QStringLiteral("%1  %2  %3  %4  %5\n").arg(QStringLiteral("ID"), -6).arg(QStringLiteral("STATUS"), -16)
                     .arg(QStringLiteral("SWEEP"), -5).arg(QStringLiteral("TOOL"), -14).arg(QStringLiteral("MESSAGE"));
        for (const Store::TaskRecord &t : tasks)
            m_out << QStringLiteral("%1  %2  %3  %4  %5\n")
                         .arg(t.id, -6)
                         .arg(Store::toText(t.status) + (t.isToolError ? QStringLiteral("*") : QString()), -16)
                         .arg(t.sweepId ? QString::number(*t.sweepId) : QStringLiteral("-"), -5)
                         .arg(t.tool, -14)
                         .arg(t.statusMessage);
    }
    finish(Ok);
}

void Ctl::cmdWatch()
{
    if (m_args.size() != 1)
        return fail(QStringLiteral("usage: eddyctl watch [--until-done] [--answers FILE]"), Usage);
    hookInput();
    new Monitor::HeapTrim(this); // a watch runs for days: free heap pages go back once a minute
    connect(&m_engine, &Monitor::Engine::changesReady, this, [this](const Monitor::ChangeSet &c) {
        for (const Store::TaskRecord &t : c.tasks)
            printChange(t);
    });
    connect(&m_engine, &Monitor::Engine::caseDeferred, this, [this](qint64 caseId, const QString &message) {
        m_err << QStringLiteral("call %1: %2").arg(caseId).arg(message) << Qt::endl;
    });
    connect(&m_engine, &Monitor::Engine::ttlWarning, this, [this](qint64 taskId, qint64 msLeft) {
        m_err << QStringLiteral("task %1: the server may forget it in %2 s; its result is at risk")
                     .arg(taskId).arg(msLeft / 1000) << Qt::endl;
    });
    connect(&m_engine, &Monitor::Engine::idle, this, [this] {
        if (!m_untilDone)
            return;
        tellPausedSweeps();
        const auto counts = m_engine.catalogue().tasks();
        int bad = 0;
        for (const auto &t : counts)
            bad += t.status == Store::TaskStatus::Lost || t.status == Store::TaskStatus::Expired;
        m_err << QStringLiteral("all tasks finished") << Qt::endl;
        finish(Ok);
    });
    // Everything is set up before open(): reattach happens inside it.
    m_engine.setMonitoring(true);
    if (!m_answersFile.isEmpty()) {
        QFile f(m_answersFile);
        if (!f.open(QIODevice::ReadOnly))
            return fail(QStringLiteral("cannot read the answers file %1: %2").arg(m_answersFile, f.errorString()));
        const QByteArray data = f.readAll();
        const json j = json::parse(data.constBegin(), data.constEnd(), nullptr, false);
        if (j.is_discarded() || !j.is_object())
            return fail(QStringLiteral("the answers file %1 must be a JSON object of form values by field name.").arg(m_answersFile), Usage);
        m_answers = j;
        m_engine.setAutoAnswers(j);
    }
    if (!openEngine(true))
        return;
    if (!m_json)
        m_err << QStringLiteral("watching %1 live task(s)").arg(m_engine.liveTaskCount()) << Qt::endl;
    tellPausedSweeps();
}

void Ctl::tellPausedSweeps()
{
    for (qint64 id : m_engine.review()->pausedSweeps()) {
        const int unsent = unsentCount(m_engine.catalogue().cases(id));
        if (unsent > 0)
            m_err << QStringLiteral("sweep %1 is paused: its %2 unsent case(s) are not sent until "
                                    "eddyctl resume %1")
                         .arg(id)
                         .arg(unsent)
                  << Qt::endl;
    }
}

std::optional<qint64> Ctl::taskArgument(qsizetype argCount, const QString &usage)
{
    if (m_args.size() != argCount) {
        fail(usage, Usage);
        return std::nullopt;
    }
    bool ok = false;
    const qint64 task = m_args[1].toLongLong(&ok);
    if (!ok) {
        fail(QStringLiteral("TASK is Eddy's task number, as shown by eddyctl tasks."), Usage);
        return std::nullopt;
    }
    return task;
}

std::optional<Store::TaskRecord> Ctl::storedTaskArgument(const QString &usage)
{
    const std::optional<qint64> task = taskArgument(2, usage);
    if (!task || !openEngine(false))
        return std::nullopt;
    std::optional<Store::TaskRecord> t = m_engine.catalogue().task(*task);
    if (!t)
        fail(QStringLiteral("there is no task %1; list tasks with eddyctl tasks.").arg(*task));
    return t;
}

void Ctl::cmdAnswer()
{
    const std::optional<qint64> number
        = taskArgument(4, QStringLiteral("usage: eddyctl answer TASK KEY JSON"));
    if (!number)
        return;
    const qint64 task = *number;
    json answer = parseJson(m_args[3]);
    if (answer.is_discarded() || !answer.is_object())
        return fail(QStringLiteral("JSON must be an object: an ElicitResult like {\"action\":\"accept\",\"content\":{...}} "
                                   "or plain form values like {\"action\":\"repair\"}."), Usage);
    if (!openEngine(false))
        return;
    const auto rec = m_engine.catalogue().inputRequest(task, m_args[2]);
    if (!rec)
        return fail(QStringLiteral("task %1 has no question \"%2\"; run eddyctl watch to collect questions, "
                                   "or eddyctl tasks --status input_required.").arg(task).arg(m_args[2]));
    // Plain form values become the content of an accept, checked against the question's form.
    const bool isElicitResult = answer.contains("action") && answer["action"].is_string()
                                && (answer["action"] == "accept" || answer["action"] == "decline"
                                    || answer["action"] == "cancel")
                                && (answer.size() == 1 || (answer.size() == 2 && answer.contains("content")));
    if (!isElicitResult) {
        QString error;
        answer = Monitor::InputInbox::answerFromValues(parseJsonText(rec->request), answer, &error);
        if (answer.is_null())
            return fail(error);
    }
    connect(&m_engine, &Monitor::Engine::inputAnswered, this,
            [this, task](qint64 taskId, const QString &key, bool ok, const QString &message) {
                if (taskId != task || key != m_args[2])
                    return;
                if (!ok)
                    return fail(message);
                m_out << QStringLiteral("task %1: answered \"%2\"").arg(taskId).arg(key) << Qt::endl;
                finish(Ok);
            });
    m_engine.answerInput(task, m_args[2], QByteArray::fromStdString(answer.dump()), QStringLiteral("eddyctl"));
}

void Ctl::cmdCancel()
{
    const std::optional<Store::TaskRecord> t
        = storedTaskArgument(QStringLiteral("usage: eddyctl cancel TASK"));
    if (!t)
        return;
    const qint64 task = t->id;
    connect(&m_engine, &Monitor::Engine::cancelSent, this, [this, task](qint64 taskId, bool ok, const QString &message) {
        if (taskId != task)
            return;
        if (!ok)
            return fail(message);
        m_out << QStringLiteral("task %1: cancel requested (the server decides; watch shows the outcome)").arg(taskId) << Qt::endl;
        finish(Ok);
    });
    m_engine.cancelTasks({task});
}

void Ctl::cmdResult()
{
    const std::optional<Store::TaskRecord> t
        = storedTaskArgument(QStringLiteral("usage: eddyctl result TASK"));
    if (!t)
        return;
    const qint64 task = t->id;
    if (t->isLive())
        return fail(QStringLiteral("task %1 is still %2 (%3); run eddyctl watch --until-done first.")
                        .arg(task).arg(Store::toText(t->status), t->statusMessage));
    if (!t->result.isEmpty()) {
        m_out << QString::fromStdString(parseJsonText(t->result).dump(2)) << Qt::endl;
        return finish(t->isToolError ? Failure : Ok);
    }
    if (!t->error.isEmpty())
        m_out << QString::fromStdString(parseJsonText(t->error).dump(2)) << Qt::endl;
    m_err << QStringLiteral("task %1 ended %2: %3").arg(task).arg(Store::toText(t->status), t->statusMessage) << Qt::endl;
    finish(Failure);
}

void Ctl::cmdExport()
{
    if (m_args.size() != 2)
        return fail(QStringLiteral("usage: eddyctl export SWEEP --format csv|json"), Usage);
    bool ok = false;
    const qint64 sweep = m_args[1].toLongLong(&ok);
    if (!ok)
        return fail(QStringLiteral("SWEEP is the sweep number printed by eddyctl sweep submit."), Usage);
    const QString format = m_format.isEmpty() ? (m_json ? QStringLiteral("json") : QStringLiteral("csv")) : m_format;
    if (format != QLatin1String("csv") && format != QLatin1String("json"))
        return fail(QStringLiteral("--format must be csv or json."), Usage);
    if (!openEngine(false))
        return;
    if (!m_engine.catalogue().sweep(sweep))
        return fail(QStringLiteral("there is no sweep %1.").arg(sweep));
    // One row per design point, its latest attempt (a re-run or a relaunch that kept the varied
    // values), in case order: what the window's table, plot and CSV show.
    auto cases = Monitor::SweepExport::latestAttempts(m_engine.catalogue().cases(sweep));
    std::stable_sort(cases.begin(), cases.end(),
                     [](const Store::CaseRecord &a, const Store::CaseRecord &b) { return a.index < b.index; });
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
        Row r{c, c.taskId ? m_engine.catalogue().task(*c.taskId) : std::nullopt, parseJsonText(c.arguments), json(), QString()};
        r.args.erase("idempotency_key");
        if (r.t && !r.t->result.isEmpty())
            r.result = parseJsonText(r.t->result);
        if (r.t)
            r.answer = Monitor::InputInbox::answerSummary(m_engine.catalogue().inputRequests(r.t->id));
        rows.push_back(std::move(r));
    }
    if (format == QLatin1String("json")) {
        json arr = json::array();
        for (const Row &r : rows) {
            json j{{"case", r.c.index + 1},
                   {"task", r.t ? json(r.t->id) : json()},
                   {"status", r.t ? Store::toText(r.t->status).toStdString() : Store::toText(r.c.state).toStdString()},
                   {"outcome", r.t ? Monitor::OutcomeText::key(Monitor::outcomeOf(*r.t)).toStdString() : std::string()},
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
        m_out << QString::fromStdString(arr.dump(2)) << Qt::endl;
        return finish(Ok);
    }
    // CSV: the same code path as the GUI's Export CSV (case order, outcome, is_error, every
    // argument, every scalar of structuredContent).
    const auto sw = m_engine.catalogue().sweep(sweep);
    m_out << Monitor::SweepExport::csv(m_engine.catalogue().exportRows(sweep),
                                       Monitor::SweepExport::variedNames(sw->spec));
    m_out.flush();
    finish(Ok);
}

} // namespace Eddy::Cli
