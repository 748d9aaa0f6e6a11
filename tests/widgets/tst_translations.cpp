#include "app/vocab/outcome.h"
#include "models/sessionlistmodel.h"
#include "models/tasktablemodel.h"
#include "widgets/answerpanel.h"
#include "widgets/elicitationdialog.h"

#include <QFile>
#include <QPushButton>
#include <QTest>
#include <QTranslator>

#include <nlohmann/json.hpp>

using namespace Eddy;

// The German translation is embedded, loads by locale, translates known strings (also plurals
// and the namespaced contexts tr() uses at run time), and the .ts has nothing unfinished.
class tst_Translations : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void embeddedGermanLoads();
    void translatesUi();
    void nothingUnfinished();
    void cleanupTestCase();

private:
    QTranslator m_translator;
};

void tst_Translations::embeddedGermanLoads()
{
    QVERIFY(QFile::exists(QStringLiteral(":/i18n/eddy_de.qm")));
    QVERIFY(m_translator.load(QLocale(QLocale::German), QStringLiteral("eddy"), QStringLiteral("_"), QStringLiteral(":/i18n")));
    QVERIFY(QCoreApplication::installTranslator(&m_translator));
    QVERIFY(!m_translator.isEmpty());
    QCOMPARE(m_translator.language(), QStringLiteral("de_DE"));
}

void tst_Translations::translatesUi()
{
    QCOMPARE(TaskTableModel::statusText(Store::TaskStatus::Working), QStringLiteral("In Arbeit"));
    QCOMPARE(TaskTableModel::statusText(Store::TaskStatus::Completed, true), QStringLiteral("Werkzeugfehler"));
    QCOMPARE(QCoreApplication::translate("Eddy::MainWindow", "&File"), QStringLiteral("&Datei"));
    // A proposal (a mesh repair) is accepted: "Annehmen", not "Übernehmen" (to take over).
    QCOMPARE(QCoreApplication::translate("Eddy::AnswerPanel", "Accept"), QStringLiteral("Annehmen"));
    Store::SessionRecord s{5, QStringLiteral("Studie"), 0, 6};
    SessionListModel sessions;
    sessions.setSessions({s});
    QCOMPARE(sessions.index(1).data(Qt::ToolTipRole).toString(), QStringLiteral("6 Aufgaben"));
    QCOMPARE(sessions.index(0).data().toString(), QStringLiteral("Alle Sitzungen"));
    const auto request = nlohmann::json::parse(R"({"params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}})");
    ElicitationDialog dialog(request, ElicitationContext{});
    // The question's buttons live in the answer panel the dialog hosts (context Eddy::AnswerPanel);
    // "Later" is the dialog's own (Eddy::ElicitationDialog).
    auto *panel = dialog.findChild<AnswerPanel *>();
    QVERIFY(panel);
    auto *decline = panel->findChild<QPushButton *>(QStringLiteral("decline"));
    auto *abort = panel->findChild<QPushButton *>(QStringLiteral("abort"));
    auto *later = dialog.findChild<QPushButton *>(QStringLiteral("later"));
    QVERIFY(decline && abort && later);
    QCOMPARE(decline->text(), QStringLiteral("Ablehnen"));
    QCOMPARE(abort->text(), QStringLiteral("Fall abbrechen..."));
    QCOMPARE(later->text(), QStringLiteral("Später"));
    // Nested namespace context of a Q_DECLARE_TR_FUNCTIONS class.
    QCOMPARE(Monitor::OutcomeText::label(Monitor::Outcome::NotConverged),
             QStringLiteral("Nicht konvergiert"));
}

void tst_Translations::nothingUnfinished()
{
    QFile ts(qEnvironmentVariable("EDDY_SOURCE_DIR") + QStringLiteral("/translations/eddy_de.ts"));
    QVERIFY2(ts.open(QIODevice::ReadOnly), qPrintable(ts.fileName()));
    const QByteArray text = ts.readAll();
    QVERIFY(text.count("<message") > 300);
    QCOMPARE(text.count("type=\"unfinished\""), 0);
    QCOMPARE(text.count("<name>Eddy::MainWindow</name>"), 1);
    QCOMPARE(text.count("<name>Eddy::AnswerPanel</name>"), 1);
    QCOMPARE(text.count("<name>Eddy::Monitor::OutcomeText</name>"), 1);
    // lupdate without "-I ." writes unqualified contexts that tr() never looks up.
    QCOMPARE(text.count("<name>MainWindow</name>"), 0);
    QCOMPARE(text.count("<name>OutcomeText</name>"), 0);
}

void tst_Translations::cleanupTestCase()
{
    QCoreApplication::removeTranslator(&m_translator);
}

QTEST_MAIN(tst_Translations)
#include "tst_translations.moc"
