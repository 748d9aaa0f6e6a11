// The sweep report from a hand-built input: notes and tags of the sweep and of a case, questions
// with their answers, who gave them and when; everything a server or a user wrote escaped; no
// address, no script; and the PDF's text (pdftotext) with the same answers and notes.
#include "models/sweepreport.h"
#include "models/sweepreportreader.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Eddy;

namespace {

const QString s_hostile = QStringLiteral("<script>alert(\"x\")</script> & 'q'");

SweepReportInput input()
{
    SweepReportInput in;
    in.sweepNumber = 7;
    in.tool = QStringLiteral("run_cfd_case");
    in.server = QStringLiteral("cavity lab");
    in.session = QStringLiteral("Re study");
    in.createdAtMs = 1764900000000;
    in.generatedAtMs = 1764903600000;
    in.concurrency = 4;
    in.mode = QStringLiteral("grid");
    in.varied = {{QStringLiteral("reynolds"), QStringLiteral("100, 400")}};
    in.fixed = {{QStringLiteral("case_name"), s_hostile}};
    in.variedCount = 1;
    in.argumentColumns = {QStringLiteral("reynolds"), QStringLiteral("case_name")};
    in.resultColumns = {QStringLiteral("final_residual"), QStringLiteral("iterations")};
    in.tags = {QStringLiteral("baseline"), QStringLiteral("<b>bold</b>")};
    in.notes = {{QStringLiteral("Grid study for the paper."), QStringLiteral("ada"), 1764901000000}};
    for (int i = 0; i < 2; ++i) {
        SweepReportInput::Case c;
        c.index = i;
        c.taskNumber = 11 + i;
        c.outcome = i == 0 ? Monitor::Outcome::Converged : Monitor::Outcome::NotConverged;
        c.status = QStringLiteral("completed");
        c.arguments = {i == 0 ? QStringLiteral("100") : QStringLiteral("400"), s_hostile};
        c.results = {i == 0 ? QStringLiteral("1e-7") : QStringLiteral("0.002"), QStringLiteral("300")};
        std::vector<QPointF> history;
        for (int it = 1; it <= 300; ++it)
            history.push_back(QPointF(it, std::pow(10.0, -double(it) / (i == 0 ? 40.0 : 120.0))));
        c.residuals << qMakePair(QStringLiteral("u"), history);
        c.questions << SweepReportInput::Question{QStringLiteral("12 cells fail the skewness check."),
                                                  i == 0 ? QStringLiteral("action = repair, smoothing_passes = 5")
                                                         : s_hostile,
                                                  i == 0 ? QStringLiteral("eddyctl") : QStringLiteral("grace \"g\""),
                                                  Store::InputState::Answered,
                                                  1764902000000 + i,
                                                  1764902060000 + i};
        in.cases << c;
    }
    in.cases[1].tags = {QStringLiteral("re-run")};
    in.cases[1].notes = {{QStringLiteral("Stopped short: raise max_iterations. ") + s_hostile,
                          QStringLiteral("ada"), 1764903000000}};
    return in;
}

} // namespace

class tst_SweepReport : public QObject
{
    Q_OBJECT

private slots:
    void everythingShownAndEscaped();
    void notesAndTagsOnlyWhenPresent();
    void answerTexts();
    void pdfHasTheAnswersAndNotes();
    void unwritablePathsSaySo();
};

void tst_SweepReport::everythingShownAndEscaped()
{
    const QString html = SweepReport::html(input());
    QVERIFY(html.startsWith(QLatin1String("<!DOCTYPE html>")));
    // The answers, who gave them and when; the sweep's and the case's notes and tags.
    QVERIFY(html.contains(QLatin1String("action = repair, smoothing_passes = 5")));
    QVERIFY(html.contains(QLatin1String("eddyctl")));
    QVERIFY(html.contains(QLatin1String("grace &quot;g&quot;")));
    QVERIFY(html.contains(SweepReport::timeText(1764902060000)));
    QVERIFY(html.contains(SweepReport::timeText(1764902000001)));
    QVERIFY(html.contains(QLatin1String("Grid study for the paper.")));
    QVERIFY(html.contains(QLatin1String("Stopped short: raise max_iterations.")));
    QVERIFY(html.contains(QLatin1String(">baseline<")));
    QVERIFY(html.contains(QLatin1String(">re-run<")));
    QVERIFY(html.contains(QLatin1String("&lt;b&gt;bold&lt;/b&gt;")));
    QVERIFY(html.contains(QLatin1String("Re study")));
    // The table with outcomes, and the charts: the scalar plot and the residual history.
    QVERIFY(html.contains(QLatin1String("o-converged")));
    QVERIFY(html.contains(QLatin1String("o-not_converged")));
    QCOMPARE(html.count(QLatin1String("<svg")), 2); // final_residual (iterations is constant), u
    QVERIFY(html.contains(QLatin1String("Residual u")));
    // Nothing of what the server or a user wrote is markup; no script, no address.
    QVERIFY(html.contains(QLatin1String("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'q'")));
    QVERIFY(!html.contains(QLatin1String("<script"), Qt::CaseInsensitive));
    QVERIFY(!html.contains(QLatin1String("<b>")));
    QVERIFY(!html.contains(QLatin1String("://")));
    QVERIFY(!html.contains(QLatin1String("src=")));
    const QRegularExpression href(QStringLiteral("href=\"([^\"]*)\""));
    for (auto it = href.globalMatch(html); it.hasNext();)
        QVERIFY2(it.next().captured(1).startsWith(QLatin1Char('#')), "a link leaves the file");
    QVERIFY(html.contains(QLatin1String("default-src 'none'")));
    QVERIFY(html.contains(QLatin1String("prefers-color-scheme: dark")));
}

void tst_SweepReport::notesAndTagsOnlyWhenPresent()
{
    SweepReportInput in = input();
    in.notes.clear();
    in.tags.clear();
    for (auto &c : in.cases) {
        c.notes.clear();
        c.tags.clear();
        c.questions.clear();
        c.residuals.clear();
    }
    const QString html = SweepReport::html(in);
    QVERIFY(!html.contains(QLatin1String("id=\"notes\"")));
    QVERIFY(!html.contains(QLatin1String("id=\"case-notes\"")));
    QVERIFY(!html.contains(QLatin1String("class=\"tag\"")));
    QVERIFY(html.contains(QLatin1String("The server asked no questions during this sweep.")));
    QVERIFY(html.contains(QLatin1String("No case has a residual history.")));
}

void tst_SweepReport::answerTexts()
{
    QCOMPARE(SweepReportReader::answerText(QStringLiteral(R"({"action":"accept","content":{"action":"repair","smoothing_passes":5}})")),
             QStringLiteral("action = repair, smoothing_passes = 5"));
    QCOMPARE(SweepReportReader::answerText(QStringLiteral(R"({"action":"decline"})")), QStringLiteral("declined"));
    QCOMPARE(SweepReportReader::answerText(QStringLiteral(R"({"action":"accept"})")), QStringLiteral("accepted"));
}

void tst_SweepReport::pdfHasTheAnswersAndNotes()
{
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    QString error;
    QVERIFY2(SweepReport::writePdf(input(), pdf, &error), qPrintable(error));
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.read(5) == "%PDF-");
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
    QVERIFY2(p.waitForFinished(60000) && p.exitCode() == 0, "pdftotext (poppler-utils) failed");
    const QString text = QString::fromUtf8(p.readAllStandardOutput()).simplified();
    QVERIFY2(text.contains(QLatin1String("action = repair, smoothing_passes = 5")), qPrintable(text));
    QVERIFY(text.contains(QLatin1String("<script>alert(\"x\")</script>")));
    QVERIFY(text.contains(QLatin1String("Grid study for the paper.")));
    QVERIFY(text.contains(QLatin1String("Stopped short: raise max_iterations.")));
    QVERIFY(text.contains(QLatin1String("grace \"g\"")));
    QVERIFY(text.contains(QLatin1String("baseline")));
}

void tst_SweepReport::unwritablePathsSaySo()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("no/such/folder/report.html"));
    QString error;
    QVERIFY(!SweepReport::writeHtml(input(), missing, &error));
    QVERIFY2(error.contains(missing), qPrintable(error));
    error.clear();
    QVERIFY(!SweepReport::writePdf(input(), dir.filePath(QStringLiteral("no/report.pdf")), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(missing));
}

QTEST_MAIN(tst_SweepReport)
#include "tst_sweepreport.moc"
