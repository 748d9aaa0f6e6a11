// eddyctl samples thin: the engineer's explicit choice to thin old runs' progress samples.
#include "app/cli/ctl.h"
#include "app/cli/ctl_p.h"

#include "app/monitor/samplethinner.h"

namespace Eddy::Cli {

void Ctl::cmdSamples()
{
    static const QString usageText = QStringLiteral(
        "usage: eddyctl samples thin --older-than DAYSd --keep 1-in-N [--yes]");
    if (m_args.size() != 2 || m_args[1] != QLatin1String("thin"))
        return fail(usageText, Usage);
    static const QRegularExpression age(QStringLiteral("^([0-9]+)d$"));
    static const QRegularExpression keep(QStringLiteral("^1-in-([0-9]+)$"));
    const auto days = age.match(m_olderThan);
    const auto oneIn = keep.match(m_keep);
    if (!days.hasMatch() || days.captured(1).toLongLong() < 1)
        return fail(QStringLiteral("--older-than takes an age in days, e.g. --older-than 90d: runs that "
                                   "finished longer ago than that are thinned.\n")
                        + usageText,
                    Usage);
    const int n = oneIn.hasMatch() ? oneIn.captured(1).toInt() : 0;
    if (n < 2)
        return fail(QStringLiteral("--keep says how many samples stay, e.g. --keep 1-in-10 (every tenth sample "
                                   "of each series, and its first and last).\n")
                        + usageText,
                    Usage);
    if (!openEngine(false))
        return;
    const qint64 cutoff = QDateTime::currentMSecsSinceEpoch() - days.captured(1).toLongLong() * 86400000LL;
    const QString before = QDateTime::fromMSecsSinceEpoch(cutoff, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"));
    const auto plan = Monitor::SampleThinner::plan(m_engine, cutoff, n);
    if (!plan)
        return fail(QStringLiteral("cannot count the progress samples: %1").arg(m_engine.storeError()));
    m_out << QStringLiteral("%1 run(s) finished before %2 hold %3 of the %4 progress samples stored. "
                            "Keeping 1 in %5 (and each series' first and last) removes %6.")
                 .arg(plan->runs)
                 .arg(before)
                 .arg(plan->samples)
                 .arg(plan->total)
                 .arg(n)
                 .arg(plan->removable)
          << Qt::endl;
    if (!m_yes) {
        m_out << "Nothing was removed. Run the same command with --yes to remove them; this cannot be "
                 "undone (results, residual histories in results, questions and answers are never touched)."
              << Qt::endl;
        return finish(Ok);
    }
    const auto removed = Monitor::SampleThinner::thin(m_engine, cutoff, n);
    if (!removed)
        return fail(QStringLiteral("nothing was removed: %1").arg(m_engine.storeError()));
    m_out << QStringLiteral("Removed %1 progress sample(s).").arg(*removed) << Qt::endl;
    finish(Ok);
}

} // namespace Eddy::Cli
