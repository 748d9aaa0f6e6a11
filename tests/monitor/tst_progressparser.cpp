// statusMessage parsing, table-driven with the reference server's real messages, and the
// fraction / ETA / verdict derived from the samples.
#include "app/monitor/progressanalyzer.h"
#include "app/monitor/progressparser.h"

#include <QMap>
#include <QPointF>
#include <QTest>

#include <cmath>

using namespace Eddy::Monitor;
using Eddy::Store::ProgressSample;

namespace {

QMap<QString, double> toMap(const QList<ProgressSample> &samples)
{
    QMap<QString, double> m;
    for (const ProgressSample &s : samples)
        m.insert(s.series, s.y);
    return m;
}

QList<ProgressSample> series(const QList<double> &residuals, qint64 stepMs = 1000, double itStep = 100)
{
    ProgressParser p;
    QList<ProgressSample> out;
    for (int i = 0; i < residuals.size(); ++i) {
        const QString msg = QStringLiteral("iteration %1 of 2000, residual %2").arg(int((i + 1) * itStep)).arg(residuals[i], 0, 'e', 2);
        out << p.parse(msg, QStringLiteral("run_cfd_case"), 1000000 + i * stepMs, 1);
    }
    return out;
}

} // namespace

class tst_ProgressParser : public QObject
{
    Q_OBJECT

private slots:
    void builtins_data();
    void builtins();
    void xIsTheIteration();
    void openFoamForms();
    void userTemplates();
    void residualHistory();
    void badTemplateReported();
    void verdicts_data();
    void verdicts();
    void fractionAndEta();
};

void tst_ProgressParser::builtins_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<QStringList>("names");
    QTest::addColumn<QList<double>>("values");
    QTest::newRow("solver progress")
        << "iteration 4200 of 12000, residual 3.1e-4 (u 2.0e-4, v 3.1e-4, p 8.7e-5)"
        << QStringList{"iteration", "max_iterations", "residual", "residual.u", "residual.v", "residual.p"}
        << QList<double>{4200, 12000, 3.1e-4, 2.0e-4, 3.1e-4, 8.7e-5};
    QTest::newRow("vorticity as written")
        << "iteration 4200 of 12000, residual 3.1e-4 (u 2.0e-4, v 3.1e-4, ω 8.7e-5)"
        << QStringList{"residual.u", "residual.v", "residual.ω"} << QList<double>{2.0e-4, 3.1e-4, 8.7e-5};
    QTest::newRow("solver exponent without sign")
        << "iteration 100 of 300, residual 9.7e0 (u 9.7e0, v 1.2e0, p 3.0e-1)"
        << QStringList{"iteration", "residual", "residual.u", "residual.p"} << QList<double>{100, 9.7, 9.7, 0.3};
    QTest::newRow("queued") << "queued, position 3" << QStringList{"queue_position"} << QList<double>{3};
    QTest::newRow("converged") << "converged after 1234 iterations, residual 9.9e-7"
                               << QStringList{"residual"} << QList<double>{9.9e-7};
    QTest::newRow("iteration limit") << "stopped at the iteration limit (400), residual 1.7e-1"
                                     << QStringList{"residual"} << QList<double>{0.17};
    QTest::newRow("percent") << "meshing 42.5% done" << QStringList{"percent"} << QList<double>{42.5};
    QTest::newRow("time") << "time = 0.125 s, step 50" << QStringList{"time", "step"} << QList<double>{0.125, 50};
    QTest::newRow("diverged") << "iteration 300 of 400, residual nan (u nan, v 1e3, p inf)"
                              << QStringList{"residual", "residual.v"} << QList<double>{qInf(), 1e3};
}

void tst_ProgressParser::builtins()
{
    QFETCH(QString, message);
    QFETCH(QStringList, names);
    QFETCH(QList<double>, values);
    ProgressParser p;
    const auto m = toMap(p.parse(message, QStringLiteral("run_cfd_case"), 5000, 9));
    for (int i = 0; i < names.size(); ++i) {
        QVERIFY2(m.contains(names[i]), qPrintable(names[i] + " missing from " + QStringList(m.keys()).join(',')));
        const double got = m.value(names[i]);
        if (std::isinf(values[i]))
            QVERIFY(std::isinf(got));
        else
            QVERIFY2(qFuzzyCompare(got, values[i]), qPrintable(QStringLiteral("%1 = %2").arg(names[i]).arg(got)));
    }
    QVERIFY(p.parse(QStringLiteral("starting"), QString(), 0).isEmpty());
    QVERIFY(p.parse(QStringLiteral("waiting for input: the mesh failed its aspect ratio check"), QString(), 0).isEmpty());
}

void tst_ProgressParser::xIsTheIteration()
{
    ProgressParser p;
    const auto s = p.parse(QStringLiteral("iteration 4200 of 12000, residual 3.1e-4 (u 2.0e-4, v 3.1e-4, p 8.7e-5)"),
                           QString(), 77000, 3);
    QVERIFY(!s.isEmpty());
    for (const ProgressSample &x : s) {
        QCOMPARE(x.x, 4200.0);
        QCOMPARE(x.taskId, qint64(3));
        QCOMPARE(x.atMs, qint64(77000));
    }
    // No counter: the caller's last x, never the clock (77 s here).
    const auto t = p.parse(QStringLiteral("residual 1e-3"), QString(), 77000);
    QCOMPARE(t.first().x, 0.0);
    QVERIFY(!ProgressParser::hasOwnX(t));
    const auto u = p.parse(QStringLiteral("converged, residual 1e-3"), QString(), 77000, 3, 4200.0);
    QCOMPARE(u.first().x, 4200.0);
    // Final messages name their iteration after the number.
    const auto v = p.parse(QStringLiteral("converged after 1234 iterations, residual 9.9e-7"), QString(), 77000);
    QVERIFY(ProgressParser::hasOwnX(v));
    for (const ProgressSample &x : v)
        QCOMPARE(x.x, 1234.0);
    const auto w = p.parse(QStringLiteral("stopped at the iteration limit (400), residual 1.7e-1"), QString(), 77000);
    QCOMPARE(w.first().x, 400.0);
}

void tst_ProgressParser::openFoamForms()
{
    // run_openfoam_case's statusMessage (docs/openfoam.md): every field the solver names becomes
    // its own series, with no list of names here; x is the simulated time of a transient run and
    // the iteration of a steady one.
    ProgressParser p;
    const auto transient = toMap(p.parse(QStringLiteral(
        "icoFoam: time = 0.25 of 0.5 (50%), residual 8.6e-7 (Ux 2.3e-7, Uy 5.1e-7, p 8.6e-7), "
        "Courant max 0.852, continuity 8.9e-9, execution 0.05 s"), QStringLiteral("run_openfoam_case"), 1000));
    QCOMPARE(transient.value(QStringLiteral("time")), 0.25);
    QCOMPARE(transient.value(QStringLiteral("percent")), 50.0);
    QCOMPARE(transient.value(QStringLiteral("residual.Uy")), 5.1e-7);
    QCOMPARE(transient.value(QStringLiteral("residual.p")), 8.6e-7);
    QVERIFY(!transient.contains(QStringLiteral("iteration")));
    for (const ProgressSample &x : p.parse(QStringLiteral("icoFoam: time = 0.25 of 0.5 (50%), residual 8.6e-7 (Ux 2.3e-7)"),
                                           QString(), 1000))
        QCOMPARE(x.x, 0.25);
    const auto steady = p.parse(QStringLiteral(
        "simpleFoam: iteration 120 of 2000, residual 3.1e-3 (Ux 1.2e-3, Uy 3.1e-3, p 2.0e-3, epsilon 1.1e-4, "
        "k 2.2e-4), continuity 3.4e-3, execution 5.8 s"), QString(), 1000);
    const auto m = toMap(steady);
    QCOMPARE(m.value(QStringLiteral("max_iterations")), 2000.0);
    QCOMPARE(m.value(QStringLiteral("residual.epsilon")), 1.1e-4);
    QCOMPARE(m.value(QStringLiteral("residual.k")), 2.2e-4);
    for (const ProgressSample &x : steady)
        QCOMPARE(x.x, 120.0);
}

void tst_ProgressParser::residualHistory()
{
    const QString result = QStringLiteral(
        R"({"content":[],"isError":false,"structuredContent":{"converged":true,"residual_history":)"
        R"({"iteration":[1,2,4],"u":[0.5,0.1,0.01],"v":[0.2,0.3,null],"ω":[1,0.2,0.03]}}})");
    const auto s = ProgressParser::historySamples(result, 7, 1000);
    QMap<QString, QList<QPointF>> by;
    for (const ProgressSample &x : s) {
        QCOMPARE(x.taskId, qint64(7));
        by[x.series] << QPointF(x.x, x.y);
    }
    QCOMPARE(by.value("residual.u"), (QList<QPointF>{{1, 0.5}, {2, 0.1}, {4, 0.01}}));
    QCOMPARE(by.value("residual.ω").size(), 3);
    QVERIFY(std::isinf(by.value("residual.v").at(2).y())); // null: blew up
    QCOMPARE(by.value("residual").at(0), QPointF(1, 1));    // the largest field
    QCOMPARE(by.value("residual").at(1), QPointF(2, 0.3));
    QVERIFY(ProgressParser::historySamples(QStringLiteral(R"({"structuredContent":{"x":1}})"), 7, 0).isEmpty());
    QVERIFY(ProgressParser::historySamples(
                QStringLiteral(R"({"structuredContent":{"residual_history":{"iteration":"no"}}})"), 7, 0)
                .isEmpty());
}

void tst_ProgressParser::userTemplates()
{
    ProgressParser p;
    QVERIFY(p.setTemplates({{1, QStringLiteral("run_cfd_case"), QStringLiteral("cfl"), QStringLiteral("cfl (?<cfl>[0-9.eE+-]+), courant (?<courant>[0-9.]+)")},
                            {2, QStringLiteral("other_tool"), QStringLiteral("k"), QStringLiteral("k=(?<k>[0-9.]+)")}}).isEmpty());
    const auto m = toMap(p.parse(QStringLiteral("step 3: cfl 0.45, courant 0.9, k=7"), QStringLiteral("run_cfd_case"), 0));
    QCOMPARE(m.value("cfl"), 0.45);
    QCOMPARE(m.value("courant"), 0.9);
    QVERIFY(!m.contains("k")); // template of another tool
    QCOMPARE(m.value("step"), 3.0);
}

void tst_ProgressParser::badTemplateReported()
{
    ProgressParser p;
    const QStringList problems = p.setTemplates({{1, {}, QStringLiteral("broken"), QStringLiteral("(?<x>[0-9")},
                                                 {2, {}, QStringLiteral("unnamed"), QStringLiteral("([0-9]+)")}});
    QCOMPARE(problems.size(), 2);
    QVERIFY(problems[0].contains("broken"));
    QVERIFY(problems[1].contains("named capture"));
    QVERIFY(ProgressParser::checkPattern(QStringLiteral("res (?<res>[0-9.e-]+)")).isEmpty());
}

void tst_ProgressParser::verdicts_data()
{
    QTest::addColumn<QList<double>>("residuals");
    QTest::addColumn<int>("verdict");
    QTest::newRow("converging") << QList<double>{1e-1, 5e-2, 2e-2, 1e-2, 5e-3, 2e-3, 1e-3} << int(ProgressAnalyzer::Verdict::Converging);
    QTest::newRow("stalled") << QList<double>{1e-3, 1.01e-3, 0.99e-3, 1.0e-3, 1.005e-3, 0.998e-3} << int(ProgressAnalyzer::Verdict::Stalled);
    QTest::newRow("diverging") << QList<double>{1e-3, 3e-3, 1e-2, 5e-2, 1e-1} << int(ProgressAnalyzer::Verdict::Diverging);
    QTest::newRow("too few") << QList<double>{1e-1, 1e-2} << int(ProgressAnalyzer::Verdict::Unknown);
    QTest::newRow("blow-up") << QList<double>{1e-3, 1e-4, qInf()} << int(ProgressAnalyzer::Verdict::Diverging);
    // Old history does not mask the recent trend: converged first, then stalled.
    QTest::newRow("recent window") << QList<double>{1, 1e-1, 1e-2, 1e-3, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4, 1e-4}
                                   << int(ProgressAnalyzer::Verdict::Stalled);
}

void tst_ProgressParser::verdicts()
{
    QFETCH(QList<double>, residuals);
    QFETCH(int, verdict);
    const auto e = ProgressAnalyzer::analyse(series(residuals));
    QCOMPARE(ProgressAnalyzer::toString(e.verdict), ProgressAnalyzer::toString(ProgressAnalyzer::Verdict(verdict)));
}

void tst_ProgressParser::fractionAndEta()
{
    // 100 iterations per second, at iteration 500 of 2000: 15 s left.
    const auto e = ProgressAnalyzer::analyse(series({1e-1, 5e-2, 2e-2, 1e-2, 5e-3}, 1000, 100));
    QVERIFY(e.fraction);
    QCOMPARE(*e.fraction, 0.25);
    QVERIFY(e.etaMs);
    QCOMPARE(*e.etaMs, qint64(15000));
    QCOMPARE(*e.residual, 5e-3);
    const auto empty = ProgressAnalyzer::analyse({});
    QVERIFY(!empty.fraction && !empty.etaMs);
}

QTEST_GUILESS_MAIN(tst_ProgressParser)
#include "tst_progressparser.moc"
