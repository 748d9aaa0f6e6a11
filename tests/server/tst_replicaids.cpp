// HMAC-SHA-256 against RFC 4231's test vectors, and replica ids: minted ids verify, any altered
// character or a different key does not, and a key file others can read is refused.
#include "server/replicaids.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using Eddy::Server::ReplicaIds;

class tst_ReplicaIds : public QObject
{
    Q_OBJECT

private slots:
    void rfc4231_data();
    void rfc4231();
    void mintedIdsVerifyAndAlteredOnesDoNot();
    void keyFileMustBePrivate();
};

void tst_ReplicaIds::rfc4231_data()
{
    QTest::addColumn<QByteArray>("key");
    QTest::addColumn<QByteArray>("data");
    QTest::addColumn<QByteArray>("mac");
    QTest::newRow("1") << QByteArray(20, '\x0b') << QByteArray("Hi There")
                       << QByteArray("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    QTest::newRow("2") << QByteArray("Jefe") << QByteArray("what do ya want for nothing?")
                       << QByteArray("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    QTest::newRow("3") << QByteArray(20, '\xaa') << QByteArray(50, '\xdd')
                       << QByteArray("773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
    QTest::newRow("6 (key longer than a block)")
        << QByteArray(131, '\xaa') << QByteArray("Test Using Larger Than Block-Size Key - Hash Key First")
        << QByteArray("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

void tst_ReplicaIds::rfc4231()
{
    QFETCH(QByteArray, key);
    QFETCH(QByteArray, data);
    QFETCH(QByteArray, mac);
    QCOMPARE(QByteArray::fromStdString(ReplicaIds::hmacSha256Hex(key.toStdString(), data.toStdString())), mac);
}

void tst_ReplicaIds::mintedIdsVerifyAndAlteredOnesDoNot()
{
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.key")), b = dir.filePath(QStringLiteral("b.key"));
    for (const QString &path : {a, b}) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(path.toUtf8() + QByteArray(40, 'k'));
        f.close();
        QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    }
    ReplicaIds one, other;
    std::string error;
    QVERIFY2(one.loadKey(a.toStdString(), error), error.c_str());
    QVERIFY2(other.loadKey(b.toStdString(), error), error.c_str());
    const std::string id = one.mint();
    QCOMPARE(id.size(), std::size_t(65));
    QVERIFY(one.verify(id));
    QVERIFY(!other.verify(id));
    QVERIFY(one.mint() != id);
    for (std::size_t i = 0; i < id.size(); ++i) {
        std::string altered = id;
        altered[i] = altered[i] == 'a' ? 'b' : 'a';
        QVERIFY2(!one.verify(altered), qPrintable(QString::number(int(i))));
    }
    QVERIFY(!one.verify(id.substr(0, 32)));
    QVERIFY(!one.verify(id + "0"));
    QVERIFY(!ReplicaIds().verify(id));
}

void tst_ReplicaIds::keyFileMustBePrivate()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("k"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(40, 'k'));
    f.close();
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
    ReplicaIds ids;
    std::string error;
    QVERIFY(!ids.loadKey(path.toStdString(), error));
    QVERIFY2(error.find("chmod 600") != std::string::npos, error.c_str());
    QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("short");
    f.close();
    QVERIFY(!ids.loadKey(path.toStdString(), error));
    QVERIFY2(error.find("32 bytes") != std::string::npos, error.c_str());
    QVERIFY(!ids.loadKey(dir.filePath(QStringLiteral("missing")).toStdString(), error));
    QVERIFY(!ids.enabled());
}

QTEST_GUILESS_MAIN(tst_ReplicaIds)
#include "tst_replicaids.moc"
