#include "app/mcp/oauth.h"

#include "app/mcp/client.h"
#include "app/net/httpclient.h"
#include "app/net/httpreply.h"
#include "app/net/loopbacklistener.h"
#include "app/secret.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QUrlQuery>

namespace Eddy::Mcp {

namespace {

constexpr int kMetadataTimeoutMs = 15000;

QByteArray randomUrlSafe(int bytes)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(raw.data()), bytes / 4);
    return raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

QString origin(const QUrl &url)
{
    return url.adjusted(QUrl::RemovePath | QUrl::RemoveQuery | QUrl::RemoveFragment
                        | QUrl::RemoveUserInfo).toString(QUrl::StripTrailingSlash);
}

QString pathWithoutSlash(const QUrl &url)
{
    QString path = url.path();
    while (path.endsWith(QLatin1Char('/')))
        path.chop(1);
    return path;
}

QStringList words(const QString &text)
{
    return text.split(QLatin1Char(' '), Qt::SkipEmptyParts);
}

QStringList strings(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &v : value.toArray())
        if (v.isString())
            out << v.toString();
    return out;
}

} // namespace

QByteArray OAuth::formEncode(const QList<std::pair<QString, QString>> &form)
{
    QByteArray out;
    for (const auto &[name, value] : form) {
        if (!out.isEmpty())
            out += '&';
        out += QUrl::toPercentEncoding(name) + '=' + QUrl::toPercentEncoding(value);
    }
    return out;
}

// ---- WWW-Authenticate ------------------------------------------------------------------------

BearerChallenge BearerChallenge::parse(QByteArrayView header)
{
    BearerChallenge c;
    const QString text = QString::fromUtf8(header);
    qsizetype i = text.indexOf(QLatin1String("Bearer"), 0, Qt::CaseInsensitive);
    qsizetype scheme = 6;
    if (i < 0) { // a DPoP-protected resource (RFC 9449 §7.1) challenges with the same parameters
        i = text.indexOf(QLatin1String("DPoP"), 0, Qt::CaseInsensitive);
        scheme = 4;
    }
    if (i < 0)
        return c;
    i += scheme;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == QLatin1Char(' ') || text[i] == QLatin1Char(',')))
            ++i;
        const qsizetype eq = text.indexOf(QLatin1Char('='), i);
        if (eq < 0)
            break;
        const QString name = text.mid(i, eq - i).trimmed().toLower();
        if (name.contains(QLatin1Char(' ')))
            break; // the next scheme's parameters
        i = eq + 1;
        QString value;
        if (i < text.size() && text[i] == QLatin1Char('"')) {
            ++i;
            while (i < text.size() && text[i] != QLatin1Char('"')) {
                if (text[i] == QLatin1Char('\\') && i + 1 < text.size())
                    ++i;
                value += text[i++];
            }
            ++i;
        } else {
            const qsizetype end = text.indexOf(QLatin1Char(','), i);
            value = text.mid(i, end < 0 ? -1 : end - i).trimmed();
            i = end < 0 ? text.size() : end;
        }
        if (name == QLatin1String("resource_metadata"))
            c.resourceMetadata = QUrl(value);
        else if (name == QLatin1String("scope"))
            c.scope = value;
        else if (name == QLatin1String("error"))
            c.error = value;
        else if (name == QLatin1String("error_description"))
            c.errorDescription = value;
    }
    return c;
}

// ---- the flow --------------------------------------------------------------------------------

// One sign-in in progress: what discovery found so far.
struct OAuth::Flow
{
    int httpStatus = 0;
    BearerChallenge challenge;
    QUrl resource;              // the resource indicator (RFC 8707)
    QStringList resourceScopes; // the protected resource metadata's scopes_supported
    bool legacy = false;        // no protected resource metadata: the 2025-03-26 fallbacks
    QString issuer;
    QJsonObject metadata;       // the authorization server's
    QString clientId;
    QString clientSecret;
    QString authMethod;
    QString scope;
    QByteArray verifier;
    QByteArray state;
    std::unique_ptr<DpopKey> dpopKey; // the new token's, when the server offers DPoP
    bool dpopNonceRetried = false;
    QUrl redirectUri;
    std::unique_ptr<Net::LoopbackListener> listener;
    QTimer timeout;
};

OAuth::OAuth(Net::HttpClient *http, QUrl serverUrl, bool verifyTls,
             std::shared_ptr<const OAuthSettings> settings, QObject *parent)
    : QObject(parent), m_http(http), m_serverUrl(std::move(serverUrl)), m_verifyTls(verifyTls),
      m_settings(std::move(settings)), m_store(m_settings->tokenFile)
{
    if (const auto kept = m_store.findForServer(m_serverUrl.toString())) {
        m_grantedScope = kept->scope; // a step-up asks for these and the new ones (SEP-2350)
        m_accessToken = kept->accessToken.toUtf8();
        m_dpop.restore(kept->tokenType, kept->dpopKey);
    }
}

OAuth::~OAuth() = default;

QByteArray OAuth::storedAccessToken() const
{
    const auto e = m_store.findForServer(m_serverUrl.toString());
    return e ? e->accessToken.toUtf8() : QByteArray();
}

QByteArray OAuth::codeChallenge(const QByteArray &verifier)
{
    return QCryptographicHash::hash(verifier, QCryptographicHash::Sha256)
        .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

bool OAuth::resourceCovers(const QUrl &resource, const QUrl &server)
{
    if (!resource.isValid() || origin(resource) != origin(server))
        return false;
    const QString r = pathWithoutSlash(resource);
    const QString s = pathWithoutSlash(server);
    return r.isEmpty() || s == r || s.startsWith(r + QLatin1Char('/'));
}

void OAuth::fetch(Net::HttpRequest request, Reply then)
{
    request.verifyTls = m_verifyTls;
    request.timeoutMs = kMetadataTimeoutMs;
    request.maxResponseBytes = 1024 * 1024;
    Net::HttpReply *reply = m_http->post(request);
    connect(reply, &Net::HttpReply::finished, this, [this, reply, then = std::move(then)] {
        if (const QByteArray nonce = reply->header("DPoP-Nonce"); !nonce.isEmpty())
            m_dpop.asNonce = nonce; // RFC 9449 §8: the next proof to this server carries it
        const QByteArray body = reply->readAll();
        const int status = reply->statusCode();
        const Net::Error e = reply->error();
        reply->deleteLater();
        then(status, body, e.isOk() ? QString() : e.message());
    });
}

void OAuth::getJson(std::vector<QUrl> candidates, std::function<void(const QJsonObject &, const QUrl &)> then,
                    std::function<void()> none)
{
    if (candidates.empty()) {
        none();
        return;
    }
    const QUrl url = candidates.front();
    candidates.erase(candidates.begin());
    Net::HttpRequest request;
    request.url = url;
    request.method = Net::HttpRequest::Method::Get;
    request.headers = {{QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json")}};
    qCInfo(lcMcp) << "authorization: looking for metadata at" << url.toString();
    fetch(request, [this, url, candidates = std::move(candidates), then = std::move(then),
                    none = std::move(none)](int status, const QByteArray &body, const QString &) mutable {
        const QJsonDocument doc = status == 200 ? QJsonDocument::fromJson(body) : QJsonDocument();
        if (doc.isObject()) {
            then(doc.object(), url);
            return;
        }
        getJson(std::move(candidates), std::move(then), std::move(none));
    });
}

void OAuth::authorize(int httpStatus, const QByteArray &wwwAuthenticate, Done done,
                      const QByteArray &dpopNonce, const QByteArray &sentNonce)
{
    if (httpStatus == 401 && m_dpop.bound && wwwAuthenticate.contains("use_dpop_nonce")) {
        const bool retry = m_dpop.adoptResourceNonce(dpopNonce, sentNonce); // RFC 9449 §9
        const QString error = retry ? QString()
            : dpopNonce.isEmpty()
                ? tr("%1 asks for a DPoP nonce (use_dpop_nonce) but sends none (no DPoP-Nonce "
                     "header); tell the server's administrator.").arg(m_serverUrl.toString())
                : tr("%1 refused Eddy's DPoP proof again although it carried the nonce the server "
                     "asked for (use_dpop_nonce); Eddy stops retrying. Run the command again; if it "
                     "repeats, tell the server's administrator.").arg(m_serverUrl.toString());
        QTimer::singleShot(0, this, [done = std::move(done), error] { done(error); });
        return;
    }
    m_waiting.push_back(std::move(done));
    if (m_flow)
        return;
    const BearerChallenge challenge = BearerChallenge::parse(wwwAuthenticate);
    if (httpStatus == 403 && challenge.error != QLatin1String("insufficient_scope")) {
        finish(tr("The server refuses access to %1 (HTTP 403) with the token Eddy holds; ask its "
                  "administrator for access.").arg(m_serverUrl.toString()));
        return;
    }
    if (m_authorizations >= m_settings->maxAuthorizations) {
        finish(tr("%1 still refuses access after %n sign-in(s)%2; Eddy stops asking. Ask the "
                  "server's administrator to grant your account the needed access.", nullptr,
                  m_authorizations)
                   .arg(m_serverUrl.toString(),
                        challenge.scope.isEmpty() ? QString()
                                                  : tr(" (it asks for the scope \"%1\")").arg(challenge.scope)));
        return;
    }
    ++m_authorizations;
    m_flow = std::make_unique<Flow>();
    m_flow->httpStatus = httpStatus;
    m_flow->challenge = challenge;
    discoverResource();
}

void OAuth::finish(const QString &error)
{
    if (m_flow && m_flow->listener)
        m_flow->listener->close();
    // finish() may run inside a signal of the flow's own timer or listener: delete it later.
    if (m_flow) {
        std::shared_ptr<Flow> gone(m_flow.release());
        gone->timeout.stop();
        QTimer::singleShot(0, this, [gone] {});
    }
    auto waiting = std::move(m_waiting);
    m_waiting.clear();
    for (auto &w : waiting)
        w(error);
}

// RFC 9728: the protected resource metadata, from the challenge or the well-known URLs.
void OAuth::discoverResource()
{
    std::vector<QUrl> candidates;
    if (m_flow->challenge.resourceMetadata.isValid())
        candidates.push_back(m_flow->challenge.resourceMetadata);
    const QString path = pathWithoutSlash(m_serverUrl);
    const QString base = origin(m_serverUrl) + QStringLiteral("/.well-known/oauth-protected-resource");
    if (!path.isEmpty())
        candidates.push_back(QUrl(base + path));
    candidates.push_back(QUrl(base));
    getJson(std::move(candidates),
            [this](const QJsonObject &prm, const QUrl &) {
                const QUrl resource(prm.value(QLatin1String("resource")).toString());
                if (!resourceCovers(resource, m_serverUrl)) {
                    finish(tr("The server's protected resource metadata names the resource \"%1\", "
                              "not %2; Eddy sends no token there. Check the server URL, or tell the "
                              "server's administrator.")
                               .arg(resource.toString(), m_serverUrl.toString()));
                    return;
                }
                const QStringList servers = strings(prm.value(QLatin1String("authorization_servers")));
                if (servers.isEmpty()) {
                    finish(tr("The server's protected resource metadata names no authorization "
                              "server; tell the server's administrator."));
                    return;
                }
                m_flow->resource = resource;
                m_flow->resourceScopes = strings(prm.value(QLatin1String("scopes_supported")));
                m_flow->issuer = servers.first();
                discoverIssuer();
            },
            [this] {
                // No protected resource metadata: the 2025-03-26 rule, the server's origin is
                // the authorization server.
                m_flow->legacy = true;
                m_flow->resource = m_serverUrl.adjusted(QUrl::RemoveFragment | QUrl::RemoveQuery);
                m_flow->issuer = origin(m_serverUrl);
                discoverIssuer();
            });
}

// RFC 8414 §3.1 and OpenID Connect Discovery, path-aware, in the order MCP gives.
void OAuth::discoverIssuer()
{
    const QUrl issuer(m_flow->issuer);
    const QString o = origin(issuer);
    const QString path = pathWithoutSlash(issuer);
    std::vector<QUrl> candidates;
    if (path.isEmpty()) {
        candidates = {QUrl(o + QStringLiteral("/.well-known/oauth-authorization-server")),
                      QUrl(o + QStringLiteral("/.well-known/openid-configuration"))};
    } else {
        candidates = {QUrl(o + QStringLiteral("/.well-known/oauth-authorization-server") + path),
                      QUrl(o + QStringLiteral("/.well-known/openid-configuration") + path),
                      QUrl(o + path + QStringLiteral("/.well-known/openid-configuration"))};
    }
    getJson(std::move(candidates),
            [this](const QJsonObject &metadata, const QUrl &at) {
                const QString said = metadata.value(QLatin1String("issuer")).toString();
                if (said != m_flow->issuer) {
                    finish(tr("The authorization server metadata at %1 names the issuer \"%2\", not "
                              "\"%3\"; Eddy does not use it (it may be an impostor). Tell the "
                              "server's administrator.")
                               .arg(at.toString(), said, m_flow->issuer));
                    return;
                }
                m_flow->metadata = metadata;
                chooseClient();
            },
            [this] {
                if (m_flow->legacy) {
                    // Neither resource nor authorization server metadata: a server that wants a
                    // static token, not a sign-in.
                    finish(tr("The server refused %1 (HTTP %2) and publishes no authorization "
                              "metadata, so Eddy cannot sign in there: check the access token in "
                              "this server's settings (eddyctl: --token).")
                               .arg(m_serverUrl.toString()).arg(m_flow->httpStatus));
                    return;
                }
                finish(tr("The authorization server %1 publishes no metadata (RFC 8414 or OpenID "
                          "discovery); Eddy cannot sign in there. Tell the server's administrator.")
                           .arg(m_flow->issuer));
                return;
            });
}

QString OAuth::chooseAuthMethod(const QString &registered) const
{
    const QJsonValue listed = m_flow->metadata.value(QLatin1String("token_endpoint_auth_methods_supported"));
    const QStringList supported = listed.isArray() ? strings(listed)
                                                   : QStringList{QStringLiteral("client_secret_basic")};
    if (m_flow->clientSecret.isEmpty())
        return QStringLiteral("none");
    if (!registered.isEmpty() && (supported.contains(registered) || !listed.isArray()))
        return registered;
    for (const char *m : {"client_secret_basic", "client_secret_post"})
        if (supported.contains(QLatin1String(m)))
            return QLatin1String(m);
    return QStringLiteral("none");
}

void OAuth::chooseClient()
{
    Flow &f = *m_flow;
    const QJsonObject &md = f.metadata;
    // Scope (MCP "Scope selection strategy"): the challenge's, with what was granted before
    // (SEP-2350), else the resource's scopes_supported, else none at all.
    QStringList scopes;
    if (!f.challenge.scope.isEmpty()) {
        scopes = words(m_grantedScope);
        for (const QString &s : words(f.challenge.scope))
            if (!scopes.contains(s))
                scopes << s;
    } else {
        scopes = f.resourceScopes;
    }
    const QStringList asScopes = strings(md.value(QLatin1String("scopes_supported")));
    if (!m_settings->unattended() && asScopes.contains(QLatin1String("offline_access"))
        && !scopes.contains(QLatin1String("offline_access")))
        scopes << QStringLiteral("offline_access"); // SEP-2207: a refresh token, where offered
    f.scope = scopes.join(QLatin1Char(' '));

    // A token kept from before for this issuer and resource: refresh it, unless the server asked
    // for more scope than it carries.
    const auto kept = m_store.find(f.issuer, f.resource.toString());
    if (kept && !kept->refreshToken.isEmpty() && f.challenge.error != QLatin1String("insufficient_scope")
        && !m_settings->unattended()) {
        refresh(*kept);
        return;
    }

    if (!m_settings->clientId.isEmpty() || !m_settings->workloadTokenFile.isEmpty()) {
        f.clientId = m_settings->clientId;
        f.clientSecret = m_settings->clientSecret;
        f.authMethod = chooseAuthMethod({});
        if (m_settings->unattended())
            clientCredentials();
        else
            startAuthorization();
        return;
    }
    if (m_settings->unattended()) {
        finish(tr("Unattended sign-in needs a client id registered at %1 and its secret or key: pass "
                  "--oauth-client-id and EDDY_OAUTH_CLIENT_SECRET or --oauth-private-key.").arg(f.issuer));
        return;
    }
    if (md.value(QLatin1String("client_id_metadata_document_supported")).toBool()
        && m_settings->clientMetadataUrl.isValid() && !m_settings->clientMetadataUrl.isEmpty()) {
        f.clientId = m_settings->clientMetadataUrl.toString();
        f.authMethod = QStringLiteral("none");
        startAuthorization();
        return;
    }
    if (!md.contains(QLatin1String("registration_endpoint"))) {
        finish(tr("The authorization server %1 accepts neither Eddy's client metadata document nor "
                  "registration; register Eddy there and pass its client id (--oauth-client-id).")
                   .arg(f.issuer));
        return;
    }
    startAuthorization(); // registers once the loopback redirect URI is known
}

void OAuth::refresh(const TokenStore::Entry &entry)
{
    Flow &f = *m_flow;
    f.clientId = entry.clientId;
    f.clientSecret = entry.clientSecret;
    f.authMethod = entry.authMethod.isEmpty() ? chooseAuthMethod({}) : entry.authMethod;
    if (!entry.dpopKey.isEmpty()) // a DPoP-bound refresh token needs the key it was issued to
        f.dpopKey = DpopKey::fromPrivateJwk(entry.dpopKey.toUtf8(), nullptr);
    qCInfo(lcMcp) << "authorization: refreshing the token for" << m_serverUrl.toString();
    QList<std::pair<QString, QString>> form{{QStringLiteral("grant_type"), QStringLiteral("refresh_token")},
                                            {QStringLiteral("refresh_token"), entry.refreshToken},
                                            {QStringLiteral("resource"), f.resource.toString()}};
    m_grantedScope = entry.scope;
    requestToken(std::move(form));
}

void OAuth::clientCredentials()
{
    Flow &f = *m_flow;
    QList<std::pair<QString, QString>> form{{QStringLiteral("grant_type"), QStringLiteral("client_credentials")},
                                            {QStringLiteral("resource"), f.resource.toString()}};
    if (!f.scope.isEmpty())
        form.append({QStringLiteral("scope"), f.scope});
    unattendedGrant(f.issuer, std::move(form));
}

void OAuth::startAuthorization()
{
    Flow &f = *m_flow;
    f.listener = std::make_unique<Net::LoopbackListener>();
    if (!f.listener->listen()) {
        finish(tr("Eddy cannot open a loopback port for the sign-in (%1).").arg(f.listener->errorString()));
        return;
    }
    f.redirectUri = f.listener->redirectUri();
    connect(f.listener.get(), &Net::LoopbackListener::callback, this, [this](const QUrlQuery &q) {
        const auto item = [&q](const char *name) {
            return q.queryItemValue(QLatin1String(name), QUrl::FullyDecoded);
        };
        onCallback(item("code"), item("state"), item("iss"), item("error"), item("error_description"));
    });

    auto open = [this] {
        Flow &f = *m_flow;
        f.verifier = randomUrlSafe(48);
        f.state = randomUrlSafe(24);
        QUrl url(f.metadata.value(QLatin1String("authorization_endpoint")).toString());
        QList<std::pair<QString, QString>> params{
            {QStringLiteral("response_type"), QStringLiteral("code")},
            {QStringLiteral("client_id"), f.clientId},
            {QStringLiteral("redirect_uri"), f.redirectUri.toString()},
            {QStringLiteral("code_challenge"), QString::fromLatin1(codeChallenge(f.verifier))},
            {QStringLiteral("code_challenge_method"), QStringLiteral("S256")},
            {QStringLiteral("state"), QString::fromLatin1(f.state)}};
        if (!f.scope.isEmpty())
            params.append({QStringLiteral("scope"), f.scope});
        params.append({QStringLiteral("resource"), f.resource.toString()});
        const QString existing = url.query(QUrl::FullyEncoded);
        url.setQuery((existing.isEmpty() ? QString() : existing + QLatin1Char('&'))
                         + QString::fromLatin1(formEncode(params)),
                     QUrl::StrictMode);
        f.timeout.setSingleShot(true);
        connect(&f.timeout, &QTimer::timeout, this, [this] {
            finish(tr("No sign-in arrived within %n minute(s); run the command again and finish "
                      "signing in in the browser.", nullptr, m_settings->signInTimeoutMs / 60000));
        });
        f.timeout.start(m_settings->signInTimeoutMs);
        if (m_settings->openAuthorizationUrl)
            m_settings->openAuthorizationUrl(url);
    };

    if (!f.clientId.isEmpty()) {
        open();
        return;
    }
    // Dynamic client registration (RFC 7591), the last resort: a native public client.
    const QStringList methods = strings(f.metadata.value(QLatin1String("token_endpoint_auth_methods_supported")));
    const QString method = methods.isEmpty() || methods.contains(QLatin1String("none"))
                               ? QStringLiteral("none")
                               : methods.first();
    const QJsonObject body{
        {QStringLiteral("client_name"), m_settings->clientName},
        {QStringLiteral("redirect_uris"), QJsonArray{f.redirectUri.toString()}},
        {QStringLiteral("grant_types"), QJsonArray{QStringLiteral("authorization_code"), QStringLiteral("refresh_token")}},
        {QStringLiteral("response_types"), QJsonArray{QStringLiteral("code")}},
        {QStringLiteral("token_endpoint_auth_method"), method},
        {QStringLiteral("application_type"), QStringLiteral("native")}};
    Net::HttpRequest request;
    request.url = QUrl(f.metadata.value(QLatin1String("registration_endpoint")).toString());
    request.headers = {{QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")},
                       {QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json")}};
    request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    qCInfo(lcMcp) << "authorization: registering Eddy at" << request.url.toString();
    fetch(request, [this, open](int status, const QByteArray &reply, const QString &transport) {
        if (!m_flow)
            return;
        const QJsonObject o = QJsonDocument::fromJson(reply).object();
        const QString id = o.value(QLatin1String("client_id")).toString();
        if (status < 200 || status >= 300 || id.isEmpty()) {
            finish(tr("The authorization server %1 refused to register Eddy (%2); register Eddy "
                      "there and pass its client id (--oauth-client-id).")
                       .arg(m_flow->issuer, transport.isEmpty() ? tr("HTTP %1").arg(status) : transport));
            return;
        }
        m_flow->clientId = id;
        m_flow->clientSecret = o.value(QLatin1String("client_secret")).toString();
        m_flow->authMethod = chooseAuthMethod(o.value(QLatin1String("token_endpoint_auth_method")).toString());
        open();
    });
}

void OAuth::onCallback(const QString &code, const QString &state, const QString &iss,
                       const QString &error, const QString &errorDescription)
{
    if (!m_flow)
        return;
    Flow &f = *m_flow;
    f.timeout.stop();
    if (state.toLatin1() != f.state) {
        finish(tr("The sign-in answer does not belong to the sign-in Eddy started (its state "
                  "differs); run the command again."));
        return;
    }
    // RFC 9207: a present iss must be the issuer, compared as strings; one the server promised
    // must be present.
    const bool promised = f.metadata.value(QLatin1String("authorization_response_iss_parameter_supported")).toBool();
    if (!iss.isNull() && iss != f.issuer) {
        finish(tr("The sign-in answer came from the issuer \"%1\", not \"%2\" (wrong issuer); Eddy "
                  "rejected it. Run the command again; if it repeats, tell the server's "
                  "administrator.").arg(iss, f.issuer));
        return;
    }
    if (iss.isNull() && promised) {
        finish(tr("The sign-in answer carries no issuer although %1 promises one (RFC 9207); Eddy "
                  "rejected it. Run the command again; if it repeats, tell the server's "
                  "administrator.").arg(f.issuer));
        return;
    }
    if (!error.isEmpty()) {
        if (error == QLatin1String("access_denied"))
            finish(tr("Signing in to %1 was refused (consent denied%2). Run the command again and "
                      "allow access, or ask the administrator for access.")
                       .arg(f.issuer, errorDescription.isEmpty() ? QString() : QStringLiteral(": ") + errorDescription));
        else if (error == QLatin1String("invalid_scope"))
            finish(tr("The authorization server %1 refused the scope \"%2\" (scope refused). Ask its "
                      "administrator to grant it to your account.").arg(f.issuer, f.scope));
        else
            finish(tr("The authorization server %1 ended the sign-in with \"%2\"%3. Run the command "
                      "again; if it repeats, tell the server's administrator.")
                       .arg(f.issuer, error, errorDescription.isEmpty() ? QString() : QStringLiteral(": ") + errorDescription));
        return;
    }
    if (code.isEmpty()) {
        finish(tr("The sign-in answer carries no authorization code; run the command again."));
        return;
    }
    requestToken({{QStringLiteral("grant_type"), QStringLiteral("authorization_code")},
                  {QStringLiteral("code"), code},
                  {QStringLiteral("redirect_uri"), f.redirectUri.toString()},
                  {QStringLiteral("code_verifier"), QString::fromLatin1(f.verifier)},
                  {QStringLiteral("resource"), f.resource.toString()}});
}

QString OAuth::tokenError(int status, const QByteArray &body) const
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    const QString error = o.value(QLatin1String("error")).toString();
    const QString description = o.value(QLatin1String("error_description")).toString();
    const QString said = description.isEmpty() ? QString() : QStringLiteral(": ") + description;
    if (const QString refused = grantRefused(m_flow->issuer, error, said); !refused.isEmpty())
        return refused;
    if (error == QLatin1String("invalid_scope"))
        return tr("The authorization server %1 refused the scope \"%2\" (scope refused%3). Ask its "
                  "administrator to grant it to your account.").arg(m_flow->issuer, m_flow->scope, said);
    if (error == QLatin1String("use_dpop_nonce") || error == QLatin1String("invalid_dpop_proof"))
        return tr("The authorization server %1 refused Eddy's DPoP proof (%2%3). Run the command "
                  "again; if it repeats, tell the server's administrator.").arg(m_flow->issuer, error, said);
    if (error == QLatin1String("invalid_client") || error == QLatin1String("unauthorized_client"))
        return tr("The authorization server %1 does not accept Eddy's client credentials (%2%3); "
                  "check --oauth-client-id and its secret.").arg(m_flow->issuer, error, said);
    return tr("The authorization server %1 gave no token (%2%3). Run the command again; if it "
              "repeats, tell the server's administrator.")
        .arg(m_flow->issuer, error.isEmpty() ? tr("HTTP %1").arg(status) : error, said);
}

void OAuth::requestToken(QList<std::pair<QString, QString>> form)
{
    Flow &f = *m_flow;
    const auto asked = form; // to ask again with the server's DPoP nonce
    Net::HttpRequest request;
    request.url = QUrl(f.metadata.value(QLatin1String("token_endpoint")).toString());
    request.headers = {{QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/x-www-form-urlencoded")},
                       {QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json")}};
    if (DpopKey::offeredBy(f.metadata)) { // RFC 9449 §5: a DPoP-bound token, one key per token
        QString error;
        if (!f.dpopKey && !(f.dpopKey = DpopKey::generate(&error))) {
            finish(error);
            return;
        }
        request.headers.append({QByteArrayLiteral("DPoP"), f.dpopKey->proof("POST", request.url, {}, m_dpop.asNonce)});
    }
    if (f.authMethod == QLatin1String("client_secret_basic")) {
        const QByteArray pair = QUrl::toPercentEncoding(f.clientId) + ':' + QUrl::toPercentEncoding(f.clientSecret);
        request.headers.append({QByteArrayLiteral("Authorization"), "Basic " + pair.toBase64()});
    } else {
        if (f.authMethod == QLatin1String("client_secret_post"))
            form.append({QStringLiteral("client_secret"), f.clientSecret});
        if (QString error; !addClientAuth(f.clientId, f.issuer, &form, &error))
            return finish(error);
    }
    request.body = formEncode(form);
    const bool wasRefresh = form.value(0).second == QLatin1String("refresh_token");
    fetch(request, [this, wasRefresh, asked](int status, const QByteArray &body, const QString &transport) {
        if (!m_flow)
            return;
        Flow &f = *m_flow;
        const QJsonObject o = QJsonDocument::fromJson(body).object();
        const QString token = o.value(QLatin1String("access_token")).toString();
        if (status == 400 && f.dpopKey && !f.dpopNonceRetried && !m_dpop.asNonce.isEmpty()
            && o.value(QLatin1String("error")).toString() == QLatin1String("use_dpop_nonce")) {
            f.dpopNonceRetried = true; // once: a second refusal ends in tokenError()
            requestToken(asked);
            return;
        }
        if (status != 200 || token.isEmpty()) {
            if (wasRefresh) {
                // The refresh token is spent or revoked: sign in afresh, once.
                qCInfo(lcMcp) << "authorization: the refresh was refused; signing in again";
                m_grantedScope.clear();
                f.clientId.clear();
                f.clientSecret.clear();
                TokenStore::Entry spent;
                spent.issuer = f.issuer;
                spent.resource = f.resource.toString();
                spent.server = m_serverUrl.toString();
                QString ignored;
                m_store.save(spent, &ignored);
                chooseClient();
                return;
            }
            finish(transport.isEmpty() ? tokenError(status, body)
                                       : tr("The authorization server %1 could not be reached for a "
                                            "token (%2); check the network and run the command again.")
                                             .arg(f.issuer, transport));
            return;
        }
        TokenStore::Entry e;
        e.issuer = f.issuer;
        e.resource = f.resource.toString();
        e.server = m_serverUrl.toString();
        e.accessToken = token;
        e.refreshToken = o.value(QLatin1String("refresh_token")).toString();
        e.scope = o.contains(QLatin1String("scope")) ? o.value(QLatin1String("scope")).toString() : f.scope;
        e.tokenEndpoint = f.metadata.value(QLatin1String("token_endpoint")).toString();
        e.clientId = f.clientId;
        e.clientSecret = f.clientSecret;
        e.authMethod = f.authMethod;
        e.tokenType = o.value(QLatin1String("token_type")).toString();
        m_dpop.bound = f.dpopKey && e.tokenType.compare(QLatin1String("DPoP"), Qt::CaseInsensitive) == 0;
        m_dpop.key = m_dpop.bound ? std::move(f.dpopKey) : nullptr;
        if (m_dpop.bound)
            e.dpopKey = QString::fromLatin1(m_dpop.key->privateJwk());
        const double expiresIn = o.value(QLatin1String("expires_in")).toDouble();
        if (expiresIn > 0)
            e.expiresAt = QDateTime::currentSecsSinceEpoch() + qint64(expiresIn);
        m_accessToken = token.toUtf8();
        m_grantedScope = e.scope;
        qCInfo(lcMcp).noquote() << "authorization: got a token" << redactSecret(token) << "for"
                                << m_serverUrl.toString() << "from" << f.issuer;
        QString error;
        if (!m_store.save(e, &error))
            qCWarning(lcMcp).noquote() << error << "The token is used for this run only.";
        finish({});
    });
}

} // namespace Eddy::Mcp
