#include "app/cli/ctl.h"
#include "app/cli/ctl_p.h"

#include "app/monitor/review.h"

// Review of past sweeps from the command line (docs/eddyctl.md "Notes, tags, baselines and
// pauses"): eddyctl note, tag, baseline, pause and resume. Each writes through the engine's
// Review, so an open window shows the change as it shows any other process's.

namespace Eddy::Cli {

namespace {

QString joinedTags(const QStringList &tags)
{
    return tags.isEmpty() ? QStringLiteral("(no tags)") : tags.join(QLatin1Char(' '));
}

} // namespace

std::optional<Ctl::ReviewTarget> Ctl::reviewTarget(const QString &usage)
{
    // TASK (its case) or "sweep SWEEP".
    const bool isSweep = m_args.size() >= 2 && m_args[1] == QLatin1String("sweep");
    const qsizetype at = isSweep ? 2 : 1;
    if (m_args.size() <= at) {
        fail(usage, Usage);
        return std::nullopt;
    }
    bool ok = false;
    const qint64 number = m_args[at].toLongLong(&ok);
    if (!ok) {
        fail(isSweep ? QStringLiteral("SWEEP is the sweep number printed by eddyctl sweep submit.")
                     : QStringLiteral("TASK is Eddy's task number, as shown by eddyctl tasks (or "
                                      "\"sweep SWEEP\" for a whole sweep)."),
             Usage);
        return std::nullopt;
    }
    if (!openEngine(false))
        return std::nullopt;
    ReviewTarget target;
    target.words = m_args.mid(at + 1);
    if (isSweep) {
        const auto sweep = m_engine.catalogue().sweep(number);
        if (!sweep) {
            fail(QStringLiteral("there is no sweep %1; list tasks with eddyctl tasks.").arg(number));
            return std::nullopt;
        }
        target.sweep = *sweep;
        target.what = QStringLiteral("sweep %1").arg(number);
        return target;
    }
    const auto task = m_engine.catalogue().task(number);
    if (!task) {
        fail(QStringLiteral("there is no task %1; list tasks with eddyctl tasks.").arg(number));
        return std::nullopt;
    }
    const auto c = task->caseId ? m_engine.catalogue().caseRecord(*task->caseId) : std::nullopt;
    if (!c) {
        fail(QStringLiteral("task %1 has no case in this database (it was handed over by another "
                            "client); notes and tags are kept with cases and sweeps.")
                 .arg(number));
        return std::nullopt;
    }
    target.caseRecord = *c;
    target.what = QStringLiteral("task %1").arg(number);
    return target;
}

void Ctl::cmdNote()
{
    const auto target = reviewTarget(QStringLiteral("usage: eddyctl note TASK|sweep SWEEP [TEXT]"));
    if (!target)
        return;
    Monitor::Review &review = *m_engine.review();
    if (target->words.isEmpty()) { // print it
        const QString note = target->sweep ? target->sweep->note : target->caseRecord->note;
        if (m_json)
            m_out << QString::fromStdString(json{{"note", note.toStdString()}}.dump()) << Qt::endl;
        else
            m_out << (note.isEmpty() ? QStringLiteral("(no note)") : note) << Qt::endl;
        return finish(Ok);
    }
    const QString note = target->words.join(QLatin1Char(' '));
    const bool ok = target->sweep ? review.setSweepNote(target->sweep->id, note)
                                  : review.setCaseNote(target->caseRecord->id, note);
    if (!ok)
        return fail(review.lastError());
    m_err << (note.isEmpty() ? QStringLiteral("%1: note cleared").arg(target->what)
                             : QStringLiteral("%1: note stored").arg(target->what))
          << Qt::endl;
    finish(Ok);
}

void Ctl::cmdTag()
{
    const QString usage = QStringLiteral("usage: eddyctl tag TASK|sweep SWEEP [TAG|+TAG|-TAG ...]");
    const auto target = reviewTarget(usage);
    if (!target)
        return;
    Monitor::Review &review = *m_engine.review();
    QStringList tags = target->sweep ? target->sweep->tags : target->caseRecord->tags;
    for (const QString &word : target->words) {
        const bool remove = word.startsWith(QLatin1Char('-'));
        const QString tag = (remove || word.startsWith(QLatin1Char('+'))) ? word.mid(1) : word;
        if (const QString problem = Store::tagProblem(tag); !problem.isEmpty())
            return fail(QStringLiteral("%1; nothing was changed.").arg(problem), Usage);
        if (remove)
            tags.removeAll(tag);
        else
            tags << tag;
    }
    if (!target->words.isEmpty()) {
        const bool ok = target->sweep ? review.setSweepTags(target->sweep->id, tags)
                                      : review.setCaseTags(target->caseRecord->id, tags);
        if (!ok)
            return fail(review.lastError());
    }
    tags = Store::normalizeTags(tags);
    if (m_json) {
        json arr = json::array();
        for (const QString &t : tags)
            arr.push_back(t.toStdString());
        m_out << QString::fromStdString(json{{"tags", arr}}.dump()) << Qt::endl;
    } else {
        m_out << joinedTags(tags) << Qt::endl;
    }
    finish(Ok);
}

void Ctl::cmdBaseline()
{
    const QString usage = QStringLiteral("usage: eddyctl baseline SWEEP [TASK|none]");
    if (m_args.size() < 2 || m_args.size() > 3)
        return fail(usage, Usage);
    bool ok = false;
    const qint64 sweepId = m_args[1].toLongLong(&ok);
    if (!ok)
        return fail(QStringLiteral("SWEEP is the sweep number printed by eddyctl sweep submit."), Usage);
    std::optional<qint64> taskNumber;
    const bool clear = m_args.size() == 3 && m_args[2] == QLatin1String("none");
    if (m_args.size() == 3 && !clear) {
        taskNumber = m_args[2].toLongLong(&ok);
        if (!ok)
            return fail(QStringLiteral("TASK is Eddy's task number of one of the sweep's cases, or "
                                       "none to go back to the sweep's first case."),
                        Usage);
    }
    if (!openEngine(false))
        return;
    if (!m_engine.catalogue().sweep(sweepId))
        return fail(QStringLiteral("there is no sweep %1.").arg(sweepId));
    Monitor::Review &review = *m_engine.review();
    if (taskNumber || clear) {
        std::optional<qint64> caseId;
        if (taskNumber) {
            const auto t = m_engine.catalogue().task(*taskNumber);
            if (!t || t->sweepId != sweepId || !t->caseId)
                return fail(QStringLiteral("task %1 is not a case of sweep %2; list them with "
                                           "eddyctl export %2.")
                                .arg(*taskNumber)
                                .arg(sweepId));
            caseId = t->caseId;
        }
        if (!review.setBaseline(sweepId, caseId))
            return fail(review.lastError());
    }
    const auto sweep = m_engine.catalogue().sweep(sweepId);
    const auto baseline = review.baselineCase(sweepId);
    const auto c = baseline ? m_engine.catalogue().caseRecord(*baseline) : std::nullopt;
    const bool marked = sweep && sweep->baselineCaseId;
    if (m_json) {
        m_out << QString::fromStdString(
                     json{{"sweep", sweepId},
                          {"case", c ? json(c->index + 1) : json()},
                          {"task", c && c->taskId ? json(*c->taskId) : json()},
                          {"marked", marked}}
                         .dump())
              << Qt::endl;
    } else if (!c) {
        m_out << QStringLiteral("sweep %1 has no cases").arg(sweepId) << Qt::endl;
    } else {
        m_out << QStringLiteral("sweep %1: baseline is case %2%3 (%4)")
                     .arg(sweepId)
                     .arg(c->index + 1)
                     .arg(c->taskId ? QStringLiteral(", task %1").arg(*c->taskId) : QString())
                     .arg(marked ? QStringLiteral("marked") : QStringLiteral("the first case"))
              << Qt::endl;
    }
    finish(Ok);
}

void Ctl::cmdPause(bool paused)
{
    const QString usage = paused ? QStringLiteral("usage: eddyctl pause SWEEP")
                                 : QStringLiteral("usage: eddyctl resume SWEEP");
    if (m_args.size() != 2)
        return fail(usage, Usage);
    bool ok = false;
    const qint64 sweepId = m_args[1].toLongLong(&ok);
    if (!ok)
        return fail(QStringLiteral("SWEEP is the sweep number printed by eddyctl sweep submit."), Usage);
    if (!openEngine(false))
        return;
    if (!m_engine.catalogue().sweep(sweepId))
        return fail(QStringLiteral("there is no sweep %1.").arg(sweepId));
    if (!m_engine.review()->setPaused(sweepId, paused))
        return fail(m_engine.review()->lastError());
    const int unsent = unsentCount(m_engine.catalogue().cases(sweepId));
    m_err << (paused ? QStringLiteral("sweep %1 paused: its %2 unsent case(s) wait for eddyctl "
                                      "resume %1")
                     : QStringLiteral("sweep %1 resumed: its %2 unsent case(s) are sent by the "
                                      "running Eddy or eddyctl watch"))
                 .arg(sweepId)
                 .arg(unsent)
          << Qt::endl;
    finish(Ok);
}

} // namespace Eddy::Cli
