#include "widgets/schemaform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using nlohmann::json;

// QCOMPARE on json would drag in QTest's qfloat16 overloads; compare the canonical text.
#define QCOMPARE_JSON(a, b) QCOMPARE(QString::fromStdString(json(a).dump()), QString::fromStdString(json(b).dump()))
using Eddy::SchemaForm;

// The schema form: one editor per type, the JSON it produces, and validation before sending.
class tst_SchemaForm : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyTypeProducesJson();
    void defaultsAndRequired();
    void validationMessages();
    void setValueRoundTrip();
    void variedFieldsLeftOut();
    void noArguments();

private:
    static json caseSchema();
};

json tst_SchemaForm::caseSchema()
{
    return json::parse(R"({"type":"object","required":["reynolds","grid"],"properties":{
        "reynolds":{"type":"number","title":"Reynolds number","minimum":1,"maximum":10000,"default":100},
        "grid":{"type":"integer","title":"Grid size","minimum":8,"maximum":256,"default":32},
        "max_iter":{"type":"integer","minimum":1},
        "label":{"type":"string","pattern":"^[a-z0-9-]+$","maxLength":20},
        "verbose":{"type":"boolean","default":false},
        "dry":{"type":"boolean"},
        "scheme":{"type":"string","enum":["upwind","central"],"enumNames":["Upwind","Central"]},
        "solver":{"oneOf":[{"const":"sor","title":"SOR"},{"const":"cg","title":"Conjugate gradient"}],"default":"cg"},
        "fields":{"type":"array","items":{"type":"string","enum":["u","v","p"]}},
        "probes":{"type":"array","items":{"type":"number"}},
        "mesh":{"type":"object","properties":{"grading":{"type":"number","default":1.0}}},
        "extra":{"type":"object"}}})");
}

void tst_SchemaForm::everyTypeProducesJson()
{
    SchemaForm form;
    form.setSchema(caseSchema());
    QSignalSpy changed(&form, &SchemaForm::valueChanged);

    auto *re = qobject_cast<QLineEdit *>(form.editor("reynolds"));
    QVERIFY(re);
    re->setText(QStringLiteral("1e3"));
    auto *grid = qobject_cast<QSpinBox *>(form.editor("grid"));
    QVERIFY(grid); // bounded required integers get a spin box
    grid->setValue(64);
    auto *iter = qobject_cast<QLineEdit *>(form.editor("max_iter"));
    QVERIFY(iter); // unbounded optional integers stay a line edit, so "empty" means absent
    iter->setText(QStringLiteral("500"));
    qobject_cast<QLineEdit *>(form.editor("label"))->setText(QStringLiteral("run-a"));
    qobject_cast<QCheckBox *>(form.editor("verbose"))->setChecked(true);
    auto *scheme = qobject_cast<QComboBox *>(form.editor("scheme"));
    QVERIFY(scheme);
    QCOMPARE(scheme->itemText(0), QStringLiteral("(not set)"));
    scheme->setCurrentIndex(scheme->findText(QStringLiteral("Central")));
    auto *solver = qobject_cast<QComboBox *>(form.editor("solver"));
    QCOMPARE(solver->currentText(), QStringLiteral("Conjugate gradient"));
    auto *fields = qobject_cast<QListWidget *>(form.editor("fields"));
    QVERIFY(fields);
    fields->item(0)->setCheckState(Qt::Checked);
    fields->item(2)->setCheckState(Qt::Checked);
    qobject_cast<QLineEdit *>(form.editor("probes"))->setText(QStringLiteral("0.1, 0.5, 1e-2"));
    qobject_cast<QLineEdit *>(form.editor("mesh.grading"))->setText(QStringLiteral("1.5"));
    qobject_cast<QPlainTextEdit *>(form.editor("extra"))->setPlainText(QStringLiteral("{\"k\": [1, 2]}"));
    QVERIFY(changed.count() > 5);

    QVERIFY2(form.validate().isEmpty(), qPrintable(form.validate().join('\n')));
    const json expected = json::parse(R"({"reynolds":1000.0,"grid":64,"max_iter":500,"label":"run-a",
        "verbose":true,"scheme":"central","solver":"cg","fields":["u","p"],"probes":[0.1,0.5,0.01],
        "mesh":{"grading":1.5},"extra":{"k":[1,2]}})");
    QCOMPARE(QString::fromStdString(form.value().dump()), QString::fromStdString(expected.dump()));
    QVERIFY(!form.value().contains("dry")); // an untouched optional boolean is not sent
}

void tst_SchemaForm::defaultsAndRequired()
{
    SchemaForm form;
    form.setSchema(caseSchema());
    const json v = form.value();
    QCOMPARE_JSON(v["reynolds"], json(100.0));
    QCOMPARE_JSON(v["grid"], json(32));
    QCOMPARE_JSON(v["verbose"], json(false));
    QCOMPARE_JSON(v["mesh"]["grading"], json(1.0));
    QVERIFY(!v.contains("label"));
    QVERIFY(!v.contains("scheme"));
    QVERIFY(form.validate().isEmpty());

    qobject_cast<QLineEdit *>(form.editor("reynolds"))->clear();
    const QStringList errors = form.validate();
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.first().contains(QLatin1String("Reynolds number")), qPrintable(errors.first()));
    QVERIFY(errors.first().contains(QLatin1String("required")));
}

void tst_SchemaForm::validationMessages()
{
    SchemaForm form;
    form.setSchema(caseSchema());
    qobject_cast<QLineEdit *>(form.editor("reynolds"))->setText(QStringLiteral("20000"));
    qobject_cast<QLineEdit *>(form.editor("label"))->setText(QStringLiteral("Bad Label"));
    qobject_cast<QLineEdit *>(form.editor("probes"))->setText(QStringLiteral("0.1, x"));
    qobject_cast<QPlainTextEdit *>(form.editor("extra"))->setPlainText(QStringLiteral("{oops"));
    const QStringList errors = form.validate();
    QCOMPARE(errors.size(), 4);
    QVERIFY(errors.filter(QStringLiteral("at most 10000")).size() == 1);
    QVERIFY(errors.filter(QStringLiteral("pattern")).size() == 1);
    QVERIFY(errors.filter(QStringLiteral("\"x\" is not a number")).size() == 1);
    QVERIFY(errors.filter(QStringLiteral("not valid JSON")).size() == 1);
    // Unparseable values never leak into the JSON that would be sent.
    QVERIFY(!form.value().contains("probes"));
    QVERIFY(!form.value().contains("extra"));
}

void tst_SchemaForm::setValueRoundTrip()
{
    SchemaForm form;
    form.setSchema(caseSchema());
    const json in = json::parse(R"({"reynolds":400.0,"grid":16,"label":"abc","dry":false,
        "scheme":"upwind","solver":"sor","fields":["v"],"probes":[1,2],"mesh":{"grading":2.5}})");
    form.setValue(in);
    json out = form.value();
    QCOMPARE_JSON(out["reynolds"], json(400.0));
    QCOMPARE_JSON(out["grid"], json(16));
    QCOMPARE_JSON(out["dry"], json(false)); // explicitly set optional boolean survives
    QCOMPARE_JSON(out["scheme"], json("upwind"));
    QCOMPARE_JSON(out["solver"], json("sor"));
    QCOMPARE_JSON(out["fields"], json::parse(R"(["v"])"));
    QCOMPARE_JSON(out["probes"], json::parse("[1.0,2.0]"));
    QCOMPARE_JSON(out["mesh"]["grading"], json(2.5));
    form.setValue(json::object()); // back to defaults
    out = form.value();
    QCOMPARE_JSON(out["reynolds"], json(100.0));
    QVERIFY(!out.contains("label"));
}

void tst_SchemaForm::variedFieldsLeftOut()
{
    SchemaForm form;
    form.setSchema(caseSchema());
    form.setFieldVaried("reynolds", true);
    QVERIFY(form.isFieldVaried("reynolds"));
    QVERIFY(!form.editor("reynolds")->isEnabled());
    qobject_cast<QLineEdit *>(form.editor("reynolds"))->clear();
    QVERIFY(!form.value().contains("reynolds"));
    QVERIFY(form.validate().isEmpty()); // the sweep supplies it
}

void tst_SchemaForm::noArguments()
{
    SchemaForm form;
    form.setSchema(json::parse(R"({"type":"object","properties":{}})"));
    QVERIFY(form.isEmpty());
    QCOMPARE_JSON(form.value(), json::object());
    QVERIFY(form.validate().isEmpty());
}

QTEST_MAIN(tst_SchemaForm)
#include "tst_schemaform.moc"
