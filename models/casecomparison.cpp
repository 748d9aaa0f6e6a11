#include "models/casecomparison.h"

#include "app/vocab/valuetext.h"

#include <QLocale>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace Eddy {

namespace {

bool isNumber(const QVariant &v)
{
    const auto type = v.typeId();
    return type == QMetaType::Double || type == QMetaType::Int || type == QMetaType::LongLong
           || type == QMetaType::UInt || type == QMetaType::ULongLong || type == QMetaType::Float;
}

QString csvField(const QString &s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QString number(double v)
{
    return formatValueExact(v); // CSV: C locale, every digit
}

} // namespace

double CaseComparison::Thresholds::percentFor(Kind kind) const
{
    switch (kind) {
    case Kind::Iterations:
        return iterationsPercent;
    case Kind::Residual:
        return residualsPercent;
    case Kind::Other:
        break;
    }
    return otherPercent;
}

CaseComparison::Kind CaseComparison::kindOf(const QString &scalar)
{
    if (scalar.contains(QLatin1String("iteration"), Qt::CaseInsensitive))
        return Kind::Iterations;
    if (scalar.contains(QLatin1String("residual"), Qt::CaseInsensitive))
        return Kind::Residual;
    return Kind::Other;
}

CaseComparison::Delta CaseComparison::compare(const QString &scalar, const QVariant &baseline,
                                              const QVariant &value, const Thresholds &thresholds)
{
    Delta d;
    d.scalar = scalar;
    d.kind = kindOf(scalar);
    d.baseline = baseline;
    d.value = value;
    if (!baseline.isValid() || !value.isValid())
        return d; // nothing to judge: the table shows what is missing
    if (baseline.typeId() == QMetaType::Bool && value.typeId() == QMetaType::Bool) {
        if (baseline.toBool() == value.toBool())
            return d;
        if (scalar.contains(QLatin1String("converged"), Qt::CaseInsensitive)) {
            // Converging where the baseline did not is no regression.
            d.regression = baseline.toBool();
            if (d.regression)
                d.reason = tr("did not converge, the baseline did");
        } else {
            d.regression = true;
            d.reason = tr("changed from %1 to %2").arg(text(baseline), text(value));
        }
        return d;
    }
    if (!isNumber(baseline) || !isNumber(value))
        return d;
    const double b = baseline.toDouble();
    const double v = value.toDouble();
    d.difference = v - b;
    if (b != 0 && std::isfinite(b) && std::isfinite(v))
        d.relative = (v - b) / std::abs(b);
    const double limit = thresholds.percentFor(d.kind) / 100.0;
    const bool higherIsWorse = d.kind != Kind::Other;
    if (d.relative) {
        const double change = *d.relative;
        d.regression = higherIsWorse ? change > limit : std::abs(change) > limit;
    } else if (v != b) {
        // From zero every change is infinitely large: flag it with its own words.
        d.regression = higherIsWorse ? v > b : true;
    }
    if (d.regression) {
        const QString by = d.relative ? percentText(d.relative) : text(*d.difference);
        switch (d.kind) {
        case Kind::Iterations:
            d.reason = tr("%1 iterations against the baseline (threshold +%2 %)")
                           .arg(by)
                           .arg(thresholds.iterationsPercent);
            break;
        case Kind::Residual:
            d.reason = tr("%1 against the baseline's residual (threshold +%2 %)")
                           .arg(by)
                           .arg(thresholds.residualsPercent);
            break;
        case Kind::Other:
            d.reason = tr("%1 against the baseline (threshold ±%2 %)")
                           .arg(by)
                           .arg(thresholds.otherPercent);
            break;
        }
    }
    return d;
}

QStringList CaseComparison::differingArguments(const QList<Case> &cases, bool all)
{
    QSet<QString> names;
    for (const Case &c : cases)
        for (auto it = c.arguments.begin(); it != c.arguments.end(); ++it)
            names.insert(it.key());
    QStringList out;
    for (const QString &name : std::as_const(names)) {
        bool same = true;
        for (int i = 1; same && i < cases.size(); ++i) {
            const QVariant a = cases.first().arguments.value(name);
            const QVariant b = cases.at(i).arguments.value(name);
            same = a.isValid() == b.isValid() && (isNumber(a) && isNumber(b) ? a.toDouble() == b.toDouble() : a == b);
        }
        if (all || !same)
            out << name;
    }
    std::sort(out.begin(), out.end());
    return out;
}

QStringList CaseComparison::scalarNames(const QList<Case> &cases)
{
    QStringList out;
    for (const Case &c : cases) {
        QStringList mine = c.scalars.keys();
        std::sort(mine.begin(), mine.end());
        for (const QString &name : std::as_const(mine))
            if (!out.contains(name))
                out << name;
    }
    return out;
}

QList<CaseComparison::Delta> CaseComparison::compareCase(const Case &baseline, const Case &other,
                                                         const QStringList &scalars,
                                                         const Thresholds &thresholds)
{
    QList<Delta> out;
    out.reserve(scalars.size());
    for (const QString &name : scalars)
        out << compare(name, baseline.scalars.value(name), other.scalars.value(name), thresholds);
    return out;
}

int CaseComparison::regressionCount(const QList<Delta> &deltas)
{
    return int(std::count_if(deltas.begin(), deltas.end(), [](const Delta &d) { return d.regression; }));
}

qint64 CaseComparison::pickBaseline(const QList<qint64> &candidates, std::optional<qint64> marked)
{
    if (marked && candidates.contains(*marked))
        return *marked;
    return candidates.isEmpty() ? 0 : candidates.first();
}

QString CaseComparison::toCsv(const Case &baseline, const QList<Case> &others,
                              const QStringList &scalars, const Thresholds &thresholds)
{
    QString out = QStringLiteral("# baseline,%1,thresholds (%%),iterations +%2,residuals +%3,other ±%4\n")
                      .arg(csvField(baseline.label))
                      .arg(thresholds.iterationsPercent)
                      .arg(thresholds.residualsPercent)
                      .arg(thresholds.otherPercent);
    out += QStringLiteral("case,scalar,baseline,value,difference,relative_change,regression,reason\n");
    const auto raw = [](const QVariant &v) {
        if (!v.isValid())
            return QString();
        if (v.typeId() == QMetaType::Bool)
            return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        return isNumber(v) ? number(v.toDouble()) : csvField(v.toString());
    };
    for (const Case &c : others) {
        for (const Delta &d : compareCase(baseline, c, scalars, thresholds)) {
            out += QStringList{csvField(c.label),
                               csvField(d.scalar),
                               raw(d.baseline),
                               raw(d.value),
                               d.difference ? number(*d.difference) : QString(),
                               d.relative ? number(*d.relative) : QString(),
                               d.regression ? QStringLiteral("yes") : QStringLiteral("no"),
                               csvField(d.reason)}
                       .join(QLatin1Char(','));
            out += QLatin1Char('\n');
        }
    }
    return out;
}

QString CaseComparison::text(const QVariant &value)
{
    if (!value.isValid())
        return QStringLiteral("—");
    if (value.typeId() == QMetaType::Bool)
        return value.toBool() ? tr("yes") : tr("no");
    if (isNumber(value))
        return formatValue(value.toDouble(), QLocale());
    return value.toString();
}

QString CaseComparison::signedText(double difference)
{
    const QString digits = formatValue(std::abs(difference), QLocale());
    return difference < 0 ? QStringLiteral("−") + digits : difference > 0 ? QLatin1Char('+') + digits : digits;
}

QString CaseComparison::percentText(std::optional<double> relative)
{
    if (!relative)
        return {};
    // A thousandfold residual reads better as a factor than as +99,900 %.
    if (*relative >= 9.0)
        return QStringLiteral("×") + QLocale().toString(1.0 + *relative, 'g', 3);
    const double p = *relative * 100.0;
    const QString digits = QLocale().toString(std::abs(p), 'f', std::abs(p) < 10 ? 1 : 0);
    return (p < 0 ? QStringLiteral("−") : QStringLiteral("+")) + digits + QStringLiteral(" %");
}

} // namespace Eddy
