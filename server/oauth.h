#pragma once

// eddy-cfd-server as an OAuth 2.1 resource server (--oauth-issuer, MCP 2026-07-28
// authorization; docs/server-auth.md): its protected resource metadata (RFC 9728), and access
// tokens checked as JWTs (RFC 9068) against the issuer's JWKS: the signature (RS256, ES256,
// PS256 only), iss, aud, exp and nbf (with a small leeway), and the scopes the server needs.
// The issuer's metadata (RFC 8414 or OpenID discovery) and keys are fetched at start; the keys
// again when a token names a key id the set does not have (the issuer rotated its keys), at most
// once per kKeyRefreshS.

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace Eddy::Server {

class OAuthResourceServer final
{
public:
    struct Config
    {
        std::string issuer;               // exactly as the tokens' iss and the metadata's issuer
        std::string audience;             // this server's resource URL (the tokens' aud)
        std::vector<std::string> scopes;  // every request needs all of them
        std::int64_t leewayS = 60;        // clock skew allowed on exp and nbf
    };

    // What a request's Authorization header amounts to.
    struct Verdict
    {
        enum class Kind { Ok, Missing, Invalid, InsufficientScope, Unavailable };
        Kind kind = Kind::Missing;
        std::string principal;   // Ok: issuer + '\n' + sub
        std::string reason;      // why not, in words safe to show (never the token)
    };

    static constexpr int kKeyRefreshS = 30;

    OAuthResourceServer();
    ~OAuthResourceServer();
    OAuthResourceServer(const OAuthResourceServer &) = delete;
    OAuthResourceServer &operator=(const OAuthResourceServer &) = delete;

    // Checks the configuration, fetches the issuer's metadata and keys; false with an error
    // that says what to fix (the server then does not start).
    bool start(const Config &config, std::string &error);

    // The path (of this server) and the full URL of the protected resource metadata document:
    // the well-known prefix put in front of the resource URL's path (RFC 9728 3.1).
    std::string metadataPath() const { return m_metadataPath; }
    std::string metadataUrl() const { return m_metadataUrl; }
    // The metadata document itself.
    std::string metadataJson() const { return m_metadataJson; }

    // Checks an Authorization header value (empty: none sent).
    Verdict check(std::string_view authorization);
    // The WWW-Authenticate value for a refusal (RFC 6750 3, RFC 9728 5.1).
    std::string challenge(const Verdict &verdict) const;

    // Where a resource URL's metadata lives: https://h/mcp -> https://h/.well-known/
    // oauth-protected-resource/mcp. Empty when url is not an absolute http(s) URL.
    static std::string metadataUrlFor(const std::string &resourceUrl);
    // True for http://127.0.0.1, http://localhost and http://[::1] URLs (any port).
    static bool isLoopbackUrl(const std::string &url);

private:
    struct Keys;

    // Fetches the JWKS from m_jwksUri and replaces the key set; false with an error.
    bool loadKeys(std::string &error);
    // Fetches again unless the last refresh is less than kKeyRefreshS old; true when it did and
    // the new set was loaded, false with error empty when it was too soon.
    bool refreshKeys(std::string &error);

    Config m_config;
    std::string m_jwksUri;
    std::string m_metadataPath;
    std::string m_metadataUrl;
    std::string m_metadataJson;

    std::mutex m_keysMutex;                  // guards m_keys and every use of a key
    std::shared_ptr<Keys> m_keys;
    std::mutex m_refreshMutex;               // one fetch at a time
    // Tokens already found good: SHA-256 of the token -> principal and exp. A hit skips the
    // signature check (about 150 us a request); exp is still checked. At most kCachedTokens,
    // emptied when full.
    struct Accepted
    {
        std::string principal;
        double exp = 0;
    };
    static constexpr std::size_t kCachedTokens = 4096;
    std::mutex m_acceptedMutex;
    std::unordered_map<std::string, Accepted> m_accepted;

    bool m_refreshed = false;                // a refresh happened (the fetch at start is none)
    std::chrono::steady_clock::time_point m_lastRefresh{};
};

} // namespace Eddy::Server
