#pragma once

#include <QString>

// The signed-JWT parts of MCP authorization's unattended sign-ins (docs/eddyctl.md, "Signing in
// unattended"): the private_key_jwt client assertion (RFC 7523 §2.2), the JWT bearer grant of a
// workload identity token (SEP-1933) and of an ID-JAG (SEP-990, after the RFC 8693 token
// exchange at the enterprise identity provider, OAuth::jwtBearerGrant). None of it logs a key, an
// assertion or a token.

namespace Eddy::Mcp::Grants {

inline constexpr char kJwtBearerGrant[] = "urn:ietf:params:oauth:grant-type:jwt-bearer";
inline constexpr char kClientAssertionType[] = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
inline constexpr char kTokenExchangeGrant[] = "urn:ietf:params:oauth:grant-type:token-exchange";
inline constexpr char kIdTokenType[] = "urn:ietf:params:oauth:token-type:id_token";
inline constexpr char kIdJagType[] = "urn:ietf:params:oauth:token-type:id-jag";

// How long a client assertion is valid: the token request follows at once.
inline constexpr int kAssertionLifetimeS = 300;

// A client assertion for private_key_jwt: a JWT signed with the private key in keyFile (PEM or
// JWK: EC P-256/P-384/P-521, RSA or Ed25519; a JWK's "alg" is used when it has one), with
// iss = sub = clientId, aud = audience (the authorization server's issuer), a random jti, iat =
// now (seconds since the epoch; 0: the clock) and exp 5 minutes later. Empty, with *error naming
// the file and what to do, when the key cannot be read or signed with.
QString clientAssertion(const QString &keyFile, const QString &clientId, const QString &audience,
                        QString *error, qint64 now = 0);

// The token kept in file (a workload identity token, an ID token), without surrounding white
// space. Empty, with *error naming the file and the option that gave it, when it cannot be read.
QString readTokenFile(const QString &file, const QString &option, QString *error);

} // namespace Eddy::Mcp::Grants
