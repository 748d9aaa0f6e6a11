#!/usr/bin/env node
// ctest driver for the official MCP conformance suite (@modelcontextprotocol/conformance, pinned
// in tests/interop/package-lock.json). Two modes:
//
//   node run-conformance.mjs server --server PATH
//       starts eddy-cfd-server on 127.0.0.1 port 0 with --conformance-fixtures and a temporary
//       --data-dir, runs the suite's 2026-07-28 server scenarios against it in one suite process,
//       and checks every scenario listed under server.run in scenarios.json; stops the server by
//       its PID.
//   node run-conformance.mjs client --scenario NAME --eddyctl PATH
//       runs one client scenario: the suite starts its mock server and runs eddyctl-client.mjs
//       (Eddy's eddyctl) against it.
//
// Both first compare the suite's own scenario list with scenarios.json: a scenario that is
// neither run nor listed as not applicable (with a reason) fails the test, so a new suite
// version cannot skip anything silently. Each run prints pass counts per scenario.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const interop = join(here, '..', 'interop');
const suiteMain = join(interop, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const hook = join(here, 'fs-globsync-hook.mjs');
const scenarios = JSON.parse(readFileSync(join(here, 'scenarios.json'), 'utf8'));
const say = (line) => process.stdout.write(`conformance: ${line}\n`);

function fail(message) {
    process.stderr.write(`conformance: FAIL: ${message}\n`);
    process.exitCode = 1;
}

function parseArgs(argv) {
    const opts = { mode: argv[0], server: undefined, eddyctl: undefined, scenario: undefined };
    for (let i = 1; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--server') opts.server = resolve(argv[++i]);
        else if (a === '--eddyctl') opts.eddyctl = resolve(argv[++i]);
        else if (a === '--scenario') opts.scenario = argv[++i];
        else throw new Error(`unknown argument "${a}"`);
    }
    return opts;
}

// The suite's CLI, under Node 20 with the fs.globSync hook.
function suiteArgs(args) {
    return ['--import', hook, suiteMain, ...args];
}

function runSuite(args, { env = process.env, timeoutMs = 240000 } = {}) {
    return new Promise((resolve) => {
        const child = spawn(process.execPath, suiteArgs(args), { cwd: interop, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => { out += d; });
        child.stderr.on('data', (d) => { out += d; });
        const timer = setTimeout(() => { out += '\n[killed: took too long]\n'; child.kill('SIGKILL'); }, timeoutMs);
        child.on('close', (code) => { clearTimeout(timer); resolve({ code, out }); });
    });
}

// Every scenario the suite knows for one side, from `conformance list`.
function suiteScenarios(side) {
    const r = spawnSync(process.execPath, suiteArgs(['list', `--${side}`]), { cwd: interop, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`conformance list --${side} failed: ${r.stderr}`);
    return [...r.stdout.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]);
}

function isNotApplicable(side, name) {
    const na = scenarios[side].notApplicable;
    return Object.hasOwn(na, name) || Object.keys(na).some((k) => k.endsWith('/*') && name.startsWith(k.slice(0, -1)));
}

function checkInventory(side) {
    const listed = suiteScenarios(side);
    const run = new Set(scenarios[side].run);
    const unknown = listed.filter((n) => !run.has(n) && !isNotApplicable(side, n));
    for (const n of unknown)
        fail(`the suite lists ${side} scenario "${n}", which tests/conformance/scenarios.json neither runs nor lists as not applicable; add it to one of them (with the reason in docs/interop.md)`);
    const gone = [...run].filter((n) => !listed.includes(n));
    for (const n of gone)
        fail(`scenarios.json runs ${side} scenario "${n}", which the pinned suite does not have`);
    const na = listed.filter((n) => !run.has(n));
    say(`${side} scenarios in the suite: ${listed.length}; run: ${run.size}; not applicable: ${na.length} (reasons in scenarios.json and docs/interop.md)`);
    return unknown.length === 0 && gone.length === 0;
}

// checks.json of every scenario run into dir: { scenario -> [check, ...] }.
function readResults(dir, prefix) {
    const results = new Map();
    if (!existsSync(dir)) return results;
    for (const entry of readdirSync(dir)) {
        const m = entry.match(new RegExp(`^${prefix}(.+)-\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z$`));
        if (!m) continue;
        const file = join(dir, entry, 'checks.json');
        if (existsSync(file)) results.set(m[1], JSON.parse(readFileSync(file, 'utf8')));
    }
    return results;
}

function tally(checks) {
    const t = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
    for (const c of checks) t[c.status] = (t[c.status] ?? 0) + 1;
    return t;
}

function report(name, checks) {
    const t = tally(checks);
    const scored = t.SUCCESS + t.FAILURE;
    say(`${name}: ${t.SUCCESS}/${scored} checks pass` + (t.WARNING ? `, ${t.WARNING} warning(s)` : '') + (t.SKIPPED ? `, ${t.SKIPPED} skipped by the suite` : ''));
    for (const c of checks.filter((x) => x.status === 'FAILURE' || x.status === 'WARNING'))
        say(`    ${c.status} ${c.id}: ${(c.errorMessage ?? c.description ?? '').slice(0, 300)}`);
    return t;
}

function waitForListening(proc) {
    return new Promise((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`the server printed no "listening on" line in 60 s: ${out}`)), 60000);
        proc.stdout.on('data', (d) => {
            out += d;
            const m = out.match(/listening on (http:\/\/\S+)/);
            if (m) { clearTimeout(timer); resolve(m[1]); }
        });
        proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the server exited with ${code} before listening`)); });
    });
}

async function stopServer(proc) {
    if (proc.exitCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    process.kill(proc.pid, 'SIGTERM');
    const timer = setTimeout(() => { if (proc.exitCode === null) process.kill(proc.pid, 'SIGKILL'); }, 10000);
    await exited;
    clearTimeout(timer);
}

async function serverMode(opts) {
    if (!opts.server) throw new Error('--server PATH is required');
    const inventoryOk = checkInventory('server');
    const work = mkdtempSync(join(tmpdir(), 'eddy-conformance-server-'));
    const proc = spawn(opts.server, ['--port', '0', '--data-dir', join(work, 'data'), '--workers', '2',
                                     '--poll-interval-ms', '100', '--conformance-fixtures'],
                       { stdio: ['ignore', 'pipe', 'pipe'] });
    let serverLog = '';
    proc.stderr.on('data', (d) => { serverLog += d; });
    try {
        const url = await waitForListening(proc);
        say(`eddy-cfd-server (pid ${proc.pid}) at ${url}`);
        // One suite process for the whole 2026-07-28 requirement set (its required, extension
        // and pending scenarios): ~20 s, against ~5 s of start-up per scenario run one by one.
        const outDir = join(work, 'results');
        const run = await runSuite(['server', '--url', url, '--requirements', '2026-07-28', '-o', outDir]);
        const results = readResults(outDir, 'server-');
        let passed = 0, total = 0;
        for (const name of scenarios.server.run) {
            const checks = results.get(name);
            if (!checks) {
                fail(`server scenario "${name}" produced no results; the suite said:\n${run.out.slice(-3000)}`);
                continue;
            }
            const t = report(name, checks);
            passed += t.SUCCESS;
            total += t.SUCCESS + t.FAILURE;
            if (t.FAILURE > 0) fail(`server scenario "${name}": ${t.FAILURE} check(s) failed`);
        }
        for (const [name, checks] of results)
            if (!scenarios.server.run.includes(name))
                say(`(not applicable, not scored) ${name}: ${tally(checks).SUCCESS}/${checks.length}`);
        say(`server total: ${passed}/${total} checks pass in ${scenarios.server.run.length} applicable scenarios`);
    } catch (e) {
        fail(`${e.message}\nserver log:\n${serverLog.slice(-2000)}`);
    } finally {
        await stopServer(proc);
        rmSync(work, { recursive: true, force: true });
    }
    if (!inventoryOk) process.exitCode = 1;
}

async function clientMode(opts) {
    if (!opts.scenario || !opts.eddyctl) throw new Error('--scenario NAME and --eddyctl PATH are required');
    const inventoryOk = checkInventory('client');
    if (!scenarios.client.run.includes(opts.scenario)) {
        fail(`client scenario "${opts.scenario}" is not in scenarios.json client.run`);
        return;
    }
    const work = mkdtempSync(join(tmpdir(), 'eddy-conformance-client-'));
    try {
        const outDir = join(work, 'results');
        const adapter = `${process.execPath} ${join(here, 'eddyctl-client.mjs')}`;
        // --force: extension scenarios (auth/client-credentials-basic) are on no spec timeline;
        // scenarios.json, not the suite's version filter, says which ones apply.
        const run = await runSuite(['client', '--command', adapter, '--scenario', opts.scenario,
                                    '--spec-version', '2026-07-28', '--force', '-o', outDir],
                                   { env: { ...process.env, EDDYCTL_BIN: opts.eddyctl }, timeoutMs: 120000 });
        // The suite names the folder SCENARIO-TIMESTAMP; "auth/NAME" is NAME-TIMESTAMP in auth/.
        const slash = opts.scenario.lastIndexOf('/');
        const results = readResults(slash < 0 ? outDir : join(outDir, opts.scenario.slice(0, slash)), '')
            .get(opts.scenario.slice(slash + 1));
        if (!results) {
            fail(`client scenario "${opts.scenario}" produced no results; the suite said:\n${run.out.slice(-4000)}`);
            return;
        }
        const t = report(opts.scenario, results);
        if (t.FAILURE > 0) fail(`client scenario "${opts.scenario}": ${t.FAILURE} check(s) failed`);
        if (/CLIENT EXITED WITH ERROR/.test(run.out) || run.code !== 0) {
            fail(`client scenario "${opts.scenario}": eddyctl did not finish every step (suite exit ${run.code}); its output:\n${run.out.slice(-4000)}`);
        }
    } finally {
        rmSync(work, { recursive: true, force: true });
    }
    if (!inventoryOk) process.exitCode = 1;
}

if (!existsSync(suiteMain)) {
    fail('tests/interop/node_modules has no @modelcontextprotocol/conformance: run .ci/install-deps --tests (npm ci in tests/interop)');
} else {
    const opts = parseArgs(process.argv.slice(2));
    if (opts.mode === 'server') await serverMode(opts);
    else if (opts.mode === 'client') await clientMode(opts);
    else fail('usage: run-conformance.mjs server --server PATH | client --scenario NAME --eddyctl PATH');
}
