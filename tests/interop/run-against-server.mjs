#!/usr/bin/env node
// ctest driver for the interop scenarios: starts a real MCP server (eddy-cfd-server's binary, or a
// Node script such as sdk-fixture-server.mjs) on 127.0.0.1 port 0, waits for its "listening on"
// line, runs one scenario command against it, checks the outcome, and stops the server by its PID.
//
// Usage:
//   node run-against-server.mjs --server PATH [--server-arg ARG]... [--no-data-dir]
//        [--answers-json JSON] [--expect-exit N] [--expect-stdout REGEX]... [--timeout-ms N]
//        -- COMMAND [ARG]...
// In COMMAND, {URL} becomes the server's MCP URL, {TMP} a fresh temporary folder and {ANSWERS}
// the path of a file holding --answers-json.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitForListening } from './lib/wire.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const say = (line) => process.stdout.write(`run-against-server: ${line}\n`);

function fail(message) {
    process.stderr.write(`run-against-server: FAIL: ${message}\n`);
    process.exitCode = 1;
}

function parseArgs(argv) {
    const opts = { server: undefined, serverArgs: [], dataDir: true, answers: undefined, expectExit: 0, expectStdout: [], timeoutMs: 100000, command: [] };
    let i = 0;
    for (; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--') { opts.command = argv.slice(i + 1); break; }
        if (a === '--server') opts.server = argv[++i];
        else if (a === '--server-arg') opts.serverArgs.push(argv[++i]);
        else if (a === '--no-data-dir') opts.dataDir = false;
        else if (a === '--answers-json') opts.answers = argv[++i];
        else if (a === '--expect-exit') opts.expectExit = Number(argv[++i]);
        else if (a === '--expect-stdout') opts.expectStdout.push(new RegExp(argv[++i]));
        else if (a === '--timeout-ms') opts.timeoutMs = Number(argv[++i]);
        else throw new Error(`unknown argument "${a}"`);
    }
    if (!opts.server) throw new Error('--server PATH is required');
    if (opts.command.length === 0) throw new Error('no scenario command after "--"');
    return opts;
}

function run(command, args, timeoutMs) {
    return new Promise((resolve) => {
        const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (c) => { stdout += c; process.stdout.write(c); });
        child.stderr.on('data', (c) => { stderr += c; process.stderr.write(c); });
        const timer = setTimeout(() => {
            stderr += `\n(scenario killed after ${timeoutMs} ms)\n`;
            child.kill('SIGKILL');
        }, timeoutMs);
        child.on('error', (e) => { clearTimeout(timer); resolve({ code: -1, stdout, stderr: `${stderr}${e.message}` }); });
        child.on('exit', (code, signal) => { clearTimeout(timer); resolve({ code: code ?? -1, signal, stdout, stderr }); });
    });
}

async function stopServer(proc) {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    process.kill(proc.pid, 'SIGTERM');
    const timer = setTimeout(() => { if (proc.exitCode === null) process.kill(proc.pid, 'SIGKILL'); }, 10000);
    await exited;
    clearTimeout(timer);
}

async function main() {
    let opts;
    try {
        opts = parseArgs(process.argv.slice(2));
    } catch (e) {
        fail(`${e.message}\nUsage: run-against-server.mjs --server PATH [options] -- COMMAND {URL} ...`);
        return;
    }
    if (!existsSync(join(here, 'node_modules', '@modelcontextprotocol'))) {
        fail('tests/interop/node_modules is missing: run .ci/install-deps --tests (it runs "npm ci" in tests/interop) and try again');
        return;
    }
    if (!existsSync(opts.server)) {
        fail(`the server "${opts.server}" does not exist: build it first (cmake --build BUILD --target eddy-cfd-server)`);
        return;
    }

    const tmp = mkdtempSync(join(tmpdir(), 'eddy-interop-'));
    const serverArgs = ['--host', '127.0.0.1', '--port', '0', ...opts.serverArgs];
    if (opts.dataDir) serverArgs.push('--data-dir', join(tmp, 'server-data'));
    const isScript = opts.server.endsWith('.mjs') || opts.server.endsWith('.js');
    // A script server gets a stdin pipe and exits when it closes, so it cannot outlive this driver.
    const proc = isScript
        ? spawn(process.execPath, [opts.server, ...serverArgs, '--exit-on-stdin-close'], { stdio: ['pipe', 'pipe', 'pipe'] })
        : spawn(opts.server, serverArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let serverLog = '';
    proc.stderr.on('data', (c) => { serverLog += c; if (serverLog.length > 200000) serverLog = serverLog.slice(-100000); });
    try {
        const url = await waitForListening(proc, { timeoutMs: 60000, what: opts.server });
        proc.stdout.resume();
        say(`server pid ${proc.pid} listening on ${url}`);
        let answersPath = '';
        if (opts.answers !== undefined) {
            answersPath = join(tmp, 'answers.json');
            writeFileSync(answersPath, opts.answers);
        }
        const subst = (s) => s.replaceAll('{URL}', url).replaceAll('{TMP}', tmp).replaceAll('{ANSWERS}', answersPath);
        const [cmd, ...args] = opts.command.map(subst);
        say(`running ${[cmd, ...args].join(' ')}`);
        const res = await run(cmd, args, opts.timeoutMs);
        if (res.code !== opts.expectExit) {
            fail(`the scenario exited with ${res.code}${res.signal ? ` (signal ${res.signal})` : ''}, expected ${opts.expectExit}`);
        }
        for (const re of opts.expectStdout) {
            if (!re.test(res.stdout)) fail(`the scenario's output does not match /${re.source}/`);
        }
        if (proc.exitCode !== null) fail(`the server died during the scenario (exit ${proc.exitCode})`);
    } catch (e) {
        fail(e.message);
    } finally {
        await stopServer(proc).catch(() => {});
        if (process.exitCode) process.stderr.write(`--- server log (tail) ---\n${serverLog.slice(-6000)}\n`);
        rmSync(tmp, { recursive: true, force: true });
    }
    if (!process.exitCode) say('PASS');
}

main().catch((e) => fail(e.stack ?? e.message));
