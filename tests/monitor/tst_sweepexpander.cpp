// Sweep spec parsing, grid and Latin-hypercube expansion, and rejection of anything the tool's
// inputSchema would refuse, before a single request is sent.
#include "app/vocab/schemavalidator.h"
#include "app/vocab/sweepexpander.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QTest>

#include <algorithm>
#include <set>

using namespace Eddy::Monitor;
using json = nlohmann::json;

namespace {

// The shape of eddy-cfd-server's run_cfd_case inputSchema.
json cfdSchema()
{
    return json::parse(R"({
      "type": "object",
      "properties": {
        "case_name": {"type": "string", "minLength": 1, "maxLength": 200},
        "reynolds": {"type": "number", "exclusiveMinimum": 0, "maximum": 1000000},
        "grid": {"type": "integer", "minimum": 8, "maximum": 1024},
        "max_iterations": {"type": "integer", "minimum": 1, "default": 20000},
        "tolerance": {"type": "number", "exclusiveMinimum": 0, "default": 1e-6},
        "lid_velocity": {"type": "number", "default": 1},
        "grading": {"type": "number", "minimum": 1, "maximum": 1000, "default": 1},
        "force_mesh_defect": {"type": "boolean", "default": false},
        "scheme": {"type": "string", "enum": ["upwind", "central"]},
        "idempotency_key": {"type": "string", "minLength": 1}
      },
      "required": ["reynolds", "grid"],
      "additionalProperties": false
    })");
}

std::optional<std::vector<json>> expandText(const char *text, QStringList *errors, QString *specError = nullptr)
{
    QString err;
    const auto spec = SweepSpec::fromText(QByteArray(text), &err);
    if (!spec) {
        if (specError)
            *specError = err;
        return std::nullopt;
    }
    return SweepExpander::expand(*spec, cfdSchema(), errors);
}

} // namespace

class tst_SweepExpander : public QObject
{
    Q_OBJECT

private slots:
    void gridIsTheProduct();
    void rangeIsInclusiveAndClean();
    void integerRangeGivesIntegers();
    void latinHypercubeOnePerStratum();
    void latinHypercubeIsDeterministic();
    void specErrors_data();
    void specErrors();
    void schemaViolationsNamed_data();
    void schemaViolationsNamed();
    void tooManyCasesRefused();
    void validatorOneOfAndItems();
    void shippedExamplesExpand();
    void argumentsCheckedKeyByKey();
    void fileOrderKeptCaseOrderNot();
};

void tst_SweepExpander::gridIsTheProduct()
{
    QStringList errors;
    const auto cases = expandText(R"({"tool": "run_cfd_case", "fixed": {"grid": 64},
        "vary": {"reynolds": {"list": [100, 400]}, "grading": {"range": {"from": 1, "to": 2, "step": 0.5}}},
        "mode": "grid", "concurrency": 4})", &errors);
    QVERIFY2(cases, qPrintable(errors.join('\n')));
    QCOMPARE(cases->size(), size_t(6));
    std::set<std::pair<double, double>> seen;
    for (const json &c : *cases) {
        QCOMPARE(c["grid"].get<int>(), 64);
        seen.insert({c["reynolds"].get<double>(), c["grading"].get<double>()});
    }
    QCOMPARE(seen.size(), size_t(6));
    QVERIFY(seen.count({400, 1.5}));
    QVERIFY(seen.count({100, 2.0}));
}

void tst_SweepExpander::rangeIsInclusiveAndClean()
{
    QStringList errors;
    const auto cases = expandText(R"({"tool": "t", "fixed": {"grid": 16, "reynolds": 100},
        "vary": {"grading": {"range": {"from": 1, "to": 1.3, "step": 0.1}}}})", &errors);
    QVERIFY2(cases, qPrintable(errors.join('\n')));
    QCOMPARE(cases->size(), size_t(4)); // 1.0 1.1 1.2 1.3 despite binary rounding
    QCOMPARE((*cases)[3]["grading"].get<double>(), 1.3);
    QCOMPARE((*cases)[1]["grading"].get<double>(), 1.1);
}

void tst_SweepExpander::integerRangeGivesIntegers()
{
    QStringList errors;
    const auto cases = expandText(R"({"tool": "t", "fixed": {"reynolds": 100},
        "vary": {"grid": {"range": {"from": 16, "to": 64, "step": 16}}}})", &errors);
    QVERIFY2(cases, qPrintable(errors.join('\n')));
    QCOMPARE(cases->size(), size_t(4));
    for (const json &c : *cases)
        QVERIFY(c["grid"].is_number_integer());
    QStringList e2;
    QVERIFY(!expandText(R"({"tool": "t", "fixed": {"reynolds": 100},
        "vary": {"grid": {"range": {"from": 16, "to": 20, "step": 0.5}}}})", &e2));
    QVERIFY2(e2.join(' ').contains("grid"), qPrintable(e2.join('\n')));
}

void tst_SweepExpander::latinHypercubeOnePerStratum()
{
    QStringList errors;
    const int n = 20;
    const auto cases = expandText(R"({"tool": "t", "mode": "lhs", "samples": 20, "seed": 7,
        "fixed": {"grid": 16},
        "vary": {"reynolds": {"min": 100, "max": 1100}, "max_iterations": {"min": 100, "max": 2100}}})", &errors);
    QVERIFY2(cases, qPrintable(errors.join('\n')));
    QCOMPARE(cases->size(), size_t(n));
    std::set<int> reStrata, itStrata;
    for (const json &c : *cases) {
        const double re = c["reynolds"].get<double>();
        QVERIFY(re >= 100 && re < 1100);
        reStrata.insert(int((re - 100) / 1000.0 * n));
        QVERIFY2(c["max_iterations"].is_number_integer(), "integer parameter rounded");
        const qint64 it = c["max_iterations"].get<qint64>();
        QVERIFY(it >= 100 && it <= 2100);
        itStrata.insert(int(std::min<double>(n - 1, (double(it) - 100) / 2000.0 * n)));
    }
    QCOMPARE(reStrata.size(), size_t(n)); // every stratum of every axis exactly once
    QVERIFY(itStrata.size() >= size_t(n - 2)); // rounding may move a point to the next stratum edge
}

void tst_SweepExpander::latinHypercubeIsDeterministic()
{
    const auto a = SweepExpander::latinHypercube(10, 3, 42);
    const auto b = SweepExpander::latinHypercube(10, 3, 42);
    const auto c = SweepExpander::latinHypercube(10, 3, 43);
    QCOMPARE(a, b);
    QVERIFY(a != c);
}

void tst_SweepExpander::specErrors_data()
{
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("not json") << QByteArray("{tool:") << "not valid JSON";
    QTest::newRow("unknown top key") << QByteArray(R"({"tool":"t","vary":{},"concurency":4})") << "concurency";
    QTest::newRow("no tool") << QByteArray(R"({"vary":{}})") << "tool";
    QTest::newRow("bad mode") << QByteArray(R"({"tool":"t","mode":"random"})") << "mode";
    QTest::newRow("lhs without samples") << QByteArray(R"({"tool":"t","mode":"lhs","vary":{"reynolds":{"min":1,"max":2}}})") << "samples";
    QTest::newRow("zero step") << QByteArray(R"({"tool":"t","vary":{"grading":{"range":{"from":1,"to":2,"step":0}}}})") << "step";
    QTest::newRow("range key typo") << QByteArray(R"({"tool":"t","vary":{"grading":{"range":{"from":1,"too":2,"step":1}}}})") << "too";
    QTest::newRow("min/max in grid") << QByteArray(R"({"tool":"t","vary":{"reynolds":{"min":1,"max":2}}})") << "lhs";
    QTest::newRow("fixed and varied") << QByteArray(R"({"tool":"t","fixed":{"grid":8},"vary":{"grid":{"list":[8]}}})") << "grid";
    QTest::newRow("concurrency") << QByteArray(R"({"tool":"t","concurrency":0})") << "concurrency";
}

void tst_SweepExpander::specErrors()
{
    QFETCH(QByteArray, spec);
    QFETCH(QString, mentions);
    QString error;
    QVERIFY(!SweepSpec::fromText(spec, &error));
    QVERIFY2(error.contains(mentions), qPrintable(error));
}

void tst_SweepExpander::schemaViolationsNamed_data()
{
    QTest::addColumn<QByteArray>("spec");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("unknown fixed") << QByteArray(R"({"tool":"t","fixed":{"grid":16,"reynolds":1,"viscosity":2}})") << "viscosity";
    QTest::newRow("unknown varied") << QByteArray(R"({"tool":"t","fixed":{"grid":16},"vary":{"renolds":{"list":[1]}}})") << "renolds";
    QTest::newRow("exclusiveMinimum") << QByteArray(R"({"tool":"t","fixed":{"grid":16},"vary":{"reynolds":{"list":[100,0]}}})") << "reynolds: 0 must be greater than 0";
    QTest::newRow("minimum") << QByteArray(R"({"tool":"t","fixed":{"reynolds":10},"vary":{"grid":{"list":[4,16]}}})") << "grid: 4 is below the minimum 8";
    QTest::newRow("maximum") << QByteArray(R"({"tool":"t","fixed":{"reynolds":10,"grid":16},"vary":{"grading":{"list":[2000]}}})") << "above the maximum";
    QTest::newRow("type") << QByteArray(R"({"tool":"t","fixed":{"reynolds":"fast","grid":16}})") << "reynolds";
    QTest::newRow("integer type") << QByteArray(R"({"tool":"t","fixed":{"reynolds":1,"grid":16.5}})") << "grid";
    QTest::newRow("enum") << QByteArray(R"({"tool":"t","fixed":{"reynolds":1,"grid":16,"scheme":"quick"}})") << "scheme";
    QTest::newRow("required") << QByteArray(R"({"tool":"t","fixed":{"reynolds":1}})") << "\"grid\" is missing";
    QTest::newRow("own key") << QByteArray(R"({"tool":"t","fixed":{"reynolds":1,"grid":8,"idempotency_key":"x"}})") << "idempotency_key";
}

void tst_SweepExpander::schemaViolationsNamed()
{
    QFETCH(QByteArray, spec);
    QFETCH(QString, mentions);
    QStringList errors;
    QString specError;
    QVERIFY(!expandText(spec.constData(), &errors, &specError));
    QVERIFY2(specError.isEmpty(), qPrintable(specError));
    QVERIFY2(errors.join('\n').contains(mentions), qPrintable(errors.join('\n')));
}

void tst_SweepExpander::tooManyCasesRefused()
{
    QStringList errors;
    QVERIFY(!expandText(R"({"tool":"t","fixed":{"grid":16},
        "vary":{"reynolds":{"range":{"from":1,"to":1000,"step":0.001}}}})", &errors));
    QVERIFY2(errors.join(' ').contains("step") || errors.join(' ').contains("limit"), qPrintable(errors.join('\n')));
}

void tst_SweepExpander::validatorOneOfAndItems()
{
    const json schema = json::parse(R"({"type":"object","properties":{
        "action":{"type":"string","oneOf":[{"const":"repair"},{"const":"abort"}]},
        "fields":{"type":"array","items":{"type":"string","enum":["u","v","p"]}}}})");
    QVERIFY(SchemaValidator::validate(json{{"action", "repair"}, {"fields", {"u", "p"}}}, schema).isEmpty());
    QVERIFY(SchemaValidator::validate(json{{"action", "retry"}}, schema).join(' ').contains("action"));
    QVERIFY(SchemaValidator::validate(json{{"fields", {"u", "w"}}}, schema).join(' ').contains("fields[1]"));
    const json withDefaults = SchemaValidator::withDefaults(json::object(), cfdSchema());
    QCOMPARE(withDefaults["max_iterations"].get<int>(), 20000);
    QVERIFY(!withDefaults.contains("reynolds"));
}

void tst_SweepExpander::shippedExamplesExpand()
{
    const QDir dir(qEnvironmentVariable("EDDY_SOURCE_DIR") + QStringLiteral("/resources/examples"));
    int sweeps = 0;
    for (const QString &name : dir.entryList({QStringLiteral("*.json")})) {
        QFile f(dir.filePath(name));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        if (!json::parse(text.constData(), nullptr, false).contains("tool"))
            continue; // an answers file
        QString error;
        const auto spec = SweepSpec::fromText(text, &error);
        QVERIFY2(spec, qPrintable(name + ": " + error));
        QStringList errors;
        QVERIFY2(SweepExpander::expand(*spec, cfdSchema(), &errors), qPrintable(name + ": " + errors.join('\n')));
        ++sweeps;
    }
    QVERIFY2(sweeps >= 3, qPrintable(dir.path()));
}

void tst_SweepExpander::argumentsCheckedKeyByKey()
{
    // The review's files: each problem names the key, the value and what the tool expects, and
    // a misspelt key the argument it likely means.
    QString err;
    const auto spec = SweepSpec::fromText(R"({"tool": "run_cfd_case",
        "fixed": {"grid": "64", "max_iteration": 500, "reynold": 100, "tolerance": 1e-4},
        "vary": {"renolds": {"list": [100]}}})", &err);
    QVERIFY2(spec, qPrintable(err));
    const QList<SweepExpander::Problem> problems = SweepExpander::checkArguments(*spec, cfdSchema());
    QCOMPARE(problems.size(), 4);
    QHash<QString, SweepExpander::Problem> byKey;
    for (const auto &p : problems)
        byKey.insert(p.key, p);
    QCOMPARE(byKey.value(QStringLiteral("grid")).argument, QStringLiteral("grid"));
    QCOMPARE(byKey.value(QStringLiteral("grid")).text,
             QStringLiteral("fixed.grid: \"64\" is not of type integer (the tool run_cfd_case expects an integer from 8 to 1024)"));
    QCOMPARE(byKey.value(QStringLiteral("max_iteration")).argument, QStringLiteral("max_iterations"));
    QVERIFY(byKey.value(QStringLiteral("max_iteration")).text.startsWith(
        QStringLiteral("fixed.max_iteration: the tool run_cfd_case has no argument \"max_iteration\"; did you mean \"max_iterations\"?")));
    QCOMPARE(byKey.value(QStringLiteral("reynold")).argument, QStringLiteral("reynolds"));
    QCOMPARE(byKey.value(QStringLiteral("renolds")).argument, QStringLiteral("reynolds"));
    QVERIFY(byKey.value(QStringLiteral("renolds")).text.startsWith(QStringLiteral("vary.renolds:")));
    // expand() refuses with the same sentences.
    QStringList errors;
    QVERIFY(!SweepExpander::expand(*spec, cfdSchema(), &errors));
    QVERIFY2(errors.contains(byKey.value(QStringLiteral("grid")).text), qPrintable(errors.join(QLatin1Char('\n'))));
    QCOMPARE(SweepExpander::expects(cfdSchema()["properties"]["reynolds"]), QStringLiteral("a number above 0 and at most 1000000"));
    QCOMPARE(SweepExpander::expects(cfdSchema()["properties"]["scheme"]), QStringLiteral("one of \"upwind\", \"central\""));
}

void tst_SweepExpander::fileOrderKeptCaseOrderNot()
{
    QString err;
    const auto listed = SweepSpec::fromText(R"({"description": "d", "tool": "t", "fixed": {"grid": 16},
        "vary": {"reynolds": {"list": [100, 400]}, "grading": {"list": [1, 2]}}})", &err);
    const auto sorted = SweepSpec::fromText(R"({"tool": "t", "fixed": {"grid": 16},
        "vary": {"grading": {"list": [1, 2]}, "reynolds": {"list": [100, 400]}}})", &err);
    QVERIFY(listed && sorted);
    QCOMPARE(listed->variedOrder, (QStringList{QStringLiteral("reynolds"), QStringLiteral("grading")}));
    QCOMPARE(listed->description, QStringLiteral("d"));
    // The raw spec (what is stored) keeps the file's order.
    const std::string raw = listed->raw.dump();
    QVERIFY(raw.find("reynolds") < raw.find("grading"));
    QVERIFY(raw.find("description") < raw.find("tool"));
    // The cases do not depend on it: the same order, whichever way the file lists the axes.
    QStringList errors;
    QCOMPARE(*SweepExpander::expand(*listed, cfdSchema(), &errors), *SweepExpander::expand(*sorted, cfdSchema(), &errors));
}

QTEST_GUILESS_MAIN(tst_SweepExpander)
#include "tst_sweepexpander.moc"
