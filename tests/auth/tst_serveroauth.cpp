// eddy-cfd-server as an OAuth 2.1 resource server (--oauth-issuer; docs/server-auth.md) against a
// real OpenID provider (oidc-provider from npm, tests/auth/provider) on loopback: the protected
// resource metadata and the 401 that points to it, JWT access tokens from the provider's token
// endpoint (client_credentials with a resource indicator), every kind of bad token refused with
// invalid_token, a missing scope with 403 insufficient_scope, and tasks bound to their principal:
// a second user's token gets exactly the answers of an unknown task id. Real HTTP through
// libcurl, and the real eddyctl with its --token option.

#include "tests/common/oidcprocess.h"
#include "tests/common/testserver.h"
#include "tests/server/mcptestclient.h"

#include <curl/curl.h>

#include <QCryptographicHash>
#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QUrl>
#include <QUrlQuery>
#include <QtTest>

#include <ctime>

using nlohmann::json;
using Eddy::Test::HttpReply;
using Eddy::Test::McpTestClient;

namespace {

std::size_t collect(char *data, std::size_t size, std::size_t count, void *user)
{
    static_cast<std::string *>(user)->append(data, size * count);
    return size * count;
}

// A plain HTTP exchange with the provider; returns the status (0 when it did not complete).
long httpCall(const std::string &url, const std::string &body, const std::string &userPassword,
              const std::string &contentType, std::string &out)
{
    out.clear();
    CURL *curl = curl_easy_init();
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out);
    struct curl_slist *headers = nullptr;
    if (!body.empty() || !contentType.empty()) {
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.c_str());
        headers = curl_slist_append(headers, ("Content-Type: " + contentType).c_str());
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    }
    if (!userPassword.empty()) {
        curl_easy_setopt(curl, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
        curl_easy_setopt(curl, CURLOPT_USERPWD, userPassword.c_str());
    }
    long status = 0;
    if (curl_easy_perform(curl) == CURLE_OK)
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return status;
}

std::string formEncode(const std::string &value)
{
    char *escaped = curl_easy_escape(nullptr, value.c_str(), int(value.size()));
    std::string out(escaped);
    curl_free(escaped);
    return out;
}

// oidc-provider on 127.0.0.1:0, started by node with tests/auth/provider/provider.mjs.
class Provider final
{
public:
    bool start(QString &error)
    {
        if (!m_process.start(error))
            return false;
        m_issuer = m_process.issuer().toStdString();
        return true;
    }

    std::string issuer() const { return m_issuer; }

    // A JWT access token from the token endpoint (client_credentials, RFC 8707 resource); empty
    // on failure, with the provider's answer in error.
    std::string token(const std::string &client, const std::string &resource,
                      const std::string &scope, std::string *error = nullptr) const
    {
        std::string body = "grant_type=client_credentials&resource=" + formEncode(resource);
        if (!scope.empty())
            body += "&scope=" + formEncode(scope);
        std::string out;
        const long status = httpCall(m_issuer + "/token", body, client + ":" + client + "-secret",
                                     "application/x-www-form-urlencoded", out);
        const json reply = json::parse(out, nullptr, false);
        if (status != 200 || !reply.is_object() || !reply.contains("access_token")) {
            if (error)
                *error = "HTTP " + std::to_string(status) + ": " + out;
            return {};
        }
        return reply["access_token"].get<std::string>();
    }

    // A person signs in as login through the provider's own pages, as a browser would: the
    // authorization request (PKCE S256, resource indicator), the login form, the consent form,
    // the redirect with the code, and the code exchanged for a JWT access token. Empty on
    // failure, with the step in error.
    std::string signIn(const std::string &login, const std::string &resource, std::string &error) const
    {
        const std::string redirect = "http://127.0.0.1:7/callback";
        const QByteArray verifier = QByteArray::number(quint64(std::time(nullptr)))
                                    + QByteArray(40, 'v') + QByteArray::fromStdString(login);
        const QByteArray challenge = QCryptographicHash::hash(verifier, QCryptographicHash::Sha256)
                                         .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
        std::string url = m_issuer + "/auth?client_id=eddy-desktop&response_type=code&redirect_uri="
                          + formEncode(redirect) + "&scope=" + formEncode("openid cfd:run")
                          + "&code_challenge=" + challenge.toStdString()
                          + "&code_challenge_method=S256&state=s1&resource=" + formEncode(resource);
        CURL *curl = curl_easy_init();
        curl_easy_setopt(curl, CURLOPT_COOKIEFILE, ""); // the interaction cookies, in memory
        curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
        curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &collect);
        std::string code;
        std::string form; // non-empty: POST it to url
        for (int step = 0; step < 16 && code.empty(); ++step) {
            std::string body;
            const std::string posted = std::move(form); // libcurl reads it during perform
            form.clear();
            curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
            curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
            if (posted.empty()) {
                curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
            } else {
                curl_easy_setopt(curl, CURLOPT_POSTFIELDS, posted.c_str());
                curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, long(posted.size()));
            }
            long status = 0;
            char *location = nullptr;
            if (curl_easy_perform(curl) != CURLE_OK) {
                error = "no answer from " + url;
                break;
            }
            curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
            curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location);
            if (status >= 300 && status < 400 && location) {
                url = location;
                if (url.rfind(redirect, 0) == 0) {
                    const QUrlQuery query(QUrl(QString::fromStdString(url)).query());
                    code = query.queryItemValue(QStringLiteral("code")).toStdString();
                    if (code.empty())
                        error = "the provider redirected back without a code: " + url;
                    break;
                }
            } else if (status == 200 && body.find("name=\"prompt\" value=\"login\"") != std::string::npos) {
                form = "prompt=login&login=" + formEncode(login) + "&password=any";
            } else if (status == 200 && body.find("name=\"prompt\" value=\"consent\"") != std::string::npos) {
                form = "prompt=consent";
            } else {
                error = "unexpected HTTP " + std::to_string(status) + " at " + url + ": " + body.substr(0, 300);
                break;
            }
        }
        curl_easy_cleanup(curl);
        if (code.empty()) {
            if (error.empty())
                error = "no code after 16 steps";
            return {};
        }
        std::string out;
        const long status = httpCall(m_issuer + "/token",
                                     "grant_type=authorization_code&client_id=eddy-desktop&code=" + formEncode(code)
                                         + "&redirect_uri=" + formEncode(redirect) + "&code_verifier="
                                         + verifier.toStdString() + "&resource=" + formEncode(resource),
                                     {}, "application/x-www-form-urlencoded", out);
        const json reply = json::parse(out, nullptr, false);
        if (status != 200 || !reply.is_object() || !reply.contains("access_token")) {
            error = "token exchange: HTTP " + std::to_string(status) + ": " + out;
            return {};
        }
        return reply["access_token"].get<std::string>();
    }

    // From now on the provider's JWKS also has the key "rotated" (provider.mjs).
    bool rotate() const
    {
        std::string out;
        return httpCall(m_issuer + "/test/rotate", "{}", {}, "application/json", out) == 204;
    }

    // A token the provider's test endpoint signs (provider.mjs: key rs, ec, other, rotated, none,
    // hs).
    std::string mint(const json &spec) const
    {
        std::string out;
        return httpCall(m_issuer + "/test/mint", spec.dump(), {}, "application/json", out) == 200
                   ? out
                   : std::string();
    }

private:
    Eddy::Test::OidcProcess m_process;
    std::string m_issuer;
};

json quickArgs()
{
    return {{"reynolds", 100}, {"grid", 16}, {"max_iterations", 2000}, {"tolerance", 1e-5}};
}

// Runs until cancelled (the tolerance is out of reach).
json endlessArgs()
{
    return {{"reynolds", 100}, {"grid", 96}, {"max_iterations", 10000000}, {"tolerance", 1e-14}};
}

std::string www(const HttpReply &r)
{
    const auto it = r.headers.find("www-authenticate");
    return it == r.headers.end() ? std::string() : it->second;
}

// The answer (HTTP status, JSON-RPC message without its request id) with every occurrence of
// taskId replaced, to compare answers about two task ids.
std::string masked(long status, json message, const std::string &taskId)
{
    if (message.is_object())
        message.erase("id");
    std::string text = std::to_string(status) + " " + message.dump();
    for (std::size_t at = text.find(taskId); at != std::string::npos; at = text.find(taskId, at))
        text.replace(at, taskId.size(), "<ID>");
    return text;
}

std::string unknownLike(const std::string &id)
{
    // Same length and alphabet as a real id, never issued.
    std::string other = id;
    for (char &c : other)
        c = c == 'f' ? '0' : 'f';
    return other;
}

} // namespace

class tst_ServerOAuth : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void noTokenPointsToMetadata();
    void providerTokenAccepted();
    void rotatedKeyFetchedOnce();
    void badTokensRefused_data();
    void badTokensRefused();
    void missingScope();
    void acceptedTokenStillExpires();
    void otherUserSeesUnknownTask();
    void signedInPersonOwnsTask();
    void eddyctlWithToken();
    void unreachableIssuerStopsStart();
    void cleanupTestCase();

private:
    HttpReply job(McpTestClient &client, const std::string &tool, const json &arguments);

    Provider m_provider;
    Eddy::Test::TestServer m_server;
    std::string m_url;
    std::string m_alice;
    std::string m_bob;
};

void tst_ServerOAuth::initTestCase()
{
    QString error;
    QVERIFY2(m_provider.start(error), qPrintable(error));
    // tst_serveroauth_httplib sets EDDY_SERVER_EXTRA_ARGS="--http-engine httplib".
    const QStringList extra = qEnvironmentVariable("EDDY_SERVER_EXTRA_ARGS").split(' ', Qt::SkipEmptyParts);
    QVERIFY2(m_server.start(QStringList{"--oauth-issuer", QString::fromStdString(m_provider.issuer()),
                                        "--oauth-scopes", "cfd:run", "--workers", "1"}
                            + extra),
             qPrintable(m_server.errorString() + QString::fromUtf8(m_server.standardError())));
    m_url = m_server.url().toStdString();
    std::string why;
    m_alice = m_provider.token("alice", m_url, "cfd:run", &why);
    QVERIFY2(!m_alice.empty(), why.c_str());
    m_bob = m_provider.token("bob", m_url, "cfd:run", &why);
    QVERIFY2(!m_bob.empty(), why.c_str());
}

void tst_ServerOAuth::noTokenPointsToMetadata()
{
    McpTestClient client(m_server.url());
    const HttpReply r = client.request("tools/list");
    QCOMPARE(r.status, 401L);
    QVERIFY(r.errorCode() != 0);
    const std::string challenge = www(r);
    QVERIFY2(challenge.rfind("Bearer ", 0) == 0, challenge.c_str());
    QVERIFY2(challenge.find("scope=\"cfd:run\"") != std::string::npos, challenge.c_str());
    // No token, no error code (RFC 6750 3.1).
    QVERIFY2(challenge.find("error=") == std::string::npos, challenge.c_str());
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("resource_metadata=\"([^\"]+)\""))
                                          .match(QString::fromStdString(challenge));
    QVERIFY2(m.hasMatch(), challenge.c_str());
    const std::string metadataUrl = m.captured(1).toStdString();
    const std::string origin = m_url.substr(0, m_url.size() - std::string("/mcp").size());
    QCOMPARE(metadataUrl, origin + "/.well-known/oauth-protected-resource/mcp");

    // The metadata resolves (without a token), names this resource, its issuer and scopes.
    for (const std::string &url : {metadataUrl, origin + "/.well-known/oauth-protected-resource"}) {
        std::string body;
        QCOMPARE(httpCall(url, {}, {}, {}, body), 200L);
        const json metadata = json::parse(body, nullptr, false);
        QVERIFY2(metadata.is_object(), body.c_str());
        QCOMPARE(metadata.value("resource", ""), m_url);
        QCOMPARE(metadata["authorization_servers"], json::array({m_provider.issuer()}));
        QCOMPARE(metadata["scopes_supported"], json::array({"cfd:run"}));
    }
    // And the issuer it names publishes its own metadata.
    std::string body;
    QCOMPARE(httpCall(m_provider.issuer() + "/.well-known/openid-configuration", {}, {}, {}, body), 200L);
    QCOMPARE(json::parse(body).value("issuer", ""), m_provider.issuer());
}

void tst_ServerOAuth::providerTokenAccepted()
{
    McpTestClient client(m_server.url());
    client.setToken(m_alice);
    HttpReply r = client.request("tools/list");
    QCOMPARE(r.status, 200L);
    QVERIFY(r.result().contains("tools"));
    // ES256 and PS256 with the provider's published keys, and typ JWT as many providers send.
    const auto now = std::int64_t(std::time(nullptr));
    for (const json &spec : {json{{"key", "ec"}}, json{{"key", "rs"}, {"alg", "PS256"}},
                             json{{"key", "rs"}, {"typ", "JWT"}}}) {
        json s = spec;
        s["claims"] = {{"sub", "carol"}, {"aud", m_url}, {"scope", "cfd:run"}, {"exp", now + 300}};
        client.setToken(m_provider.mint(s));
        r = client.request("tools/list");
        QVERIFY2(r.status == 200, (spec.dump() + ": " + r.body).c_str());
    }
}

void tst_ServerOAuth::rotatedKeyFetchedOnce()
{
    // The provider rotates in a key after the server fetched the set: a token signed with it
    // makes the server fetch the keys again, and is accepted.
    const auto fetches = [&] { return m_server.standardError().count("signing keys fetched again"); };
    QCOMPARE(fetches(), 0);
    QVERIFY(m_provider.rotate());
    const auto now = std::int64_t(std::time(nullptr));
    const json claims = {{"sub", "dave"}, {"aud", m_url}, {"scope", "cfd:run"}, {"exp", now + 300}};
    McpTestClient client(m_server.url());
    client.setToken(m_provider.mint({{"key", "rotated"}, {"claims", claims}}));
    HttpReply r = client.request("tools/list");
    QVERIFY2(r.status == 200, r.body.c_str());
    QTRY_COMPARE(fetches(), 1);
    // Unknown key ids right after: refused, without fetching again (at most one refresh in
    // kKeyRefreshS, so forged key ids cannot make the server hammer the provider).
    for (const char *kid : {"forged-1", "forged-2", "forged-3"}) {
        client.setToken(m_provider.mint({{"key", "other"}, {"kid", kid}, {"claims", claims}}));
        r = client.request("tools/list");
        QCOMPARE(r.status, 401L);
        QVERIFY2(www(r).find("invalid_token") != std::string::npos, www(r).c_str());
    }
    QCOMPARE(fetches(), 1);
}

void tst_ServerOAuth::badTokensRefused_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("because");
    const auto now = std::int64_t(std::time(nullptr));
    const auto spec = [&](json s) { return QString::fromStdString(s.dump()); };
    const json good = {{"sub", "mallory"}, {"scope", "cfd:run"}};
    const auto with = [&](json changes) {
        json c = good;
        c.update(changes);
        return c;
    };
    QTest::newRow("wrong audience (real token)") << "provider:http://127.0.0.1:1/mcp" << "not meant for this server";
    QTest::newRow("expired") << spec({{"key", "rs"}, {"claims", with({{"exp", now - 3600}, {"iat", now - 4000}})}})
                             << "expired";
    QTest::newRow("not yet valid") << spec({{"key", "rs"}, {"claims", with({{"nbf", now + 3600}})}}) << "not valid yet";
    QTest::newRow("another key, published kid") << spec({{"key", "other"}, {"claims", good}}) << "signature";
    QTest::newRow("another key, unknown kid")
        << spec({{"key", "other"}, {"kid", "rotated-away"}, {"claims", good}}) << "signature";
    QTest::newRow("alg none") << spec({{"key", "none"}, {"claims", good}}) << "alg 'none'";
    QTest::newRow("HS256") << spec({{"key", "hs"}, {"claims", good}}) << "alg 'HS256'";
    QTest::newRow("wrong issuer") << spec({{"key", "rs"}, {"claims", with({{"iss", "https://id.example.org"}})}})
                                  << "not issued by";
    QTest::newRow("no sub") << spec({{"key", "rs"}, {"claims", with({{"sub", nullptr}})}}) << "no sub";
    QTest::newRow("not an access token's typ")
        << spec({{"key", "rs"}, {"typ", "logout+jwt"}, {"claims", good}}) << "typ 'logout+jwt'";
    QTest::newRow("not a JWT") << "raw:opaque-token-0123456789" << "not a signed JWT";
}

void tst_ServerOAuth::badTokensRefused()
{
    QFETCH(QString, spec);
    QFETCH(QString, because);
    std::string token;
    if (spec.startsWith(QStringLiteral("provider:"))) {
        std::string why;
        token = m_provider.token("alice", spec.mid(9).toStdString(), "cfd:run", &why);
        QVERIFY2(!token.empty(), why.c_str());
    } else if (spec.startsWith(QStringLiteral("raw:"))) {
        token = spec.mid(4).toStdString();
    } else {
        json s = json::parse(spec.toStdString());
        if (!s["claims"].contains("aud"))
            s["claims"]["aud"] = m_url;
        token = m_provider.mint(s);
        QVERIFY(!token.empty());
    }
    McpTestClient client(m_server.url());
    client.setToken(token);
    const HttpReply r = client.request("tools/list");
    QCOMPARE(r.status, 401L);
    const std::string challenge = www(r);
    QVERIFY2(challenge.find("error=\"invalid_token\"") != std::string::npos, challenge.c_str());
    QVERIFY2(challenge.find("resource_metadata=\"") != std::string::npos, challenge.c_str());
    const std::string message = r.json["error"].value("message", "");
    QVERIFY2(message.find(because.toStdString()) != std::string::npos, message.c_str());
    QVERIFY(r.body.find(token) == std::string::npos);
    // A token is a secret: never in the server's log.
    QVERIFY(!m_server.standardError().contains(QByteArray::fromStdString(token)));
}

void tst_ServerOAuth::missingScope()
{
    std::string why;
    const std::string readOnly = m_provider.token("alice", m_url, "cfd:read", &why);
    QVERIFY2(!readOnly.empty(), why.c_str());
    McpTestClient client(m_server.url());
    client.setToken(readOnly);
    const HttpReply r = client.request("tools/list");
    QCOMPARE(r.status, 403L);
    const std::string challenge = www(r);
    QVERIFY2(challenge.find("error=\"insufficient_scope\"") != std::string::npos, challenge.c_str());
    QVERIFY2(challenge.find("scope=\"cfd:run\"") != std::string::npos, challenge.c_str());
    QVERIFY2(challenge.find("resource_metadata=\"") != std::string::npos, challenge.c_str());
    QVERIFY(r.json["error"].value("message", "").find("cfd:run") != std::string::npos);
}

void tst_ServerOAuth::acceptedTokenStillExpires()
{
    // The server remembers tokens it accepted (skipping the signature check next time), but not
    // past their exp: a token accepted a moment ago is refused once it has expired.
    Eddy::Test::TestServer server;
    QVERIFY2(server.start({"--oauth-issuer", QString::fromStdString(m_provider.issuer()),
                           "--oauth-leeway-s", "0", "--workers", "1"}),
             qPrintable(server.errorString()));
    const auto exp = std::int64_t(std::time(nullptr)) + 2;
    McpTestClient client(server.url());
    client.setToken(m_provider.mint({{"key", "rs"},
                                     {"claims", {{"sub", "gina"}, {"aud", server.url().toStdString()}, {"exp", exp}}}}));
    HttpReply r = client.request("tools/list");
    QVERIFY2(r.status == 200, r.body.c_str());
    QCOMPARE(client.request("tools/list").status, 200L); // remembered
    QTRY_VERIFY_WITH_TIMEOUT(std::int64_t(std::time(nullptr)) > exp, 30000);
    r = client.request("tools/list");
    QCOMPARE(r.status, 401L);
    QVERIFY2(r.json["error"].value("message", "").find("expired") != std::string::npos, r.body.c_str());
}

HttpReply tst_ServerOAuth::job(McpTestClient &client, const std::string &tool, const json &arguments)
{
    return client.request("tools/call", {{"name", tool}, {"arguments", arguments}});
}

void tst_ServerOAuth::otherUserSeesUnknownTask()
{
    McpTestClient alice(m_server.url());
    alice.setToken(m_alice);
    const std::string id = alice.createTask(endlessArgs());
    QVERIFY(!id.empty());
    // Whatever fails below, the endless case must not hold the one solver thread.
    const auto stop = qScopeGuard([&] { alice.request("tasks/cancel", {{"taskId", id}}); });
    const std::string unknown = unknownLike(id);

    McpTestClient bob(m_server.url());
    bob.setToken(m_bob);
    // Each of bob's requests about alice's task is answered as about an id nobody issued.
    const auto same = [&](const std::string &method, const json &params) {
        json mine = params, none = params;
        mine["taskId"] = id;
        none["taskId"] = unknown;
        const HttpReply a = bob.request(method, mine);
        const HttpReply b = bob.request(method, none);
        QVERIFY2(a.status != 200 || a.errorCode() != 0 || !a.result().contains("status"),
                 (method + " answered bob: " + a.body).c_str());
        QCOMPARE(masked(a.status, a.json, id), masked(b.status, b.json, unknown));
    };
    same("tasks/get", json::object());
    same("tasks/update", {{"inputResponses", {{"mesh", {{"action", "accept"}, {"content", {{"action", "repair"}}}}}}}});
    same("tasks/cancel", json::object());

    // The job tools with alice's task id as job_id.
    for (const auto &[tool, extra] : std::vector<std::pair<std::string, json>>{
             {"get_cfd_case_status", json::object()},
             {"answer_cfd_case", {{"action", "repair"}}},
             {"cancel_cfd_case", json::object()},
             {"get_cfd_result", json::object()}}) {
        json mine = extra, none = extra;
        mine["job_id"] = id;
        none["job_id"] = unknown;
        const HttpReply a = job(bob, tool, mine);
        const HttpReply b = job(bob, tool, none);
        QVERIFY2(a.errorCode() != 0 || (a.result().is_object() && a.result().value("isError", false)),
                 (tool + " answered bob: " + a.body).c_str());
        const std::string as = masked(a.status, a.json, id), bs = masked(b.status, b.json, unknown);
        QVERIFY2(as == bs, (tool + ": " + as + " vs " + bs).c_str());
    }
    // A batched status names it unknown too.
    const HttpReply batch = job(bob, "get_cfd_case_status", {{"job_ids", {id}}});
    QVERIFY2(batch.body.find("\"unknown\"") != std::string::npos, batch.body.c_str());

    // Bob's listen for it is acknowledged without it, as for an id nobody issued.
    for (const std::string &taskId : {id, unknown}) {
        const json p = {{"_meta", McpTestClient::meta()}, {"notifications", {{"taskIds", {taskId}}}}};
        Eddy::Test::SseReader listen;
        listen.start(bob.url(),
                     json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "subscriptions/listen"}, {"params", p}}.dump(),
                     bob.headersFor("subscriptions/listen", p));
        const json ack = listen.waitForEvent([](const json &e) {
            return e.value("method", "") == "notifications/subscriptions/acknowledged";
        });
        listen.stop();
        QVERIFY(!ack.is_null());
        QCOMPARE(ack["params"]["notifications"]["taskIds"], json::array());
    }

    // 2025-11-25: bob's tasks/list does not show it.
    const std::string session = bob.initialize();
    QVERIFY(!session.empty());
    const HttpReply list = bob.legacy(session, "tasks/list");
    QCOMPARE(list.status, 200L);
    QVERIFY2(list.body.find(id) == std::string::npos, "bob's tasks/list shows alice's task");

    // Nothing bob did touched it: alice, with a fresh token (the same principal), still sees it
    // running, and cancels it.
    std::string why;
    const std::string again = m_provider.token("alice", m_url, "cfd:run", &why);
    QVERIFY2(!again.empty(), why.c_str());
    QVERIFY(again != m_alice);
    McpTestClient alice2(m_server.url());
    alice2.setToken(again);
    const HttpReply mine = alice2.getTask(id);
    QCOMPARE(mine.status, 200L);
    QCOMPARE(mine.result().value("status", ""), std::string("working"));
    QCOMPARE(alice2.request("tasks/cancel", {{"taskId", id}}).status, 200L);
    QCOMPARE(alice2.waitForTask(id, McpTestClient::isTerminal).value("status", ""), std::string("cancelled"));
}

void tst_ServerOAuth::signedInPersonOwnsTask()
{
    // A person signs in through the provider's login and consent pages (authorization code with
    // PKCE): the token's sub is theirs, and their task is theirs alone.
    std::string why;
    const std::string erin = m_provider.signIn("erin", m_url, why);
    QVERIFY2(!erin.empty(), why.c_str());
    McpTestClient client(m_server.url());
    client.setToken(erin);
    const std::string id = client.createTask(quickArgs());
    QVERIFY(!id.empty());
    QCOMPARE(client.waitForTask(id, McpTestClient::isTerminal).value("status", ""), std::string("completed"));

    // Signing in again gives another token for the same person: it reaches the task.
    const std::string again = m_provider.signIn("erin", m_url, why);
    QVERIFY2(!again.empty(), why.c_str());
    QVERIFY(again != erin);
    McpTestClient later(m_server.url());
    later.setToken(again);
    QCOMPARE(later.getTask(id).result().value("status", ""), std::string("completed"));

    // Another person signed in the same way, and bob's client, meet an unknown task.
    const std::string frank = m_provider.signIn("frank", m_url, why);
    QVERIFY2(!frank.empty(), why.c_str());
    for (const std::string &token : {frank, m_bob}) {
        McpTestClient other(m_server.url());
        other.setToken(token);
        const HttpReply mine = other.getTask(id);
        const HttpReply none = other.getTask(unknownLike(id));
        QCOMPARE(mine.errorCode(), -32602);
        QCOMPARE(masked(mine.status, mine.json, id), masked(none.status, none.json, unknownLike(id)));
    }
}

void tst_ServerOAuth::eddyctlWithToken()
{
    const QString eddyctl = qEnvironmentVariable("EDDYCTL_BIN");
    QVERIFY2(!eddyctl.isEmpty(), "EDDYCTL_BIN is not set (ctest sets it when eddyctl is built)");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const auto run = [&](const QString &db, const QStringList &args, QByteArray &out) {
        QProcess p;
        p.start(eddyctl, QStringList{QStringLiteral("--db"), dir.filePath(db)} + args);
        if (!p.waitForFinished(180000)) {
            p.kill();
            p.waitForFinished();
            return -1;
        }
        out = p.readAllStandardOutput() + p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    };
    const QString url = m_server.url();
    const QString args = QString::fromStdString(quickArgs().dump());
    QByteArray out;
    // Without a token: eddyctl goes to sign in, and as this provider lets no client register
    // itself and none was given, it stops saying what to do.
    QVERIFY(run(QStringLiteral("none.sqlite"), {QStringLiteral("tools"), url}, out) != 0);
    QVERIFY2(out.contains("--oauth-client-id"), out.constData());
    // Alice's token: a case runs to its result.
    QCOMPARE(run(QStringLiteral("alice.sqlite"),
                 {QStringLiteral("--token"), QString::fromStdString(m_alice), QStringLiteral("call"),
                  url, QStringLiteral("run_cfd_case"), args, QStringLiteral("--wait")},
                 out),
             0);
    QVERIFY(!out.contains(QByteArray::fromStdString(m_alice)));
    // A token for another audience: refused.
    std::string why;
    const std::string elsewhere = m_provider.token("alice", "http://127.0.0.1:1/mcp", "cfd:run", &why);
    QVERIFY2(!elsewhere.empty(), why.c_str());
    QVERIFY(run(QStringLiteral("elsewhere.sqlite"),
                {QStringLiteral("--token"), QString::fromStdString(elsewhere), QStringLiteral("tools"), url},
                out)
            != 0);
    QVERIFY(!out.contains(QByteArray::fromStdString(elsewhere)));
}

void tst_ServerOAuth::unreachableIssuerStopsStart()
{
    // Port 1 on loopback: nothing answers. The server says so and does not start.
    Eddy::Test::TestServer server;
    QVERIFY(!server.start({"--oauth-issuer", "http://127.0.0.1:1", "--workers", "1"}));
    const QByteArray log = server.standardError();
    QVERIFY2(log.contains("cannot read the metadata of the authorization server http://127.0.0.1:1"),
             log.constData());
    QVERIFY2(log.contains("--oauth-issuer"), log.constData());
}

void tst_ServerOAuth::cleanupTestCase()
{
    QVERIFY(m_server.terminate());
}

QTEST_GUILESS_MAIN(tst_ServerOAuth)
#include "tst_serveroauth.moc"
