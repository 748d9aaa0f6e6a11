// run_openfoam_case's case folders go with their tasks, against the real eddy-cfd-server and
// real OpenFOAM: when a task's TTL passes (--ttl-ms) its folder under the data folder is removed
// (a running solver stopped first), and at start the folders of tasks no longer known go too.
// The engineer's own cases under --openfoam-cases, the cases' source, are never touched.

#include "tests/common/testserver.h"
#include "tests/server/foamtestsupport.h"
#include "tests/server/mcptestclient.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <map>

using nlohmann::json;
using Eddy::Test::McpTestClient;
using Eddy::Test::TestServer;

namespace {

// Every file and folder under root (links not followed) with a hash of each file's bytes.
std::map<QString, QByteArray> snapshot(const QString &root)
{
    std::map<QString, QByteArray> out;
    QDirIterator it(root, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QFileInfo info(path);
        QByteArray what = info.isSymLink() ? "link " + info.symLinkTarget().toUtf8()
                          : info.isDir()   ? QByteArray("folder")
                                           : QByteArray();
        if (what.isEmpty()) {
            QFile f(path);
            if (f.open(QIODevice::ReadOnly))
                what = QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
        }
        out[QDir(root).relativeFilePath(path)] = what;
    }
    return out;
}

// Processes of this user carrying a case's marker (EDDY_FOAM_RUN=<folder name>) in their
// environment: every OpenFOAM step the server starts for that case does.
QStringList processesMarked(const QString &caseKey)
{
    QStringList found;
    const QByteArray entry = "EDDY_FOAM_RUN=" + caseKey.toUtf8();
    for (const QString &pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
        if (environ.open(QIODevice::ReadOnly) && environ.readAll().split('\0').contains(entry))
            found << pid;
    }
    return found;
}

QStringList caseFolders(const TestServer &server)
{
    return QDir(server.dataDir() + QStringLiteral("/openfoam"))
        .entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

} // namespace

class tst_ServerFoamPurge : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void expiredTasksLoseTheirFolders();
    void staleFoldersGoAtStart();

private:
    std::string start(McpTestClient &client, const json &arguments);
    QTemporaryDir m_cases; // the engineer's cases: one copy of the cavity tutorial, "mine"
};

void tst_ServerFoamPurge::initTestCase()
{
    // Not a skip: without OpenFOAM the feature cannot be shown to work.
    QVERIFY2(!QStandardPaths::findExecutable(QStringLiteral("icoFoam")).isEmpty(),
             "OpenFOAM is not installed; these tests need it: apt-get install openfoam "
             "openfoam-examples");
    const QString tutorial = Eddy::Test::foamTutorial(QStringLiteral("incompressible/icoFoam/cavity/cavity"));
    QVERIFY2(QFileInfo(tutorial).isDir(), "openfoam-examples is not installed");
    QProcess cp;
    cp.start(QStringLiteral("cp"), {QStringLiteral("-r"), tutorial, m_cases.filePath(QStringLiteral("mine"))});
    QVERIFY(cp.waitForFinished(30000) && cp.exitCode() == 0);
}

std::string tst_ServerFoamPurge::start(McpTestClient &client, const json &arguments)
{
    const json res = client.request("tools/call", {{"name", "run_openfoam_case"}, {"arguments", arguments}}).result();
    return res.value("resultType", "") == "task" ? res.value("taskId", "") : std::string();
}

void tst_ServerFoamPurge::expiredTasksLoseTheirFolders()
{
    // 15 s to live: time for the short case to finish (about a second) and be read back.
    TestServer server;
    QVERIFY2(server.start({QStringLiteral("--workers"), QStringLiteral("2"),
                           QStringLiteral("--poll-interval-ms"), QStringLiteral("100"),
                           QStringLiteral("--ttl-ms"), QStringLiteral("15000"),
                           QStringLiteral("--openfoam-cases"), m_cases.path()}),
             qPrintable(server.errorString()));
    McpTestClient client(server.url());
    const auto before = snapshot(m_cases.path());

    // One case that ends long before its TTL, one still running when it passes (200,000 steps).
    const std::string done = start(client, {{"case", "mine"}, {"end_time", 0.05}});
    const std::string running = start(client, {{"case", "mine"}, {"end_time", 1000}, {"write_interval", 100000}});
    QVERIFY(!done.empty() && !running.empty());
    const json ended = client.waitForTask(done, [](const json &t) { return McpTestClient::isTerminal(t); });
    QCOMPARE(ended.value("status", ""), std::string("completed"));
    const QString doneFolder = QString::fromStdString(ended["result"]["structuredContent"].value("case_folder", ""));
    QVERIFY2(QFileInfo(doneFolder + QStringLiteral("/log.icoFoam")).isFile(), qPrintable(doneFolder));
    const json solving = client.waitForTask(running, [](const json &t) {
        return t.value("statusMessage", "").rfind("icoFoam: time", 0) == 0 || McpTestClient::isTerminal(t);
    });
    QCOMPARE(solving.value("status", ""), std::string("working"));
    QStringList folders = caseFolders(server);
    QCOMPARE(folders.size(), 2);
    folders.removeAll(QFileInfo(doneFolder).fileName());
    QCOMPARE(folders.size(), 1);
    const QString runningKey = folders[0];
    QVERIFY2(!processesMarked(runningKey).isEmpty(), "the long case's solver is not running");

    // Both forgotten once their TTL has passed, and their folders gone with them; the running
    // solver stopped, not orphaned.
    QTRY_VERIFY2_WITH_TIMEOUT(caseFolders(server).isEmpty(), qPrintable(caseFolders(server).join(QLatin1Char(' '))), 45000);
    QVERIFY(client.getTask(done).errorCode() != 0);
    QVERIFY(client.getTask(running).errorCode() != 0);
    QVERIFY2(processesMarked(runningKey).isEmpty(), qPrintable(processesMarked(runningKey).join(QLatin1Char(' '))));
    QVERIFY2(snapshot(m_cases.path()) == before, "the engineer's case folder changed");
}

void tst_ServerFoamPurge::staleFoldersGoAtStart()
{
    TestServer server;
    QVERIFY2(server.start({QStringLiteral("--poll-interval-ms"), QStringLiteral("100"),
                           QStringLiteral("--openfoam-cases"), m_cases.path()}),
             qPrintable(server.errorString()));
    const auto before = snapshot(m_cases.path());
    std::string id;
    QString known;
    {
        McpTestClient client(server.url());
        id = start(client, {{"case", "mine"}, {"end_time", 0.05}});
        QVERIFY(!id.empty());
        const json ended = client.waitForTask(id, [](const json &t) { return McpTestClient::isTerminal(t); });
        QCOMPARE(ended.value("status", ""), std::string("completed"));
        known = QString::fromStdString(ended["result"]["structuredContent"].value("case_folder", ""));
    }
    QVERIFY(server.terminate());

    // While the server was down: the folder of a task it no longer knows (as one whose TTL
    // passed meanwhile leaves), a folder of the engineer's that is no case folder, and a link
    // named like a case folder that points into the engineer's cases.
    const QString openfoam = server.dataDir() + QStringLiteral("/openfoam");
    const QString stale = openfoam + QStringLiteral("/0123456789abcdef01234567");
    QVERIFY(QDir().mkpath(stale + QStringLiteral("/constant/polyMesh")));
    QFile points(stale + QStringLiteral("/constant/polyMesh/points"));
    QVERIFY(points.open(QIODevice::WriteOnly) && points.write("(0 0 0)\n") > 0);
    points.close();
    const QString notes = openfoam + QStringLiteral("/notes");
    QVERIFY(QDir().mkpath(notes));
    const QString link = openfoam + QStringLiteral("/abcdefabcdefabcdefabcdef");
    QVERIFY(QFile::link(m_cases.path(), link));

    QVERIFY2(server.restart(), qPrintable(server.errorString()));
    QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(stale), 15000);
    QVERIFY2(QFileInfo(known + QStringLiteral("/log.icoFoam")).isFile(), "a known task's folder went");
    QVERIFY(QFileInfo(notes).isDir());
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY2(snapshot(m_cases.path()) == before, "the engineer's case folder changed");
    McpTestClient again(server.url());
    QCOMPARE(again.getTask(id).result().value("status", ""), std::string("completed"));
}

QTEST_GUILESS_MAIN(tst_ServerFoamPurge)
#include "tst_serverfoampurge.moc"
