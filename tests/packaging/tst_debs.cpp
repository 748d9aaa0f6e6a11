// The .deb packages: `cpack -G DEB` on this build makes eddy and eddy-cfd-server, each holds what
// the README says, its dependencies come from dpkg-shlibdeps, and lintian finds no error. Installing
// them into a clean root is the fresh-root test's part.

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

Run run(const QString &program, const QStringList &args, int timeoutMs = 600000)
{
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(30000)) {
        r.err = QStringLiteral("%1 did not start: %2").arg(program, p.errorString());
        return r;
    }
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("%1 did not finish in %2 s").arg(program).arg(timeoutMs / 1000);
        return r;
    }
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return r;
}

} // namespace

class tst_Debs final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void contents_data();
    void contents();
    void control_data();
    void control();
    void lintian();

private:
    QTemporaryDir m_out;
    QString m_eddy;
    QString m_server;
};

void tst_Debs::initTestCase()
{
    QVERIFY(m_out.isValid());
    const Run cpack = run(QStringLiteral(EDDY_CPACK), {QStringLiteral("--config"), QStringLiteral(EDDY_BUILD_TREE "/CPackConfig.cmake"),
                                                       QStringLiteral("-G"), QStringLiteral("DEB"),
                                                       QStringLiteral("-B"), m_out.path()});
    QVERIFY2(cpack.exitCode == 0, qPrintable(cpack.out + cpack.err));
    const QDir dir(m_out.path());
    const QStringList debs = dir.entryList({QStringLiteral("*.deb")}, QDir::Files, QDir::Name);
    for (const QString &deb : debs) {
        if (deb.startsWith(QLatin1String("eddy-cfd-server_")))
            m_server = dir.filePath(deb);
        else if (deb.startsWith(QLatin1String("eddy_")))
            m_eddy = dir.filePath(deb);
    }
    QVERIFY2(debs.size() == 2 && !m_eddy.isEmpty() && !m_server.isEmpty(), qPrintable(debs.join(QLatin1String(", "))));
    for (const QString &deb : {m_eddy, m_server})
        qInfo("%s: %lld bytes", qPrintable(QFileInfo(deb).fileName()), qlonglong(QFileInfo(deb).size()));
}

void tst_Debs::contents_data()
{
    QTest::addColumn<bool>("server");
    QTest::addColumn<QString>("path");
    const QStringList eddy{
        QStringLiteral("./usr/bin/eddy"),
        QStringLiteral("./usr/bin/eddyctl"),
        QStringLiteral("./usr/share/man/man1/eddy.1.gz"),
        QStringLiteral("./usr/share/man/man1/eddyctl.1.gz"),
        QStringLiteral("./usr/share/applications/eddy.desktop"),
        QStringLiteral("./usr/share/icons/hicolor/16x16/apps/eddy.png"),
        QStringLiteral("./usr/share/icons/hicolor/256x256/apps/eddy.png"),
        QStringLiteral("./usr/share/icons/hicolor/scalable/apps/eddy.svg"),
        QStringLiteral("./usr/share/metainfo/io.github.eddy.Eddy.metainfo.xml"),
        QStringLiteral("./usr/share/doc/eddy/copyright"),
    };
    for (const QString &p : eddy)
        QTest::newRow(qPrintable(QStringLiteral("eddy ") + p)) << false << p;
    const QStringList server{
        QStringLiteral("./usr/bin/eddy-cfd-server"),
        QStringLiteral("./usr/share/man/man1/eddy-cfd-server.1.gz"),
        QStringLiteral("./usr/bin/eddy-cfd-solve"),
        QStringLiteral("./usr/share/man/man1/eddy-cfd-solve.1.gz"),
        QStringLiteral("./usr/lib/systemd/system/eddy-cfd-server.service"),
        QStringLiteral("./usr/lib/systemd/user/eddy-cfd-server.service"),
        QStringLiteral("./usr/share/doc/eddy-cfd-server/copyright"),
    };
    for (const QString &p : server)
        QTest::newRow(qPrintable(QStringLiteral("eddy-cfd-server ") + p)) << true << p;
}

void tst_Debs::contents()
{
    QFETCH(bool, server);
    QFETCH(QString, path);
    const Run list = run(QStringLiteral("dpkg-deb"), {QStringLiteral("--contents"), server ? m_server : m_eddy});
    QVERIFY2(list.exitCode == 0, qPrintable(list.err));
    bool found = false;
    for (const QString &line : list.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        // "-rwxr-xr-x root/root 12345 2026-12-01 12:00 ./usr/bin/eddy"
        found = found || line.section(QLatin1Char(' '), -1) == path;
    }
    QVERIFY2(found, qPrintable(QStringLiteral("%1 not in the package:\n%2").arg(path, list.out)));
    // The other package must not hold it: apt refuses two packages with one file.
    const Run other = run(QStringLiteral("dpkg-deb"), {QStringLiteral("--contents"), server ? m_eddy : m_server});
    QVERIFY(!other.out.contains(QLatin1Char(' ') + path + QLatin1Char('\n')));
}

void tst_Debs::control_data()
{
    QTest::addColumn<bool>("server");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("pattern");
    QTest::newRow("eddy Package") << false << "Package" << "^eddy$";
    QTest::newRow("eddy Depends Qt Widgets") << false << "Depends" << "(^|, )libqt6widgets6 ";
    QTest::newRow("eddy Depends Qt Charts") << false << "Depends" << "(^|, )libqt6charts6 ";
    QTest::newRow("eddy Depends libcurl") << false << "Depends" << "(^|, )libcurl4 ";
    QTest::newRow("eddy Recommends server") << false << "Recommends" << "eddy-cfd-server";
    QTest::newRow("server Package") << true << "Package" << "^eddy-cfd-server$";
    QTest::newRow("server Depends sqlite") << true << "Depends" << "(^|, )libsqlite3-0 ";
    QTest::newRow("server Depends httplib") << true << "Depends" << "(^|, )libcpp-httplib0.11 ";
    QTest::newRow("server has no Qt") << true << "Depends" << "^((?!libqt6).)*$";
    QTest::newRow("server Recommends OpenFOAM") << true << "Recommends" << "^openfoam, openfoam-examples$";
}

void tst_Debs::control()
{
    QFETCH(bool, server);
    QFETCH(QString, field);
    QFETCH(QString, pattern);
    const Run r = run(QStringLiteral("dpkg-deb"), {QStringLiteral("--field"), server ? m_server : m_eddy, field});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QString value = r.out.trimmed();
    QVERIFY2(QRegularExpression(pattern).match(value).hasMatch(),
             qPrintable(QStringLiteral("%1: '%2' does not match %3").arg(field, value, pattern)));
}

void tst_Debs::lintian()
{
    const Run r = run(QStringLiteral("lintian"), {QStringLiteral("--fail-on"), QStringLiteral("error"),
                                                  QStringLiteral("--no-tag-display-limit"), m_eddy, m_server});
    qInfo("lintian:\n%s", qPrintable(r.out + r.err));
    QVERIFY2(r.exitCode == 0, qPrintable(QStringLiteral("lintian found errors (E: lines above)")));
}

QTEST_GUILESS_MAIN(tst_Debs)
#include "tst_debs.moc"
