// Task references of the official ext-tasks requester: Eddy's endpoint id must equal
// createTaskSessionEndpointId's byte for byte (expected values below were printed by
// @modelcontextprotocol/ext-tasks 0.2.2 under Node; tests/interop/handoff.mjs checks it live), and
// every malformed or foreign reference is refused with what is wrong.
#include "app/monitor/engine.h"
#include "app/store/taskstore.h"
#include "app/monitor/taskhandle.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace Eddy;
using Monitor::TaskHandle::canonicalJson;
using Monitor::TaskHandle::endpointId;
using json = nlohmann::json;
using Outcome = Monitor::HandleImportReport::Line::Outcome;

class TstTaskHandle : public QObject
{
    Q_OBJECT

private slots:
    void endpointIdMatchesRequester_data();
    void endpointIdMatchesRequester();
    void canonicalForm();
    void parseRejects_data();
    void parseRejects();
    void fileFormats();
    void importValidates();
    void exportWritesReferences();

private:
    static QByteArray line(const json &j) { return QByteArray::fromStdString(j.dump()) + '\n'; }
};

void TstTaskHandle::endpointIdMatchesRequester_data()
{
    QTest::addColumn<QString>("nameSpace");
    QTest::addColumn<QByteArray>("descriptor");
    QTest::addColumn<QString>("expected");
    QTest::newRow("eddy descriptor")
        << "eddy"
        << QByteArray(R"({"transport":"streamable-http","url":"http://127.0.0.1:8080/mcp"})")
        << "eddy:v1:sha256:92cb4fe812912c7927a8b49e891d3429022ed014d65896eef8c6cdd7afa278b6";
    QTest::newRow("keys out of order, non-ASCII")
        << "eddy"
        << QByteArray("{\"url\":\"http://h/\xc3\xa9\xc3\xa9\",\"transport\":\"streamable-http\"}")
        << "eddy:v1:sha256:a07e3afc784beb63b71668ce225bcfc12fdfa5c1c2532894e755ed820840170b";
    // Sorting in UTF-16 code units (an astral key before U+FFFF), control escapes, JS numbers.
    QTest::newRow("sorting, escaping, numbers")
        << "ns"
        << QByteArray(
               "{\"b\":1,\"a\":[true,null,1.5,1e21,1e-7,-0.0,123456789012,0.1],\"\xc3\xa9\":\"x\","
               "\"Z\":\"\\u0001\\n\\\"\\\\\",\"\xf0\x9f\x98\x80\":1,\"\xef\xbf\xbf\":2,"
               "\"nested\":{\"y\":{},\"x\":[]}}")
        << "ns:v1:sha256:baa94e677453367d6c458e17cfafee48c9fadffbd82ebc815856c2163ecba03e";
}

void TstTaskHandle::endpointIdMatchesRequester()
{
    QFETCH(QString, nameSpace);
    QFETCH(QByteArray, descriptor);
    QFETCH(QString, expected);
    const json d = json::parse(descriptor.constBegin(), descriptor.constEnd());
    QCOMPARE(endpointId(nameSpace, d), expected);
}

void TstTaskHandle::canonicalForm()
{
    QCOMPARE(canonicalJson(json::parse(R"({"b":{"d":1,"c":[2,1]},"a":"x\ty"})")),
             QByteArray(R"({"a":"x\ty","b":{"c":[2,1],"d":1}})"));
    QCOMPARE(canonicalJson(json::parse("[1e21, 1e-7, 0.000001, 100, 2.50, -0.0, 1e300]")),
             QByteArray("[1e+21,1e-7,0.000001,100,2.5,0,1e+300]"));
    QCOMPARE(canonicalJson(json("\x1f")), QByteArray("\"\\u001f\""));
    QCOMPARE(
        Monitor::TaskHandle::endpointIdForServer(QStringLiteral("http://127.0.0.1:8080/mcp")),
        QStringLiteral(
            "eddy:v1:sha256:92cb4fe812912c7927a8b49e891d3429022ed014d65896eef8c6cdd7afa278b6"));
}

void TstTaskHandle::parseRejects_data()
{
    QTest::addColumn<QByteArray>("reference");
    QTest::addColumn<QString>("complaint");
    const QByteArray ep = "\"endpointId\":\"eddy:v1:sha256:" + QByteArray(64, 'a') + "\"";
    QTest::newRow("not an object") << QByteArray("[1]") << "must be a JSON object";
    QTest::newRow("missing taskId")
        << ("{" + ep + ",\"generation\":\"v2\",\"originalOperation\":\"tools/call\"}")
        << "taskId missing";
    QTest::newRow("empty taskId")
        << ("{" + ep
            + ",\"generation\":\"v2\",\"taskId\":\"\",\"originalOperation\":\"tools/call\"}")
        << "taskId missing";
    QTest::newRow("bad generation")
        << ("{" + ep
            + ",\"generation\":\"v3\",\"taskId\":\"t\",\"originalOperation\":\"tools/call\"}")
        << "generation is \"v3\"";
    QTest::newRow("other operation") << ("{" + ep
                                         + ",\"generation\":\"v2\",\"taskId\":\"t\","
                                           "\"originalOperation\":\"sampling/createMessage\"}")
                                     << "only \"tools/call\"";
    QTest::newRow("bad endpoint") << QByteArray(
        R"({"endpointId":"eddy-interop:http://x","generation":"v2","taskId":"t","originalOperation":"tools/call"})")
                                  << "is not NAMESPACE:v1:sha256:HEX";
    QTest::newRow("upper-case hex")
        << ("{\"endpointId\":\"eddy:v1:sha256:" + QByteArray(64, 'A')
            + "\",\"generation\":\"v2\",\"taskId\":\"t\",\"originalOperation\":\"tools/call\"}")
        << "is not NAMESPACE:v1:sha256:HEX";
}

void TstTaskHandle::parseRejects()
{
    QFETCH(QByteArray, reference);
    QFETCH(QString, complaint);
    QString error;
    const json j = json::parse(reference.constBegin(), reference.constEnd());
    QVERIFY(!Monitor::TaskHandle::parse(j, &error));
    QVERIFY2(error.contains(complaint), qPrintable(error));
}

void TstTaskHandle::fileFormats()
{
    const json ref{{"endpointId", "eddy:v1:sha256:" + std::string(64, 'b')},
                   {"generation", "v2"},
                   {"taskId", "task-1"},
                   {"originalOperation", "tools/call"}};
    QString error;
    // JSON lines with a blank and a broken line: each line keeps its number.
    auto entries = Monitor::TaskHandle::parseFile(line(ref) + "\n{broken\n" + line(ref), &error);
    QVERIFY(error.isEmpty());
    QCOMPARE(entries.size(), 3);
    QCOMPARE(entries[0].line, 1);
    QVERIFY(entries[0].reference);
    QCOMPARE(entries[1].line, 3);
    QVERIFY(!entries[1].reference);
    QVERIFY(entries[1].error.contains(QLatin1String("not valid JSON")));
    QCOMPARE(entries[2].line, 4);
    // A JSON array, and one pretty-printed object.
    entries = Monitor::TaskHandle::parseFile(
        QByteArray::fromStdString(json::array({ref, ref}).dump(2)), &error);
    QCOMPARE(entries.size(), 2);
    QVERIFY(entries[1].reference);
    entries = Monitor::TaskHandle::parseFile(QByteArray::fromStdString(ref.dump(2)), &error);
    QCOMPARE(entries.size(), 1);
    QCOMPARE(entries[0].reference->taskId, QStringLiteral("task-1"));
    // Nothing readable at all.
    entries = Monitor::TaskHandle::parseFile("  \n", &error);
    QVERIFY(entries.isEmpty());
    QVERIFY(error.contains(QLatin1String("empty")));
    Monitor::TaskHandle::parseFile("[1,", &error);
    QVERIFY(error.contains(QLatin1String("not a valid JSON array")));
}

void TstTaskHandle::importValidates()
{
    QTemporaryDir dir;
    Monitor::Engine engine;
    engine.setMonitoring(false);
    QVERIFY(engine.open(dir.filePath(QStringLiteral("eddy.db"))));
    Store::TaskStore store; // the same file, through a connection of the test's own
    QVERIFY(store.open(dir.filePath(QStringLiteral("eddy.db"))));
    const QString url = QStringLiteral("http://127.0.0.1:1/mcp");
    const QString other = QStringLiteral("http://127.0.0.1:2/mcp");
    auto ref = [](const QString &server, const char *taskId, const char *generation = "v2") {
        return json{{"endpointId", Monitor::TaskHandle::endpointIdForServer(server).toStdString()},
                    {"generation", generation},
                    {"taskId", taskId},
                    {"originalOperation", "tools/call"}};
    };
    const QByteArray file = line(ref(url, "secret-task-aaaa")) + line(ref(url, "secret-task-bbbb"))
                            + "not json\n" + line(ref(other, "secret-task-cccc"))
                            + line(json{{"endpointId", "other:v1:sha256:" + std::string(64, 'c')},
                                        {"generation", "v2"},
                                        {"taskId", "x"},
                                        {"originalOperation", "tools/call"}});

    // No server known: every well-formed line says which server to add; nothing is stored.
    auto report = engine.importHandles(file, QStringLiteral("handed"));
    QCOMPARE(report.count(Outcome::Rejected), 5);
    QVERIFY2(report.lines[0].message.contains(QLatin1String("--server URL")),
             qPrintable(report.lines[0].message));
    QVERIFY(report.lines[2].message.contains(QLatin1String("not valid JSON")));
    QVERIFY2(report.lines[4].message.contains(QLatin1String("namespace is \"other\"")),
             qPrintable(report.lines[4].message));
    for (const auto &l : report.lines)
        QVERIFY2(!l.message.contains(QLatin1String("secret-task")), qPrintable(l.message));
    QCOMPARE(store.taskCount(), 0);

    // With the server's URL: its two tasks come in, in the session; the other server's does not.
    report = engine.importHandles(file, QStringLiteral("handed"), url);
    QCOMPARE(report.count(Outcome::Imported), 2);
    QCOMPARE(report.count(Outcome::Rejected), 3);
    QVERIFY2(report.lines[3].message.contains(url), qPrintable(report.lines[3].message));
    const qint64 first = report.lines[0].taskId;
    QVERIFY(store.serverByUrl(url));
    const auto task = engine.catalogue().task(first);
    QVERIFY(task);
    QCOMPARE(task->serverTaskId, QStringLiteral("secret-task-aaaa"));
    QCOMPARE(task->status, Store::TaskStatus::Working);
    QCOMPARE(engine.catalogue().sessionNamesOfTask(first), QList<QString>{QStringLiteral("handed")});

    // Again, now that the server is known: the same tasks, not new ones.
    report = engine.importHandles(file, QStringLiteral("handed"));
    QCOMPARE(report.count(Outcome::Known), 2);
    QCOMPARE(report.lines[0].taskId, first);
    QCOMPARE(store.taskCount(), 2);

    // A 2025-11-25 server's tasks are generation v1: a v2 reference to it is refused.
    auto legacy = store.serverByUrl(url);
    QVERIFY(store.setServerDiscovery(
        legacy->id, Mcp::eraToString(Mcp::Era::Legacy), QStringLiteral("{}")));
    report = engine.importHandles(line(ref(url, "secret-task-dddd")), {});
    QCOMPARE(report.count(Outcome::Rejected), 1);
    QVERIFY2(report.lines[0].message.contains(QLatin1String("generation v2 does not match")),
             qPrintable(report.lines[0].message));
    report = engine.importHandles(line(ref(url, "secret-task-dddd", "v1")), {});
    QCOMPARE(report.count(Outcome::Imported), 1);
}

void TstTaskHandle::exportWritesReferences()
{
    QTemporaryDir dir;
    Monitor::Engine engine;
    engine.setMonitoring(false);
    QVERIFY(engine.open(dir.filePath(QStringLiteral("eddy.db"))));
    const QString url = QStringLiteral("http://127.0.0.1:1/mcp");
    const json ref{{"endpointId", Monitor::TaskHandle::endpointIdForServer(url).toStdString()},
                   {"generation", "v2"},
                   {"taskId", "secret-task-eeee"},
                   {"originalOperation", "tools/call"}};
    const auto report = engine.importHandles(line(ref), QStringLiteral("s"), url);
    QCOMPARE(report.count(Outcome::Imported), 1);
    // What comes out is what went in, byte for byte (one JSON line).
    Monitor::HandleExport out = engine.exportHandles({}, {report.lines[0].taskId});
    QCOMPARE(out.count, 1);
    QCOMPARE(out.jsonLines, line(ref));
    out = engine.exportHandles({}, {}, QStringLiteral("s"));
    QCOMPARE(out.count, 1);
    out = engine.exportHandles({}, {}, QStringLiteral("no such session"));
    QCOMPARE(out.count, 0);
    QVERIFY(out.error.contains(QLatin1String("no session")));
}

QTEST_GUILESS_MAIN(TstTaskHandle)
#include "tst_taskhandle.moc"
