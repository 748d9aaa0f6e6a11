#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QVariant>

#include <optional>

namespace Eddy {

// The comparison of finished cases against a baseline case: which arguments differ, each result
// scalar's difference and relative change, and the regression rule (more iterations, a higher
// residual, any other scalar moved by more than its threshold; a converged baseline whose case
// did not converge). Plain values, no GUI: the compare view, the exports and reports share it.
// Any thread.
class CaseComparison final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::CaseComparison)

public:
    // How a scalar is judged, from its name.
    enum class Kind {
        Iterations, // "iterations", "iteration_count": more is worse
        Residual,   // "final_residual", "residual.u": higher is worse
        Other       // anything else: a change of either sign beyond the threshold is flagged
    };

    // Relative changes, in percent, beyond which a case is flagged against its baseline.
    struct Thresholds
    {
        double iterationsPercent = 20.0;
        double residualsPercent = 50.0;
        double otherPercent = 10.0;
        double percentFor(Kind kind) const;
    };

    // One case as compared: its arguments (the tools/call arguments, flattened like the sweep
    // table's parameters) and its result scalars (SweepResultsModel::scalarsOf()).
    struct Case
    {
        qint64 taskId = 0;
        QString label; // "Case 3", as the tables name it
        QHash<QString, QVariant> arguments;
        QHash<QString, QVariant> scalars;
    };

    // One scalar of one case against the baseline's.
    struct Delta
    {
        QString scalar;
        Kind kind = Kind::Other;
        QVariant baseline; // invalid when the baseline lacks it
        QVariant value;    // invalid when the case lacks it
        std::optional<double> difference; // value - baseline, numbers only
        std::optional<double> relative;   // difference / |baseline| (0.35 = +35 %); none from 0
        bool regression = false;
        QString reason; // why it is flagged (translated), else empty
    };

    static Kind kindOf(const QString &scalar);
    static Delta compare(const QString &scalar, const QVariant &baseline, const QVariant &value,
                         const Thresholds &thresholds);

    // Names of the arguments whose values are not the same in every case (a name missing from
    // some case differs), sorted; with `all`, every name any case has.
    static QStringList differingArguments(const QList<Case> &cases, bool all = false);
    // Every scalar any case has, in first-seen order.
    static QStringList scalarNames(const QList<Case> &cases);
    // Each case's deltas against `baseline` over `scalars`, in that order.
    static QList<Delta> compareCase(const Case &baseline, const Case &other,
                                    const QStringList &scalars, const Thresholds &thresholds);
    static int regressionCount(const QList<Delta> &deltas);

    // The baseline among `candidates` (task ids in sweep order, the sweep's first case first):
    // the one marked (when it is among them), else the first.
    static qint64 pickBaseline(const QList<qint64> &candidates, std::optional<qint64> marked = {});

    // The comparison as CSV: one row per case and scalar with baseline, value, difference,
    // relative change, regression flag and reason; the thresholds in a leading comment row.
    static QString toCsv(const Case &baseline, const QList<Case> &others,
                         const QStringList &scalars, const Thresholds &thresholds);

    // A value as the tables show it (numbers to six significant digits, booleans yes/no).
    static QString text(const QVariant &value);
    // A difference with its sign: "+17,349", "−0.0572".
    static QString signedText(double difference);
    // "+35 %", "−4.1 %", "×260" from tenfold up; empty when there is none.
    static QString percentText(std::optional<double> relative);
};

} // namespace Eddy
