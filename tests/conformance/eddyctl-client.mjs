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
import { join } from 'node:path';

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

function eddy(...args) {
    const r = spawnSync(eddyctl, ['--db', db, ...args], { encoding: 'utf8', timeout: 60000 });
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

// Each plan returns true when every step a conformant client must complete succeeded.
const PLANS = {
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
