// eddyctl report against the real server and a real database: a sweep whose mesh questions were
// answered by eddyctl and whose cases and sweep carry notes and tags, reported as HTML and PDF.
// Every case, every answer with who gave it and when, every note and tag is in the file; a case
// argument or a note full of markup stays text; no server task id appears;
// bad input (an unknown sweep, an unwritable file) says what to do. Then the HTML opened in a
// real browser (headless Chromium, file:// only, every host unresolvable): its DOM holds every
// case and answer, and screenshots of it are taken (kept when EDDY_REPORT_SCREENSHOTS names a
// folder).
#include "tests/common/ctlprocess.h"
#include "tests/common/testserver.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using Eddy::Test::TestServer;

namespace {

using Run = Eddy::Test::CtlRun;

Run runCtl(const QStringList &args)
{
    return Eddy::Test::runCtl(args, {10000, 120000, 5000});
}

QList<QStringList> query(const QString &path, const QString &sql)
{
    return Eddy::Test::query(path, sql, 10000);
}

const QString s_caseName = QStringLiteral("<script>alert(\"x\")</script> & 'q'");

QString utc(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'"));
}

} // namespace

class tst_CtlReport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void htmlHasEveryCaseAndAnswer();
    void pdfHasTheAnswers();
    void badInputSaysWhatToDo();
    void germanReport();
    void browserShowsEveryCaseAndAnswer();

private:
    QString serverDb() const { return m_server.dataDir() + QStringLiteral("/tasks.sqlite"); }
    void checkNoServerIdIn(const QByteArray &text);
    QString db() const { return m_dir.filePath(QStringLiteral("report.sqlite")); }
    QString html() const { return m_dir.filePath(QStringLiteral("report.html")); }

    TestServer m_server;
    QTemporaryDir m_dir;
    QList<QStringList> m_answers; // task number, answer JSON, answered_by, answered_at
};

void tst_CtlReport::initTestCase()
{
    QVERIFY2(QFile::exists(Eddy::Test::ctlBin()), qPrintable(Eddy::Test::ctlBin()));
    QVERIFY2(m_server.start({QStringLiteral("--workers"), QStringLiteral("2"),
                             QStringLiteral("--poll-interval-ms"), QStringLiteral("250")}),
             qPrintable(m_server.errorString()));
    QVERIFY(m_dir.isValid());
    const QString answers = m_dir.filePath(QStringLiteral("answers.json"));
    QVERIFY(Eddy::Test::writeFile(answers, R"({"action": "repair", "smoothing_passes": 7})"));
    const QString spec = m_dir.filePath(QStringLiteral("sweep.json"));
    QVERIFY(Eddy::Test::writeFile(spec, QStringLiteral(R"({"tool": "run_cfd_case",
        "fixed": {"grid": 16, "max_iterations": 2000, "tolerance": 1e-4, "case_name": %1},
        "vary": {"reynolds": {"list": [100, 400, 1000]}, "force_mesh_defect": {"list": [false, true]}},
        "mode": "grid", "concurrency": 4})")
                                                .arg(QString::fromUtf8(QJsonDocument(QJsonArray{s_caseName}).toJson(QJsonDocument::Compact)).mid(1).chopped(1))
                                                .toUtf8()));
    Run r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("sweep"), QStringLiteral("submit"), m_server.url(), spec,
                    QStringLiteral("--session"), QStringLiteral("report study")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("watch"), QStringLiteral("--until-done"),
                QStringLiteral("--answers"), answers});
    QVERIFY2(r.code == 0, r.err.constData());
    m_answers = query(db(), QStringLiteral("SELECT task_id, answer, answered_by, answered_at FROM input_requests "
                                           "WHERE state='answered' ORDER BY task_id"));
    QVERIFY2(m_answers.size() >= 3, "the three defective meshes each asked");
    // Notes and tags the engineer left, on two cases and on the sweep (one note full of markup).
    const QStringList noted{QStringLiteral("1"), QStringLiteral("2")};
    for (const QString &task : noted) {
        r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("note"), task,
                    QStringLiteral("checked <b>by hand</b> %1").arg(task)});
        QVERIFY2(r.code == 0, r.err.constData());
        r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("tag"), task, QStringLiteral("+grid-study"),
                    QStringLiteral("+case%1").arg(task)});
        QVERIFY2(r.code == 0, r.err.constData());
    }
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("note"), QStringLiteral("sweep"), QStringLiteral("1"),
                QStringLiteral("baseline study for the new grids")});
    QVERIFY2(r.code == 0, r.err.constData());
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("tag"), QStringLiteral("sweep"), QStringLiteral("1"),
                QStringLiteral("+cavity")});
    QVERIFY2(r.code == 0, r.err.constData());
    // Task 3's case marked as the sweep's baseline.
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("baseline"), QStringLiteral("1"), QStringLiteral("3")});
    QVERIFY2(r.code == 0, r.err.constData());
}

void tst_CtlReport::checkNoServerIdIn(const QByteArray &text)
{
    const auto ids = query(serverDb(), QStringLiteral("SELECT id FROM tasks"));
    QVERIFY(!ids.isEmpty());
    for (const QStringList &row : ids)
        QVERIFY2(!text.contains(row[0].toUtf8()), "a server task id is in the report");
}

void tst_CtlReport::htmlHasEveryCaseAndAnswer()
{
    Run r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("report"), QStringLiteral("1"),
                    QStringLiteral("-o"), html()});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.err.contains("6 case(s) reported"), r.err.constData());
    QFile f(html());
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    for (int c = 1; c <= 6; ++c)
        QVERIFY2(text.contains(QStringLiteral("<tr id=\"case-%1\">").arg(c).toUtf8()), qPrintable(QString::number(c)));
    // Every answer: its values, who gave it and when, on the row of its task.
    const auto tasks = query(db(), QStringLiteral("SELECT id FROM tasks"));
    QCOMPARE(tasks.size(), 6);
    QCOMPARE(text.count("smoothing_passes = 7"), qsizetype(m_answers.size()));
    for (const QStringList &a : std::as_const(m_answers)) {
        QCOMPARE(a[2], QStringLiteral("eddyctl"));
        const QByteArray when = utc(a[3].toLongLong()).toUtf8();
        QVERIFY2(text.contains(when), when.constData());
        QVERIFY(text.contains(QStringLiteral("<td class=\"num\">%1</td><td class=\"when\">").arg(a[0]).toUtf8()));
    }
    QVERIFY(text.contains("report study"));
    // Every note and tag, as text.
    for (const char *note : {"checked &lt;b&gt;by hand&lt;/b&gt; 1", "checked &lt;b&gt;by hand&lt;/b&gt; 2",
                             "baseline study for the new grids"})
        QVERIFY2(text.count(note) == 1, note);
    for (const char *tag : {"grid-study", "case1", "case2", "cavity"})
        QVERIFY2(text.contains(tag), tag);
    QVERIFY(!text.contains("<b>by hand"));
    // The marked baseline, on its case's row only.
    const QString baselineCase = query(db(), QStringLiteral("SELECT idx + 1 FROM cases WHERE task_id = 3")).value(0).value(0);
    QVERIFY(!baselineCase.isEmpty());
    QCOMPARE(text.count("\u2605 baseline"), qsizetype(1));
    QVERIFY2(text.contains(QStringLiteral("<tr id=\"case-%1\"><td class=\"num\"><b title=").arg(baselineCase).toUtf8()),
             qPrintable(baselineCase));
    QVERIFY(text.contains(QStringLiteral("%1 \u2605 baseline").arg(baselineCase).toUtf8()));
    QVERIFY(text.contains("reynolds") && text.contains("final_residual"));
    QVERIFY(text.contains("<svg"));
    // The case name is text, never markup; no script, no address, no server task id.
    QVERIFY(text.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'q'"));
    QVERIFY(!text.contains("<script"));
    QVERIFY(!text.contains("://"));
    checkNoServerIdIn(text);

    // Without -o the same report goes to standard output.
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("report"), QStringLiteral("1")});
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.startsWith("<!DOCTYPE html>"));
    QCOMPARE(r.out.count("smoothing_passes = 7"), qsizetype(m_answers.size()));
}

void tst_CtlReport::pdfHasTheAnswers()
{
    const QString pdf = m_dir.filePath(QStringLiteral("report.pdf"));
    Run r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("report"), QStringLiteral("1"),
                    QStringLiteral("--pdf"), pdf});
    QVERIFY2(r.code == 0, r.err.constData());
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.read(5), QByteArray("%PDF-"));
    QProcess p;
    p.start(QStringLiteral("pdftotext"), {pdf, QStringLiteral("-")});
    QVERIFY2(p.waitForFinished(60000) && p.exitCode() == 0, "pdftotext (poppler-utils) failed");
    const QByteArray text = p.readAllStandardOutput().simplified();
    QCOMPARE(text.count("smoothing_passes = 7"), qsizetype(m_answers.size()));
    for (const QStringList &a : std::as_const(m_answers))
        QVERIFY(text.contains(utc(a[3].toLongLong()).toUtf8()));
    QVERIFY(text.contains("<script>alert(\"x\")</script>"));
    checkNoServerIdIn(text);
}

void tst_CtlReport::badInputSaysWhatToDo()
{
    const QByteArray before = query(db(), QStringLiteral("SELECT COUNT(*) FROM input_requests")).value(0).value(0).toUtf8();
    Run r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("report"), QStringLiteral("9")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("there is no sweep 9"), r.err.constData());
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("report"), QStringLiteral("first")});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("SWEEP is the sweep number"), r.err.constData());
    const QString nowhere = m_dir.filePath(QStringLiteral("missing/folder/report.html"));
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("report"), QStringLiteral("1"), QStringLiteral("-o"), nowhere});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(nowhere.toUtf8()) && r.err.contains("choose another file with -o FILE"), r.err.constData());
    QVERIFY(!QFile::exists(nowhere));
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("report"), QStringLiteral("1"), QStringLiteral("--pdf"),
                m_dir.filePath(QStringLiteral("missing/report.pdf"))});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("choose another file with --pdf FILE"), r.err.constData());
    // Nothing stored was touched.
    QCOMPARE(query(db(), QStringLiteral("SELECT COUNT(*) FROM input_requests")).value(0).value(0).toUtf8(), before);
}

void tst_CtlReport::germanReport()
{
    const QString de = m_dir.filePath(QStringLiteral("report-de.html"));
    Run r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("report"), QStringLiteral("1"), QStringLiteral("--lang"),
                    QStringLiteral("de"), QStringLiteral("-o"), de});
    QVERIFY2(r.code == 0, r.err.constData());
    QFile f(de);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray text = f.readAll();
    QVERIFY(text.contains("<html lang=\"de\">"));
    QVERIFY(text.contains("Fragen und Antworten"));
    QVERIFY(text.contains("Beantwortet von"));
    QCOMPARE(text.count("smoothing_passes = 7"), qsizetype(m_answers.size()));
    QVERIFY(!text.contains("Questions and answers"));
    r = runCtl({QStringLiteral("--db"), db(), QStringLiteral("report"), QStringLiteral("1"), QStringLiteral("--lang"),
                QStringLiteral("xx"), QStringLiteral("-o"), m_dir.filePath(QStringLiteral("report-xx.html"))});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--lang takes de or en"), r.err.constData());
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("report-xx.html"))));
}

void tst_CtlReport::browserShowsEveryCaseAndAnswer()
{
    const QString chromium = QStandardPaths::findExecutable(QStringLiteral("chromium"));
    QVERIFY2(!chromium.isEmpty(), "chromium (Debian: chromium) is needed to open the report");
    if (!QFile::exists(html()))
        QVERIFY(runCtl({QStringLiteral("--db"), db(), QStringLiteral("report"), QStringLiteral("1"),
                        QStringLiteral("-o"), html()}).code == 0);
    const QString url = QUrl::fromLocalFile(html()).toString();
    const QString urlDe = QUrl::fromLocalFile(m_dir.filePath(QStringLiteral("report-de.html"))).toString();
    // file:// only: every host name resolves to nothing, no first-run or update traffic.
    const QStringList common{QStringLiteral("--headless"), QStringLiteral("--no-sandbox"), QStringLiteral("--disable-gpu"),
                             QStringLiteral("--host-resolver-rules=MAP * ~NOTFOUND"), QStringLiteral("--no-first-run"),
                             QStringLiteral("--disable-background-networking"), QStringLiteral("--disable-sync"),
                             QStringLiteral("--user-data-dir=") + m_dir.filePath(QStringLiteral("chromium-profile"))};
    const auto runChromium = [&](const QStringList &args, QByteArray *out, const QString &page) {
        QProcess p;
        p.start(chromium, common + args + QStringList{page});
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished(5000);
            return false;
        }
        if (out)
            *out = p.readAllStandardOutput();
        return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
    };
    QByteArray dom;
    QVERIFY2(runChromium({QStringLiteral("--dump-dom")}, &dom, url), "chromium --dump-dom failed");
    // The browser parsed it as we wrote it: every case row, every answer, the charts, no script.
    for (int c = 1; c <= 6; ++c)
        QVERIFY(dom.contains(QStringLiteral("<tr id=\"case-%1\">").arg(c).toUtf8()));
    QCOMPARE(dom.count("smoothing_passes = 7"), qsizetype(m_answers.size()));
    for (const QStringList &a : std::as_const(m_answers))
        QVERIFY(dom.contains(utc(a[3].toLongLong()).toUtf8()));
    QVERIFY(dom.contains("<svg"));
    QVERIFY(!dom.contains("<script"));
    QVERIFY(dom.contains("&lt;script&gt;"));

    const QString keep = qEnvironmentVariable("EDDY_REPORT_SCREENSHOTS");
    // The top of the report at two sizes, light and dark, in English and German; and its end
    // (the questions and answers), cut from a page-long screenshot at the last drawn row
    // (headless Chromium draws nothing when it scrolls to a #fragment).
    // German from eddyctl report --lang de (germanReport()).
    QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("report-de.html"))));
    struct Shot { QString name; QSize size; bool dark; bool end; bool german; };
    for (const Shot &s : {Shot{QStringLiteral("report-browser"), QSize(1280, 800), false, false, false},
                          Shot{QStringLiteral("report-browser-dark"), QSize(1280, 800), true, false, false},
                          Shot{QStringLiteral("report-browser-wide"), QSize(1600, 1000), false, false, false},
                          Shot{QStringLiteral("report-browser-wide-dark"), QSize(1600, 1000), true, false, false},
                          Shot{QStringLiteral("report-browser-answers"), QSize(1600, 1000), false, true, false},
                          Shot{QStringLiteral("report-browser-answers-dark"), QSize(1600, 1000), true, true, false},
                          Shot{QStringLiteral("report-browser-de"), QSize(1280, 800), false, false, true},
                          Shot{QStringLiteral("report-browser-de-dark"), QSize(1280, 800), true, false, true},
                          Shot{QStringLiteral("report-browser-wide-de"), QSize(1600, 1000), false, false, true},
                          Shot{QStringLiteral("report-browser-wide-de-dark"), QSize(1600, 1000), true, false, true},
                          Shot{QStringLiteral("report-browser-answers-de"), QSize(1600, 1000), true, true, true}}) {
        const QString png = m_dir.filePath(s.name + QStringLiteral(".png"));
        const QSize window = s.end ? QSize(s.size.width(), 6000) : s.size;
        QStringList args{QStringLiteral("--screenshot=") + png,
                         QStringLiteral("--window-size=%1,%2").arg(window.width()).arg(window.height()),
                         QStringLiteral("--hide-scrollbars")};
        if (s.dark)
            args << QStringLiteral("--force-dark-mode") << QStringLiteral("--blink-settings=preferredColorScheme=0");
        QVERIFY2(runChromium(args, nullptr, s.german ? urlDe : url), qPrintable(s.name));
        QImage shot(png);
        QCOMPARE(shot.size(), window);
        // Light: the page is white behind the title; dark: the dark background of the CSS.
        const QColor corner = shot.pixelColor(4, 4);
        QVERIFY2(s.dark ? corner.lightness() < 80 : corner.lightness() > 240, qPrintable(corner.name()));
        const auto inkedRow = [&](int y) {
            for (int x = 0; x < shot.width(); x += 2) {
                if (qAbs(shot.pixelColor(x, y).lightness() - corner.lightness()) > 60)
                    return true;
            }
            return false;
        };
        if (s.end) {
            int last = shot.height() - 1;
            while (last > 0 && !inkedRow(last))
                --last;
            QVERIFY2(last < shot.height() - 1, "the report is longer than the page-long screenshot");
            const int bottom = std::min(shot.height(), last + 32);
            shot = shot.copy(0, std::max(0, bottom - s.size.height()), s.size.width(), s.size.height());
            QVERIFY(shot.save(png));
        }
        // Something is drawn on it: text, tables, charts.
        qsizetype inked = 0;
        for (int y = 0; y < shot.height(); y += 2) {
            for (int x = 0; x < shot.width(); x += 2)
                inked += qAbs(shot.pixelColor(x, y).lightness() - corner.lightness()) > 60 ? 1 : 0;
        }
        QVERIFY2(inked * 4 > shot.width() * shot.height() / 200, qPrintable(s.name + QStringLiteral(" is blank")));
        if (!keep.isEmpty()) {
            const QString kept = QDir(keep).filePath(s.name + QStringLiteral(".png"));
            QFile::remove(kept);
            QVERIFY2(QFile::copy(png, kept), qPrintable(kept));
        }
    }
}

QTEST_GUILESS_MAIN(tst_CtlReport)
#include "tst_ctlreport.moc"
