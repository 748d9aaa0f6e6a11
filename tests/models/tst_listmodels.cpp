#include "models/inboxmodel.h"
#include "models/serverlistmodel.h"
#include "models/sessionlistmodel.h"

#include <QAbstractItemModelTester>
#include <QColor>
#include <QSignalSpy>
#include <QTest>

using namespace Eddy;
using Store::InputRequestRecord;

// The inbox (deduplicated by task + key), the server list (state and last error) and the
// session list ("All sessions" first).
class tst_ListModels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void inbox();
    void servers();
    void sessions();
};

static InputRequestRecord request(qint64 task, const char *key, const char *message)
{
    InputRequestRecord r;
    r.taskId = task;
    r.key = QString::fromLatin1(key);
    r.request = QStringLiteral(R"({"method":"elicitation/create","params":{"message":"%1","requestedSchema":{"type":"object","properties":{}}}})")
                    .arg(QString::fromLatin1(message));
    r.firstSeenAtMs = 1000;
    return r;
}

void tst_ListModels::inbox()
{
    InboxModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setNow(1000 + 125'000);
    model.setDescribe([](qint64 task) { return qMakePair(QStringLiteral("Case %1").arg(task), QStringLiteral("Local CFD")); });
    QSignalSpy count(&model, &InboxModel::countChanged);
    QCOMPARE(model.addRequests({request(1, "mesh", "Repair the mesh?"), request(2, "mesh", "Repair?")}), 2);
    QCOMPARE(model.addRequests({request(1, "mesh", "Repair the mesh?")}), 0); // same key again: one row
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(0, InboxModel::MessageColumn).data().toString(), QStringLiteral("Repair the mesh?"));
    QCOMPARE(model.index(0, InboxModel::CaseColumn).data().toString(), QStringLiteral("Case 1"));
    QCOMPARE(model.index(1, InboxModel::ServerColumn).data().toString(), QStringLiteral("Local CFD"));
    QCOMPARE(model.index(0, InboxModel::WaitingColumn).data().toString(), QStringLiteral("2 min 05 s"));
    InputRequestRecord answered = request(3, "k", "x");
    answered.state = Store::InputState::Answered;
    QCOMPARE(model.addRequests({answered}), 0); // answered questions never enter the inbox
    QVERIFY(model.removeRequest(1, QStringLiteral("mesh")));
    QVERIFY(!model.removeRequest(1, QStringLiteral("mesh")));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, 0).data(InboxModel::TaskIdRole).toLongLong(), 2);
    // Answering keeps the row where it is, as the record: what, who, when.
    model.setAnswering(2, QStringLiteral("mesh"), QStringLiteral(R"({"action":"decline"})"), QStringLiteral("alice"), 5000);
    QCOMPARE(model.pendingCount(), 0);
    QCOMPARE(count.last().first().toInt(), 0);
    QCOMPARE(model.index(0, InboxModel::AnswerColumn).data().toString(), QStringLiteral("Declined"));
    model.setAnswerSent(2, QStringLiteral("mesh"), false); // did not arrive: open again
    QCOMPARE(model.pendingCount(), 1);
    QVERIFY(model.index(0, InboxModel::AnswerColumn).data().toString().isEmpty());
    model.setAnswering(2, QStringLiteral("mesh"), QStringLiteral(R"({"action":"decline"})"), QStringLiteral("alice"), 5000);
    model.setAnswerSent(2, QStringLiteral("mesh"), true);
    QVERIFY(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Declined — by alice")));
    model.removeTask(2); // the task ended: the answered question stays as the record
    QCOMPARE(model.rowCount(), 1);
    QVERIFY(model.removeRequest(2, QStringLiteral("mesh")));
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(count.last().first().toInt(), 0);
    InputRequestRecord broken = request(4, "k", "x");
    broken.request = QStringLiteral("{not json");
    model.setRequests({broken});
    QCOMPARE(model.index(0, 0).data().toString(), QStringLiteral("The server asks for input."));

    // A task that ends unanswered closes its question, which stays listed saying why.
    model.setEndedAs([](qint64 task) {
        return task == 5 ? std::optional(Store::TaskStatus::Cancelled) : std::nullopt;
    });
    InputRequestRecord asked = request(5, "mesh", "Repair?");
    asked.id = 50;
    QCOMPARE(model.addRequests({asked}), 1);
    QCOMPARE(model.pendingCount(), 2);
    model.closeTask(5, 9000);
    QCOMPARE(model.pendingCount(), 1); // the other task's question is still open
    QCOMPARE(model.index(1, 0).data(InboxModel::AnswerTextRole).toString(),
             QStringLiteral("Not answered: its case was cancelled before an answer was given."));
    // ... unless it was answered elsewhere just before: the stored record takes its place.
    InputRequestRecord answered5 = asked;
    answered5.state = Store::InputState::Answered;
    answered5.answer = QStringLiteral(R"({"action":"decline"})");
    answered5.answeredBy = QStringLiteral("eddyctl");
    QCOMPARE(model.addRequests({answered5}), 0);
    QVERIFY(model.index(1, 0).data(InboxModel::AnswerTextRole).toString().startsWith(QStringLiteral("Declined — by eddyctl")));
    // A record not listed yet goes where a restart lists it: in the order asked.
    InputRequestRecord earlier = answered5;
    earlier.id = 30;
    earlier.taskId = 6;
    QVERIFY(model.addRecord(earlier));
    QVERIFY(!model.addRecord(earlier));
    QCOMPARE(model.index(1, 0).data(InboxModel::TaskIdRole).toLongLong(), 6);
    QCOMPARE(model.index(2, 0).data(InboxModel::TaskIdRole).toLongLong(), 5);
}

void tst_ListModels::servers()
{
    ServerListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Store::ServerRecord a;
    a.id = 1;
    a.url = QStringLiteral("http://127.0.0.1:1/mcp");
    a.name = QStringLiteral("Local CFD");
    a.token = QStringLiteral("s3cret");
    Store::ServerRecord b;
    b.id = 2;
    b.url = QStringLiteral("http://127.0.0.1:2/mcp");
    model.setServers({a, b});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.index(1).data().toString(), b.url); // no name: the URL
    QVERIFY(model.server(1)->token.isEmpty());         // the secret is not kept in the GUI
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setState(1, ServerListModel::State::Unreachable, QStringLiteral("connection refused"));
    QCOMPARE(changed.count(), 1);
    QVERIFY(model.index(0).data(Qt::ToolTipRole).toString().contains(QLatin1String("connection refused")));
    QCOMPARE(model.index(0).data(Qt::DecorationRole).value<QColor>(), QColor(0xd0, 0x31, 0x2d));
    model.setServers({a, b}); // a reload keeps the known state
    QCOMPARE(model.state(1), ServerListModel::State::Unreachable);
    QCOMPARE(model.displayName(2), b.url);
    QCOMPARE(model.displayName(9), QStringLiteral("Server 9"));
}

void tst_ListModels::sessions()
{
    SessionListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0).data(SessionListModel::SessionIdRole).toLongLong(), SessionListModel::AllSessions);
    Store::SessionRecord s;
    s.id = 5;
    s.name = QStringLiteral("Cavity study");
    s.taskCount = 6;
    model.setSessions({s});
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.rowOf(5), 1);
    QCOMPARE(model.sessionIdAt(1), 5);
    QCOMPARE(model.name(5), QStringLiteral("Cavity study"));
    QCOMPARE(model.index(1).data(Qt::ToolTipRole).toString(), QStringLiteral("6 task(s)"));
}

QTEST_GUILESS_MAIN(tst_ListModels)
#include "tst_listmodels.moc"
