#pragma once

#include "app/vocab/outcome.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace Eddy {

// What the task and sweep views show while reviewing past sweeps (docs/user-guide.md
// "Filtering past runs"): a range per varied parameter or result scalar, outcomes, tags, and
// words over a row's name, note and arguments. Kept as a small JSON file (Save Filter... / Open
// Filter...):
//   {"eddyFilter": 1, "ranges": {"reynolds": {"min": 100, "max": 400}}, "outcomes":
//    ["failed", "not_converged"], "tags": ["suspect"], "text": "lid"}
// Every key but "eddyFilter" may be left out. A plain value; any thread.
class ReviewFilter final
{
    Q_DECLARE_TR_FUNCTIONS(Eddy::ReviewFilter)

public:
    struct Range
    {
        std::optional<double> min;
        std::optional<double> max;
        bool contains(double v) const { return (!min || v >= *min) && (!max || v <= *max); }
        bool operator==(const Range &) const = default;
    };

    QMap<QString, Range> ranges;         // parameter or result scalar -> its range
    QSet<Monitor::Outcome> outcomes;     // empty: every outcome
    QStringList tags;                    // a row matches when it carries every one
    QString text;                        // each word must occur (case-insensitive)

    bool isEmpty() const { return ranges.isEmpty() && outcomes.isEmpty() && tags.isEmpty() && text.trimmed().isEmpty(); }
    bool operator==(const ReviewFilter &) const = default;
    QStringList words() const { return text.toLower().split(QLatin1Char(' '), Qt::SkipEmptyParts); }

    QByteArray toJson() const;
    // nullopt + *error (what is wrong and what to do) for a file that is not such a filter.
    static std::optional<ReviewFilter> fromJson(const QByteArray &json, QString *error);
    // Outcome tokens as in exports ("converged", "not_converged", ...).
    static std::optional<Monitor::Outcome> outcomeFromKey(const QString &key);
};

} // namespace Eddy
