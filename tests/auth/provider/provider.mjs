// A real OpenID provider (oidc-provider, OpenID certified) on 127.0.0.1 port 0 for the OAuth
// tests of eddy-cfd-server. Prints one line, "eddy-auth-provider listening on ISSUER", and serves
// until it is killed.
//
// Two static confidential clients, alice and bob (secrets alice-secret, bob-secret), get JWT
// access tokens (RFC 9068, RS256) from the token endpoint with the client_credentials grant and a
// resource indicator (RFC 8707): aud is the resource asked for, sub the client id, scope what was
// asked of "cfd:run cfd:read". A public client, eddy-desktop, signs people in with the
// authorization code grant and PKCE (redirect http://127.0.0.1:7/callback, never contacted):
// the provider's login form takes any name (the token's sub) and password, then its consent form.
// With EDDY_PROVIDER_REGISTRATION=1 clients may also register themselves (RFC 7591, as Eddy does
// when it has no client id; without it a client without an id gets no further than the
// metadata); a client allowed the refresh_token grant gets a refresh token with every code it
// redeems.
//
// POST /test/mint (JSON {claims, key, alg, kid}) signs claims the tests cannot get from a real
// token endpoint, such as an expired token: key "rs" (the published RSA key; alg RS256 or PS256),
// "ec" (the published P-256 key, ES256), "other" (an RSA key that is not published), "rotated"
// (a P-256 key published only after POST /test/rotate), "none" (an unsigned token, alg none) or
// "hs" (HS256 with a shared secret). Only on loopback, for tests.

import http from 'node:http';

const missing = (what) => {
    process.stderr.write(`eddy-auth-provider: ${what} is not installed in tests/auth/provider: `
        + 'run .ci/install-deps --tests (it runs npm ci there)\n');
    process.exit(3);
};
let Provider, jose;
try {
    ({ default: Provider } = await import('oidc-provider'));
} catch {
    missing('oidc-provider');
}
try {
    jose = await import('jose');
} catch {
    missing('jose');
}

const rs = await jose.generateKeyPair('RS256', { extractable: true });
const ec = await jose.generateKeyPair('ES256', { extractable: true });
const other = await jose.generateKeyPair('RS256', { extractable: true });
const rotated = await jose.generateKeyPair('ES256', { extractable: true });
const rsJwk = { ...(await jose.exportJWK(rs.privateKey)), kid: 'eddy-test-rsa', use: 'sig' };
const ecJwk = { ...(await jose.exportJWK(ec.privateKey)), kid: 'eddy-test-ec', use: 'sig' };

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const client = (id) => ({
    client_id: id,
    client_secret: `${id}-secret`,
    grant_types: ['client_credentials'],
    redirect_uris: [],
    response_types: [],
    token_endpoint_auth_method: 'client_secret_basic',
});

const provider = new Provider(issuer, {
    clients: [client('alice'), client('bob'), {
        // A desktop app signing people in: authorization code with PKCE, loopback redirect.
        client_id: 'eddy-desktop',
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: ['http://127.0.0.1:7/callback'],
    }],
    jwks: { keys: [rsJwk, ecJwk] },
    scopes: ['openid', 'cfd:run', 'cfd:read'],
    cookies: { keys: ['eddy-test-only-cookie-key'] },
    // Refresh tokens for clients that registered for them, without asking for offline_access.
    issueRefreshToken: async (ctx, client) => client.grantTypeAllowed('refresh_token'),
    features: {
        registration: { enabled: process.env.EDDY_PROVIDER_REGISTRATION === '1' },
        // The provider's own login and consent pages: any login name is a person (its sub), any
        // password; a test posts the two forms over HTTP.
        devInteractions: { enabled: true },
        clientCredentials: { enabled: true },
        resourceIndicators: {
            enabled: true,
            defaultResource: () => undefined,
            useGrantedResource: () => true,
            getResourceServerInfo: (ctx, resourceIndicator) => ({
                scope: 'cfd:run cfd:read',
                audience: resourceIndicator,
                accessTokenTTL: 600,
                accessTokenFormat: 'jwt',
                jwt: { sign: { alg: 'RS256' } },
            }),
        },
    },
});

const mint = async (spec) => {
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: issuer, iat: now, exp: now + 600, jti: `${now}-${Math.random()}`, ...spec.claims };
    for (const [k, v] of Object.entries(claims))
        if (v === null)
            delete claims[k];
    const encode = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    switch (spec.key) {
    case 'none':
        return `${encode({ alg: 'none', typ: spec.typ ?? 'at+jwt', kid: spec.kid ?? 'eddy-test-rsa' })}.${encode(claims)}.`;
    case 'hs':
        return new jose.SignJWT(claims)
            .setProtectedHeader({ alg: 'HS256', typ: spec.typ ?? 'at+jwt', kid: spec.kid ?? 'eddy-test-rsa' })
            .sign(new TextEncoder().encode('a-shared-secret-of-at-least-32-bytes!!'));
    case 'ec':
        return new jose.SignJWT(claims)
            .setProtectedHeader({ alg: 'ES256', typ: spec.typ ?? 'at+jwt', kid: spec.kid ?? 'eddy-test-ec' })
            .sign(ec.privateKey);
    case 'rotated':
        return new jose.SignJWT(claims)
            .setProtectedHeader({ alg: 'ES256', typ: spec.typ ?? 'at+jwt', kid: spec.kid ?? 'eddy-test-rotated' })
            .sign(rotated.privateKey);
    case 'other':
        return new jose.SignJWT(claims)
            .setProtectedHeader({ alg: 'RS256', typ: spec.typ ?? 'at+jwt', kid: spec.kid ?? 'eddy-test-rsa' })
            .sign(other.privateKey);
    default:
        return new jose.SignJWT(claims)
            .setProtectedHeader({ alg: spec.alg ?? 'RS256', typ: spec.typ ?? 'at+jwt', kid: spec.kid ?? 'eddy-test-rsa' })
            .sign(rs.privateKey);
    }
};

// POST /test/rotate: from then on the JWKS also publishes the key "eddy-test-rotated" (ES256),
// as a provider does when it rotates its keys; mint with key "rotated" signs with it.
let rotatedKeys = null;
const publicJwk = async (key, kid) => ({ ...(await jose.exportJWK(key)), kid, use: 'sig' });

const callback = provider.callback();
server.on('request', async (req, res) => {
    if (req.method === 'POST' && req.url === '/test/rotate') {
        rotatedKeys = {
            keys: [await publicJwk(rs.publicKey, 'eddy-test-rsa'), await publicJwk(ec.publicKey, 'eddy-test-ec'),
                await publicJwk(rotated.publicKey, 'eddy-test-rotated')],
        };
        res.writeHead(204);
        res.end();
        return;
    }
    if (rotatedKeys && req.method === 'GET' && req.url === '/jwks') {
        res.writeHead(200, { 'Content-Type': 'application/jwk-set+json' });
        res.end(JSON.stringify(rotatedKeys));
        return;
    }
    if (req.method === 'POST' && req.url === '/test/mint') {
        let body = '';
        req.on('data', (chunk) => { body += chunk; });
        req.on('end', async () => {
            try {
                const token = await mint(JSON.parse(body));
                res.writeHead(200, { 'Content-Type': 'text/plain' });
                res.end(token);
            } catch (e) {
                res.writeHead(400, { 'Content-Type': 'text/plain' });
                res.end(`cannot mint: ${e.message}`);
            }
        });
        return;
    }
    callback(req, res);
});

process.stdout.write(`eddy-auth-provider listening on ${issuer}\n`);
