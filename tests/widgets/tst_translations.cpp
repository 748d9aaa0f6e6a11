#include "models/sessionlistmodel.h"
#include "models/tasktablemodel.h"
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
    Store::SessionRecord s{5, QStringLiteral("Studie"), 0, 6};
    SessionListModel sessions;
    sessions.setSessions({s});
    QCOMPARE(sessions.index(1).data(Qt::ToolTipRole).toString(), QStringLiteral("6 Aufgaben"));
    QCOMPARE(sessions.index(0).data().toString(), QStringLiteral("Alle Sitzungen"));
    const auto request = nlohmann::json::parse(R"({"params":{"message":"?","requestedSchema":{"type":"object","properties":{}}}})");
    ElicitationDialog dialog(request, ElicitationContext{});
    QCOMPARE(dialog.findChild<QPushButton *>(QStringLiteral("decline"))->text(), QStringLiteral("Ablehnen"));
}

void tst_Translations::nothingUnfinished()
{
    QFile ts(qEnvironmentVariable("EDDY_SOURCE_DIR") + QStringLiteral("/translations/eddy_de.ts"));
    QVERIFY2(ts.open(QIODevice::ReadOnly), qPrintable(ts.fileName()));
    const QByteArray text = ts.readAll();
    QVERIFY(text.count("<message") > 300);
    QCOMPARE(text.count("type=\"unfinished\""), 0);
    QCOMPARE(text.count("<name>Eddy::MainWindow</name>"), 1);
}

void tst_Translations::cleanupTestCase()
{
    QCoreApplication::removeTranslator(&m_translator);
}

QTEST_MAIN(tst_Translations)
#include "tst_translations.moc"
