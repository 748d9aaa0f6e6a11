#include "models/casecomparison.h"
#include "app/vocab/valuetext.h"

#include <QTest>

using namespace Eddy;
using Kind = CaseComparison::Kind;

// The regression rule and the argument diff the compare view, its CSV export and reports share.
class tst_CaseComparison : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void kinds_data();
    void kinds();
    void flags_data();
    void flags();
    void thresholdsAreEditable();
    void argumentsThatDiffer();
    void baselineIsTheFirstCaseUnlessMarked();
    void csvCarriesTheFlags();
    void changesReadAsPercentOrFactor();
    void valuesReadByOneRule();
};

void tst_CaseComparison::changesReadAsPercentOrFactor()
{
    QCOMPARE(CaseComparison::percentText(0.5), QStringLiteral("+50 %"));
    QCOMPARE(CaseComparison::percentText(-0.041), QStringLiteral("−4.1 %"));
    QCOMPARE(CaseComparison::percentText(8.5), QStringLiteral("+850 %"));
    QCOMPARE(CaseComparison::percentText(259.0), QStringLiteral("×260"));
    QCOMPARE(CaseComparison::percentText(std::nullopt), QString());
    QCOMPARE(CaseComparison::signedText(-2.5), QStringLiteral("−2.5"));
    QCOMPARE(CaseComparison::signedText(3), QStringLiteral("+3"));
    QCOMPARE(CaseComparison::signedText(0), QStringLiteral("0"));
}

void tst_CaseComparison::kinds_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<Kind>("kind");
    QTest::newRow("iterations") << "iterations" << Kind::Iterations;
    QTest::newRow("Iteration_count") << "Iteration_count" << Kind::Iterations;
    QTest::newRow("final_residual") << "final_residual" << Kind::Residual;
    QTest::newRow("residual.u") << "residual.u" << Kind::Residual;
    QTest::newRow("wall_seconds") << "wall_seconds" << Kind::Other;
    QTest::newRow("vortex_centre.x") << "vortex_centre.x" << Kind::Other;
}

void tst_CaseComparison::kinds()
{
    QFETCH(QString, name);
    QFETCH(Kind, kind);
    QCOMPARE(CaseComparison::kindOf(name), kind);
}

void tst_CaseComparison::flags_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QVariant>("baseline");
    QTest::addColumn<QVariant>("value");
    QTest::addColumn<bool>("regression");
    QTest::addColumn<double>("relative"); // NaN: none
    const double none = std::nan("");
    QTest::newRow("iterations +19 %") << "iterations" << QVariant(100) << QVariant(119) << false << 0.19;
    QTest::newRow("iterations +21 %") << "iterations" << QVariant(100) << QVariant(121) << true << 0.21;
    QTest::newRow("iterations fewer") << "iterations" << QVariant(100) << QVariant(10) << false << -0.9;
    QTest::newRow("residual +49 %") << "final_residual" << QVariant(1e-6) << QVariant(1.49e-6) << false << 0.49;
    QTest::newRow("residual +60 %") << "final_residual" << QVariant(1e-6) << QVariant(1.6e-6) << true << 0.6;
    QTest::newRow("residual lower") << "final_residual" << QVariant(1e-6) << QVariant(1e-9) << false << -0.999;
    QTest::newRow("other +11 %") << "wall_seconds" << QVariant(10.0) << QVariant(11.1) << true << 0.11;
    QTest::newRow("other -11 %") << "vortex_centre.psi" << QVariant(-0.1) << QVariant(-0.111) << true << -0.11;
    QTest::newRow("other +9 %") << "wall_seconds" << QVariant(10.0) << QVariant(10.9) << false << 0.09;
    QTest::newRow("from zero") << "vortex_centre.x" << QVariant(0.0) << QVariant(0.1) << true << none;
    QTest::newRow("zero to zero") << "vortex_centre.x" << QVariant(0.0) << QVariant(0.0) << false << none;
    QTest::newRow("lost convergence") << "converged" << QVariant(true) << QVariant(false) << true << none;
    QTest::newRow("gained convergence") << "converged" << QVariant(false) << QVariant(true) << false << none;
    QTest::newRow("missing value") << "iterations" << QVariant(100) << QVariant() << false << none;
    QTest::newRow("text") << "solver" << QVariant(QStringLiteral("a")) << QVariant(QStringLiteral("b")) << false << none;
}

void tst_CaseComparison::flags()
{
    QFETCH(QString, name);
    QFETCH(QVariant, baseline);
    QFETCH(QVariant, value);
    QFETCH(bool, regression);
    QFETCH(double, relative);
    const auto d = CaseComparison::compare(name, baseline, value, {});
    QCOMPARE(d.regression, regression);
    QCOMPARE(d.reason.isEmpty(), !regression);
    if (std::isnan(relative)) {
        QVERIFY(!d.relative);
    } else {
        QVERIFY(d.relative);
        QVERIFY2(std::abs(*d.relative - relative) < 1e-9, qPrintable(QString::number(*d.relative)));
        QCOMPARE(*d.difference, value.toDouble() - baseline.toDouble());
    }
}

void tst_CaseComparison::thresholdsAreEditable()
{
    CaseComparison::Thresholds t;
    QCOMPARE(t.iterationsPercent, 20.0);
    QCOMPARE(t.residualsPercent, 50.0);
    QCOMPARE(t.otherPercent, 10.0);
    t.iterationsPercent = 50;
    QVERIFY(!CaseComparison::compare(QStringLiteral("iterations"), 100, 140, t).regression);
    t.iterationsPercent = 5;
    const auto d = CaseComparison::compare(QStringLiteral("iterations"), 100, 106, t);
    QVERIFY(d.regression);
    QVERIFY2(d.reason.contains(QStringLiteral("+5 %")), qPrintable(d.reason));
}

void tst_CaseComparison::argumentsThatDiffer()
{
    CaseComparison::Case a, b, c;
    a.arguments = {{"reynolds", 100}, {"grid", 32}, {"tolerance", 1e-6}, {"case_name", "x"}};
    b.arguments = {{"reynolds", 100.0}, {"grid", 64}, {"tolerance", 1e-6}, {"case_name", "x"}};
    c.arguments = {{"reynolds", 100}, {"grid", 32}, {"tolerance", 1e-6}, {"case_name", "x"}, {"grading", 2.0}};
    QCOMPARE(CaseComparison::differingArguments({a, b}), QStringList{"grid"});
    QCOMPARE(CaseComparison::differingArguments({a, c}), QStringList{"grading"});
    QCOMPARE(CaseComparison::differingArguments({a, b, c}), (QStringList{"grading", "grid"}));
    QCOMPARE(CaseComparison::differingArguments({a, a}), QStringList());
    QCOMPARE(CaseComparison::differingArguments({a, b}, true),
             (QStringList{"case_name", "grid", "reynolds", "tolerance"}));
}

void tst_CaseComparison::baselineIsTheFirstCaseUnlessMarked()
{
    QCOMPARE(CaseComparison::pickBaseline({7, 3, 9}), 7);
    QCOMPARE(CaseComparison::pickBaseline({7, 3, 9}, 9), 9);
    QCOMPARE(CaseComparison::pickBaseline({7, 3, 9}, 42), 7); // marked, but not compared
    QCOMPARE(CaseComparison::pickBaseline({}), 0);
}

void tst_CaseComparison::csvCarriesTheFlags()
{
    CaseComparison::Case base, other;
    base.label = QStringLiteral("Case 1");
    other.label = QStringLiteral("Case 2");
    base.scalars = {{"iterations", 100}, {"converged", true}};
    other.scalars = {{"iterations", 150}, {"converged", true}};
    const QString csv = CaseComparison::toCsv(base, {other}, CaseComparison::scalarNames({base, other}), {});
    const QStringList lines = csv.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 4);
    QVERIFY(lines.at(0).startsWith(QStringLiteral("# baseline,Case 1")));
    QCOMPARE(lines.at(1), QStringLiteral("case,scalar,baseline,value,difference,relative_change,regression,reason"));
    QCOMPARE(lines.at(2), QStringLiteral("Case 2,converged,true,true,,,no,"));
    QVERIFY2(lines.at(3).startsWith(QStringLiteral("Case 2,iterations,100,150,50,0.5,yes,")), qPrintable(lines.at(3)));
}

// Every view shows a result value by Eddy::formatValue; the CSV carries it whole.
void tst_CaseComparison::valuesReadByOneRule()
{
    QCOMPARE(formatValue(3.14159265358979), QStringLiteral("3.14159"));
    QCOMPARE(formatValue(1.5e-7), QStringLiteral("1.5e-07"));
    QCOMPARE(formatValue(1234567.0), QStringLiteral("1.23457e+06"));
    QCOMPARE(formatValue(0.1 + 0.2), QStringLiteral("0.3"));
    QCOMPARE(formatValue(2.5, QLocale(QLocale::German)), QStringLiteral("2,5"));
    QCOMPARE(CaseComparison::text(3.14159265358979), formatValue(3.14159265358979, QLocale()));
    QCOMPARE(formatValueExact(0.1), QStringLiteral("0.1"));
    QCOMPARE(formatValueExact(0.1 + 0.2), QStringLiteral("0.30000000000000004"));
    QCOMPARE(formatValueExact(3.14159265358979).toDouble(), 3.14159265358979);

    CaseComparison::Case base, other;
    base.label = QStringLiteral("Case 1");
    other.label = QStringLiteral("Case 2");
    base.scalars = {{"drag", 0.123456789012}};
    other.scalars = {{"drag", 0.1}};
    const QString csv = CaseComparison::toCsv(base, {other}, CaseComparison::scalarNames({base, other}), {});
    QVERIFY2(csv.contains(QStringLiteral("Case 2,drag,0.123456789012,0.1,")), qPrintable(csv));
}

QTEST_GUILESS_MAIN(tst_CaseComparison)
#include "tst_casecomparison.moc"
