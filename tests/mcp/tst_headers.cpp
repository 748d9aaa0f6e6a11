#include "app/mcp/headers.h"
#include "app/mcp/tool.h"

#include <QTest>

using namespace Eddy::Mcp;
using nlohmann::json;

Q_DECLARE_METATYPE(std::string)

// Value encoding with the base64 sentinel and the x-mcp-header rules (CORE-HTTP, CORE-TOOLS).
class tst_Headers : public QObject
{
    Q_OBJECT

private slots:
    void encodeValue_data();
    void encodeValue();
    void decodeRejectsBadBase64();
    void token_data();
    void token();
    void headerAnnotations_data();
    void headerAnnotations();
    void paramHeaders();
    void paramHeaderErrors();
    void toolDroppedForBadAnnotation();
};

void tst_Headers::encodeValue_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QByteArray>("expected");
    QTest::newRow("plain") << "run_cfd_case" << QByteArray("run_cfd_case");
    QTest::newRow("inner space ok") << "a b" << QByteArray("a b");
    QTest::newRow("empty") << "" << QByteArray("");
    QTest::newRow("non-ascii") << QString::fromUtf8("Zürich")
                               << QByteArray("=?base64?" + QByteArray("Z\xC3\xBCrich").toBase64() + "?=");
    QTest::newRow("leading space") << " x" << QByteArray("=?base64?IHg=?=");
    QTest::newRow("trailing space") << "x " << QByteArray("=?base64?eCA=?=");
    QTest::newRow("tab") << "a\tb" << QByteArray("=?base64?" + QByteArray("a\tb").toBase64() + "?=");
    QTest::newRow("newline") << "a\nb" << QByteArray("=?base64?" + QByteArray("a\nb").toBase64() + "?=");
    QTest::newRow("looks like sentinel") << "=?base64?abc?="
                                         << QByteArray("=?base64?" + QByteArray("=?base64?abc?=").toBase64() + "?=");
    QTest::newRow("sentinel other case") << "=?BASE64?abc?="
                                         << QByteArray("=?base64?" + QByteArray("=?BASE64?abc?=").toBase64() + "?=");
    QTest::newRow("DEL") << QString(QChar(0x7f)) << QByteArray("=?base64?fw==?=");
    // Found by fuzz_jsonrpc: a leading U+FEFF is data and must survive the round trip.
    QTest::newRow("leading BOM") << QString(QChar(0xfeff)) + "x"
                                 << QByteArray("=?base64?" + QByteArray("\xEF\xBB\xBFx").toBase64() + "?=");
}

void tst_Headers::encodeValue()
{
    QFETCH(QString, value);
    QFETCH(QByteArray, expected);
    const QByteArray encoded = Headers::encodeValue(value);
    QCOMPARE(encoded, expected);
    bool ok = false;
    QCOMPARE(Headers::decodeValue(encoded, &ok), value);
    QVERIFY(ok);
}

void tst_Headers::decodeRejectsBadBase64()
{
    bool ok = true;
    Headers::decodeValue("=?base64?!!!?=", &ok);
    QVERIFY(!ok);
}

void tst_Headers::token_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("valid");
    QTest::newRow("word") << "Region" << true;
    QTest::newRow("dash digits") << "X-Tenant-42" << true;
    QTest::newRow("specials") << "a!#$%&'*+.^_`|~" << true;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("space") << "Re gion" << false;
    QTest::newRow("colon") << "a:b" << false;
    QTest::newRow("non-ascii") << QString::fromUtf8("Régión") << false;
    QTest::newRow("slash") << "a/b" << false;
}

void tst_Headers::token()
{
    QFETCH(QString, name);
    QFETCH(bool, valid);
    QCOMPARE(Headers::isToken(name), valid);
}

void tst_Headers::headerAnnotations_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QStringList>("headers"); // "Name=path"

    QTest::newRow("none") << QByteArray(R"({"type":"object","properties":{"a":{"type":"string"}}})")
                          << true << QStringList{};
    QTest::newRow("string") << QByteArray(R"({"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}})")
                            << true << QStringList{"Region=region"};
    QTest::newRow("integer and boolean")
        << QByteArray(R"({"type":"object","properties":{"n":{"type":"integer","x-mcp-header":"N"},"b":{"type":"boolean","x-mcp-header":"B"}}})")
        << true << QStringList{"B=b", "N=n"};
    QTest::newRow("nested properties")
        << QByteArray(R"({"type":"object","properties":{"o":{"type":"object","properties":{"t":{"type":"string","x-mcp-header":"T"}}}}})")
        << true << QStringList{"T=o.t"};
    QTest::newRow("number not allowed")
        << QByteArray(R"({"type":"object","properties":{"x":{"type":"number","x-mcp-header":"X"}}})") << false << QStringList{};
    QTest::newRow("object not allowed")
        << QByteArray(R"({"type":"object","properties":{"x":{"type":"object","x-mcp-header":"X"}}})") << false << QStringList{};
    QTest::newRow("inside items")
        << QByteArray(R"({"type":"object","properties":{"l":{"type":"array","items":{"type":"string","x-mcp-header":"L"}}}})") << false << QStringList{};
    QTest::newRow("inside anyOf")
        << QByteArray(R"({"type":"object","properties":{"u":{"anyOf":[{"type":"string","x-mcp-header":"U"}]}}})") << false << QStringList{};
    QTest::newRow("inside oneOf")
        << QByteArray(R"({"type":"object","oneOf":[{"properties":{"u":{"type":"string","x-mcp-header":"U"}}}]})") << false << QStringList{};
    QTest::newRow("inside then")
        << QByteArray(R"({"type":"object","if":{},"then":{"properties":{"u":{"type":"string","x-mcp-header":"U"}}}})") << false << QStringList{};
    QTest::newRow("ref target")
        << QByteArray(R"({"type":"object","properties":{"r":{"$ref":"#/$defs/R"}},"$defs":{"R":{"type":"string","x-mcp-header":"R"}}})") << false << QStringList{};
    QTest::newRow("duplicate case-insensitive")
        << QByteArray(R"({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Name"},"b":{"type":"string","x-mcp-header":"name"}}})") << false << QStringList{};
    QTest::newRow("bad token")
        << QByteArray(R"({"type":"object","properties":{"a":{"type":"string","x-mcp-header":"Bad Name"}}})") << false << QStringList{};
    QTest::newRow("empty name")
        << QByteArray(R"({"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}})") << false << QStringList{};
    QTest::newRow("not a string")
        << QByteArray(R"({"type":"object","properties":{"a":{"type":"string","x-mcp-header":5}}})") << false << QStringList{};
    QTest::newRow("on the root")
        << QByteArray(R"({"type":"object","x-mcp-header":"Root"})") << false << QStringList{};
    QTest::newRow("key inside a default is data")
        << QByteArray(R"({"type":"object","properties":{"a":{"type":"object","default":{"x-mcp-header":"no"}}}})") << true << QStringList{};
}

void tst_Headers::headerAnnotations()
{
    QFETCH(QByteArray, schema);
    QFETCH(bool, valid);
    QFETCH(QStringList, headers);
    std::vector<HeaderParam> params;
    QString error;
    const json parsed = json::parse(schema.toStdString());
    QCOMPARE(Headers::collectHeaderParams(parsed, &params, &error), valid);
    if (!valid) {
        QVERIFY(!error.isEmpty());
        return;
    }
    QStringList got;
    for (const auto &p : params)
        got << p.headerName + QLatin1Char('=') + p.path.join(QLatin1Char('.'));
    got.sort();
    QCOMPARE(got, headers);
}

void tst_Headers::paramHeaders()
{
    const json schema = json::parse(R"({"type":"object","properties":{
        "region":{"type":"string","x-mcp-header":"Region"},
        "n":{"type":"integer","x-mcp-header":"N"},
        "b":{"type":"boolean","x-mcp-header":"B"},
        "absent":{"type":"string","x-mcp-header":"Absent"},
        "nul":{"type":"string","x-mcp-header":"Nul"}}})");
    std::vector<HeaderParam> params;
    QVERIFY(Headers::collectHeaderParams(schema, &params, nullptr));
    QList<std::pair<QByteArray, QByteArray>> out;
    QString error;
    const json args = {{"region", "Zürich"}, {"n", -9007199254740991LL}, {"b", false}, {"nul", nullptr}};
    QVERIFY2(Headers::paramHeaders(params, args, &out, &error), qPrintable(error));
    QMap<QByteArray, QByteArray> map;
    for (const auto &[k, v] : out)
        map.insert(k, v);
    QCOMPARE(map.size(), 3); // absent and null arguments send no header
    QCOMPARE(map.value("Mcp-Param-Region"), QByteArray("=?base64?" + QByteArray("Z\xC3\xBCrich").toBase64() + "?="));
    QCOMPARE(map.value("Mcp-Param-N"), QByteArray("-9007199254740991"));
    QCOMPARE(map.value("Mcp-Param-B"), QByteArray("false"));
}

void tst_Headers::paramHeaderErrors()
{
    const json schema = json::parse(R"({"type":"object","properties":{
        "n":{"type":"integer","x-mcp-header":"N"},"s":{"type":"string","x-mcp-header":"S"}}})");
    std::vector<HeaderParam> params;
    QVERIFY(Headers::collectHeaderParams(schema, &params, nullptr));
    QString error;
    QVERIFY(!Headers::paramHeaders(params, {{"n", 9007199254740992LL}}, nullptr, &error));
    QVERIFY(error.contains(QLatin1String("2^53")));
    QVERIFY(!Headers::paramHeaders(params, {{"n", 1.5}}, nullptr, &error));
    QVERIFY(!Headers::paramHeaders(params, {{"s", 3}}, nullptr, &error));
    QVERIFY(error.contains(QLatin1String("Mcp-Param-S")));
}

void tst_Headers::toolDroppedForBadAnnotation()
{
    Tool tool;
    QString error;
    QVERIFY(!Tool::fromJson(json::parse(R"({"name":"t","inputSchema":{"type":"object","properties":{"x":{"type":"number","x-mcp-header":"X"}}}})"),
                            &tool, &error));
    QVERIFY(error.contains(QLatin1String("dropped")));
    QVERIFY(Tool::fromJson(json::parse(R"({"name":"t","title":"T","inputSchema":{"type":"object"},"execution":{"taskSupport":"optional"}})"),
                           &tool, &error));
    QCOMPARE(tool.name, QStringLiteral("t"));
    QCOMPARE(tool.taskSupport(), QStringLiteral("optional"));
    QVERIFY(!Tool::fromJson(json::parse(R"({"name":"t"})"), &tool, &error));
    QVERIFY(!Tool::fromJson(json::parse(R"({"inputSchema":{}})"), &tool, &error));
}

QTEST_GUILESS_MAIN(tst_Headers)
#include "tst_headers.moc"
