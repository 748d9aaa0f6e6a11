#!/usr/bin/env node
// The client adapter the official conformance suite runs for each client scenario:
//   node eddyctl-client.mjs URL     (MCP_CONFORMANCE_SCENARIO names the scenario,
//                                    MCP_CONFORMANCE_CONTEXT optionally carries its test data)
// It drives Eddy's real client, eddyctl (EDDYCTL_BIN), as a person would: `eddyctl tools URL`,
// `eddyctl call URL TOOL ARGS --wait --answers FILE`, against the scenario's mock server, with a
// fresh SQLite journal per run. What each scenario needs the client to do is in PLANS; the
// suite's own example client does the same steps. Exit code: 0 when every eddyctl step exited 0.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};
const eddyctl = process.env.EDDYCTL_BIN;
const say = (line) => process.stderr.write(`eddyctl-client[${scenario}]: ${line}\n`);

if (!eddyctl || !url || !url.startsWith('http')) {
    say('usage: EDDYCTL_BIN=PATH MCP_CONFORMANCE_SCENARIO=NAME node eddyctl-client.mjs URL');
    process.exit(2);
}

const work = mkdtempSync(join(tmpdir(), 'eddy-conformance-client-'));
const db = join(work, 'eddy.db');
// Answers for any elicitation form: the suite's MRTR and elicitation mocks ask a yes/no question.
const answers = join(work, 'answers.json');
writeFileSync(answers, JSON.stringify({ confirmed: true }));

// Sign-ins (auth/ scenarios): eddyctl keeps tokens in the Secret Service, else (no session bus,
// as here) in an owner-only file in its data folder, here the run's own; its "browser" is browser.mjs, which follows the authorization server's
// redirects to eddyctl's loopback listener as a person's browser would.
const browser = join(dirname(fileURLToPath(import.meta.url)), 'browser.mjs');
const env = {
    ...process.env,
    XDG_DATA_HOME: join(work, 'data'),
    XDG_CONFIG_HOME: join(work, 'config'),
    XDG_RUNTIME_DIR: work,
    DBUS_SESSION_BUS_ADDRESS: '',
    EDDY_BROWSER: `"${process.execPath}" "${browser}"`,
    EDDY_SIGNIN_TIMEOUT_S: '30',
};
// Pre-registered credentials the scenario hands over (auth/pre-registration and the client
// credentials extension): the id as a flag, the secret in the environment, as a person would.
const signInArgs = [];
if (context.client_id) signInArgs.push('--oauth-client-id', context.client_id);
if (context.client_secret) env.EDDY_OAUTH_CLIENT_SECRET = context.client_secret;
// Keys and tokens go to owner-only files in the run's folder, named by flags, as a team's
// unattended job keeps them: the client's private key (auth/client-credentials-jwt), the
// platform's workload token (auth/wif-jwt-bearer), the person's ID token and the enterprise
// identity provider (auth/enterprise-managed-authorization).
const secretFile = (name, text) => {
    const file = join(work, name);
    writeFileSync(file, text, { mode: 0o600 });
    return file;
};
if (context.private_key_pem) signInArgs.push('--oauth-private-key', secretFile('client-key.pem', context.private_key_pem));
if (context.valid_jwt) signInArgs.push('--oauth-workload-token', secretFile('workload.jwt', context.valid_jwt));
if (context.idp_id_token) {
    signInArgs.push('--oauth-id-token', secretFile('id-token.jwt', context.idp_id_token),
                    '--oauth-idp-token-url', context.idp_token_endpoint,
                    '--oauth-idp-client-id', context.idp_client_id);
}

function eddy(...args) {
    const r = spawnSync(eddyctl, ['--db', db, ...signInArgs, ...args], { encoding: 'utf8', timeout: 60000, env });
    say(`eddyctl ${args.join(' ')} -> exit ${r.status}${r.error ? ` (${r.error.message})` : ''}`);
    if (r.stdout) process.stderr.write(r.stdout.replace(/^/gm, '  | '));
    if (r.stderr) process.stderr.write(r.stderr.replace(/^/gm, '  ! '));
    return { ok: r.status === 0, stdout: r.stdout ?? '' };
}

const tools = () => eddy('--json', 'tools', url);
const call = (tool, args) => eddy('call', url, tool, JSON.stringify(args ?? {}), '--wait', '--answers', answers);

function listedTools() {
    const r = tools();
    if (!r.ok) return { ok: false, tools: [] };
    try {
        const parsed = JSON.parse(r.stdout);
        return { ok: true, tools: Array.isArray(parsed) ? parsed : parsed.tools ?? [] };
    } catch {
        return { ok: false, tools: [] };
    }
}

// Arguments a person would type for a tool they know nothing about: a sample value for each
// required property (the scenarios only check headers and routing, not the values).
function sampleArguments(tool) {
    const schema = tool.inputSchema ?? {};
    const args = {};
    for (const name of schema.required ?? []) {
        const type = schema.properties?.[name]?.type;
        args[name] = type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? true : 'us-west1';
    }
    return args;
}

// An authorized session as the suite's example client runs it: list the tools, call one.
const signedIn = (...extra) => eddy(...extra, '--json', 'tools', url).ok
                               && eddy(...extra, 'call', url, 'test-tool', '{}', '--wait').ok;
// eddyctl must refuse (exit 1 with a message): the scenario's authorization server or resource
// misbehaves, and a conformant client sends no token request or no token.
const refuses = () => !tools().ok;
// The fixed Client ID Metadata Document URL the suite's CIMD scenarios expect (as its example
// client uses); a team hosts Eddy's own (resources/oauth-client-metadata.json) at its URL.
const cimd = ['--oauth-client-metadata-url', 'https://conformance-test.local/client-metadata.json'];

// Each plan returns true when every step a conformant client must complete succeeded.
const PLANS = {
    'auth/metadata-default': () => signedIn(),
    'auth/metadata-var1': () => signedIn(),
    'auth/metadata-var2': () => signedIn(),
    'auth/metadata-var3': () => signedIn(),
    'auth/basic-cimd': () => signedIn(...cimd),
    'auth/scope-from-www-authenticate': () => signedIn(),
    'auth/scope-from-scopes-supported': () => signedIn(),
    'auth/scope-omitted-when-undefined': () => signedIn(),
    'auth/scope-step-up': () => signedIn(),
    'auth/scope-retry-limit': refuses,
    'auth/token-endpoint-auth-basic': () => signedIn(),
    'auth/token-endpoint-auth-post': () => signedIn(),
    'auth/token-endpoint-auth-none': () => signedIn(),
    'auth/pre-registration': () => signedIn(),
    'auth/resource-mismatch': refuses,
    'auth/offline-access-scope': () => signedIn(...cimd),
    'auth/offline-access-not-supported': () => signedIn(),
    'auth/authorization-server-migration': () => signedIn(),
    'auth/iss-supported': () => signedIn(),
    'auth/iss-not-advertised': () => signedIn(),
    'auth/iss-supported-missing': refuses,
    'auth/iss-wrong-issuer': refuses,
    'auth/iss-unexpected': refuses,
    'auth/iss-normalized': refuses,
    'auth/metadata-issuer-mismatch': refuses,
    'auth/client-credentials-basic': () => signedIn('--client-credentials'),
    // DPoP (RFC 9449): the second eddyctl run presents the kept token with the kept key pair.
    'auth/dpop': () => signedIn(),
    'auth/dpop-nonce': () => signedIn(),
    'auth/client-credentials-jwt': () => signedIn('--client-credentials'),
    'auth/wif-jwt-bearer': () => signedIn(),
    'auth/enterprise-managed-authorization': () => signedIn(),
    tools_call: () => call('add_numbers', { a: 2, b: 3 }).ok,
    'request-metadata': () => eddy('discover', url).ok && tools().ok,
    'json-schema-ref-no-deref': () => tools().ok,
    'http-standard-headers': () => {
        const listed = listedTools();
        // Every tool the mock offers, each called once: the scenario checks Mcp-Method and
        // Mcp-Name on each request (plain and hyphenated names).
        return listed.ok && listed.tools.every((t) => call(t.name, sampleArguments(t)).ok);
    },
    'http-custom-headers': () => {
        const listed = listedTools();
        const calls = context.toolCalls ?? [];
        return listed.ok && calls.length > 0 && calls.every((c) => call(c.name, c.arguments).ok);
    },
    'http-invalid-tool-headers': () => {
        // The client must leave tools with invalid x-mcp-header annotations out of its view and
        // still call the valid ones.
        const listed = listedTools();
        return listed.ok && listed.tools.length > 0
               && listed.tools.every((t) => call(t.name, sampleArguments(t)).ok);
    },
    'json-schema-2020-12-preservation': () => {
        const listed = listedTools();
        const focal = listed.tools.find((t) => t.name === 'json_schema_2020_12_tool');
        return listed.ok && !!focal && call('json_schema_echo', { schema: focal.inputSchema }).ok;
    },
    'sep-2322-client-request-state': () => {
        // A multi-round-trip tools/call: input_required before any task exists, answered and
        // retried with requestState echoed; then the unrelated and no-resultType tools.
        const results = ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated',
                         'test_mrtr_no_result_type'].map((t) => call(t, {}).ok);
        return results.every(Boolean);
    },
};

const plan = PLANS[scenario];
if (!plan) {
    say(`no plan for this scenario; tests/conformance/scenarios.json must list it as not applicable`);
    rmSync(work, { recursive: true, force: true });
    process.exit(2);
}
const ok = plan();
rmSync(work, { recursive: true, force: true });
say(ok ? 'all steps succeeded' : 'a step failed');
process.exit(ok ? 0 : 1);
