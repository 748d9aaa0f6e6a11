// MCP authorization, the client side (app/mcp/oauth.*, app/net/loopbacklistener.*): the pieces
// the conformance suite's auth/ scenarios cannot see (refresh between runs, consent denied, the
// token file's mode, the loopback listener's answers, the private_key_jwt client assertion),
// against a real HTTP peer playing the MCP server and its authorization server on one origin.
// The whole flows run in the conformance label.
#include "app/mcp/client.h"
#include "app/mcp/dpop.h"
#include "app/mcp/jobs.h"
#include "app/mcp/oauth.h"
#include "app/mcp/oauthgrants.h"
#include "app/net/httpclient.h"
#include "app/net/httpreply.h"
#include "app/net/loopbacklistener.h"
#include "tests/net/httppeer.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QPointer>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrlQuery>

#include <nlohmann/json.hpp>
#include <rhonabwy.h>

using namespace Eddy;
using Eddy::Test::HttpPeer;
using nlohmann::json;

namespace {
QByteArray rpcResult(const json &id, const json &result)
{
    return QByteArray::fromStdString(json{{"jsonrpc", "2.0"}, {"id", id}, {"result", result}}.dump());
}
const json kDiscover = {{"resultType", "complete"}, {"supportedVersions", {"2026-07-28"}},
                        {"capabilities", json::object()}, {"ttlMs", 0}, {"cacheScope", "public"}};

// Discovers through client and waits for the end (30 s at most): the error it ended with, empty
// when it succeeded.
QString discoverError(Mcp::Client *client)
{
    QPointer<Mcp::DiscoverJob> job = client->discover();
    job->setAutoDelete(false);
    if (!QTest::qWaitFor([&job] { return job->isFinished(); }, 30000))
        return QStringLiteral("discover did not end within 30 s");
    const QString error = job->hasError() ? job->error().message() : QString();
    delete job;
    return error;
}

// Where an authorization server that approves at once sends the browser back from authorizeUrl:
// its redirect URI with the code, the request's state and the issuer (RFC 9207).
QUrl approvedRedirect(const QUrl &authorizeUrl, const QString &code, const QString &issuer)
{
    const QUrlQuery q(authorizeUrl);
    QUrl back(q.queryItemValue(QStringLiteral("redirect_uri"), QUrl::FullyDecoded));
    QUrlQuery answer;
    answer.addQueryItem(QStringLiteral("code"), code);
    answer.addQueryItem(QStringLiteral("state"), q.queryItemValue(QStringLiteral("state")));
    answer.addQueryItem(QStringLiteral("iss"), issuer);
    back.setQuery(answer);
    return back;
}

// A token for https://a.example/mcp from https://id.example.
Mcp::TokenStore::Entry sampleToken()
{
    Mcp::TokenStore::Entry e;
    e.issuer = QStringLiteral("https://id.example");
    e.resource = QStringLiteral("https://a.example/mcp");
    e.server = e.resource;
    e.accessToken = QStringLiteral("access-1");
    return e;
}
} // namespace

class tst_OAuth : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void codeChallengeIsS256();
    void challengeParameters();
    void resourceCoversServer_data();
    void resourceCoversServer();
    void tokenFileIsOwnerOnly();
    void listenerAnswersTheCallbackOnce();
    void refreshesAKeptTokenWithoutABrowser();
    void consentDeniedSaysWhatToDo();
    void signInLogsNoSecret();
    void noMetadataMeansAStaticToken();
    void dpopProofVerifiesWithItsPublicKey();
    void dpopKeyIsKeptWithTheToken();
    void dpopOnlyWhenOfferedWithEs256();
    void dpopNonceRefusedAgainEndsTheRequest();
    void dpopTokenRequestRetriesTheNonceOnce();
    void clientAssertionIsSignedWithTheKey_data();
    void clientAssertionIsSignedWithTheKey();
    void clientAssertionKeyProblemsNameTheFile();

private:
    // The peer: /mcp wants "Bearer good", everything else is the authorization server.
    void playServer(const QByteArray &goodToken);
    Mcp::Client *makeClient(std::function<void(const QUrl &)> openUrl);
    QString origin() const { return m_peer->url().adjusted(QUrl::RemovePath).toString(QUrl::StripTrailingSlash); }
    // A token an earlier run kept for the peer, its own authorization server.
    Mcp::TokenStore::Entry keptToken(const QString &accessToken) const
    {
        Mcp::TokenStore::Entry kept;
        kept.issuer = origin();
        kept.resource = origin() + QStringLiteral("/mcp");
        kept.server = m_peer->url().toString();
        kept.accessToken = accessToken;
        return kept;
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<HttpPeer> m_peer;
    std::unique_ptr<Net::HttpClient> m_http;
    std::unique_ptr<Mcp::Client> m_client;
    QString m_tokenFile;
    QString m_verifierSeen; // the PKCE verifier the token endpoint got
    int m_browserOpened = 0;
};

void tst_OAuth::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_tokenFile = m_dir->filePath(QStringLiteral("tokens.json"));
    m_peer = std::make_unique<HttpPeer>();
    QVERIFY(m_peer->listen());
    m_http = std::make_unique<Net::HttpClient>();
    m_browserOpened = 0;
}

void tst_OAuth::cleanup()
{
    m_client.reset();
    Mcp::Client::setOAuthSettings(nullptr);
    Mcp::Client::clearEraCache();
    m_http.reset();
    m_peer.reset();
    m_dir.reset();
}

void tst_OAuth::codeChallengeIsS256()
{
    // RFC 7636, Appendix B.
    QCOMPARE(Mcp::OAuth::codeChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
             QByteArray("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"));
}

void tst_OAuth::challengeParameters()
{
    const auto c = Mcp::BearerChallenge::parse(
        R"(Bearer error="insufficient_scope", scope="mcp:basic mcp:write", )"
        R"(resource_metadata="https://x.example/.well-known/oauth-protected-resource/mcp", )"
        R"(error_description="needs \"write\", sorry")");
    QCOMPARE(c.error, QStringLiteral("insufficient_scope"));
    QCOMPARE(c.scope, QStringLiteral("mcp:basic mcp:write"));
    QCOMPARE(c.resourceMetadata, QUrl(QStringLiteral("https://x.example/.well-known/oauth-protected-resource/mcp")));
    QCOMPARE(c.errorDescription, QStringLiteral("needs \"write\", sorry"));
    const auto bare = Mcp::BearerChallenge::parse("Bearer realm=mcp, error=invalid_token");
    QCOMPARE(bare.error, QStringLiteral("invalid_token"));
    QVERIFY(Mcp::BearerChallenge::parse("Basic realm=\"x\"").error.isEmpty());
    // A DPoP-protected server (RFC 9449 §7.1) challenges with the DPoP scheme.
    const auto dpop = Mcp::BearerChallenge::parse(
        "DPoP error=\"use_dpop_nonce\", resource_metadata=\"https://x.example/.well-known/oauth-protected-resource\"");
    QCOMPARE(dpop.error, QStringLiteral("use_dpop_nonce"));
    QCOMPARE(dpop.resourceMetadata, QUrl(QStringLiteral("https://x.example/.well-known/oauth-protected-resource")));
}

void tst_OAuth::resourceCoversServer_data()
{
    QTest::addColumn<QString>("resource");
    QTest::addColumn<QString>("server");
    QTest::addColumn<bool>("covers");
    QTest::newRow("same") << "https://a.example/mcp" << "https://a.example/mcp" << true;
    QTest::newRow("origin") << "https://a.example" << "https://a.example/mcp" << true;
    QTest::newRow("prefix") << "https://a.example/team/" << "https://a.example/team/mcp" << true;
    QTest::newRow("other host") << "https://evil.example/mcp" << "https://a.example/mcp" << false;
    QTest::newRow("other port") << "https://a.example:8443/mcp" << "https://a.example/mcp" << false;
    QTest::newRow("not a segment") << "https://a.example/mc" << "https://a.example/mcp" << false;
    QTest::newRow("none") << "" << "https://a.example/mcp" << false;
}

void tst_OAuth::resourceCoversServer()
{
    QFETCH(QString, resource);
    QFETCH(QString, server);
    QFETCH(bool, covers);
    QCOMPARE(Mcp::OAuth::resourceCovers(QUrl(resource), QUrl(server)), covers);
}

void tst_OAuth::tokenFileIsOwnerOnly()
{
    Mcp::TokenStore store(m_tokenFile);
    Mcp::TokenStore::Entry e = sampleToken();
    e.refreshToken = QStringLiteral("refresh-1");
    QString error;
    QVERIFY2(store.save(e, &error), qPrintable(error));
    QCOMPARE(QFile::permissions(m_tokenFile),
             QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser);
    const auto found = store.find(e.issuer, e.resource);
    QVERIFY(found);
    QCOMPARE(found->refreshToken, QStringLiteral("refresh-1"));
    QCOMPARE(store.findForServer(e.server)->accessToken, QStringLiteral("access-1"));
    QVERIFY(!store.find(QStringLiteral("https://other.example"), e.resource));
}

void tst_OAuth::listenerAnswersTheCallbackOnce()
{
    Net::LoopbackListener listener;
    QVERIFY2(listener.listen(), qPrintable(listener.errorString()));
    QCOMPARE(listener.redirectUri().host(), QStringLiteral("127.0.0.1"));
    QSignalSpy arrived(&listener, &Net::LoopbackListener::callback);
    const auto get = [this](const QUrl &url) {
        Net::HttpRequest r;
        r.url = url;
        r.method = Net::HttpRequest::Method::Get;
        QPointer<Net::HttpReply> reply = m_http->post(r);
        if (!QTest::qWaitFor([&reply] { return reply->isFinished(); }, 30000))
            return -1;
        const int status = reply->statusCode();
        reply->deleteLater();
        return status;
    };
    QUrl stray = listener.redirectUri();
    stray.setPath(QStringLiteral("/favicon.ico"));
    QCOMPARE(get(stray), 404);
    QUrl callback = listener.redirectUri();
    callback.setQuery(QStringLiteral("code=c%2B1&state=s1&iss=https%3A%2F%2Fid.example"));
    QCOMPARE(get(callback), 200);
    QCOMPARE(arrived.size(), 1);
    const auto query = arrived.first().first().value<QUrlQuery>();
    QCOMPARE(query.queryItemValue(QStringLiteral("code"), QUrl::FullyDecoded), QStringLiteral("c+1"));
    QCOMPARE(query.queryItemValue(QStringLiteral("iss"), QUrl::FullyDecoded), QStringLiteral("https://id.example"));
    QCOMPARE(get(callback), 404); // one sign-in per listener
    QCOMPARE(arrived.size(), 1);
}

void tst_OAuth::playServer(const QByteArray &goodToken)
{
    m_peer->setHandler([this, goodToken](const HttpPeer::Request &r, QTcpSocket *s) {
        const QString o = origin();
        if (r.path == "/mcp") {
            if (r.header("Authorization") != "Bearer " + goodToken) {
                s->write(HttpPeer::response(401, R"({"error":"invalid_token"})", "application/json",
                    {{"WWW-Authenticate", "Bearer resource_metadata=\"" + o.toUtf8()
                                              + "/.well-known/oauth-protected-resource/mcp\""}}));
                return;
            }
            const json b = json::parse(r.body.toStdString());
            s->write(HttpPeer::response(200, rpcResult(b["id"], kDiscover)));
            return;
        }
        if (r.path == "/.well-known/oauth-protected-resource/mcp") {
            s->write(HttpPeer::response(200, QByteArray::fromStdString(json{
                {"resource", (o + "/mcp").toStdString()}, {"authorization_servers", {o.toStdString()}}}.dump())));
            return;
        }
        if (r.path == "/.well-known/oauth-authorization-server") {
            s->write(HttpPeer::response(200, QByteArray::fromStdString(json{
                {"issuer", o.toStdString()}, {"authorization_endpoint", (o + "/authorize").toStdString()},
                {"token_endpoint", (o + "/token").toStdString()},
                {"registration_endpoint", (o + "/register").toStdString()},
                {"authorization_response_iss_parameter_supported", true},
                {"token_endpoint_auth_methods_supported", {"none"}}}.dump())));
            return;
        }
        if (r.path.startsWith("/authorize?")) {
            // Approves at once: back to the redirect URI with a code, the state and the issuer.
            const QUrl back = approvedRedirect(QUrl(QString::fromUtf8(r.path)),
                                               QStringLiteral("code-SECRET-7"), o);
            m_verifierSeen.clear();
            s->write(HttpPeer::response(302, "", "text/plain", {{"Location", back.toEncoded()}}));
            return;
        }
        if (r.path == "/register") {
            s->write(HttpPeer::response(201, R"({"client_id":"registered-1"})"));
            return;
        }
        if (r.path == "/token") {
            const QUrlQuery form(QString::fromUtf8(r.body));
            if (form.queryItemValue(QStringLiteral("grant_type")) == QLatin1String("authorization_code")
                && form.queryItemValue(QStringLiteral("code")) == QLatin1String("code-SECRET-7")) {
                m_verifierSeen = form.queryItemValue(QStringLiteral("code_verifier"));
                s->write(HttpPeer::response(200, R"({"access_token":")" + goodToken
                                                     + R"(","token_type":"Bearer","refresh_token":"refresh-SECRET-9"})"));
            } else if (form.queryItemValue(QStringLiteral("grant_type")) == QLatin1String("refresh_token")
                && form.queryItemValue(QStringLiteral("refresh_token")) == QLatin1String("refresh-1"))
                s->write(HttpPeer::response(200, R"({"access_token":")" + goodToken
                                                     + R"(","token_type":"Bearer","expires_in":60,"refresh_token":"refresh-2"})"));
            else
                s->write(HttpPeer::response(400, R"({"error":"invalid_grant"})"));
            return;
        }
        s->write(HttpPeer::response(404, "{}"));
    });
}

Mcp::Client *tst_OAuth::makeClient(std::function<void(const QUrl &)> openUrl)
{
    auto settings = std::make_shared<Mcp::OAuthSettings>();
    settings->tokenFile = m_tokenFile;
    settings->signInTimeoutMs = 60000;
    settings->openAuthorizationUrl = [this, openUrl](const QUrl &url) {
        ++m_browserOpened;
        if (openUrl)
            openUrl(url);
    };
    Mcp::Client::setOAuthSettings(settings);
    Mcp::ServerConfig config;
    config.url = m_peer->url();
    m_client = std::make_unique<Mcp::Client>(config, m_http.get());
    return m_client.get();
}

void tst_OAuth::refreshesAKeptTokenWithoutABrowser()
{
    // An earlier run left an expired token and its refresh token.
    const QString o = origin();
    Mcp::TokenStore::Entry kept = keptToken(QStringLiteral("expired-1"));
    kept.refreshToken = QStringLiteral("refresh-1");
    kept.clientId = QStringLiteral("registered-1");
    kept.authMethod = QStringLiteral("none");
    QString error;
    QVERIFY(Mcp::TokenStore(m_tokenFile).save(kept, &error));
    playServer("fresh-2");

    Mcp::Client *client = makeClient(nullptr);
    const QString failure = discoverError(client);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QCOMPARE(m_browserOpened, 0);
    QCOMPARE(m_peer->requests().first().header("Authorization"), QByteArray("Bearer expired-1"));
    QCOMPARE(m_peer->requests().last().header("Authorization"), QByteArray("Bearer fresh-2"));
    const auto saved = Mcp::TokenStore(m_tokenFile).find(o, o + QStringLiteral("/mcp"));
    QVERIFY(saved);
    QCOMPARE(saved->accessToken, QStringLiteral("fresh-2"));
    QCOMPARE(saved->refreshToken, QStringLiteral("refresh-2")); // rotated
}

void tst_OAuth::consentDeniedSaysWhatToDo()
{
    playServer("never");
    // The person's browser: the authorization server redirects back with access_denied.
    Mcp::Client *client = makeClient([this](const QUrl &url) {
        const QUrlQuery q(url);
        QUrl back(q.queryItemValue(QStringLiteral("redirect_uri"), QUrl::FullyDecoded));
        QUrlQuery answer;
        answer.addQueryItem(QStringLiteral("error"), QStringLiteral("access_denied"));
        answer.addQueryItem(QStringLiteral("state"), q.queryItemValue(QStringLiteral("state")));
        answer.addQueryItem(QStringLiteral("iss"), origin());
        back.setQuery(answer);
        Net::HttpRequest r;
        r.url = back;
        r.method = Net::HttpRequest::Method::Get;
        Net::HttpReply *reply = m_http->post(r);
        connect(reply, &Net::HttpReply::finished, reply, &QObject::deleteLater);
    });
    const QString message = discoverError(client);
    QVERIFY(!message.isEmpty());
    QVERIFY2(message.contains(QLatin1String("consent denied")) && message.contains(QLatin1String("allow access")),
             qPrintable(message));
    QCOMPARE(m_browserOpened, 1); // no second attempt on its own
    QVERIFY(!QFile::exists(m_tokenFile) || !QFile(m_tokenFile).size()
            || !Mcp::TokenStore(m_tokenFile).findForServer(m_peer->url().toString()));
}

namespace {
QStringList s_messages;
QtMessageHandler s_previous = nullptr;
void collect(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    s_messages << message;
    s_previous(type, context, message);
}
} // namespace

void tst_OAuth::signInLogsNoSecret()
{
    // A whole browser sign-in with every eddy.* message on: no log line holds the access token,
    // the refresh token, the authorization code or the PKCE verifier.
    QLoggingCategory::setFilterRules(QStringLiteral("eddy.*=true"));
    s_messages.clear();
    s_previous = qInstallMessageHandler(collect);
    playServer("access-SECRET-5");
    Mcp::Client *client = makeClient([this](const QUrl &url) {
        // The browser: the authorization endpoint, then its redirect to the listener.
        Net::HttpRequest r;
        r.url = url;
        r.method = Net::HttpRequest::Method::Get;
        Net::HttpReply *reply = m_http->post(r);
        connect(reply, &Net::HttpReply::finished, this, [this, reply] {
            Net::HttpRequest back;
            back.url = QUrl::fromEncoded(reply->header("Location"));
            back.method = Net::HttpRequest::Method::Get;
            reply->deleteLater();
            Net::HttpReply *landing = m_http->post(back);
            connect(landing, &Net::HttpReply::finished, landing, &QObject::deleteLater);
        });
    });
    const QString failure = discoverError(client);
    qInstallMessageHandler(s_previous);
    QLoggingCategory::setFilterRules(QString());
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QCOMPARE(m_browserOpened, 1);
    QCOMPARE(m_peer->requests().last().header("Authorization"), QByteArray("Bearer access-SECRET-5"));
    QVERIFY(m_verifierSeen.size() >= 43);
    QVERIFY(!s_messages.isEmpty());
    for (const QString &line : std::as_const(s_messages))
        for (const QString &secret : {QStringLiteral("access-SECRET-5"), QStringLiteral("refresh-SECRET-9"),
                                      QStringLiteral("code-SECRET-7"), m_verifierSeen})
            QVERIFY2(!line.contains(secret), qPrintable(line));
    const auto saved = Mcp::TokenStore(m_tokenFile).find(origin(), origin() + QStringLiteral("/mcp"));
    QVERIFY(saved);
    QCOMPARE(saved->refreshToken, QStringLiteral("refresh-SECRET-9"));
}

void tst_OAuth::noMetadataMeansAStaticToken()
{
    // A server that wants a static token answers 401 and publishes no authorization metadata:
    // no browser, and the message points at the token, as before sign-ins existed.
    m_peer->setHandler([](const HttpPeer::Request &r, QTcpSocket *s) {
        s->write(r.path == "/mcp" ? HttpPeer::response(401, "", "text/plain")
                                  : HttpPeer::response(404, "", "text/plain"));
    });
    Mcp::Client *client = makeClient(nullptr);
    const QString message = discoverError(client);
    QVERIFY(!message.isEmpty());
    QVERIFY2(message.contains(QLatin1String("access token")), qPrintable(message));
    QCOMPARE(m_browserOpened, 0);
    int registrations = 0;
    for (const auto &r : m_peer->requests())
        registrations += r.path == "/register";
    QCOMPARE(registrations, 0);
}

// private_key_jwt (RFC 7523 §2.2): the assertion verifies with the client's public key and
// carries iss = sub = the client id, aud = the issuer, a jti, iat and exp; from a PEM or a JWK.
void tst_OAuth::clientAssertionIsSignedWithTheKey_data()
{
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("bits");
    QTest::addColumn<bool>("pem");
    QTest::addColumn<QByteArray>("alg");
    QTest::newRow("EC P-256 PEM") << int(R_KEY_TYPE_EC) << 256 << true << QByteArray("ES256");
    QTest::newRow("EC P-384 JWK") << int(R_KEY_TYPE_EC) << 384 << false << QByteArray("ES384");
    QTest::newRow("RSA PEM") << int(R_KEY_TYPE_RSA) << 2048 << true << QByteArray("RS256");
    QTest::newRow("Ed25519 JWK") << int(R_KEY_TYPE_EDDSA) << 256 << false << QByteArray("EdDSA");
}

void tst_OAuth::clientAssertionIsSignedWithTheKey()
{
    QFETCH(int, type);
    QFETCH(int, bits);
    QFETCH(bool, pem);
    QFETCH(QByteArray, alg);
    jwk_t *priv = nullptr;
    jwk_t *pub = nullptr;
    jwt_t *jwt = nullptr;
    QCOMPARE(r_jwk_init(&priv), RHN_OK);
    QCOMPARE(r_jwk_init(&pub), RHN_OK);
    QCOMPARE(r_jwt_init(&jwt), RHN_OK);
    const auto freeAll = qScopeGuard([&] { r_jwk_free(priv); r_jwk_free(pub); r_jwt_free(jwt); });
    QCOMPARE(r_jwk_generate_key_pair(priv, pub, type, unsigned(bits), "k1"), RHN_OK);
    QByteArray key;
    if (pem) {
        unsigned char buffer[8192];
        size_t size = sizeof buffer;
        QCOMPARE(r_jwk_export_to_pem_der(priv, R_FORMAT_PEM, buffer, &size, 0), RHN_OK);
        key = QByteArray(reinterpret_cast<const char *>(buffer), qsizetype(size));
    } else {
        char *json = r_jwk_export_to_json_str(priv, 0);
        key = json;
        r_free(json);
    }
    const QString file = m_dir->filePath(QStringLiteral("client-key"));
    QFile out(file);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(key);
    out.close();

    const qint64 now = QDateTime::currentSecsSinceEpoch();
    QString error;
    const QString assertion = Mcp::Grants::clientAssertion(file, QStringLiteral("team-job"),
                                                            QStringLiteral("https://as.example"), &error, now);
    QVERIFY2(!assertion.isEmpty(), qPrintable(error));
    QCOMPARE(assertion.count(QLatin1Char('.')), 2);
    QCOMPARE(r_jwt_parse(jwt, assertion.toLatin1().constData(), 0), RHN_OK);
    QCOMPARE(r_jwt_verify_signature(jwt, pub, 0), RHN_OK);
    QCOMPARE(QByteArray(r_jwt_get_header_str_value(jwt, "alg")), alg);
    QCOMPARE(QByteArray(r_jwt_get_claim_str_value(jwt, "iss")), QByteArray("team-job"));
    QCOMPARE(QByteArray(r_jwt_get_claim_str_value(jwt, "sub")), QByteArray("team-job"));
    QCOMPARE(QByteArray(r_jwt_get_claim_str_value(jwt, "aud")), QByteArray("https://as.example"));
    QVERIFY(QByteArray(r_jwt_get_claim_str_value(jwt, "jti")).size() >= 16);
    QCOMPARE(qint64(r_jwt_get_claim_int_value(jwt, "iat")), now);
    QCOMPARE(qint64(r_jwt_get_claim_int_value(jwt, "exp")), now + Mcp::Grants::kAssertionLifetimeS);
    // Each assertion is new (its own jti), and another key's signature does not verify.
    const QString again = Mcp::Grants::clientAssertion(file, QStringLiteral("team-job"),
                                                        QStringLiteral("https://as.example"), &error, now);
    QVERIFY(again != assertion);
    jwk_t *otherPriv = nullptr;
    jwk_t *otherPub = nullptr;
    r_jwk_init(&otherPriv);
    r_jwk_init(&otherPub);
    QCOMPARE(r_jwk_generate_key_pair(otherPriv, otherPub, type, unsigned(bits), "k2"), RHN_OK);
    QVERIFY(r_jwt_verify_signature(jwt, otherPub, 0) != RHN_OK);
    r_jwk_free(otherPriv);
    r_jwk_free(otherPub);
}

void tst_OAuth::clientAssertionKeyProblemsNameTheFile()
{
    QString error;
    const QString missing = m_dir->filePath(QStringLiteral("no-such-key.pem"));
    QVERIFY(Mcp::Grants::clientAssertion(missing, QStringLiteral("c"), QStringLiteral("https://as"), &error).isEmpty());
    QVERIFY2(error.contains(missing) && error.contains(QLatin1String("--oauth-private-key")), qPrintable(error));

    const QString garbage = m_dir->filePath(QStringLiteral("not-a-key.pem"));
    QFile out(garbage);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n");
    out.close();
    error.clear();
    QVERIFY(Mcp::Grants::clientAssertion(garbage, QStringLiteral("c"), QStringLiteral("https://as"), &error).isEmpty());
    QVERIFY2(error.contains(garbage) && error.contains(QLatin1String("private key")), qPrintable(error));
    QVERIFY(!error.contains(QLatin1String("bm90IGEga2V5")));

    // A public key is no signing key either.
    jwk_t *priv = nullptr;
    jwk_t *pub = nullptr;
    r_jwk_init(&priv);
    r_jwk_init(&pub);
    QCOMPARE(r_jwk_generate_key_pair(priv, pub, R_KEY_TYPE_EC, 256, nullptr), RHN_OK);
    char *json = r_jwk_export_to_json_str(pub, 0);
    QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
    out.write(json);
    out.close();
    r_free(json);
    r_jwk_free(priv);
    r_jwk_free(pub);
    error.clear();
    QVERIFY(Mcp::Grants::clientAssertion(garbage, QStringLiteral("c"), QStringLiteral("https://as"), &error).isEmpty());
    QVERIFY2(error.contains(QLatin1String("no private key")), qPrintable(error));
}

QTEST_GUILESS_MAIN(tst_OAuth)
namespace {
QJsonObject jwtPart(const QByteArray &compact, int index)
{
    const QByteArray part = compact.split('.').value(index);
    return QJsonDocument::fromJson(QByteArray::fromBase64(part, QByteArray::Base64UrlEncoding)).object();
}

// Whether rhonabwy verifies the compact JWS with the public JWK given as JSON.
bool verifies(const QByteArray &compact, const QByteArray &publicJwk)
{
    jws_t *jws = nullptr;
    jwk_t *jwk = nullptr;
    const bool ok = r_jws_init(&jws) == RHN_OK && r_jwk_init(&jwk) == RHN_OK
                    && r_jwk_import_from_json_str(jwk, publicJwk.constData()) == RHN_OK
                    && r_jws_advanced_compact_parse(jws, compact.constData(), R_PARSE_NONE, R_FLAG_IGNORE_REMOTE) == RHN_OK
                    && r_jws_verify_signature(jws, jwk, R_FLAG_IGNORE_REMOTE) == RHN_OK;
    r_jwk_free(jwk);
    r_jws_free(jws);
    return ok;
}
} // namespace

void tst_OAuth::dpopProofVerifiesWithItsPublicKey()
{
    QString error;
    const auto key = Mcp::DpopKey::generate(&error);
    QVERIFY2(key, qPrintable(error));
    const QByteArray token = "eyJhbGciOiJFUzI1NiJ9.access.token";
    const QByteArray proof = key->proof("POST", QUrl(QStringLiteral("https://a.example:8443/mcp?x=1#part")),
                                        token, "server-nonce");
    QCOMPARE(proof.count('.'), 2);

    // RFC 9449 §4.2: the header carries typ, alg and the public key only.
    const QJsonObject header = jwtPart(proof, 0);
    QCOMPARE(header.value(QLatin1String("typ")).toString(), QStringLiteral("dpop+jwt"));
    QCOMPARE(header.value(QLatin1String("alg")).toString(), QStringLiteral("ES256"));
    const QJsonObject jwk = header.value(QLatin1String("jwk")).toObject();
    QCOMPARE(jwk.value(QLatin1String("kty")).toString(), QStringLiteral("EC"));
    QCOMPARE(jwk.value(QLatin1String("crv")).toString(), QStringLiteral("P-256"));
    QVERIFY(!jwk.contains(QLatin1String("d")));
    QVERIFY(key->privateJwk().contains("\"d\""));

    const QJsonObject claims = jwtPart(proof, 1);
    QCOMPARE(claims.value(QLatin1String("htm")).toString(), QStringLiteral("POST"));
    QCOMPARE(claims.value(QLatin1String("htu")).toString(), QStringLiteral("https://a.example:8443/mcp"));
    QCOMPARE(claims.value(QLatin1String("nonce")).toString(), QStringLiteral("server-nonce"));
    const QByteArray ath = QCryptographicHash::hash(token, QCryptographicHash::Sha256)
                               .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
    QCOMPARE(claims.value(QLatin1String("ath")).toString().toLatin1(), ath);
    QVERIFY(claims.value(QLatin1String("jti")).toString().size() >= 16);
    QVERIFY(qAbs(qint64(claims.value(QLatin1String("iat")).toDouble()) - QDateTime::currentSecsSinceEpoch()) <= 5);

    // The signature verifies with the header's key and with no other.
    const QByteArray headerJwk = QJsonDocument(jwk).toJson(QJsonDocument::Compact);
    QVERIFY(verifies(proof, headerJwk));
    const auto other = Mcp::DpopKey::generate(&error);
    QVERIFY(other);
    QVERIFY(!verifies(proof, other->publicJwk()));

    // A token request's proof: no ath, no nonce until the server asks; every proof is new.
    const QByteArray plain = key->proof("POST", QUrl(QStringLiteral("https://id.example/token")));
    QVERIFY(!jwtPart(plain, 1).contains(QLatin1String("ath")));
    QVERIFY(!jwtPart(plain, 1).contains(QLatin1String("nonce")));
    QVERIFY(jwtPart(plain, 1).value(QLatin1String("jti")) != claims.value(QLatin1String("jti")));
    QVERIFY(verifies(plain, key->publicJwk()));

    // On a request to the MCP server: the DPoP scheme and a proof, never the bearer header.
    Mcp::DpopState state;
    state.key = Mcp::DpopKey::fromPrivateJwk(key->privateJwk(), &error);
    state.bound = true;
    Net::HttpRequest request;
    request.url = QUrl(QStringLiteral("http://127.0.0.1:9/mcp"));
    request.mayRepeat = true;
    state.sign(request, token);
    QVERIFY(request.bearerToken.isEmpty());
    QVERIFY(!request.mayRepeat);
    QByteArray authorization, dpop;
    for (const auto &[name, value] : request.headers) {
        if (name == "Authorization")
            authorization = value;
        else if (name == "DPoP")
            dpop = value;
    }
    QCOMPARE(authorization, "DPoP " + token);
    QVERIFY(verifies(dpop, key->publicJwk()));
}

void tst_OAuth::dpopKeyIsKeptWithTheToken()
{
    QString error;
    const auto key = Mcp::DpopKey::generate(&error);
    QVERIFY2(key, qPrintable(error));
    Mcp::TokenStore store(m_tokenFile);
    Mcp::TokenStore::Entry e = sampleToken();
    e.tokenType = QStringLiteral("DPoP");
    e.dpopKey = QString::fromLatin1(key->privateJwk());
    QVERIFY2(store.save(e, &error), qPrintable(error));
    const auto found = store.findForServer(e.server);
    QVERIFY(found);
    QCOMPARE(found->tokenType, QStringLiteral("DPoP"));
    Mcp::DpopState state;
    state.restore(found->tokenType, found->dpopKey);
    QVERIFY(state.bound);
    QCOMPARE(state.key->publicJwk(), key->publicJwk());

    // A nonce is adopted once; the same nonce refused again is the end.
    QVERIFY(state.adoptResourceNonce("n1", {}));
    QVERIFY(!state.adoptResourceNonce("n1", "n1")); // refused again with the nonce it carried
    QVERIFY(!state.adoptResourceNonce({}, "n1"));
    // A request sent before another one adopted n1 goes again with it.
    QVERIFY(state.adoptResourceNonce("n1", {}));
    QVERIFY(state.adoptResourceNonce("n2", "n1"));
    Mcp::DpopState broken;
    broken.restore(QStringLiteral("DPoP"), QStringLiteral("{not a key"));
    QVERIFY(!broken.bound);
}

void tst_OAuth::dpopOnlyWhenOfferedWithEs256()
{
    const auto algs = [](const QStringList &names) {
        return QJsonObject{{QStringLiteral("dpop_signing_alg_values_supported"), QJsonArray::fromStringList(names)}};
    };
    QVERIFY(Mcp::DpopKey::offeredBy(algs({QStringLiteral("RS256"), QStringLiteral("ES256")})));
    QVERIFY(!Mcp::DpopKey::offeredBy(algs({QStringLiteral("RS256")})));
    QVERIFY(!Mcp::DpopKey::offeredBy(algs({})));
    QVERIFY(!Mcp::DpopKey::offeredBy(QJsonObject{{QStringLiteral("issuer"), QStringLiteral("https://id.example")}}));
    QCOMPARE(Mcp::DpopKey::htu(QUrl(QStringLiteral("https://u:p@a.example/mcp/?q=1#f"))),
             QStringLiteral("https://a.example/mcp/"));
}

void tst_OAuth::dpopNonceRefusedAgainEndsTheRequest()
{
    // An earlier run left a DPoP-bound token and its key; the server asks for a nonce and then
    // refuses the proof that carries it.
    QString error;
    const auto key = Mcp::DpopKey::generate(&error);
    QVERIFY2(key, qPrintable(error));
    Mcp::TokenStore::Entry kept = keptToken(QStringLiteral("kept-1"));
    kept.tokenType = QStringLiteral("DPoP");
    kept.dpopKey = QString::fromLatin1(key->privateJwk());
    QVERIFY(Mcp::TokenStore(m_tokenFile).save(kept, &error));
    m_peer->setHandler([](const HttpPeer::Request &, QTcpSocket *s) {
        s->write(HttpPeer::response(401, R"({"error":"use_dpop_nonce"})", "application/json",
                                    {{"WWW-Authenticate", "DPoP error=\"use_dpop_nonce\""}, {"DPoP-Nonce", "rs-1"}}));
    });

    Mcp::Client *client = makeClient(nullptr);
    const QString message = discoverError(client);
    QVERIFY(!message.isEmpty());
    QVERIFY2(message.contains(QLatin1String("use_dpop_nonce")) && message.contains(QLatin1String("Run the command again")),
             qPrintable(message));
    // Once without the nonce, once with it, never a third time; always the DPoP scheme.
    const auto &requests = m_peer->requests();
    QCOMPARE(requests.size(), 2);
    for (const auto &r : requests) {
        QCOMPARE(r.header("Authorization"), QByteArray("DPoP kept-1"));
        QVERIFY(verifies(r.header("DPoP"), key->publicJwk()));
    }
    QVERIFY(!jwtPart(requests[0].header("DPoP"), 1).contains(QLatin1String("nonce")));
    QCOMPARE(jwtPart(requests[1].header("DPoP"), 1).value(QLatin1String("nonce")).toString(), QStringLiteral("rs-1"));
    QCOMPARE(m_browserOpened, 0);
}

void tst_OAuth::dpopTokenRequestRetriesTheNonceOnce()
{
    // A pre-registered client, an authorization server that offers DPoP and refuses every proof
    // with use_dpop_nonce.
    const QString o = origin();
    int tokenRequests = 0;
    QByteArray lastProof;
    m_peer->setHandler([&, o](const HttpPeer::Request &r, QTcpSocket *s) {
        if (r.path == "/mcp") {
            s->write(HttpPeer::response(401, "{}", "application/json",
                {{"WWW-Authenticate", "DPoP resource_metadata=\"" + o.toUtf8() + "/.well-known/oauth-protected-resource/mcp\""}}));
        } else if (r.path == "/.well-known/oauth-protected-resource/mcp") {
            s->write(HttpPeer::response(200, QByteArray::fromStdString(json{
                {"resource", (o + "/mcp").toStdString()}, {"authorization_servers", {o.toStdString()}}}.dump())));
        } else if (r.path == "/.well-known/oauth-authorization-server") {
            s->write(HttpPeer::response(200, QByteArray::fromStdString(json{
                {"issuer", o.toStdString()}, {"authorization_endpoint", (o + "/authorize").toStdString()},
                {"token_endpoint", (o + "/token?tenant=1").toStdString()},
                {"dpop_signing_alg_values_supported", {"ES256"}}}.dump())));
        } else if (r.path.startsWith("/token")) {
            ++tokenRequests;
            lastProof = r.header("DPoP");
            s->write(HttpPeer::response(400, R"({"error":"use_dpop_nonce"})", "application/json",
                                        {{"DPoP-Nonce", "as-1"}}));
        } else {
            s->write(HttpPeer::response(404, "{}"));
        }
    });
    auto settings = std::make_shared<Mcp::OAuthSettings>();
    settings->tokenFile = m_tokenFile;
    settings->clientId = QStringLiteral("pre-1");
    settings->openAuthorizationUrl = [this, o](const QUrl &url) {
        ++m_browserOpened;
        const QUrl back = approvedRedirect(url, QStringLiteral("code-1"), o);
        Net::HttpRequest r;
        r.url = back;
        r.method = Net::HttpRequest::Method::Get;
        Net::HttpReply *reply = m_http->post(r);
        connect(reply, &Net::HttpReply::finished, reply, &QObject::deleteLater);
    };
    Mcp::Client::setOAuthSettings(settings);
    Mcp::ServerConfig config;
    config.url = m_peer->url();
    m_client = std::make_unique<Mcp::Client>(config, m_http.get());
    const QString message = discoverError(m_client.get());
    QVERIFY(!message.isEmpty());
    QVERIFY2(message.contains(QLatin1String("DPoP proof")) && message.contains(QLatin1String("Run the command again")),
             qPrintable(message));
    QCOMPARE(tokenRequests, 2);
    const QJsonObject claims = jwtPart(lastProof, 1);
    QCOMPARE(claims.value(QLatin1String("nonce")).toString(), QStringLiteral("as-1"));
    QCOMPARE(claims.value(QLatin1String("htu")).toString(), o + QStringLiteral("/token"));
    QVERIFY(!claims.contains(QLatin1String("ath")));
    QCOMPARE(m_browserOpened, 1);
}

#include "tst_oauth.moc"
