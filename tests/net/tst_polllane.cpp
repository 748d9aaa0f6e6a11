// PollLane against the real eddy-cfd-server (answers byte for byte what libcurl gets, keep-alive
// reuse over many polls, a server killed with requests in flight) and against HttpPeer for what
// a real server does not do (chunked, SSE, 503, Connection: close, truncated, oversized and
// garbage answers, silence). Every fault must end as Fallback, never as a wrong answer.
#include "app/mcp/client.h"
#include "app/net/httpclient.h"
#include "app/net/httpreply.h"
#include "app/net/polllane.h"
#include "tests/common/jobwait.h"
#include "tests/common/testserver.h"
#include "tests/net/httppeer.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>

#include <signal.h>

using namespace Eddy;
using Net::PollLane;
using nlohmann::json;

namespace {

const QStringList kServerArgs{QStringLiteral("--workers"),
                              QStringLiteral("1"),
                              QStringLiteral("--log-level"),
                              QStringLiteral("error")};

// A tasks/get as Mcp::Client sends it.
Net::HttpRequest taskGet(const QUrl &url, const QByteArray &taskId)
{
    Net::HttpRequest r;
    r.url = url;
    r.headers = {{"Accept", "application/json, text/event-stream"},
                 {"Content-Type", "application/json"},
                 {"MCP-Protocol-Version", "2026-07-28"},
                 {"Mcp-Method", "tasks/get"},
                 {"Mcp-Name", taskId}};
    const json body
        = {{"jsonrpc", "2.0"},
           {"id", 7},
           {"method", "tasks/get"},
           {"params",
            {{"taskId", taskId.toStdString()},
             {"_meta",
              {{"io.modelcontextprotocol/clientCapabilities",
                {{"elicitation", {{"form", json::object()}, {"url", json::object()}}},
                 {"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}}},
               {"io.modelcontextprotocol/clientInfo", {{"name", "eddy"}, {"version", "0.1.0"}}},
               {"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}}}};
    r.body = QByteArray::fromStdString(body.dump());
    r.timeoutMs = 60000;
    return r;
}

// Tasks that stop at once on the mesh question, so every tasks/get answers input_required with
// the same form.
QList<QByteArray> parkedTasks(const QUrl &url, int count)
{
    Net::HttpClient http;
    Mcp::ServerConfig config;
    config.url = url;
    Mcp::Client client(config, &http);
    QList<QByteArray> ids;
    for (int i = 0; i < count; ++i) {
        const json args = {{"case_name", "lane"},
                           {"reynolds", 100},
                           {"grid", 8},
                           {"max_iterations", 10000000},
                           {"tolerance", 1e-14},
                           {"force_mesh_defect", true}};
        auto job = Test::finish(client.callTool(QStringLiteral("run_cfd_case"), args));
        if (job->kind() == Mcp::CallJob::Kind::Task)
            ids.append(QByteArray::fromStdString(job->task().taskId));
    }
    // Created is not yet parked: a task waits in the queue for the solver (one worker, and a slow
    // sanitizer build) before it asks its question.
    QDeadlineTimer deadline(60000);
    for (const QByteArray &id : ids) {
        for (;;) {
            auto got = Test::finish(client.getTask(id.toStdString()));
            if (!got->hasError() && got->state().status == Mcp::TaskStatus::InputRequired)
                break;
            if (deadline.hasExpired())
                return {};
            QTest::qWait(20); // the poll step of a condition wait: each try is a tasks/get
        }
    }
    return ids;
}

// Collects outcomes; outlives the lane in every test.
struct Recorder
{
    QList<PollLane::Outcome> outcomes;
    PollLane::Done done()
    {
        return [this](PollLane::Outcome o) {
            outcomes.append(std::move(o));
        };
    }
    int count(PollLane::Outcome::Kind kind) const
    {
        return int(std::count_if(
            outcomes.begin(), outcomes.end(), [kind](const auto &o) { return o.kind == kind; }));
    }
};

} // namespace

class tst_PollLane : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(Net::initGlobal()); }

    void parseHead_data();
    void parseHead();
    void parseHeadSurvivesMutations();
    void usable();
    void sameAnswerAsLibcurl();
    void sameRequestAsLibcurl();
    void keepAliveOverManyPolls();
    void serverKilledMidRun();
    void peerFaults_data();
    void peerFaults();
    void errorStatusRelayed();
    void chunkedOriginPolledOnce();
    void connectionCloseIsAnsweredThenDropped();
    void answerInPieces();
    void timeoutFallsBack();
    void refusedFallsBackAndStaysOn();
    void destroyedMidRequestCallsNothing();
    void doneMayDestroyTheLane();
    void pipelinedAnswersMatchTheirRequests();
    void answersOfOneWriteAllTaken();
    void pipelineFaults_data();
    void pipelineFaults();
    void idleLanesAreClosed();
    void offOriginStaysOffAfterItsLaneCloses();
};

void tst_PollLane::parseHead_data()
{
    static constexpr char kNulHeader[] = "X-A: a\0b\r\nContent-Length: 5\r\n\r\n";
    QTest::addColumn<QByteArray>("head");
    QTest::addColumn<int>("verdict");
    QTest::addColumn<qint64>("length");
    QTest::addColumn<bool>("close");
    const int ok = PollLane::Head::Ok, notOk = PollLane::Head::NotOk,
              relay = PollLane::Head::Relay, bad = PollLane::Head::Unreadable;
    const QByteArray json = "Content-Type: application/json\r\n";
    QTest::newRow("ok") << "HTTP/1.1 200 OK\r\n" + json + "Content-Length: 12\r\n\r\n"
                        << ok << 12LL << false;
    QTest::newRow("ok, no reason, odd case, parameters")
        << QByteArray("HTTP/1.1 200\r\ncontent-LENGTH:7\r\nCONTENT-TYPE: Application/JSON ; "
                      "charset=utf-8\r\n\r\n")
        << ok << 7LL << false;
    QTest::newRow("close") << "HTTP/1.1 200 OK\r\n" + json
                                  + "Content-Length: 1\r\nConnection: keep-alive, Close\r\n\r\n"
                           << ok << 1LL << true;
    QTest::newRow("503") << QByteArray(
        "HTTP/1.1 503 Busy\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n")
                         << relay << 0LL << false;
    QTest::newRow("503 chunked") << QByteArray(
        "HTTP/1.1 503 Busy\r\nTransfer-Encoding: chunked\r\n\r\n")
                                 << notOk << -1LL << false;
    QTest::newRow("100") << QByteArray("HTTP/1.1 100 Continue\r\n\r\n") << notOk << -1LL << false;
    QTest::newRow("chunked") << "HTTP/1.1 200 OK\r\n" + json + "Transfer-Encoding: chunked\r\n\r\n"
                             << bad << -1LL << false;
    QTest::newRow("sse") << QByteArray(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 5\r\n\r\n")
                         << bad << 5LL << false;
    QTest::newRow("html") << QByteArray(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\n")
                          << bad << 5LL << false;
    QTest::newRow("json prefix") << QByteArray(
        "HTTP/1.1 200 OK\r\nContent-Type: application/jsonx\r\nContent-Length: 5\r\n\r\n")
                                 << bad << 5LL << false;
    QTest::newRow("no type") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n") << bad
                             << 5LL << false;
    QTest::newRow("no length") << "HTTP/1.1 200 OK\r\n" + json + "\r\n" << bad << -1LL << false;
    QTest::newRow("two lengths") << "HTTP/1.1 200 OK\r\n" + json
                                        + "Content-Length: 5\r\nContent-Length: 5\r\n\r\n"
                                 << bad << 5LL << false;
    QTest::newRow("length not a number")
        << "HTTP/1.1 200 OK\r\n" + json + "Content-Length: 5x\r\n\r\n"
        << bad << -1LL << false;
    QTest::newRow("negative length") << "HTTP/1.1 200 OK\r\n" + json + "Content-Length: -5\r\n\r\n"
                                     << bad << -1LL << false;
    QTest::newRow("huge length") << "HTTP/1.1 200 OK\r\n" + json
                                        + "Content-Length: 99999999999999999999\r\n\r\n"
                                 << bad << -1LL << false;
    QTest::newRow("empty length") << "HTTP/1.1 200 OK\r\n" + json + "Content-Length:\r\n\r\n"
                                  << bad << -1LL << false;
    QTest::newRow("obs-fold") << "HTTP/1.1 200 OK\r\n" + json
                                     + "Content-Length: 5\r\nX-A: a\r\n b\r\n\r\n"
                              << bad << 5LL << false;
    QTest::newRow("bare LF") << "HTTP/1.1 200 OK\r\n" + json + "Content-Length: 5\nX-A: a\r\n\r\n"
                             << bad << -1LL << false;
    QTest::newRow("NUL") << "HTTP/1.1 200 OK\r\n" + json
                                + QByteArray::fromRawData(kNulHeader, sizeof kNulHeader - 1)
                         << bad << -1LL << false;
    QTest::newRow("space before colon")
        << "HTTP/1.1 200 OK\r\n" + json + "Content-Length : 5\r\n\r\n"
        << bad << -1LL << false;
    QTest::newRow("no colon") << "HTTP/1.1 200 OK\r\n" + json + "Content-Length 5\r\n\r\n"
                              << bad << -1LL << false;
    QTest::newRow("HTTP/1.0") << "HTTP/1.0 200 OK\r\n" + json + "Content-Length: 5\r\n\r\n"
                              << bad << -1LL << false;
    QTest::newRow("HTTP/2") << "HTTP/2 200\r\n" + json + "Content-Length: 5\r\n\r\n"
                            << bad << -1LL << false;
    QTest::newRow("garbage") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n\r\n") << bad << -1LL << false;
    QTest::newRow("status 2000") << "HTTP/1.1 2000 OK\r\n" + json + "Content-Length: 5\r\n\r\n"
                                 << bad << -1LL << false;
    QTest::newRow("status 20") << "HTTP/1.1 20 OK\r\n" + json + "Content-Length: 5\r\n\r\n"
                               << bad << -1LL << false;
    QTest::newRow("status letters") << "HTTP/1.1 2OO OK\r\n" + json + "Content-Length: 5\r\n\r\n"
                                    << bad << -1LL << false;
    QTest::newRow("no blank line") << "HTTP/1.1 200 OK\r\n" + json + "Content-Length: 5\r\n"
                                   << bad << -1LL << false;
    QTest::newRow("too long") << "HTTP/1.1 200 OK\r\n" + json
                                     + "X-Pad: " + QByteArray(PollLane::kMaxHeadBytes, 'a')
                                     + "\r\nContent-Length: 5\r\n\r\n"
                              << bad << -1LL << false;
}

void tst_PollLane::parseHead()
{
    QFETCH(QByteArray, head);
    QFETCH(int, verdict);
    QFETCH(qint64, length);
    QFETCH(bool, close);
    const PollLane::Head h = PollLane::parseHead(head);
    QCOMPARE(int(h.verdict), verdict);
    if (verdict != PollLane::Head::Unreadable) {
        QCOMPARE(h.contentLength, length);
        QCOMPARE(h.close, close);
    }
    QCOMPARE(h.why.isEmpty(), verdict == PollLane::Head::Ok);
}

// Random damage to a good head: whatever parseHead accepts is still a 200 JSON answer with a
// length, and whatever it refuses says why.
void tst_PollLane::parseHeadSurvivesMutations()
{
    const QByteArray good = "HTTP/1.1 200 OK\r\nContent-Type: application/json; charset=utf-8\r\n"
                            "Content-Length: 1112\r\nConnection: keep-alive\r\n\r\n";
    QRandomGenerator random(20261130);
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
        QByteArray head = good;
        for (int edits = 1 + random.bounded(3); edits > 0; --edits) {
            const int at = random.bounded(int(head.size()));
            switch (random.bounded(3)) {
            case 0:
                head[at] = char(random.bounded(256));
                break;
            case 1:
                head.remove(at, 1 + random.bounded(4));
                break;
            default:
                head.insert(at, char(random.bounded(256)));
                break;
            }
        }
        const PollLane::Head h = PollLane::parseHead(head);
        if (h.verdict == PollLane::Head::Ok) {
            ++accepted;
            QCOMPARE(h.status, 200);
            QVERIFY(h.contentLength >= 0);
            QVERIFY2(h.contentType.toLower().startsWith("application/json"),
                     h.contentType.constData());
            QVERIFY(head.endsWith("\r\n\r\n"));
            QVERIFY(!head.contains('\0'));
        } else {
            QVERIFY(!h.why.isEmpty());
        }
    }
    QVERIFY(accepted > 0); // harmless damage (a header value, the reason phrase) still reads
    QVERIFY(accepted < 20000);
}

void tst_PollLane::usable()
{
    Net::HttpClient::ProxySettings direct;
    QVERIFY(PollLane::usable(QUrl(QStringLiteral("http://127.0.0.1:8080/mcp")), direct));
    QVERIFY(PollLane::usable(QUrl(QStringLiteral("https://example.org/mcp")), direct));
    QVERIFY(!PollLane::usable(QUrl(QStringLiteral("ftp://example.org/mcp")), direct));
    QVERIFY(!PollLane::usable(QUrl(QStringLiteral("http://user:pw@example.org/mcp")), direct));
    Net::HttpClient::ProxySettings proxied;
    proxied.http = "http://proxy:3128";
    QVERIFY(!PollLane::usable(QUrl(QStringLiteral("http://example.org/mcp")), proxied));
    QVERIFY(PollLane::usable(QUrl(QStringLiteral("https://example.org/mcp")),
                             proxied)); // https_proxy unset
    proxied.noProxy = "example.org";    // libcurl's matching is not repeated: the lane stays out
    QVERIFY(!PollLane::usable(QUrl(QStringLiteral("http://example.org/mcp")), proxied));
    proxied.noProxy = "*";
    QVERIFY(PollLane::usable(QUrl(QStringLiteral("http://example.org/mcp")), proxied));
}

void tst_PollLane::sameAnswerAsLibcurl()
{
    Test::TestServer server;
    QVERIFY2(server.start(kServerArgs), qPrintable(server.errorString()));
    const QUrl url(server.url());
    const QList<QByteArray> ids = parkedTasks(url, 2);
    QCOMPARE(ids.size(), 2);

    Net::HttpClient http;
    PollLane lane(url);
    for (const QByteArray &id : ids) {
        const Net::HttpRequest request = taskGet(url, id);
        std::unique_ptr<Net::HttpReply> reply(http.post(request));
        QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 60000);
        QVERIFY2(reply->error().isOk(), qPrintable(reply->error().message()));
        QCOMPARE(reply->statusCode(), 200);
        const QByteArray viaCurl = reply->readAll();

        Recorder rec;
        lane.send(request, rec.done());
        QCOMPARE(rec.outcomes.size(), 0); // never from inside send()
        QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), 1, 60000);
        const PollLane::Outcome &o = rec.outcomes.first();
        QVERIFY2(o.kind == PollLane::Outcome::Answered, qPrintable(o.why));
        QCOMPARE(o.status, reply->statusCode());
        QCOMPARE(o.contentType, reply->header("content-type"));
        QCOMPARE(o.body, viaCurl);
        const json parsed = json::parse(o.body.toStdString(), nullptr, false);
        QVERIFY(!parsed.is_discarded());
        QCOMPARE(parsed["result"]["status"].get<std::string>(), std::string("input_required"));
    }
    QCOMPARE(lane.answered(), 2);
    QCOMPARE(lane.fallbacks(), 0);
    QCOMPARE(lane.connectionsOpened(), 1);
}

void tst_PollLane::sameRequestAsLibcurl()
{
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const Test::HttpPeer::Request &, QTcpSocket *socket) {
        socket->write(Test::HttpPeer::response(200, "{}"));
    });
    Net::HttpRequest request = taskGet(peer.url(), "task-123");
    request.bearerToken = "s3cret";
    Net::HttpClient http;
    std::unique_ptr<Net::HttpReply> reply(http.post(request));
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 60000);
    PollLane lane(peer.url());
    Recorder rec;
    lane.send(request, rec.done());
    QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), 1, 60000);
    QCOMPARE(rec.outcomes.first().body, QByteArray("{}"));
    QCOMPARE(peer.requests().size(), 2);

    const auto sorted = [](const Test::HttpPeer::Request &r) {
        QList<QByteArray> lines;
        for (const auto &[name, value] : r.headers)
            lines.append(name.toLower() + ": " + value);
        std::sort(lines.begin(), lines.end());
        return lines;
    };
    const Test::HttpPeer::Request &curl = peer.requests().at(0);
    const Test::HttpPeer::Request &ours = peer.requests().at(1);
    QCOMPARE(ours.method, curl.method);
    QCOMPARE(ours.path, curl.path);
    QCOMPARE(sorted(ours), sorted(curl));
    QCOMPARE(ours.body, curl.body);
    QCOMPARE(ours.header("authorization"), QByteArray("Bearer s3cret"));
}

void tst_PollLane::keepAliveOverManyPolls()
{
    Test::TestServer server;
    QVERIFY2(server.start(kServerArgs), qPrintable(server.errorString()));
    const QUrl url(server.url());
    const QList<QByteArray> ids = parkedTasks(url, 10);
    QCOMPARE(ids.size(), 10);
    QList<Net::HttpRequest> requests;
    for (const QByteArray &id : ids)
        requests.append(taskGet(url, id));

    PollLane lane(url);
    Recorder rec;
    constexpr int kPolls = 1000;
    int sent = 0;
    // Up to 48 in flight: more than the 16 connections, so some wait for a free one.
    std::function<void(PollLane::Outcome)> onDone = [&](PollLane::Outcome o) {
        rec.outcomes.append(std::move(o));
        if (sent < kPolls)
            lane.send(requests.at(sent++ % requests.size()), onDone);
    };
    for (; sent < 48; ++sent)
        lane.send(requests.at(sent % requests.size()), onDone);
    QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), kPolls, 120000);
    QCOMPARE(rec.count(PollLane::Outcome::Answered), kPolls);
    QCOMPARE(lane.answered(), kPolls);
    QCOMPARE(lane.fallbacks(), 0);
    QVERIFY2(lane.connectionsOpened() <= 16, qPrintable(QString::number(lane.connectionsOpened())));
    QVERIFY(lane.connectionsOpened() >= 1);
    for (const PollLane::Outcome &o : rec.outcomes)
        QVERIFY2(o.body.contains("\"input_required\""), o.body.left(300).constData());
}

void tst_PollLane::serverKilledMidRun()
{
    auto server = std::make_unique<Test::TestServer>();
    QVERIFY2(server->start(kServerArgs), qPrintable(server->errorString()));
    const QUrl url(server->url());
    const quint16 port = server->port();
    const QString dataDir = server->dataDir();
    const QList<QByteArray> ids = parkedTasks(url, 4);
    QCOMPARE(ids.size(), 4);

    PollLane lane(url);
    lane.setMaxConnections(4);
    Recorder warm;
    for (int i = 0; i < 4; ++i)
        lane.send(taskGet(url, ids.at(i)), warm.done());
    QTRY_COMPARE_WITH_TIMEOUT(warm.count(PollLane::Outcome::Answered), 4, 60000);
    const qint64 openedBefore = lane.connectionsOpened();

    // Stopped, the server takes the requests into its socket buffers and never answers them;
    // killed, its connections reset.
    QCOMPARE(::kill(pid_t(server->pid()), SIGSTOP), 0);
    Recorder inFlight;
    for (int i = 0; i < 4; ++i)
        lane.send(taskGet(url, ids.at(i)), inFlight.done());
    server->kill();
    QTRY_COMPARE_WITH_TIMEOUT(inFlight.outcomes.size(), 4, 60000);
    QCOMPARE(inFlight.count(PollLane::Outcome::Fallback), 4);
    QVERIFY(lane.isEnabled()); // a transport fault leaves the lane on

    server = std::make_unique<Test::TestServer>();
    QVERIFY2(
        server->start(kServerArgs + QStringList{QStringLiteral("--port"), QString::number(port)},
                      dataDir),
        qPrintable(server->errorString()));
    Recorder after;
    for (int i = 0; i < 4; ++i)
        lane.send(taskGet(url, ids.at(i)), after.done());
    QTRY_COMPARE_WITH_TIMEOUT(after.outcomes.size(), 4, 60000);
    QCOMPARE(after.count(PollLane::Outcome::Answered), 4);
    QVERIFY(lane.connectionsOpened() > openedBefore);
}

void tst_PollLane::peerFaults_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<bool>("closeAfter");
    QTest::addColumn<bool>("staysOn");
    const QByteArray body = R"({"jsonrpc":"2.0","id":7,"result":{}})";
    QTest::newRow("chunked") << Test::HttpPeer::chunkedHead(200, "application/json")
                                    + Test::HttpPeer::chunk(body) + Test::HttpPeer::chunk({})
                             << false << false;
    QTest::newRow("sse") << Test::HttpPeer::response(
        200, "data: " + body + "\n\n", "text/event-stream")
                         << false << false;
    QTest::newRow("not json") << Test::HttpPeer::response(200, "<html></html>", "text/html")
                              << false << false;
    QTest::newRow("garbage status line")
        << QByteArray("HTPT/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}") << false << false;
    QTest::newRow("HTTP/1.0") << QByteArray(
        "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{}")
                              << true << false;
    QTest::newRow("503 chunked") << QByteArray("HTTP/1.1 503 Busy\r\nRetry-After: 1\r\n"
                                               "Transfer-Encoding: chunked\r\n\r\n")
                                        + Test::HttpPeer::chunk("busy") + Test::HttpPeer::chunk({})
                                 << false << true;
    QTest::newRow("truncated body")
        << Test::HttpPeer::response(200, body).chopped(5) << true << true;
    QTest::newRow("oversized body")
        << Test::HttpPeer::response(200, QByteArray(4096, ' ') + body) << false << true;
    QTest::newRow("more than Content-Length")
        << Test::HttpPeer::response(200, body) + "{}" << false << true;
    QTest::newRow("reset before answering") << QByteArray() << true << true;
}

// A wrong status framed by Content-Length (429, 503...) reaches the caller as it came, headers and
// body included: sent again through libcurl, a Retry-After would be lost and the server asked
// twice. The connection stays in use.
void tst_PollLane::errorStatusRelayed()
{
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    int calls = 0;
    peer.setHandler([&](const Test::HttpPeer::Request &, QTcpSocket *socket) {
        socket->write(++calls == 1 ? Test::HttpPeer::response(503, "busy", "text/plain", {{"Retry-After", "7"}})
                                   : Test::HttpPeer::response(200, "{}"));
    });
    PollLane lane(peer.url());
    const Net::HttpRequest request = taskGet(peer.url(), "task-1");
    Recorder rec;
    lane.send(request, rec.done());
    QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), 1, 60000);
    const PollLane::Outcome first = rec.outcomes.first();
    QCOMPARE(int(first.kind), int(PollLane::Outcome::Answered));
    QCOMPARE(first.status, 503);
    QCOMPARE(first.body, QByteArray("busy"));
    QVERIFY2(first.headerLines.contains("Retry-After: 7\r\n"), first.headerLines.constData());
    QVERIFY(lane.isEnabled());
    lane.send(request, rec.done());
    QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), 2, 60000);
    QCOMPARE(rec.outcomes.at(1).status, 200);
    QCOMPARE(calls, 2); // each request asked once
    QCOMPARE(lane.connectionsOpened(), 1);
}

// Every request to peer is answered 200 with a JSON-RPC result sent chunked.
static void answerChunked(Test::HttpPeer &peer)
{
    peer.setHandler([](const Test::HttpPeer::Request &, QTcpSocket *socket) {
        socket->write(Test::HttpPeer::chunkedHead(200, "application/json")
                      + Test::HttpPeer::chunk(R"({"jsonrpc":"2.0","id":7,"result":{}})")
                      + Test::HttpPeer::chunk({}));
    });
}

// An origin whose JSON answers came chunked on the main path (tools/call, say) never gets a poll
// on the lane: the lane would find the answer chunked and the poll would be sent again through
// libcurl at once, so the server would see the task polled twice in a few milliseconds.
void tst_PollLane::chunkedOriginPolledOnce()
{
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    answerChunked(peer);
    Net::HttpClient http;
    const Net::HttpRequest call = taskGet(peer.url(), "task-1"); // not mayRepeat: libcurl's
    Net::HttpReply *first = http.post(call);
    QTRY_VERIFY_WITH_TIMEOUT(first->isFinished(), 60000);
    QCOMPARE(first->statusCode(), 200);
    Net::HttpRequest get = taskGet(peer.url(), "task-1");
    get.mayRepeat = true; // a tasks/get poll: the lane's
    Net::HttpReply *poll = http.post(get);
    QTRY_VERIFY_WITH_TIMEOUT(poll->isFinished(), 60000);
    QCOMPARE(poll->statusCode(), 200);
    QVERIFY(poll->readAll().contains("\"result\""));
    QCOMPARE(peer.requests().size(), 2); // the poll reached the server once
    QCOMPARE(http.laneFallbacks(), 0);
    first->release();
    poll->release();
}

// Each fault ends as Fallback with no data; framing the lane does not read turns it off, so the
// next request falls back without reaching the server; a transport fault or an error status
// leaves it on, and the next request goes out on a new connection.
void tst_PollLane::peerFaults()
{
    QFETCH(QByteArray, answer);
    QFETCH(bool, closeAfter);
    QFETCH(bool, staysOn);
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    bool faulty = true;
    peer.setHandler([&](const Test::HttpPeer::Request &, QTcpSocket *socket) {
        if (!faulty) {
            socket->write(Test::HttpPeer::response(200, "{}"));
            return;
        }
        faulty = false;
        socket->write(answer);
        socket->flush();
        if (closeAfter)
            socket->abort();
    });
    PollLane lane(peer.url());
    Net::HttpRequest request = taskGet(peer.url(), "task-1");
    request.maxResponseBytes = 1024;
    Recorder rec;
    lane.send(request, rec.done());
    QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), 1, 60000);
    const PollLane::Outcome &o = rec.outcomes.first();
    QCOMPARE(int(o.kind), int(PollLane::Outcome::Fallback));
    QVERIFY(o.body.isEmpty());
    QVERIFY(!o.why.isEmpty());
    QCOMPARE(lane.isEnabled(), staysOn);
    QCOMPARE(lane.disabledReason().isEmpty(), staysOn);
    QCOMPARE(lane.openConnections(), 0); // never reused after a fault

    lane.send(request, rec.done());
    QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), 2, 60000);
    if (staysOn) {
        QVERIFY2(rec.outcomes.at(1).kind == PollLane::Outcome::Answered,
                 qPrintable(rec.outcomes.at(1).why));
        QCOMPARE(rec.outcomes.at(1).body, QByteArray("{}"));
        QCOMPARE(peer.requests().size(), 2);
        QCOMPARE(peer.connections(), 2);
    } else {
        QCOMPARE(int(rec.outcomes.at(1).kind), int(PollLane::Outcome::Fallback));
        QCOMPARE(rec.outcomes.at(1).why, lane.disabledReason());
        QCOMPARE(peer.requests().size(), 1);
    }
}

void tst_PollLane::connectionCloseIsAnsweredThenDropped()
{
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const Test::HttpPeer::Request &, QTcpSocket *socket) {
        socket->write(Test::HttpPeer::response(
            200, "{\"a\":1}", "application/json", {{"Connection", "close"}}));
        socket->disconnectFromHost();
    });
    PollLane lane(peer.url());
    Recorder rec;
    for (int i = 1; i <= 3; ++i) {
        lane.send(taskGet(peer.url(), "task-1"), rec.done());
        QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), i, 60000);
        QVERIFY2(rec.outcomes.last().kind == PollLane::Outcome::Answered,
                 qPrintable(rec.outcomes.last().why));
        QCOMPARE(rec.outcomes.last().body, QByteArray("{\"a\":1}"));
        QCOMPARE(lane.openConnections(), 0);
    }
    QCOMPARE(peer.connections(), 3);
    QCOMPARE(lane.connectionsOpened(), 3);
    QVERIFY(lane.isEnabled());
}

// The answer arrives a few bytes at a time, the blank line after the headers split too.
void tst_PollLane::answerInPieces()
{
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    const QByteArray body = R"({"jsonrpc":"2.0","id":7,"result":{"status":"working"}})";
    peer.setHandler([&body](const Test::HttpPeer::Request &, QTcpSocket *socket) {
        auto *timer = new QTimer(socket);
        auto rest = std::make_shared<QByteArray>(Test::HttpPeer::response(200, body));
        QObject::connect(timer, &QTimer::timeout, socket, [socket, timer, rest] {
            socket->write(rest->left(3));
            socket->flush();
            rest->remove(0, 3);
            if (rest->isEmpty())
                timer->deleteLater();
        });
        timer->start(2);
    });
    PollLane lane(peer.url());
    Recorder rec;
    for (int i = 1; i <= 2; ++i) {
        lane.send(taskGet(peer.url(), "task-1"), rec.done());
        QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), i, 60000);
        QVERIFY2(rec.outcomes.last().kind == PollLane::Outcome::Answered,
                 qPrintable(rec.outcomes.last().why));
        QCOMPARE(rec.outcomes.last().body, body);
    }
    QCOMPARE(peer.connections(), 1);
}

void tst_PollLane::timeoutFallsBack()
{
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const Test::HttpPeer::Request &, QTcpSocket *) {}); // never answers
    PollLane lane(peer.url());
    Net::HttpRequest request = taskGet(peer.url(), "task-1");
    request.timeoutMs = 300;
    Recorder rec;
    lane.send(request, rec.done());
    QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), 1, 60000);
    QCOMPARE(int(rec.outcomes.first().kind), int(PollLane::Outcome::Fallback));
    QVERIFY2(rec.outcomes.first().why.contains(QLatin1String("300 ms")),
             qPrintable(rec.outcomes.first().why));
    QCOMPARE(peer.requests().size(), 1);
    QVERIFY(lane.isEnabled());
    QCOMPARE(lane.openConnections(), 0);
}

void tst_PollLane::refusedFallsBackAndStaysOn()
{
    quint16 port = 0;
    {
        QTcpServer probe; // a port nobody listens on once it closes
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    }
    const QUrl url(QStringLiteral("http://127.0.0.1:%1/mcp").arg(port));
    PollLane lane(url);
    Recorder rec;
    for (int i = 0; i < 3; ++i)
        lane.send(taskGet(url, "task-1"), rec.done());
    QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), 3, 60000);
    QCOMPARE(rec.count(PollLane::Outcome::Fallback), 3);
    QVERIFY2(rec.outcomes.first().why.contains(QLatin1String("could not connect")),
             qPrintable(rec.outcomes.first().why));
    QVERIFY(lane.isEnabled());
    QCOMPARE(lane.connectionsOpened(), 0);
    QCOMPARE(lane.openConnections(), 0);
}

void tst_PollLane::destroyedMidRequestCallsNothing()
{
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const Test::HttpPeer::Request &, QTcpSocket *) {}); // never answers
    int calls = 0;
    auto lane = std::make_unique<PollLane>(peer.url());
    Net::HttpRequest request = taskGet(peer.url(), "task-1");
    lane->send(request, [&calls](PollLane::Outcome) { ++calls; });
    QTRY_COMPARE_WITH_TIMEOUT(peer.requests().size(), 1, 60000); // on the wire, unanswered
    lane->send(request, [&calls](PollLane::Outcome) { ++calls; });
    request.method = Net::HttpRequest::Method::Delete;
    lane->send(request, [&calls](PollLane::Outcome) { ++calls; }); // a queued fallback
    lane.reset();
    QTest::qWait(300); // negative check: no callback runs after the lane is gone
    QCOMPARE(calls, 0);
}

void tst_PollLane::doneMayDestroyTheLane()
{
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const Test::HttpPeer::Request &, QTcpSocket *socket) {
        socket->write(Test::HttpPeer::response(200, "{}"));
    });
    auto lane = std::make_unique<PollLane>(peer.url());
    std::optional<PollLane::Outcome> got;
    int calls = 0;
    for (int i = 0; i < 2; ++i) {
        lane->send(taskGet(peer.url(), "task-1"), [&](PollLane::Outcome o) {
            ++calls;
            got = std::move(o);
            lane.reset();
        });
    }
    QTRY_VERIFY_WITH_TIMEOUT(got.has_value(), 60000);
    QVERIFY(!lane);
    QTest::qWait(300); // negative check: no second callback runs late
    QCOMPARE(calls, 1);
    QCOMPARE(got->body, QByteArray("{}"));
}

// Polls due together go out pipelined on a few connections, and each answer reaches the request it
// belongs to: the real server tells the tasks apart by id.
void tst_PollLane::pipelinedAnswersMatchTheirRequests()
{
    Test::TestServer server;
    QVERIFY2(server.start(kServerArgs), qPrintable(server.errorString()));
    const QUrl url(server.url());
    const QList<QByteArray> ids = parkedTasks(url, 10);
    QCOMPARE(ids.size(), 10);

    PollLane lane(url);
    QCOMPARE(lane.pipelineDepth(), 8);
    constexpr int kPolls = 40;
    int answered = 0, wrong = 0, other = 0;
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < kPolls; ++i) {
            const QByteArray id = ids.at(i % ids.size());
            lane.send(taskGet(url, id), [&, id](PollLane::Outcome o) {
                if (o.kind != PollLane::Outcome::Answered)
                    ++other;
                else if (json::parse(o.body.toStdString(), nullptr, false)
                             .value("/result/taskId"_json_pointer, std::string())
                         != id.toStdString())
                    ++wrong;
                else
                    ++answered;
            });
        }
        QTRY_COMPARE_WITH_TIMEOUT(answered + wrong + other, kPolls * (round + 1), 60000);
    }
    QCOMPARE(wrong, 0);
    QCOMPARE(other, 0);
    QCOMPARE(lane.fallbacks(), 0);
    QCOMPARE(lane.pipelineDepth(), 8);
    // 40 at once, 8 to a connection: 5 connections, kept for the next rounds.
    QCOMPARE(lane.connectionsOpened(), 5);

    // One at a time: a connection per request in flight, up to the limit.
    PollLane single(url);
    single.setPipelineDepth(1);
    Recorder rec;
    for (int i = 0; i < kPolls; ++i)
        single.send(taskGet(url, ids.at(i % ids.size())), rec.done());
    QTRY_COMPARE_WITH_TIMEOUT(rec.outcomes.size(), kPolls, 60000);
    QCOMPARE(rec.count(PollLane::Outcome::Answered), kPolls);
    QCOMPARE(single.connectionsOpened(), 16);
}

// Several answers in one write (and one read): every one is taken, in order.
void tst_PollLane::answersOfOneWriteAllTaken()
{
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    QByteArray held;
    int seen = 0;
    peer.setHandler([&](const Test::HttpPeer::Request &request, QTcpSocket *socket) {
        held += Test::HttpPeer::response(200, "{\"for\":\"" + request.header("Mcp-Name") + "\"}");
        if (++seen % 4 == 0) {
            socket->write(held);
            held.clear();
        }
    });
    PollLane lane(peer.url());
    lane.setMaxConnections(1);
    QStringList got;
    for (int i = 0; i < 8; ++i) {
        lane.send(taskGet(peer.url(), "task-" + QByteArray::number(i)), [&got](PollLane::Outcome o) {
            got << (o.kind == PollLane::Outcome::Answered ? QString::fromUtf8(o.body)
                                                          : QStringLiteral("fallback: ") + o.why);
        });
    }
    QTRY_COMPARE_WITH_TIMEOUT(got.size(), 8, 60000);
    for (int i = 0; i < 8; ++i)
        QCOMPARE(got.at(i), QStringLiteral("{\"for\":\"task-%1\"}").arg(i));
    QCOMPARE(peer.connections(), 1);
    QCOMPARE(lane.pipelineDepth(), 8);
}

// A server that does not take pipelined requests: what it answered is answered, the rest go out
// again, and the lane sends one request at a time from then on.
void tst_PollLane::pipelineFaults_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<bool>("pipeliningStays");
    QTest::newRow("none") << QString() << true;
    QTest::newRow("closed after the first") << QStringLiteral("close") << false;
    QTest::newRow("Connection: close after the first") << QStringLiteral("connection-close") << false;
    QTest::newRow("400 for a pipelined request") << QStringLiteral("400") << false;
    QTest::newRow("pipelined requests ignored") << QStringLiteral("ignore") << false;
}

void tst_PollLane::pipelineFaults()
{
    QFETCH(QString, fault);
    QFETCH(bool, pipeliningStays);
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    bool faulty = true;
    int onConnection = 0;
    peer.setHandler([&](const Test::HttpPeer::Request &request, QTcpSocket *socket) {
        const QByteArray ok = Test::HttpPeer::response(200, "{\"for\":\"" + request.header("Mcp-Name") + "\"}");
        if (!faulty) {
            socket->write(ok);
            return;
        }
        ++onConnection;
        if (fault == QLatin1String("close") && onConnection == 1) {
            socket->write(ok);
            socket->flush();
            socket->abort();
        } else if (fault == QLatin1String("connection-close") && onConnection == 1) {
            socket->write(Test::HttpPeer::response(200, "{\"for\":\"" + request.header("Mcp-Name") + "\"}",
                                                   "application/json", {{"Connection", "close"}}));
            socket->disconnectFromHost();
        } else if (fault == QLatin1String("400") && onConnection == 2) {
            socket->write(Test::HttpPeer::response(400, "bad request", "text/plain"));
        } else if (fault == QLatin1String("ignore") && onConnection > 1) {
            // taken and dropped, as a server reading one request per read would
        } else {
            socket->write(ok);
        }
    });
    PollLane lane(peer.url());
    lane.setMaxConnections(1);
    QStringList got;
    const auto sendFour = [&] {
        for (int i = 0; i < 4; ++i) {
            Net::HttpRequest request = taskGet(peer.url(), "task-" + QByteArray::number(i));
            request.timeoutMs = 500;
            lane.send(request, [&got](PollLane::Outcome o) {
                got << (o.kind == PollLane::Outcome::Answered ? QString::fromUtf8(o.body)
                                                              : QStringLiteral("fallback"));
            });
        }
    };
    sendFour();
    QTRY_COMPARE_WITH_TIMEOUT(got.size(), 4, 60000);
    QCOMPARE(got.at(0), QStringLiteral("{\"for\":\"task-0\"}")); // answered before the fault
    for (int i = 1; i < 4; ++i)
        QCOMPARE(got.at(i), pipeliningStays ? QStringLiteral("{\"for\":\"task-%1\"}").arg(i)
                                            : QStringLiteral("fallback"));
    QCOMPARE(lane.pipelineDepth(), pipeliningStays ? 8 : 1);
    QCOMPARE(lane.pipeliningOffReason().isEmpty(), pipeliningStays);
    QVERIFY(lane.isEnabled()); // the lane itself stays on

    // From now on the peer behaves; requests go out one at a time if pipelining is off.
    faulty = false;
    const qsizetype before = peer.requests().size();
    got.clear();
    sendFour();
    QTRY_COMPARE_WITH_TIMEOUT(got.size(), 4, 60000);
    for (int i = 0; i < 4; ++i)
        QCOMPARE(got.at(i), QStringLiteral("{\"for\":\"task-%1\"}").arg(i));
    QCOMPARE(peer.requests().size(), before + 4);
}


namespace {

int openFiles()
{
    return int(QDir(QStringLiteral("/proc/self/fd"))
                   .entryList(QDir::AllEntries | QDir::System | QDir::Hidden | QDir::NoDotAndDotDot)
                   .size());
}

// One tasks/get poll of a parked task of a fresh server, through the client's lane, and the
// server stopped: empty when all went so, else what did not.
QString pollOnce(Net::HttpClient &http, Test::TestServer &server)
{
    if (!server.start(kServerArgs))
        return QStringLiteral("the server did not start: ") + server.errorString();
    const QUrl url(server.url());
    const QList<QByteArray> ids = parkedTasks(url, 1);
    if (ids.size() != 1)
        return QStringLiteral("no parked task");
    Net::HttpRequest get = taskGet(url, ids.front());
    get.mayRepeat = true;
    const qint64 answersBefore = http.laneAnswers();
    Net::HttpReply *poll = http.post(get);
    (void)QTest::qWaitFor([poll] { return poll->isFinished(); }, 60000);
    QString problem;
    if (!poll->isFinished() || poll->statusCode() != 200)
        problem = QStringLiteral("the poll did not end with 200 (%1)").arg(poll->statusCode());
    else if (http.laneAnswers() != answersBefore + 1)
        problem = QStringLiteral("the poll was not answered on the lane");
    poll->release();
    if (problem.isEmpty() && !server.terminate())
        problem = QStringLiteral("the server did not stop cleanly: ")
                  + QString::fromUtf8(server.standardError().right(2000));
    return problem;
}

} // namespace

// A client that meets many servers over its life (one restarted on a new port, replicas behind a
// proxy, a server that went away) keeps descriptors only for the origins it polls lately: a lane
// idle for the idle time is closed with its connections and its libcurl multi handle. Before,
// every origin kept its lane for the client's life: the soak's eddyctl watch gained two or three
// open files with each hostile server and replica phase and never gave them back.
void tst_PollLane::idleLanesAreClosed()
{
    Net::HttpClient http;
    http.setLaneIdleMs(300);
    {
        // The first poll's one-time descriptors (libcurl's, the client's), then its lane closed.
        Test::TestServer server;
        const QString problem = pollOnce(http, server);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
    QTRY_COMPARE_WITH_TIMEOUT(http.laneCount(), 0, 10000);
    const int baseline = openFiles();
    for (int round = 0; round < 5; ++round) {
        Test::TestServer server; // a new port each time: a new origin
        const QString problem = pollOnce(http, server);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }
    QTRY_COMPARE_WITH_TIMEOUT(http.laneCount(), 0, 10000);
    QTRY_COMPARE_WITH_TIMEOUT(openFiles(), baseline, 5000);
}

// An origin whose lane turned itself off (chunked answers) is not tried on a lane again after
// that lane was closed as idle: each later poll reaches the server once, through libcurl.
void tst_PollLane::offOriginStaysOffAfterItsLaneCloses()
{
    Test::HttpPeer peer;
    QVERIFY(peer.listen());
    answerChunked(peer);
    Net::HttpClient http;
    http.setLaneIdleMs(200);
    Net::HttpRequest get = taskGet(peer.url(), "task-1");
    get.mayRepeat = true;
    Net::HttpReply *first = http.post(get); // the lane reads chunked, turns off; libcurl answers
    QTRY_VERIFY_WITH_TIMEOUT(first->isFinished(), 60000);
    QCOMPARE(first->statusCode(), 200);
    first->release();
    const qsizetype before = peer.requests().size();
    QTRY_COMPARE_WITH_TIMEOUT(http.laneCount(), 0, 10000);
    Net::HttpReply *later = http.post(get);
    QTRY_VERIFY_WITH_TIMEOUT(later->isFinished(), 60000);
    QCOMPARE(later->statusCode(), 200);
    QVERIFY(later->readAll().contains("\"result\""));
    QCOMPARE(peer.requests().size(), before + 1); // not on a new lane first, then again
    later->release();
}

QTEST_GUILESS_MAIN(tst_PollLane)
#include "tst_polllane.moc"
