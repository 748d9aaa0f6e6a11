#include "widgets/elicitationdialog.h"
#include "widgets/schemaform.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

using nlohmann::json;
using Eddy::ElicitationContext;
using Eddy::ElicitationDialog;

#define QCOMPARE_JSON(a, b) QCOMPARE(QString::fromStdString(json(a).dump()), QString::fromStdString(json(b).dump()))

// The elicitation dialog (the opt-in pop-up around an AnswerPanel): who is asking, accept and
// decline give the right ElicitResult, "Later", Escape and closing answer nothing, "Abort This
// Case..." only asks its owner, and no button works in the first AnswerPanel::GuardMs.
class tst_ElicitationDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void showsWhoIsAsking();
    void acceptSendsContent();
    void acceptBlockedByValidation();
    void declineAndLater();
    void escapeAndCloseAnswerNothing();
    void abortOnlyAsks();
    void guardIgnoresEarlyInput();
    void urlModeNeedsConsent();

private:
    static json meshRequest();
    static ElicitationContext context();
    static QPushButton *button(ElicitationDialog &d, const char *name)
    {
        return d.findChild<QPushButton *>(QLatin1String(name));
    }
    // Shows the dialog and waits out its input guard: until the guard says it has ended, not a
    // fixed time (the guard's 100 ms ticks come late on a loaded machine).
    [[nodiscard]] static bool showAndWait(ElicitationDialog &d)
    {
        d.show(); // starts the guard (AnswerPanel::showEvent)
        return QTest::qWaitFor([&d] { return !d.panel()->isGuarded(); }, 10000);
    }
};

json tst_ElicitationDialog::meshRequest()
{
    return json::parse(R"({"method":"elicitation/create","params":{"mode":"form",
        "message":"Mesh check: 12 cells exceed aspect ratio 50. Repair and continue?",
        "requestedSchema":{"type":"object","required":["action"],"properties":{
          "action":{"type":"string","title":"Action","oneOf":[{"const":"repair","title":"Repair and continue"},
                                                              {"const":"abort","title":"Abort the case"}],"default":"repair"},
          "smoothing_passes":{"type":"integer","title":"Smoothing passes","minimum":1,"maximum":10,"default":3},
          "note":{"type":"string","maxLength":40}}}}})");
}

ElicitationContext tst_ElicitationDialog::context()
{
    ElicitationContext c;
    c.serverName = QStringLiteral("Local CFD");
    c.serverUrl = QStringLiteral("http://127.0.0.1:4711/mcp");
    c.tool = QStringLiteral("run_cfd_case");
    c.sweep = QStringLiteral("Sweep 3 (6 cases)");
    c.caseLabel = QStringLiteral("Case 2: reynolds = 400");
    c.taskNumber = 17;
    return c;
}

void tst_ElicitationDialog::showsWhoIsAsking()
{
    ElicitationDialog d(meshRequest(), context());
    QString all;
    for (auto *l : d.findChildren<QLabel *>())
        all += l->text() + QLatin1Char('\n');
    for (const char *expected : {"Local CFD", "http://127.0.0.1:4711/mcp", "Sweep 3 (6 cases)",
                                 "Case 2: reynolds = 400", "run_cfd_case", "#17", "Mesh check: 12 cells"}) {
        QVERIFY2(all.contains(QLatin1String(expected)), expected);
    }
    QVERIFY(d.windowTitle().contains(QLatin1String("Local CFD")));
    QVERIFY(!d.isUrlMode());
    QVERIFY(d.form());
    auto *action = qobject_cast<QComboBox *>(d.form()->editor("action"));
    QVERIFY(action);
    QCOMPARE(action->currentText(), QStringLiteral("Repair and continue")); // enum titles + default
    QCOMPARE(qobject_cast<QSpinBox *>(d.form()->editor("smoothing_passes"))->maximum(), 10);
}

void tst_ElicitationDialog::acceptSendsContent()
{
    ElicitationDialog d(meshRequest(), context());
    QSignalSpy answered(&d, &ElicitationDialog::answered);
    QVERIFY(showAndWait(d));
    auto *action = qobject_cast<QComboBox *>(d.form()->editor("action"));
    action->setCurrentIndex(action->findText(QStringLiteral("Abort the case")));
    qobject_cast<QSpinBox *>(d.form()->editor("smoothing_passes"))->setValue(5);
    button(d, "accept")->click();
    QCOMPARE(answered.count(), 1);
    QCOMPARE(d.QDialog::result(), int(QDialog::Accepted));
    QCOMPARE_JSON(d.elicitResult(),
                  json::parse(R"({"action":"accept","content":{"action":"abort","smoothing_passes":5}})"));
    QVERIFY(!d.isVisible());
}

void tst_ElicitationDialog::acceptBlockedByValidation()
{
    json req = meshRequest();
    req["params"]["requestedSchema"]["properties"]["note"]["minLength"] = 3;
    req["params"]["requestedSchema"]["required"].push_back("note");
    ElicitationDialog d(req, context());
    QSignalSpy answered(&d, &ElicitationDialog::answered);
    QVERIFY(showAndWait(d));
    qobject_cast<QLineEdit *>(d.form()->editor("note"))->setText(QStringLiteral("x"));
    button(d, "accept")->click();
    QCOMPARE(answered.count(), 0); // nothing sent while a field is wrong
    QVERIFY(d.isVisible());
    auto *problems = d.findChild<QLabel *>(QStringLiteral("problems"));
    QVERIFY(problems && problems->isVisible());
    QVERIFY(d.elicitResult().is_null());
    qobject_cast<QLineEdit *>(d.form()->editor("note"))->setText(QStringLiteral("fine"));
    button(d, "accept")->click();
    QCOMPARE(answered.count(), 1);
    QCOMPARE_JSON(d.elicitResult()["content"]["note"], json("fine"));
}

void tst_ElicitationDialog::declineAndLater()
{
    {
        ElicitationDialog d(meshRequest(), context());
        QSignalSpy answered(&d, &ElicitationDialog::answered);
        QVERIFY(showAndWait(d));
        button(d, "decline")->click();
        QCOMPARE(answered.count(), 1);
        QCOMPARE_JSON(d.elicitResult(), json::parse(R"({"action":"decline"})"));
        QVERIFY(!d.elicitResult().contains("content"));
    }
    {
        ElicitationDialog d(meshRequest(), context());
        QSignalSpy answered(&d, &ElicitationDialog::answered);
        QVERIFY(showAndWait(d));
        QVERIFY(!button(d, "cancel")); // no button that sounds like "cancel the case"
        button(d, "later")->click();
        QVERIFY(!d.isVisible());
        QCOMPARE(answered.count(), 0); // the question stays open
        QVERIFY(d.elicitResult().is_null());
    }
}

void tst_ElicitationDialog::escapeAndCloseAnswerNothing()
{
    {
        ElicitationDialog d(meshRequest(), context());
        QSignalSpy answered(&d, &ElicitationDialog::answered);
        QSignalSpy aborted(&d, &ElicitationDialog::abortRequested);
        QVERIFY(showAndWait(d));
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QTest::keyClick(&d, Qt::Key_Escape);
        QTRY_VERIFY_WITH_TIMEOUT(!d.isVisible(), 10000);
        QCOMPARE(answered.count(), 0);
        QCOMPARE(aborted.count(), 0);
    }
    {
        ElicitationDialog d(meshRequest(), context());
        QSignalSpy answered(&d, &ElicitationDialog::answered);
        QVERIFY(showAndWait(d));
        QVERIFY(d.close()); // the window manager's close button
        QCOMPARE(answered.count(), 0);
    }
}

void tst_ElicitationDialog::abortOnlyAsks()
{
    ElicitationDialog d(meshRequest(), context());
    QSignalSpy answered(&d, &ElicitationDialog::answered);
    QSignalSpy aborted(&d, &ElicitationDialog::abortRequested);
    QVERIFY(showAndWait(d));
    QPushButton *abort = button(d, "abort");
    QVERIFY(abort);
    QVERIFY(abort->text().contains(QLatin1String("Abort")));
    abort->click();
    QCOMPARE(aborted.count(), 1); // the window confirms and cancels the task
    QCOMPARE(answered.count(), 0);
    QVERIFY(d.isVisible());
}

void tst_ElicitationDialog::guardIgnoresEarlyInput()
{
    ElicitationDialog d(meshRequest(), context());
    QSignalSpy answered(&d, &ElicitationDialog::answered);
    d.show();
    QVERIFY(d.panel()->isGuarded());
    QVERIFY(!button(d, "accept")->isEnabled());
    QVERIFY(!button(d, "decline")->isEnabled());
    QVERIFY(!button(d, "abort")->isEnabled());
    auto *guard = d.findChild<QLabel *>(QStringLiteral("guard"));
    QVERIFY(guard && guard->text().contains(QLatin1String("unlock")));
    QTest::mouseClick(button(d, "accept"), Qt::LeftButton);
    QTest::keyClick(&d, Qt::Key_Return);
    d.acceptInput();
    QCOMPARE(answered.count(), 0);
    QTRY_VERIFY_WITH_TIMEOUT(button(d, "accept")->isEnabled(), 5000);
    QVERIFY(!d.panel()->isGuarded());
    QVERIFY(guard->text().isEmpty());
    QTest::mouseClick(button(d, "accept"), Qt::LeftButton);
    QCOMPARE(answered.count(), 1);
}

void tst_ElicitationDialog::urlModeNeedsConsent()
{
    const json req = json::parse(R"({"method":"elicitation/create","params":{"mode":"url",
        "message":"Sign in to the cluster","url":"https://login.example.com/authorize?state=abc&scope=cfd"}})");
    ElicitationDialog d(req, context());
    QVERIFY(d.isUrlMode());
    QVERIFY(!d.form());
    auto *url = d.findChild<QLineEdit *>(QStringLiteral("url"));
    QVERIFY(url);
    QCOMPARE(url->text(), QStringLiteral("https://login.example.com/authorize?state=abc&scope=cfd")); // full URL
    int asked = 0;
    bool consent = false;
    d.setUrlOpener([&](const QUrl &u) {
        ++asked;
        [&] { QCOMPARE(u.host(), QStringLiteral("login.example.com")); }();
        return consent;
    });
    QSignalSpy answered(&d, &ElicitationDialog::answered);
    QVERIFY(showAndWait(d));
    QCOMPARE(asked, 0); // never opened before the user clicks
    button(d, "accept")->click();
    QCOMPARE(asked, 1);
    QCOMPARE(answered.count(), 0); // no consent: nothing sent, dialog stays
    QVERIFY(d.isVisible());
    consent = true;
    button(d, "accept")->click();
    QCOMPARE(asked, 2);
    QCOMPARE(answered.count(), 1);
    QCOMPARE_JSON(d.elicitResult(), json::parse(R"({"action":"accept"})"));
}

QTEST_MAIN(tst_ElicitationDialog)
#include "tst_elicitationdialog.moc"
