#include "models/schemafield.h"

#include <QTest>

using nlohmann::json;

// QCOMPARE on json would drag in QTest's qfloat16 overloads; compare the canonical text.
#define QCOMPARE_JSON(a, b) QCOMPARE(QString::fromStdString(json(a).dump()), QString::fromStdString(json(b).dump()))
using Eddy::SchemaField;
using Kind = SchemaField::Kind;

// The schema -> field description that every form and the elicitation dialog are built from.
class tst_SchemaField : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void kinds_data();
    void kinds();
    void boundsAndTitles();
    void validation_data();
    void validation();
    void nestedObject();
};

void tst_SchemaField::kinds_data()
{
    QTest::addColumn<QString>("schema");
    QTest::addColumn<int>("kind");
    QTest::newRow("string") << R"({"type":"string"})" << int(Kind::String);
    QTest::newRow("number") << R"({"type":"number"})" << int(Kind::Number);
    QTest::newRow("nullable number") << R"({"type":["number","null"]})" << int(Kind::Number);
    QTest::newRow("integer") << R"({"type":"integer"})" << int(Kind::Integer);
    QTest::newRow("boolean") << R"({"type":"boolean"})" << int(Kind::Boolean);
    QTest::newRow("enum") << R"({"type":"string","enum":["a","b"]})" << int(Kind::Enum);
    QTest::newRow("enum and oneOf") << R"({"type":"string","enum":["a"],"oneOf":[{"const":"a","title":"A"}]})" << int(Kind::Enum);
    QTest::newRow("oneOf const") << R"({"oneOf":[{"const":"x","title":"X"},{"const":"y"}]})" << int(Kind::Enum);
    QTest::newRow("array of numbers") << R"({"type":"array","items":{"type":"number"}})" << int(Kind::Array);
    QTest::newRow("array of objects") << R"({"type":"array","items":{"type":"object"}})" << int(Kind::Json);
    QTest::newRow("object") << R"({"type":"object","properties":{"a":{"type":"string"}}})" << int(Kind::Object);
    QTest::newRow("free object") << R"({"type":"object"})" << int(Kind::Json);
    QTest::newRow("no type") << R"({"description":"anything"})" << int(Kind::Json);
}

void tst_SchemaField::kinds()
{
    QFETCH(QString, schema);
    QFETCH(int, kind);
    const json s = json::parse(schema.toStdString());
    QCOMPARE(int(SchemaField::fromSchema(s, "f").kind), kind);
}

void tst_SchemaField::boundsAndTitles()
{
    const json s = json::parse(R"({"type":"object","required":["re"],"properties":{
        "re":{"type":"number","title":"Reynolds number","minimum":1,"maximum":10000,"default":100},
        "scheme":{"type":"string","enum":["upwind","central"],"enumNames":["Upwind","Central differences"]},
        "grading":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1},
        "name":{"type":"string","minLength":2,"maxLength":8,"pattern":"^[a-z]+$"}}})");
    const SchemaField root = SchemaField::fromSchema(s);
    QCOMPARE(root.children.size(), size_t(4));
    const auto find = [&](const std::string &n) {
        for (const auto &c : root.children)
            if (c.name == n)
                return c;
        return SchemaField();
    };
    const SchemaField re = find("re");
    QCOMPARE(re.title, QStringLiteral("Reynolds number"));
    QVERIFY(re.required);
    QCOMPARE(*re.minimum, 1.0);
    QCOMPARE(*re.maximum, 10000.0);
    QCOMPARE_JSON(re.defaultValue, json(100));
    const SchemaField scheme = find("scheme");
    QVERIFY(!scheme.required);
    QCOMPARE(scheme.optionTitle("central"), QStringLiteral("Central differences"));
    const json both = json::parse(R"({"type":"string","enum":["repair","abort"],
        "oneOf":[{"const":"repair","title":"Repair the mesh"},{"const":"abort","title":"Abort"}]})");
    QCOMPARE(SchemaField::fromSchema(both).optionTitle("repair"), QStringLiteral("Repair the mesh"));
    const SchemaField grading = find("grading");
    QVERIFY(grading.exclusiveMinimum && grading.exclusiveMaximum);
    QCOMPARE(*grading.maximum, 1.0);
    const SchemaField name = find("name");
    QCOMPARE(*name.minLength, 2);
    QCOMPARE(name.pattern, QStringLiteral("^[a-z]+$"));
}

void tst_SchemaField::validation_data()
{
    QTest::addColumn<QString>("schema");
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("required");
    QTest::addColumn<int>("errors");
    QTest::newRow("missing required") << R"({"type":"string"})" << "null" << true << 1;
    QTest::newRow("missing optional") << R"({"type":"string"})" << "null" << false << 0;
    QTest::newRow("too short") << R"({"type":"string","minLength":3})" << R"("ab")" << false << 1;
    QTest::newRow("pattern ok") << R"({"type":"string","pattern":"^[a-z]+$"})" << R"("abc")" << false << 0;
    QTest::newRow("pattern bad") << R"({"type":"string","pattern":"^[a-z]+$"})" << R"("ab1")" << false << 1;
    QTest::newRow("email bad") << R"({"type":"string","format":"email"})" << R"("nobody")" << false << 1;
    QTest::newRow("date ok") << R"({"type":"string","format":"date"})" << R"("2026-11-29")" << false << 0;
    QTest::newRow("below min") << R"({"type":"number","minimum":1})" << "0.5" << false << 1;
    QTest::newRow("at exclusive max") << R"({"type":"number","exclusiveMaximum":1})" << "1" << false << 1;
    QTest::newRow("in range") << R"({"type":"number","minimum":0,"maximum":1})" << "0.25" << false << 0;
    QTest::newRow("not integral") << R"({"type":"integer"})" << "2.5" << false << 1;
    QTest::newRow("integral float") << R"({"type":"integer"})" << "2.0" << false << 0;
    QTest::newRow("bool as string") << R"({"type":"boolean"})" << R"("yes")" << false << 1;
    QTest::newRow("enum unknown") << R"({"enum":["a","b"]})" << R"("c")" << false << 1;
    QTest::newRow("array item bad") << R"({"type":"array","items":{"type":"integer","minimum":0}})" << "[1,-2,3]" << false << 1;
    QTest::newRow("too few items") << R"({"type":"array","minItems":2,"items":{"type":"string"}})" << R"(["a"])" << false << 1;
    QTest::newRow("json wrong type") << R"({"type":"array","items":{"type":"object"}})" << R"({"a":1})" << false << 1;
}

void tst_SchemaField::validation()
{
    QFETCH(QString, schema);
    QFETCH(QString, value);
    QFETCH(bool, required);
    QFETCH(int, errors);
    const SchemaField f = SchemaField::fromSchema(json::parse(schema.toStdString()), "field", required);
    const QStringList messages = f.validate(json::parse(value.toStdString()));
    QCOMPARE(messages.size(), errors);
    for (const QString &m : messages)
        QVERIFY2(m.contains(QLatin1String("field")), qPrintable(m)); // names the field
}

void tst_SchemaField::nestedObject()
{
    const json s = json::parse(R"({"type":"object","properties":{
        "mesh":{"type":"object","title":"Mesh","required":["cells"],
                "properties":{"cells":{"type":"integer","minimum":4}}}}})");
    const SchemaField root = SchemaField::fromSchema(s);
    QCOMPARE(root.children.front().kind, Kind::Object);
    QCOMPARE(root.validate(json::parse(R"({"mesh":{"cells":2}})")).size(), 1);
    QCOMPARE(root.validate(json::parse(R"({"mesh":{}})")).size(), 1);
    QCOMPARE(root.validate(json::parse(R"({"mesh":{"cells":16}})")).size(), 0);
    QCOMPARE(root.validate(json::parse(R"({})")).size(), 0);
}

QTEST_GUILESS_MAIN(tst_SchemaField)
#include "tst_schemafield.moc"
