// The command line of eddy-cfd-server: bad flags exit 2 with a message, --help, the ready
// line, a data folder created on demand with an owner-only database.

#include "tests/common/testserver.h"

#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

class tst_ServerFlags : public QObject
{
    Q_OBJECT

private slots:
    void badFlags_data();
    void badFlags();
    void help();
    void readyLineAndDataDir();
};

void tst_ServerFlags::badFlags_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("unknown") << QStringList{"--bogus"} << "--bogus";
    QTest::newRow("port text") << QStringList{"--port", "http"} << "--port";
    QTest::newRow("port range") << QStringList{"--port", "70000"} << "--port";
    QTest::newRow("workers zero") << QStringList{"--workers", "0"} << "--workers";
    QTest::newRow("log level") << QStringList{"--log-level", "loud"} << "--log-level";
    QTest::newRow("missing value") << QStringList{"--data-dir"} << "--data-dir";
    QTest::newRow("ttl negative") << QStringList{"--ttl-ms=-5"} << "--ttl-ms";
    QTest::newRow("poll interval") << QStringList{"--poll-interval-ms", "1.5"} << "--poll-interval-ms";
    QTest::newRow("empty token") << QStringList{"--token", ""} << "--token";
    QTest::newRow("http engine") << QStringList{"--http-engine", "bogus"} << "--http-engine";
    QTest::newRow("backend") << QStringList{"--backend", "pbs"} << "--backend";
    QTest::newRow("slurm refresh") << QStringList{"--slurm-refresh-ms", "5"} << "--slurm-refresh-ms";
    QTest::newRow("slurm partition") << QStringList{"--slurm-partition", "a,b"} << "--slurm-partition";
    QTest::newRow("case dir") << QStringList{"--case-dir="} << "--case-dir";
    QTest::newRow("rest timeout zero") << QStringList{"--slurm-rest-timeout-s", "0"}
                                       << "bad value '0' for --slurm-rest-timeout-s: expected whole seconds from 1 to 600";
    QTest::newRow("rest timeout range") << QStringList{"--slurm-rest-timeout-s=601"} << "from 1 to 600";
    QTest::newRow("rest timeout ms") << QStringList{"--slurm-rest-timeout-s", "2.5"} << "whole seconds";
    QTest::newRow("rest timeout without rest")
        << QStringList{"--backend", "slurm", "--slurm-rest-timeout-s", "5"}
        << "--slurm-rest-timeout-s goes with --slurm-rest URL";
    QTest::newRow("openfoam cases missing")
        << QStringList{"--openfoam-cases", "no-such-folder-here"} << "--openfoam-cases";
    QTest::newRow("replicas without slurm")
        << QStringList{"--replica-key-file", "replica.key"} << "needs --backend slurm";
    QTest::newRow("oauth issuer not a URL") << QStringList{"--oauth-issuer", "id.example.org"}
                                            << "bad value 'id.example.org' for --oauth-issuer";
    QTest::newRow("oauth audience not a URL")
        << QStringList{"--oauth-issuer", "https://id.example.org", "--oauth-audience", "cfd"}
        << "--oauth-audience: give this server's MCP URL";
    QTest::newRow("oauth scopes with a quote")
        << QStringList{"--oauth-issuer", "https://id.example.org", "--oauth-scopes", "a\"b"}
        << "--oauth-scopes";
    QTest::newRow("oauth leeway") << QStringList{"--oauth-issuer", "https://id.example.org",
                                                 "--oauth-leeway-s", "601"}
                                  << "whole seconds from 0 to 600";
    QTest::newRow("oauth audience without issuer")
        << QStringList{"--oauth-audience", "https://cfd.example.org/mcp"}
        << "go with --oauth-issuer URL";
    QTest::newRow("oauth and token") << QStringList{"--oauth-issuer", "https://id.example.org",
                                                    "--token", "t"}
                                     << "--token and --oauth-issuer exclude each other";
    QTest::newRow("oauth on a wildcard without audience")
        << QStringList{"--host", "0.0.0.0", "--oauth-issuer", "https://id.example.org"}
        << "give --oauth-audience";
    QTest::newRow("oauth plain http issuer off loopback")
        << QStringList{"--oauth-issuer", "http://id.example.org"} << "must be an https URL";
}

void tst_ServerFlags::badFlags()
{
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    QProcess p;
    p.start(Eddy::Test::TestServer::binaryPath(), args);
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 2);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(mentions), qPrintable(err));
    QVERIFY(p.readAllStandardOutput().isEmpty());
}

void tst_ServerFlags::help()
{
    QProcess p;
    p.start(Eddy::Test::TestServer::binaryPath(), {"--help"});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    for (const char *flag : {"--host", "--port", "--data-dir", "--workers", "--token",
                             "--poll-interval-ms", "--ttl-ms", "--log-level", "--http-engine",
                             "--backend", "--case-dir", "--slurm-partition", "--slurm-refresh-ms",
                             "--slurm-rest-timeout-s", "--openfoam-cases", "--oauth-issuer",
                             "--oauth-audience", "--oauth-scopes", "--oauth-leeway-s"})
        QVERIFY2(out.contains(QLatin1String(flag)), flag);
}

void tst_ServerFlags::readyLineAndDataDir()
{
    QTemporaryDir root;
    QVERIFY(root.isValid());
    const QString dataDir = root.path() + "/not/yet/there";
    QProcess p;
    p.start(Eddy::Test::TestServer::binaryPath(),
            {"--port", "0", "--workers", "1", "--data-dir", dataDir});
    QVERIFY(p.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(p.canReadLine(), 30000);
    const QString line = QString::fromUtf8(p.readLine());
    static const QRegularExpression ready("^eddy-cfd-server listening on http://127\\.0\\.0\\.1:(\\d+)/mcp\n$");
    const auto m = ready.match(line);
    QVERIFY2(m.hasMatch(), qPrintable(line));
    QVERIFY(m.captured(1).toInt() > 0);
    const QFileInfo db(dataDir + "/tasks.sqlite");
    QVERIFY(db.exists());
    QCOMPARE(db.permissions() & (QFile::ReadGroup | QFile::WriteGroup | QFile::ReadOther | QFile::WriteOther),
             QFile::Permissions());
    // SIGTERM: a clean exit with code 0, and nothing more on stdout.
    p.terminate();
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    QVERIFY(p.readAllStandardOutput().isEmpty());

    // A data folder that is a file: a clear message, not a crash.
    QProcess q;
    q.start(Eddy::Test::TestServer::binaryPath(), {"--data-dir", db.filePath()});
    QVERIFY(q.waitForFinished(30000));
    QCOMPARE(q.exitStatus(), QProcess::NormalExit);
    QVERIFY(q.exitCode() != 0);
    QVERIFY(q.readAllStandardError().contains("--data-dir"));
}

QTEST_GUILESS_MAIN(tst_ServerFlags)
#include "tst_serverflags.moc"
