#include "app/net/httpclient.h"
#include "tests/net/httppeer.h"

#include <QAbstractEventDispatcher>
#include <QEventLoop>
#include <QHash>
#include <QPointer>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>

#include <memory>

using namespace Eddy;
using Eddy::Test::HttpPeer;

// HttpClient against a real loopback HTTP server driven by the test: keep-alive reuse,
// timeouts, the size cap, chunked and streamed bodies, resets and aborts.
class tst_HttpClient : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(Net::initGlobal()); }
    void postsBodyAndHeaders();
    void reusesConnection();
    void parallelRequests();
    void timeout();
    void sizeCapContentLength();
    void sizeCapChunked();
    void chunkedStreaming();
    void connectionReset();
    void connectionRefused();
    void abortRunning();
    void deleteRunningReply();
    void proxyFromEnvironment();
    void httpsToPlainHttpPortSaysTls();
    void handlerAndRelease();
    void serverClosesIdleConnection();

private:
    static std::unique_ptr<Net::HttpReply> wait(Net::HttpReply *reply, int ms = 30000)
    {
        std::unique_ptr<Net::HttpReply> owned(reply);
        if (!reply->isFinished()) {
            QSignalSpy spy(reply, &Net::HttpReply::finished);
            spy.wait(ms);
        }
        return owned;
    }
    static Net::HttpRequest request(const QUrl &url, int timeoutMs = 30000)
    {
        Net::HttpRequest r;
        r.url = url;
        r.body = "{\"x\":1}";
        r.timeoutMs = timeoutMs;
        return r;
    }
};

void tst_HttpClient::postsBodyAndHeaders()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write(HttpPeer::response(200, "{\"ok\":true}", "application/json",
                                    {{"X-Answer", "42"}}));
    });
    Net::HttpClient client;
    Net::HttpRequest r = request(peer.url());
    r.headers = {{"Mcp-Method", "tools/list"}};
    r.bearerToken = "tok123";
    auto reply = wait(client.post(r));
    QVERIFY2(reply->error().isOk(), qPrintable(reply->error().message()));
    QCOMPARE(reply->statusCode(), 200);
    QCOMPARE(reply->readAll(), QByteArray("{\"ok\":true}"));
    QCOMPARE(reply->header("x-answer"), QByteArray("42")); // case-insensitive
    QCOMPARE(reply->header("CONTENT-TYPE"), QByteArray("application/json"));
    QCOMPARE(peer.requests().size(), 1);
    const auto &seen = peer.requests().first();
    QCOMPARE(seen.method, QByteArray("POST"));
    QCOMPARE(seen.path, QByteArray("/mcp"));
    QCOMPARE(seen.body, QByteArray("{\"x\":1}"));
    QCOMPARE(seen.header("Authorization"), QByteArray("Bearer tok123"));
    QCOMPARE(seen.header("mcp-method"), QByteArray("tools/list"));
    QCOMPARE(seen.header("Content-Type"), QByteArray("application/json"));
    QVERIFY(seen.header("Expect").isEmpty());
}

void tst_HttpClient::reusesConnection()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write(HttpPeer::response(200, "{}"));
    });
    Net::HttpClient client;
    for (int i = 0; i < 5; ++i) {
        auto reply = wait(client.post(request(peer.url())));
        QVERIFY(reply->error().isOk());
        QCOMPARE(reply->statusCode(), 200);
    }
    QCOMPARE(peer.requests().size(), 5);
    QCOMPARE(peer.connections(), 1);
    QCOMPARE(client.connectionsOpened(), 1);
}

void tst_HttpClient::parallelRequests()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &r, QTcpSocket *s) {
        s->write(HttpPeer::response(200, r.body));
    });
    Net::HttpClient client;
    std::vector<std::unique_ptr<Net::HttpReply>> replies;
    for (int i = 0; i < 20; ++i) {
        Net::HttpRequest r = request(peer.url());
        r.body = QByteArray::number(i);
        replies.emplace_back(client.post(r));
    }
    for (int i = 0; i < 20; ++i) {
        QTRY_VERIFY_WITH_TIMEOUT(replies[i]->isFinished(), 30000);
        QVERIFY(replies[i]->error().isOk());
        QCOMPARE(replies[i]->readAll(), QByteArray::number(i));
    }
    QCOMPARE(client.activeTransfers(), 0);
}

void tst_HttpClient::timeout()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *) {}); // never answers
    Net::HttpClient client;
    auto reply = wait(client.post(request(peer.url(), 300)));
    QVERIFY(reply->isFinished());
    QCOMPARE(reply->error().kind(), Net::Error::Kind::Timeout);
    QVERIFY(reply->error().message().contains(QLatin1String("in time")));
}

void tst_HttpClient::sizeCapContentLength()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write(HttpPeer::response(200, QByteArray(200000, 'a')));
    });
    Net::HttpClient client;
    Net::HttpRequest r = request(peer.url());
    r.maxResponseBytes = 10000;
    auto reply = wait(client.post(r));
    QCOMPARE(reply->error().kind(), Net::Error::Kind::TooLarge);
    QVERIFY(reply->error().message().contains(QLatin1String("10000")));
}

void tst_HttpClient::sizeCapChunked()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        QByteArray out = HttpPeer::chunkedHead(200, "application/json");
        for (int i = 0; i < 40; ++i)
            out += HttpPeer::chunk(QByteArray(1000, 'b'));
        out += HttpPeer::chunk({});
        s->write(out);
    });
    Net::HttpClient client;
    Net::HttpRequest r = request(peer.url());
    r.maxResponseBytes = 10000;
    auto reply = wait(client.post(r));
    QCOMPARE(reply->error().kind(), Net::Error::Kind::TooLarge);
}

void tst_HttpClient::chunkedStreaming()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write(HttpPeer::chunkedHead(200, "text/event-stream") + HttpPeer::chunk("part1;"));
        s->flush();
        QTimer::singleShot(200, s, [s] { s->write(HttpPeer::chunk("part2;")); });
        QTimer::singleShot(400, s, [s] { s->write(HttpPeer::chunk("part3") + HttpPeer::chunk({})); });
    });
    Net::HttpClient client;
    std::unique_ptr<Net::HttpReply> reply(client.post(request(peer.url())));
    QByteArray got;
    int reads = 0;
    connect(reply.get(), &Net::HttpReply::readyRead, this, [&] {
        ++reads;
        got += reply->readAll();
    });
    QSignalSpy headers(reply.get(), &Net::HttpReply::headersReceived);
    QSignalSpy finished(reply.get(), &Net::HttpReply::finished);
    QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
    QVERIFY(reply->error().isOk());
    QCOMPARE(got, QByteArray("part1;part2;part3"));
    QVERIFY2(reads >= 2, "body pieces must be delivered as they arrive");
    QCOMPARE(headers.size(), 1);
    QCOMPARE(reply->header("content-type"), QByteArray("text/event-stream"));
    QTest::qWait(50); // negative check: no second finished() comes late
    QCOMPARE(finished.size(), 1); // exactly once
}

void tst_HttpClient::connectionReset()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"trunc");
        s->flush();
        s->abort();
    });
    Net::HttpClient client;
    auto reply = wait(client.post(request(peer.url())));
    QVERIFY(reply->isFinished());
    QCOMPARE(reply->error().kind(), Net::Error::Kind::Transport);
    QVERIFY(!reply->error().message().isEmpty());
}

void tst_HttpClient::connectionRefused()
{
    quint16 port = 0;
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        port = probe.serverPort();
    }
    Net::HttpClient client;
    auto reply = wait(client.post(request(QUrl(QStringLiteral("http://127.0.0.1:%1/mcp").arg(port)))));
    QCOMPARE(reply->error().kind(), Net::Error::Kind::Transport);
    QVERIFY(reply->error().message().contains(QLatin1String("cannot connect")));
}

void tst_HttpClient::abortRunning()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write(HttpPeer::chunkedHead(200, "text/event-stream") + HttpPeer::chunk(": hi\n\n"));
    });
    Net::HttpClient client;
    std::unique_ptr<Net::HttpReply> reply(client.post(request(peer.url(), 0)));
    QSignalSpy finished(reply.get(), &Net::HttpReply::finished);
    QSignalSpy ready(reply.get(), &Net::HttpReply::readyRead);
    QTRY_VERIFY_WITH_TIMEOUT(ready.size() >= 1, 30000);
    reply->abort();
    QCOMPARE(finished.size(), 1);
    QCOMPARE(reply->error().kind(), Net::Error::Kind::Aborted);
    reply->abort();
    QTest::qWait(50); // negative check: the second abort emits nothing, now or late
    QCOMPARE(finished.size(), 1);
    QCOMPARE(client.activeTransfers(), 0);
    // The client still works afterwards.
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write(HttpPeer::response(200, "{}"));
    });
    auto next = wait(client.post(request(peer.url())));
    QVERIFY(next->error().isOk());
}

void tst_HttpClient::deleteRunningReply()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *) {});
    Net::HttpClient client;
    delete client.post(request(peer.url()));
    QCOMPARE(client.activeTransfers(), 0);
    QTest::qWait(100); // negative check: nothing may touch the deleted reply
}


// Proxies are read from the environment once per client, with libcurl's rules: http_proxy (never
// HTTP_PROXY) or all_proxy, and no_proxy hosts go direct. The peer plays the proxy: a proxied
// request arrives with the absolute URL of the real target in its request line.
void tst_HttpClient::proxyFromEnvironment()
{
    HttpPeer proxy;
    QVERIFY(proxy.listen());
    proxy.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write(HttpPeer::response(200, "{\"via\":\"proxy\"}"));
    });
    HttpPeer direct;
    QVERIFY(direct.listen());
    direct.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write(HttpPeer::response(200, "{\"via\":\"direct\"}"));
    });
    const QByteArray proxyUrl = "http://127.0.0.1:" + QByteArray::number(proxy.url().port());
    const char *names[] = {"http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY",
                           "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"};
    QHash<QByteArray, QByteArray> saved;
    for (const char *name : names) {
        if (qEnvironmentVariableIsSet(name))
            saved.insert(name, qgetenv(name));
        qunsetenv(name);
    }
    const auto restore = qScopeGuard([&] {
        for (const char *name : names) {
            qunsetenv(name);
            if (saved.contains(name))
                qputenv(name, saved.value(name));
        }
    });
    const auto via = [&](const QByteArray &name, const QByteArray &value) {
        for (const char *n : names)
            qunsetenv(n);
        if (!name.isEmpty())
            qputenv(name.constData(), value);
        Net::HttpClient client; // reads the environment when it is made
        auto reply = wait(client.post(request(direct.url())));
        return reply->error().isOk() ? reply->readAll() : "error: " + reply->error().message().toUtf8();
    };
    QCOMPARE(via({}, {}), QByteArray("{\"via\":\"direct\"}"));
    QCOMPARE(via("http_proxy", proxyUrl), QByteArray("{\"via\":\"proxy\"}"));
    QCOMPARE(proxy.requests().last().path, direct.url().toEncoded());
    QCOMPARE(via("all_proxy", proxyUrl), QByteArray("{\"via\":\"proxy\"}"));
    // Upper-case HTTP_PROXY is ignored for http:// (libcurl's guard against a CGI header).
    QCOMPARE(via("HTTP_PROXY", proxyUrl), QByteArray("{\"via\":\"direct\"}"));
    // https_proxy is for https:// only.
    QCOMPARE(via("https_proxy", proxyUrl), QByteArray("{\"via\":\"direct\"}"));
    {
        qputenv("no_proxy", "127.0.0.1");
        qputenv("http_proxy", proxyUrl);
        Net::HttpClient client;
        qunsetenv("http_proxy"); // read once, at construction
        auto reply = wait(client.post(request(direct.url())));
        QCOMPARE(reply->readAll(), QByteArray("{\"via\":\"direct\"}"));
        QCOMPARE(client.proxySettings().http, proxyUrl);
        QCOMPARE(client.proxySettings().noProxy, QByteArray("127.0.0.1"));
    }
    {
        qunsetenv("no_proxy");
        qputenv("http_proxy", proxyUrl);
        Net::HttpClient client;
        qunsetenv("http_proxy"); // read once, at construction: still proxied
        const qsizetype before = proxy.requests().size();
        for (int i = 0; i < 3; ++i) {
            auto reply = wait(client.post(request(direct.url())));
            QCOMPARE(reply->readAll(), QByteArray("{\"via\":\"proxy\"}"));
        }
        QCOMPARE(proxy.requests().size(), before + 3);
    }
}

// An https:// URL pointing at a plain-HTTP port: the server waits for a request line, the
// handshake never finishes, and the error says TLS failed rather than just "no answer in time".
void tst_HttpClient::httpsToPlainHttpPortSaysTls()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *) {});
    QUrl url = peer.url();
    url.setScheme(QStringLiteral("https"));
    Net::HttpRequest r = request(url);
    r.connectTimeoutMs = 1500;
    Net::HttpClient client;
    auto reply = wait(client.post(r));
    QVERIFY(reply->isFinished());
    QVERIFY(!reply->error().isOk());
    QVERIFY2(reply->error().message().startsWith(QLatin1String("TLS failed")),
             qPrintable(reply->error().message()));
    QVERIFY2(reply->error().message().contains(QLatin1String("http://")),
             qPrintable(reply->error().message()));
}

// A handler instead of signals: it hears of the headers, the data and the end once each, no
// signal is emitted, and release() inside replyFinished deletes the reply as soon as the call
// returns. Outside a call, release() deletes at once and a running transfer ends quietly.
void tst_HttpClient::handlerAndRelease()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write(HttpPeer::response(200, "{\"ok\":true}", "application/json",
                                    {{"X-Answer", "42"}}));
    });
    struct Recorder final : Net::HttpReply::Handler
    {
        int headers = 0;
        int data = 0;
        int finished = 0;
        QByteArray answer;
        QByteArray body;
        void replyHeadersReceived(Net::HttpReply *reply) override
        {
            ++headers;
            answer = reply->header("x-answer");
        }
        void replyReadyRead(Net::HttpReply *reply) override
        {
            ++data;
            body += reply->readAll();
        }
        void replyFinished(Net::HttpReply *reply) override
        {
            ++finished;
            body += reply->readAll();
            reply->release();
        }
    };
    Net::HttpClient client;
    auto recorder = std::make_shared<Recorder>();
    Net::HttpReply *reply = client.post(request(peer.url()));
    QPointer<Net::HttpReply> alive(reply);
    QSignalSpy signalled(reply, &Net::HttpReply::finished);
    reply->setHandler(recorder);
    QTRY_COMPARE_WITH_TIMEOUT(recorder->finished, 1, 30000);
    QVERIFY(alive.isNull());
    QCOMPARE(recorder->headers, 1);
    QVERIFY(recorder->data >= 1);
    QCOMPARE(recorder->answer, QByteArray("42"));
    QCOMPARE(recorder->body, QByteArray("{\"ok\":true}"));
    QCOMPARE(signalled.size(), 0);
    QCOMPARE(recorder.use_count(), 1); // the reply let go of it

    peer.setHandler([](const HttpPeer::Request &, QTcpSocket *) {}); // never answers
    Net::HttpReply *running = client.post(request(peer.url()));
    running->setHandler(recorder);
    QPointer<Net::HttpReply> runningAlive(running);
    QTRY_COMPARE_WITH_TIMEOUT(peer.requests().size(), 2, 30000);
    running->release();
    QVERIFY(runningAlive.isNull());
    QCOMPARE(client.activeTransfers(), 0);
    QCOMPARE(recorder->finished, 1);
}

// An idle keep-alive connection's read notifier stays on between requests. When the server
// closes that connection the notifier fires once and goes off (the loop must not spin on the
// readable socket), and the next request goes out on a new connection.
void tst_HttpClient::serverClosesIdleConnection()
{
    HttpPeer peer;
    QVERIFY(peer.listen());
    QList<QPointer<QTcpSocket>> sockets;
    peer.setHandler([&](const HttpPeer::Request &, QTcpSocket *s) {
        sockets.append(s);
        s->write(HttpPeer::response(200, "{}"));
    });
    Net::HttpClient client;
    auto first = wait(client.post(request(peer.url())));
    QVERIFY2(first->error().isOk(), qPrintable(first->error().message()));
    QCOMPARE(client.connectionsOpened(), 1);
    QCOMPARE(sockets.size(), 1);
    sockets.first()->disconnectFromHost();
    QTRY_VERIFY_WITH_TIMEOUT(!sockets.first()
                                 || sockets.first()->state() == QAbstractSocket::UnconnectedState,
                             30000);

    // Loop turns while nothing should happen: a few timer expiries at most, where a notifier left
    // on for the closed socket would make every turn return at once (tens of thousands).
    int turns = 0;
    QAbstractEventDispatcher *dispatcher = QAbstractEventDispatcher::instance();
    const auto counting = connect(dispatcher, &QAbstractEventDispatcher::aboutToBlock, this,
                                  [&] { ++turns; });
    QEventLoop idle;
    QTimer::singleShot(300, &idle, &QEventLoop::quit);
    idle.exec();
    disconnect(counting);
    QVERIFY2(turns < 200, qPrintable(QStringLiteral("%1 event-loop turns while idle").arg(turns)));

    auto second = wait(client.post(request(peer.url())));
    QVERIFY2(second->error().isOk(), qPrintable(second->error().message()));
    QCOMPARE(second->statusCode(), 200);
    QCOMPARE(client.connectionsOpened(), 2);
    QCOMPARE(peer.connections(), 2);
}

QTEST_GUILESS_MAIN(tst_HttpClient)
#include "tst_httpclient.moc"
