// The server's base64 in both RFC 4648 alphabets: the test vectors of its section 10, and the
// forms each decoder must refuse.

#include "server/base64.h"

#include <QtTest>

#include <string>

using Eddy::Server::decodeBase64;
using Eddy::Server::decodeBase64Url;
using Eddy::Server::encodeBase64;
using Eddy::Server::encodeBase64Url;

class tst_Base64 : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rfcVectors_data();
    void rfcVectors();
    void alphabetsDiffer();
    void refusals();
};

void tst_Base64::rfcVectors_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QByteArray>("standard");
    QTest::addColumn<QByteArray>("url");
    QTest::newRow("empty") << QByteArray() << QByteArray() << QByteArray();
    QTest::newRow("f") << QByteArray("f") << QByteArray("Zg==") << QByteArray("Zg");
    QTest::newRow("fo") << QByteArray("fo") << QByteArray("Zm8=") << QByteArray("Zm8");
    QTest::newRow("foo") << QByteArray("foo") << QByteArray("Zm9v") << QByteArray("Zm9v");
    QTest::newRow("foob") << QByteArray("foob") << QByteArray("Zm9vYg==") << QByteArray("Zm9vYg");
    QTest::newRow("fooba") << QByteArray("fooba") << QByteArray("Zm9vYmE=")
                           << QByteArray("Zm9vYmE");
    QTest::newRow("foobar") << QByteArray("foobar") << QByteArray("Zm9vYmFy")
                            << QByteArray("Zm9vYmFy");
    // The cursor of the 2025-11-25 tasks/list third page: no whole number of quads.
    QTest::newRow("cursor") << QByteArray("offset:100") << QByteArray("b2Zmc2V0OjEwMA==")
                            << QByteArray("b2Zmc2V0OjEwMA");
}

void tst_Base64::rfcVectors()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QByteArray, standard);
    QFETCH(QByteArray, url);
    const std::string in = bytes.toStdString();
    QCOMPARE(QByteArray::fromStdString(encodeBase64(in)), standard);
    QCOMPARE(QByteArray::fromStdString(encodeBase64Url(in)), url);
    std::string out = "left over";
    QVERIFY(decodeBase64(standard.toStdString(), out));
    QCOMPARE(out, in);
    out = "left over";
    QVERIFY(decodeBase64Url(url.toStdString(), out));
    QCOMPARE(out, in);
}

void tst_Base64::alphabetsDiffer()
{
    const std::string bytes("\xfb\xff\xbf", 3);
    QCOMPARE(encodeBase64(bytes), std::string("+/+/"));
    QCOMPARE(encodeBase64Url(bytes), std::string("-_-_"));
    std::string out;
    QVERIFY(decodeBase64Url("-_-_", out));
    QCOMPARE(out, bytes);
}

void tst_Base64::refusals()
{
    std::string out;
    QVERIFY(!decodeBase64("Zm9vYg=", out));     // not a whole number of quads
    QVERIFY(!decodeBase64("Zm9vYg", out));      // padding left out
    QVERIFY(!decodeBase64("-_-_", out));        // the URL alphabet
    QVERIFY(!decodeBase64("Zm9 YmFy", out));    // a space
    QVERIFY(!decodeBase64Url("Zm9vYg==", out)); // padding
    QVERIFY(!decodeBase64Url("+/+/", out));     // the standard alphabet
    QVERIFY(!decodeBase64Url("Zm9vY", out));    // a lone sixth of a byte
}

QTEST_GUILESS_MAIN(tst_Base64)
#include "tst_base64.moc"
