#include "server/oauth.h"

#include "server/base64.h"
#include "server/log.h"
#include "server/secrets.h"

#include <httplib.h>
#include <rhonabwy.h>

#include <algorithm>
#include <cctype>
#include <ctime>

using nlohmann::json;

namespace Eddy::Server {

namespace {

constexpr std::size_t kMaxDocument = 1024 * 1024;

struct Url
{
    std::string scheme;    // lower case
    std::string authority; // host[:port]
    std::string host;      // without brackets and port
    std::string path;      // "" or starting with '/'
};

bool parseUrl(const std::string &url, Url &out)
{
    const auto colon = url.find("://");
    if (colon == std::string::npos)
        return false;
    out.scheme = url.substr(0, colon);
    for (char &c : out.scheme)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    if (out.scheme != "http" && out.scheme != "https")
        return false;
    const auto rest = colon + 3;
    const auto slash = url.find_first_of("/?#", rest);
    out.authority = url.substr(rest, slash == std::string::npos ? std::string::npos : slash - rest);
    if (out.authority.empty() || out.authority.find('@') != std::string::npos)
        return false;
    out.path = slash == std::string::npos ? std::string() : url.substr(slash);
    if (out.path.find_first_of("?#") != std::string::npos)
        return false; // a resource or issuer URL has neither query nor fragment
    if (out.path == "/")
        out.path.clear();
    if (out.authority.front() == '[') {
        const auto close = out.authority.find(']');
        if (close == std::string::npos)
            return false;
        out.host = out.authority.substr(1, close - 1);
    } else {
        out.host = out.authority.substr(0, out.authority.find(':'));
    }
    return !out.host.empty();
}

// GET url, expecting 200 and a JSON object; false with an error naming the URL. Through
// cpp-httplib's client (Debian builds it with OpenSSL: https with the system's CA certificates).
bool fetchJson(const std::string &url, json &out, std::string &error)
{
    Url u;
    if (!parseUrl(url, u)) {
        error = "'" + url + "' is not an absolute http(s) URL";
        return false;
    }
    httplib::Client client(u.scheme + "://" + u.authority);
    client.set_connection_timeout(5);
    client.set_read_timeout(15);
    client.set_write_timeout(15);
    client.set_follow_location(false);
    std::string body;
    bool tooLarge = false;
    const httplib::Headers headers = {{"Accept", "application/json"}, {"User-Agent", "eddy-cfd-server"}};
    httplib::Result res = client.Get(u.path.empty() ? "/" : u.path, headers,
                                     [&](const char *data, std::size_t size) {
                                         if (body.size() + size > kMaxDocument) {
                                             tooLarge = true;
                                             return false;
                                         }
                                         body.append(data, size);
                                         return true;
                                     });
    if (tooLarge) {
        error = url + " answered more than 1 MiB";
        return false;
    }
    if (!res) {
        const httplib::Error e = res.error();
        error = "cannot fetch " + url + ": "
                + (e == httplib::Error::Connection ? std::string("cannot connect")
                   : e == httplib::Error::Read      ? std::string("no answer within 15 s")
                                                    : httplib::to_string(e));
        return false;
    }
    if (res->status != 200) {
        error = "fetching " + url + " answered HTTP " + std::to_string(res->status);
        return false;
    }
    out = json::parse(body, nullptr, false);
    if (!out.is_object()) {
        error = url + " did not answer a JSON object";
        return false;
    }
    return true;
}

// Text for an error_description: printable ASCII without quotes or backslashes (RFC 6750 3).
std::string quotable(const std::string &text)
{
    std::string out;
    for (char c : text)
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
            out.push_back(c);
    return out;
}

bool contains(const std::vector<std::string> &list, const std::string &value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

std::vector<std::string> splitSpaces(const std::string &text)
{
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < text.size()) {
        const auto start = text.find_first_not_of(' ', i);
        if (start == std::string::npos)
            break;
        const auto end = text.find(' ', start);
        out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
        i = end == std::string::npos ? text.size() : end;
    }
    return out;
}

} // namespace

struct OAuthResourceServer::Keys
{
    struct Key
    {
        std::string kid, kty, crv, alg;
        jwk_t *jwk = nullptr;
    };
    std::vector<Key> keys;

    ~Keys()
    {
        for (Key &k : keys)
            r_jwk_free(k.jwk);
    }
};

OAuthResourceServer::OAuthResourceServer() = default;
OAuthResourceServer::~OAuthResourceServer() = default;

bool OAuthResourceServer::isLoopbackUrl(const std::string &url)
{
    Url u;
    return parseUrl(url, u) && u.scheme == "http"
           && (u.host == "127.0.0.1" || u.host == "localhost" || u.host == "::1");
}

std::string OAuthResourceServer::metadataUrlFor(const std::string &resourceUrl)
{
    Url u;
    if (!parseUrl(resourceUrl, u))
        return {};
    return u.scheme + "://" + u.authority + "/.well-known/oauth-protected-resource" + u.path;
}

bool OAuthResourceServer::start(const Config &config, std::string &error)
{
    m_config = config;
    Url issuer;
    if (!parseUrl(config.issuer, issuer)) {
        error = "--oauth-issuer '" + config.issuer
                + "' is not an absolute URL without query or fragment; give the issuer exactly "
                  "as the identity provider's metadata names it, e.g. https://id.example.org/realms/cfd";
        return false;
    }
    if (issuer.scheme != "https" && !isLoopbackUrl(config.issuer)) {
        error = "--oauth-issuer must be an https URL (plain http only on 127.0.0.1, localhost or "
                "[::1], for testing)";
        return false;
    }
    Url resource;
    if (!parseUrl(config.audience, resource)) {
        error = "--oauth-audience '" + config.audience
                + "' is not an absolute http(s) URL; give this server's MCP URL as clients reach "
                  "it, e.g. https://cfd.example.org/mcp";
        return false;
    }
    m_metadataPath = "/.well-known/oauth-protected-resource" + resource.path;
    m_metadataUrl = metadataUrlFor(config.audience);
    json metadata = {{"resource", config.audience},
                     {"authorization_servers", json::array({config.issuer})},
                     {"bearer_methods_supported", json::array({"header"})},
                     {"resource_name", "eddy-cfd-server"}};
    if (!config.scopes.empty())
        metadata["scopes_supported"] = config.scopes;
    m_metadataJson = metadata.dump();

    r_global_init();
    // Authorization server metadata (RFC 8414 3), then OpenID discovery: the well-known part
    // goes in front of the issuer's path, and for OpenID also after it.
    const std::string origin = issuer.scheme + "://" + issuer.authority;
    std::vector<std::string> candidates = {
        origin + "/.well-known/oauth-authorization-server" + issuer.path,
        origin + "/.well-known/openid-configuration" + issuer.path};
    if (!issuer.path.empty())
        candidates.push_back(origin + issuer.path + "/.well-known/openid-configuration");
    json asMetadata;
    std::string tried;
    bool found = false;
    for (const std::string &url : candidates) {
        std::string why;
        if (fetchJson(url, asMetadata, why)) {
            found = true;
            break;
        }
        tried += (tried.empty() ? "" : "; ") + why;
    }
    if (!found) {
        error = "cannot read the metadata of the authorization server " + config.issuer + " ("
                + tried + "); check --oauth-issuer and that the identity provider is running "
                          "and reachable from this host";
        return false;
    }
    if (asMetadata.value("issuer", std::string()) != config.issuer) {
        error = "the authorization server's metadata names the issuer '"
                + asMetadata.value("issuer", std::string())
                + "', not --oauth-issuer '" + config.issuer
                + "' (RFC 8414 3.3); give --oauth-issuer exactly as the provider names itself";
        return false;
    }
    m_jwksUri = asMetadata.value("jwks_uri", std::string());
    Url jwks;
    if (!parseUrl(m_jwksUri, jwks) || (jwks.scheme != "https" && !isLoopbackUrl(m_jwksUri))) {
        error = "the authorization server's metadata has no usable jwks_uri (an https URL); "
                "eddy-cfd-server checks access tokens as JWTs against those keys";
        return false;
    }
    if (!loadKeys(error))
        return false;
    Log::info("OAuth resource server " + config.audience + ": tokens from " + config.issuer
              + ", " + std::to_string(m_keys->keys.size()) + " signing keys, metadata at "
              + m_metadataUrl);
    return true;
}

bool OAuthResourceServer::loadKeys(std::string &error)
{
    json set;
    if (!fetchJson(m_jwksUri, set, error)) {
        error = "cannot read the authorization server's signing keys: " + error;
        return false;
    }
    auto keys = std::make_shared<Keys>();
    if (set.contains("keys") && set["keys"].is_array()) {
        for (const json &k : set["keys"]) {
            if (!k.is_object() || k.value("use", "sig") != "sig")
                continue;
            const std::string kty = k.value("kty", "");
            if (kty != "RSA" && kty != "EC")
                continue; // keys of other types cannot sign a token this server accepts
            jwk_t *jwk = nullptr;
            if (r_jwk_init(&jwk) != RHN_OK)
                continue;
            if (r_jwk_import_from_json_str(jwk, k.dump().c_str()) != RHN_OK) {
                r_jwk_free(jwk);
                continue;
            }
            keys->keys.push_back({k.value("kid", ""), kty, k.value("crv", ""), k.value("alg", ""), jwk});
        }
    }
    if (keys->keys.empty()) {
        error = "the authorization server publishes no RSA or EC signing key at " + m_jwksUri;
        return false;
    }
    const std::lock_guard lock(m_keysMutex);
    m_keys = std::move(keys);
    return true;
}

bool OAuthResourceServer::refreshKeys(std::string &error)
{
    const std::lock_guard lock(m_refreshMutex);
    const auto now = std::chrono::steady_clock::now();
    if (m_refreshed && now - m_lastRefresh < std::chrono::seconds(kKeyRefreshS))
        return false;
    m_refreshed = true;
    m_lastRefresh = now;
    if (!loadKeys(error)) {
        Log::warn("OAuth: " + error);
        return false;
    }
    Log::info("OAuth: signing keys fetched again for a token naming an unknown key");
    return true;
}

OAuthResourceServer::Verdict OAuthResourceServer::check(std::string_view authorization)
{
    using Kind = Verdict::Kind;
    const auto refuse = [](Kind kind, std::string reason) {
        Verdict v;
        v.kind = kind;
        v.reason = std::move(reason);
        return v;
    };
    while (!authorization.empty() && (authorization.back() == ' ' || authorization.back() == '\t'))
        authorization.remove_suffix(1);
    if (authorization.empty())
        return refuse(Kind::Missing, "this server needs an OAuth access token: send "
                                     "'Authorization: Bearer <token>' from the authorization "
                                     "server its metadata names");
    if (authorization.size() < 7 || strncasecmp(authorization.data(), "Bearer ", 7) != 0)
        return refuse(Kind::Invalid, "the Authorization header is not a Bearer token");
    std::string_view token = authorization.substr(7);
    while (!token.empty() && token.front() == ' ')
        token.remove_prefix(1);
    const auto dot1 = token.find('.');
    const auto dot2 = dot1 == std::string_view::npos ? dot1 : token.find('.', dot1 + 1);
    if (dot2 == std::string_view::npos || token.find('.', dot2 + 1) != std::string_view::npos)
        return refuse(Kind::Invalid, "the access token is not a signed JWT (three base64url parts)");
    std::string headerText, payloadText;
    if (!decodeBase64Url(token.substr(0, dot1), headerText)
        || !decodeBase64Url(token.substr(dot1 + 1, dot2 - dot1 - 1), payloadText))
        return refuse(Kind::Invalid, "the access token is not valid base64url");
    const json header = json::parse(headerText, nullptr, false);
    const json claims = json::parse(payloadText, nullptr, false);
    if (!header.is_object() || !claims.is_object())
        return refuse(Kind::Invalid, "the access token's header or claims are not JSON objects");
    const std::string alg = header.contains("alg") && header["alg"].is_string()
                                ? header["alg"].get<std::string>()
                                : std::string();
    if (alg != "RS256" && alg != "ES256" && alg != "PS256")
        return refuse(Kind::Invalid, "the access token's alg '" + quotable(alg).substr(0, 16)
                                         + "' is not accepted (RS256, ES256 or PS256 only)");
    // RFC 9068 access tokens say typ at+jwt; many providers still say JWT or nothing. Any other
    // type (an ID token's logout or DPoP proof, say) is not an access token.
    if (header.contains("typ")) {
        const std::string typ = header["typ"].is_string() ? header["typ"].get<std::string>() : "?";
        std::string lower;
        for (char c : typ)
            lower.push_back(char(std::tolower(static_cast<unsigned char>(c))));
        if (lower != "at+jwt" && lower != "application/at+jwt" && lower != "jwt")
            return refuse(Kind::Invalid, "the token's typ '" + quotable(typ).substr(0, 32)
                                             + "' is not an access token's (at+jwt)");
    }
    if (dot2 + 1 >= token.size())
        return refuse(Kind::Invalid, "the access token has no signature");
    const std::string kid = header.contains("kid") && header["kid"].is_string()
                                ? header["kid"].get<std::string>()
                                : std::string();
    const std::string family = alg == "ES256" ? "EC" : "RSA";
    const auto fits = [&](const Keys::Key &k) {
        return k.kty == family && (family != "EC" || k.crv == "P-256")
               && (k.alg.empty() || k.alg == alg) && (kid.empty() || k.kid == kid);
    };

    const std::string compact(token);
    const std::string fingerprint = Secrets::sha256Hex(compact);
    const std::int64_t now = std::int64_t(std::time(nullptr));
    {
        const std::lock_guard lock(m_acceptedMutex);
        if (const auto it = m_accepted.find(fingerprint); it != m_accepted.end()) {
            if (double(now) <= it->second.exp + double(m_config.leewayS)) {
                Verdict ok;
                ok.kind = Kind::Ok;
                ok.principal = it->second.principal;
                return ok;
            }
            m_accepted.erase(it); // expired: the full check below says so
        }
    }
    bool verified = false;
    for (int attempt = 0; attempt < 2 && !verified; ++attempt) {
        bool anyKey = false;
        {
            const std::lock_guard lock(m_keysMutex);
            jws_t *jws = nullptr;
            if (r_jws_init(&jws) == RHN_OK && r_jws_advanced_compact_parse(jws, compact.c_str(), R_PARSE_NONE, R_FLAG_IGNORE_REMOTE) == RHN_OK) {
                for (const Keys::Key &k : m_keys->keys) {
                    if (!fits(k))
                        continue;
                    anyKey = true;
                    if (r_jws_verify_signature(jws, k.jwk, R_FLAG_IGNORE_REMOTE) == RHN_OK) {
                        verified = true;
                        break;
                    }
                }
            }
            r_jws_free(jws);
        }
        if (verified || anyKey)
            break;
        // A key id the set does not have: the issuer may have rotated its keys.
        std::string error;
        if (attempt == 0 && !kid.empty() && !refreshKeys(error) && !error.empty())
            return refuse(Kind::Unavailable,
                          "the authorization server's signing keys cannot be fetched now; "
                          "retry later");
        if (kid.empty())
            break;
    }
    if (!verified)
        return refuse(Kind::Invalid, "the access token's signature does not verify with the "
                                     "authorization server's published keys");

    if (!claims.contains("iss") || !claims["iss"].is_string()
        || claims["iss"].get<std::string>() != m_config.issuer)
        return refuse(Kind::Invalid, "the access token was not issued by " + quotable(m_config.issuer));
    bool audienceMatches = false;
    if (claims.contains("aud")) {
        const json &aud = claims["aud"];
        if (aud.is_string())
            audienceMatches = aud.get<std::string>() == m_config.audience;
        else if (aud.is_array())
            audienceMatches = std::any_of(aud.begin(), aud.end(), [&](const json &a) {
                return a.is_string() && a.get<std::string>() == m_config.audience;
            });
    }
    if (!audienceMatches)
        return refuse(Kind::Invalid, "the access token is not meant for this server (its aud is "
                                     "not " + quotable(m_config.audience)
                                         + "); request it with resource=" + quotable(m_config.audience));
    if (!claims.contains("exp") || !claims["exp"].is_number())
        return refuse(Kind::Invalid, "the access token has no exp (expiry) claim");
    if (now > claims["exp"].get<double>() + double(m_config.leewayS))
        return refuse(Kind::Invalid, "the access token has expired");
    if (claims.contains("nbf")
        && (!claims["nbf"].is_number() || now + m_config.leewayS < claims["nbf"].get<double>()))
        return refuse(Kind::Invalid, "the access token is not valid yet (nbf)");
    const std::string sub = claims.contains("sub") && claims["sub"].is_string()
                                ? claims["sub"].get<std::string>()
                                : std::string();
    if (sub.empty())
        return refuse(Kind::Invalid, "the access token has no sub (subject) claim");

    std::vector<std::string> granted;
    if (claims.contains("scope") && claims["scope"].is_string())
        granted = splitSpaces(claims["scope"].get<std::string>());
    if (claims.contains("scp")) {
        const json &scp = claims["scp"];
        if (scp.is_string())
            for (const std::string &s : splitSpaces(scp.get<std::string>()))
                granted.push_back(s);
        else if (scp.is_array())
            for (const json &s : scp)
                if (s.is_string())
                    granted.push_back(s.get<std::string>());
    }
    for (const std::string &needed : m_config.scopes)
        if (!contains(granted, needed))
            return refuse(Kind::InsufficientScope,
                          "the access token lacks the scope '" + quotable(needed)
                              + "'; request a token with scope=\"" + quotable([&] {
                                    std::string all;
                                    for (const std::string &s : m_config.scopes)
                                        all += (all.empty() ? "" : " ") + s;
                                    return all;
                                }()) + "\"");
    Verdict ok;
    ok.kind = Kind::Ok;
    ok.principal = m_config.issuer + "\n" + sub;
    const std::lock_guard lock(m_acceptedMutex);
    if (m_accepted.size() >= kCachedTokens)
        m_accepted.clear();
    m_accepted[fingerprint] = {ok.principal, claims["exp"].get<double>()};
    return ok;
}

std::string OAuthResourceServer::challenge(const Verdict &verdict) const
{
    std::string value = "Bearer resource_metadata=\"" + m_metadataUrl + "\"";
    if (!m_config.scopes.empty()) {
        std::string all;
        for (const std::string &s : m_config.scopes)
            all += (all.empty() ? "" : " ") + s;
        value += ", scope=\"" + all + "\"";
    }
    if (verdict.kind == Verdict::Kind::Invalid)
        value += ", error=\"invalid_token\", error_description=\"" + quotable(verdict.reason) + "\"";
    else if (verdict.kind == Verdict::Kind::InsufficientScope)
        value += ", error=\"insufficient_scope\", error_description=\"" + quotable(verdict.reason)
                 + "\"";
    return value;
}

} // namespace Eddy::Server
