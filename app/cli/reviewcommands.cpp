#include "app/cli/reviewcommands.h"

#include "app/cli/ctl_p.h"
#include "app/cli/invocation.h"

#include "app/monitor/review.h"
#include "app/monitor/samplethinner.h"
#include "models/sweepreport.h"
#include "models/sweepreportreader.h"

#include <QGuiApplication>
#include <QTranslator>

namespace Eddy::Cli {

namespace {

QString joinedTags(const QStringList &tags)
{
    return tags.isEmpty() ? QStringLiteral("(no tags)") : tags.join(QLatin1Char(' '));
}

} // namespace

ReviewCommands::ReviewCommands(Invocation &run)
    : m_run(run)
{}

// docs/eddyctl.md "Notes, tags, baselines and pauses".
std::optional<ReviewCommands::Target> ReviewCommands::reviewTarget(const QString &usage)
{
    // TASK (its case) or "sweep SWEEP".
    const bool isSweep = m_run.args().size() >= 2 && m_run.args()[1] == QLatin1String("sweep");
    const qsizetype at = isSweep ? 2 : 1;
    if (m_run.args().size() <= at) {
        m_run.fail(usage, Usage);
        return std::nullopt;
    }
    bool ok = false;
    const qint64 number = m_run.args()[at].toLongLong(&ok);
    if (!ok) {
        m_run.fail(
            isSweep ? QStringLiteral("SWEEP is the sweep number printed by eddyctl sweep submit.")
                    : QStringLiteral("TASK is Eddy's task number, as shown by eddyctl tasks (or "
                                     "\"sweep SWEEP\" for a whole sweep)."),
            Usage);
        return std::nullopt;
    }
    if (!m_run.openEngine(false))
        return std::nullopt;
    Target target;
    target.words = m_run.args().mid(at + 1);
    if (isSweep) {
        const auto sweep = m_run.engine().catalogue().sweep(number);
        if (!sweep) {
            m_run.fail(
                QStringLiteral("there is no sweep %1; list tasks with eddyctl tasks.").arg(number));
            return std::nullopt;
        }
        target.sweep = *sweep;
        target.what = QStringLiteral("sweep %1").arg(number);
        return target;
    }
    const auto task = m_run.engine().catalogue().task(number);
    if (!task) {
        m_run.fail(
            QStringLiteral("there is no task %1; list tasks with eddyctl tasks.").arg(number));
        return std::nullopt;
    }
    const auto c
        = task->caseId ? m_run.engine().catalogue().caseRecord(*task->caseId) : std::nullopt;
    if (!c) {
        m_run.fail(
            QStringLiteral("task %1 has no case in this database (it was handed over by another "
                           "client); notes and tags are kept with cases and sweeps.")
                .arg(number));
        return std::nullopt;
    }
    target.caseRecord = *c;
    target.what = QStringLiteral("task %1").arg(number);
    return target;
}

std::optional<qint64> ReviewCommands::sweepArgument()
{
    bool ok = false;
    const qint64 sweepId = m_run.args().value(1).toLongLong(&ok);
    if (!ok) {
        m_run.fail(QStringLiteral("SWEEP is the sweep number printed by eddyctl sweep submit."),
                   Usage);
        return std::nullopt;
    }
    return sweepId;
}

void ReviewCommands::note()
{
    const auto target = reviewTarget(QStringLiteral("usage: eddyctl note TASK|sweep SWEEP [TEXT]"));
    if (!target)
        return;
    Monitor::Review &review = *m_run.engine().review();
    if (target->words.isEmpty()) { // print it
        const QString note = target->sweep ? target->sweep->note : target->caseRecord->note;
        if (m_run.options().jsonOutput)
            m_run.out() << QString::fromStdString(json{{"note", note.toStdString()}}.dump())
                        << Qt::endl;
        else
            m_run.out() << (note.isEmpty() ? QStringLiteral("(no note)") : note) << Qt::endl;
        return m_run.finish(Ok);
    }
    const QString note = target->words.join(QLatin1Char(' '));
    const bool ok = target->sweep ? review.setSweepNote(target->sweep->id, note)
                                  : review.setCaseNote(target->caseRecord->id, note);
    if (!ok)
        return m_run.fail(review.lastError());
    m_run.err() << (note.isEmpty() ? QStringLiteral("%1: note cleared").arg(target->what)
                                   : QStringLiteral("%1: note stored").arg(target->what))
                << Qt::endl;
    m_run.finish(Ok);
}

void ReviewCommands::tag()
{
    const QString usage = QStringLiteral("usage: eddyctl tag TASK|sweep SWEEP [TAG|+TAG|-TAG ...]");
    const auto target = reviewTarget(usage);
    if (!target)
        return;
    Monitor::Review &review = *m_run.engine().review();
    QStringList tags = target->sweep ? target->sweep->tags : target->caseRecord->tags;
    for (const QString &word : target->words) {
        const bool remove = word.startsWith(QLatin1Char('-'));
        const QString tag = (remove || word.startsWith(QLatin1Char('+'))) ? word.mid(1) : word;
        if (const QString problem = Store::tagProblem(tag); !problem.isEmpty())
            return m_run.fail(QStringLiteral("%1; nothing was changed.").arg(problem), Usage);
        if (remove)
            tags.removeAll(tag);
        else
            tags << tag;
    }
    if (!target->words.isEmpty()) {
        const bool ok = target->sweep ? review.setSweepTags(target->sweep->id, tags)
                                      : review.setCaseTags(target->caseRecord->id, tags);
        if (!ok)
            return m_run.fail(review.lastError());
    }
    tags = Store::normalizeTags(tags);
    if (m_run.options().jsonOutput) {
        json arr = json::array();
        for (const QString &t : tags)
            arr.push_back(t.toStdString());
        m_run.out() << QString::fromStdString(json{{"tags", arr}}.dump()) << Qt::endl;
    } else {
        m_run.out() << joinedTags(tags) << Qt::endl;
    }
    m_run.finish(Ok);
}

void ReviewCommands::baseline()
{
    const QString usage = QStringLiteral("usage: eddyctl baseline SWEEP [TASK|none]");
    if (m_run.args().size() < 2 || m_run.args().size() > 3)
        return m_run.fail(usage, Usage);
    const auto sweepArg = sweepArgument();
    if (!sweepArg)
        return;
    const qint64 sweepId = *sweepArg;
    std::optional<qint64> taskNumber;
    const bool clear = m_run.args().size() == 3 && m_run.args()[2] == QLatin1String("none");
    if (m_run.args().size() == 3 && !clear) {
        bool ok = false;
        taskNumber = m_run.args()[2].toLongLong(&ok);
        if (!ok)
            return m_run.fail(
                QStringLiteral("TASK is Eddy's task number of one of the sweep's cases, or "
                               "none to go back to the sweep's first case."),
                Usage);
    }
    if (!m_run.openEngine(false))
        return;
    if (!m_run.engine().catalogue().sweep(sweepId))
        return m_run.fail(QStringLiteral("there is no sweep %1.").arg(sweepId));
    Monitor::Review &review = *m_run.engine().review();
    if (taskNumber || clear) {
        std::optional<qint64> caseId;
        if (taskNumber) {
            const auto t = m_run.engine().catalogue().task(*taskNumber);
            if (!t || t->sweepId != sweepId || !t->caseId)
                return m_run.fail(
                    QStringLiteral("task %1 is not a case of sweep %2; list them with "
                                   "eddyctl export %2.")
                        .arg(*taskNumber)
                        .arg(sweepId));
            caseId = t->caseId;
        }
        if (!review.setBaseline(sweepId, caseId))
            return m_run.fail(review.lastError());
    }
    const auto sweep = m_run.engine().catalogue().sweep(sweepId);
    const auto baseline = review.baselineCase(sweepId);
    const auto c = baseline ? m_run.engine().catalogue().caseRecord(*baseline) : std::nullopt;
    const bool marked = sweep && sweep->baselineCaseId;
    if (m_run.options().jsonOutput) {
        m_run.out() << QString::fromStdString(json{
            {"sweep", sweepId},
            {"case", c ? json(c->index + 1) : json()},
            {"task", c && c->taskId ? json(*c->taskId) : json()},
            {"marked", marked}}.dump())
                    << Qt::endl;
    } else if (!c) {
        m_run.out() << QStringLiteral("sweep %1 has no cases").arg(sweepId) << Qt::endl;
    } else {
        m_run.out() << QStringLiteral("sweep %1: baseline is case %2%3 (%4)")
                           .arg(sweepId)
                           .arg(c->index + 1)
                           .arg(c->taskId ? QStringLiteral(", task %1").arg(*c->taskId) : QString())
                           .arg(marked ? QStringLiteral("marked")
                                       : QStringLiteral("the first case"))
                    << Qt::endl;
    }
    m_run.finish(Ok);
}

void ReviewCommands::pause(bool paused)
{
    const QString usage = paused ? QStringLiteral("usage: eddyctl pause SWEEP")
                                 : QStringLiteral("usage: eddyctl resume SWEEP");
    if (m_run.args().size() != 2)
        return m_run.fail(usage, Usage);
    const auto sweepArg = sweepArgument();
    if (!sweepArg)
        return;
    const qint64 sweepId = *sweepArg;
    if (!m_run.openEngine(false))
        return;
    if (!m_run.engine().catalogue().sweep(sweepId))
        return m_run.fail(QStringLiteral("there is no sweep %1.").arg(sweepId));
    if (!m_run.engine().review()->setPaused(sweepId, paused))
        return m_run.fail(m_run.engine().review()->lastError());
    const int unsent = unsentCount(m_run.engine().catalogue().cases(sweepId));
    m_run.err() << (paused
                        ? QStringLiteral("sweep %1 paused: its %2 unsent case(s) wait for eddyctl "
                                         "resume %1")
                        : QStringLiteral("sweep %1 resumed: its %2 unsent case(s) are sent by the "
                                         "running Eddy or eddyctl watch"))
                       .arg(sweepId)
                       .arg(unsent)
                << Qt::endl;
    m_run.finish(Ok);
}

void ReviewCommands::samples()
{
    static const QString usageText
        = QStringLiteral("usage: eddyctl samples thin --older-than DAYSd --keep 1-in-N [--yes]");
    if (m_run.args().size() != 2 || m_run.args()[1] != QLatin1String("thin"))
        return m_run.fail(usageText, Usage);
    static const QRegularExpression age(QStringLiteral("^([0-9]+)d$"));
    static const QRegularExpression keep(QStringLiteral("^1-in-([0-9]+)$"));
    const auto days = age.match(m_run.options().olderThan);
    const auto oneIn = keep.match(m_run.options().keep);
    if (!days.hasMatch() || days.captured(1).toLongLong() < 1)
        return m_run.fail(
            QStringLiteral("--older-than takes an age in days, e.g. --older-than 90d: runs that "
                           "finished longer ago than that are thinned.\n")
                + usageText,
            Usage);
    const int n = oneIn.hasMatch() ? oneIn.captured(1).toInt() : 0;
    if (n < 2)
        return m_run.fail(
            QStringLiteral(
                "--keep says how many samples stay, e.g. --keep 1-in-10 (every tenth sample "
                "of each series, and its first and last).\n")
                + usageText,
            Usage);
    if (!m_run.openEngine(false))
        return;
    const qint64 cutoff
        = QDateTime::currentMSecsSinceEpoch() - days.captured(1).toLongLong() * 86400000LL;
    const QString before = QDateTime::fromMSecsSinceEpoch(cutoff, Qt::UTC)
                               .toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    const auto plan = Monitor::SampleThinner::plan(m_run.engine(), cutoff, n);
    if (!plan)
        return m_run.fail(QStringLiteral("cannot count the progress samples: %1")
                              .arg(m_run.engine().storeError()));
    m_run.out() << QStringLiteral(
                       "%1 run(s) finished before %2 hold %3 of the %4 progress samples stored. "
                       "Keeping 1 in %5 (and each series' first and last) removes %6.")
                       .arg(plan->runs)
                       .arg(before)
                       .arg(plan->samples)
                       .arg(plan->total)
                       .arg(n)
                       .arg(plan->removable)
                << Qt::endl;
    if (!m_run.options().yes) {
        m_run.out() << "Nothing was removed. Run the same command with --yes to remove them; this "
                       "cannot be "
                       "undone (results, residual histories in results, questions and answers are "
                       "never touched)."
                    << Qt::endl;
        return m_run.finish(Ok);
    }
    const auto removed = Monitor::SampleThinner::thin(m_run.engine(), cutoff, n);
    if (!removed)
        return m_run.fail(
            QStringLiteral("nothing was removed: %1").arg(m_run.engine().storeError()));
    m_run.out() << QStringLiteral("Removed %1 progress sample(s).").arg(*removed) << Qt::endl;
    m_run.finish(Ok);
}

void ReviewCommands::report()
{
    static const QString usageText
        = QStringLiteral("usage: eddyctl report SWEEP [-o FILE] [--pdf FILE] [--lang de|en]");
    QString html = m_run.options().output;
    QStringList rest = m_run.args().mid(1);
    for (qsizetype i = 0; i < rest.size(); ++i) {
        if (rest[i] == QLatin1String("-o")) {
            if (i + 1 >= rest.size())
                return m_run.fail(QStringLiteral("-o needs a file name."), Usage);
            html = rest[i + 1];
            rest.remove(i, 2);
            --i;
        }
    }
    if (rest.size() != 1)
        return m_run.fail(usageText, Usage);
    bool ok = false;
    const qint64 sweep = rest[0].toLongLong(&ok);
    if (!ok || sweep <= 0)
        return m_run.fail(
            QStringLiteral(
                "SWEEP is the sweep number printed by eddyctl sweep submit (eddyctl tasks "
                "--json shows each task's sweep)."),
            Usage);
    if (!m_run.options().pdf.isEmpty()
        && !qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return m_run.fail(
            QStringLiteral("--pdf needs Qt's GUI library, which did not start; write the HTML "
                           "with -o FILE and print it from a browser."));
    if (!m_run.options().lang.isEmpty() && m_run.options().lang != QLatin1String("en")) {
        // The window's translations, built in: the report reads as the window would in LANG.
        auto *translator = new QTranslator(&m_run);
        if (!translator->load(QStringLiteral(":/i18n/eddy_%1.qm").arg(m_run.options().lang)))
            return m_run.fail(
                QStringLiteral("there is no %1 translation of the report; --lang takes de or en.")
                    .arg(m_run.options().lang),
                Usage);
        QCoreApplication::installTranslator(translator);
    }
    if (!m_run.openEngine(false))
        return;
    const auto input = SweepReportReader::read(m_run.engine(), sweep);
    if (!input)
        return m_run.fail(
            QStringLiteral(
                "there is no sweep %1 in %2; eddyctl tasks --json shows each task's sweep.")
                .arg(sweep)
                .arg(m_run.options().db));
    QString error;
    if (!html.isEmpty() && !SweepReport::writeHtml(*input, html, &error))
        return m_run.fail(error + QStringLiteral("; choose another file with -o FILE."));
    if (!m_run.options().pdf.isEmpty()
        && !SweepReport::writePdf(*input, m_run.options().pdf, &error))
        return m_run.fail(error + QStringLiteral("; choose another file with --pdf FILE."));
    if (html.isEmpty() && m_run.options().pdf.isEmpty())
        m_run.out() << SweepReport::html(*input);
    else
        m_run.err()
            << QStringLiteral("sweep %1: %2 case(s) reported").arg(sweep).arg(input->cases.size())
            << Qt::endl;
    m_run.finish(Ok);
}

} // namespace Eddy::Cli
