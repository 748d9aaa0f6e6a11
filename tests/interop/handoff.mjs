#!/usr/bin/env node
// Task hand-off between the official @modelcontextprotocol/ext-tasks requester and eddyctl, over a
// real 2026-07-28 Tasks server (eddy-cfd-server's run_cfd_case). Both sides name the server with
// the endpoint id docs/interop.md defines: createTaskSessionEndpointId("eddy",
// {transport: "streamable-http", url}).
//
//   to-eddy:   the requester starts a task and hands it off (writes its SerializedTaskReference);
//              eddyctl handles import refuses it without the server, takes it with --server URL,
//              knows it on a second import, watches it to the end, and eddyctl result prints it.
//   from-eddy: eddyctl call starts a task, eddyctl handles export writes its reference (mode
//              0600); the requester resumes it from that reference and gets the result.
//
// Usage: node handoff.mjs URL EDDYCTL TMPDIR to-eddy|from-eddy
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionEndpointId, createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import { CLIENT_CAPABILITIES, CLIENT_INFO, PROTOCOL_VERSION, RawRpc, redact } from './lib/wire.mjs';

const [url, eddyctl, tmp, direction] = process.argv.slice(2);
if (!url || !eddyctl || !tmp || !['to-eddy', 'from-eddy'].includes(direction)) {
    process.stderr.write('Usage: node handoff.mjs URL EDDYCTL TMPDIR to-eddy|from-eddy\n');
    process.exit(2);
}
const db = join(tmp, 'eddy.db');
// Long enough to be running at hand-off, short enough for a test.
const ARGS = { case_name: 'handoff', reynolds: 100, grid: 24, max_iterations: 3000, tolerance: 1e-9 };

class StepFailure extends Error {}
const check = (ok, message) => { if (!ok) throw new StepFailure(message); };
const step = (text) => process.stdout.write(`ok - ${text}\n`);

function ctl(args, { expectExit = 0 } = {}) {
    const r = spawnSync(eddyctl, ['--db', db, ...args], { encoding: 'utf8', timeout: 120000 });
    if (r.stdout) process.stdout.write(`  eddyctl> ${r.stdout.trimEnd().replace(/\n/g, '\n  eddyctl> ')}\n`);
    if (r.stderr) process.stderr.write(`  eddyctl! ${r.stderr.trimEnd().replace(/\n/g, '\n  eddyctl! ')}\n`);
    check(r.status === expectExit,
        `eddyctl ${args.join(' ')} exited ${r.status ?? r.signal}, expected ${expectExit}: ${r.stderr.trim().slice(0, 400)}`);
    return r;
}

async function openSession() {
    const client = new Client(CLIENT_INFO, {
        capabilities: CLIENT_CAPABILITIES,
        versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const rpc = new RawRpc(url);
    const endpointId = await createTaskSessionEndpointId('eddy', { transport: 'streamable-http', url });
    const session = createTaskSessionFromClient(client, {
        endpointId,
        rawDispatch: async (request, options) => {
            const reply = await rpc.send(request, { signal: options?.signal });
            return reply.kind === 'result' ? { kind: 'result', result: reply.result } : { kind: 'error', error: reply.error };
        },
        v2RequestFraming: { protocolVersion: PROTOCOL_VERSION, clientInfo: CLIENT_INFO, clientCapabilities: CLIENT_CAPABILITIES },
        onInputRequest: async () => ({ action: 'decline' }),
    });
    const close = async () => {
        await session.close().catch(() => {});
        rpc.close();
        await client.close().catch(() => {});
    };
    return { session, endpointId, close };
}

async function toEddy() {
    const { session, endpointId, close } = await openSession();
    const file = join(tmp, 'from-requester.jsonl');
    let reference;
    try {
        const execution = await session.callTool('run_cfd_case', ARGS);
        check(execution.kind === 'task', `tools/call answered "${execution.kind}", expected a task`);
        await execution.handoff((ref) => {
            reference = ref;
            writeFileSync(file, `${JSON.stringify(ref)}\n`, { mode: 0o600 });
        });
    } finally {
        await close();
    }
    check(reference.endpointId === endpointId, 'the handed-off reference names another endpoint than the session');
    check(reference.generation === 'v2' && reference.originalOperation === 'tools/call',
        `unexpected reference shape: generation ${reference.generation}, operation ${reference.originalOperation}`);
    step(`the requester handed off task ${redact(reference.taskId)} (endpoint ${endpointId})`);

    const unknown = ctl(['handles', 'import', file], { expectExit: 1 });
    check(/none of the 0 server\(s\)/.test(unknown.stderr) && /--server URL/.test(unknown.stderr),
        'an import with no server known does not say which server to add');
    check(!unknown.stderr.includes(reference.taskId), 'eddyctl printed the whole task id');
    step('eddyctl refuses the reference while it knows no server of that endpoint, and says what to add');

    const first = ctl(['handles', 'import', file, '--server', url, '--session', 'handed-over']);
    const m = /imported as task (\d+)/.exec(first.stdout);
    check(m, 'eddyctl did not report the task it imported');
    const task = m[1];
    const again = ctl(['handles', 'import', file]);
    check(new RegExp(`already known as task ${task}\\b`).test(again.stdout), 'a second import is not recognised as the same task');
    const listed = JSON.parse(ctl(['tasks', '--json']).stdout);
    check(listed.length === 1, `the store holds ${listed.length} tasks after two imports, expected 1`);
    check(JSON.stringify(listed[0].sessions) === '["handed-over"]',
        `the imported task is in sessions ${JSON.stringify(listed[0].sessions)}, expected only "handed-over"`);
    step(`eddyctl imported it as task ${task} once, in session "handed-over"`);

    ctl(['watch', '--until-done']);
    const result = ctl(['result', task]);
    check(/converged|iteration|residual/i.test(result.stdout), `eddyctl result ${task} shows no solver result`);
    const done = JSON.parse(ctl(['tasks', '--json']).stdout)[0];
    check(done.status === 'completed', `the task ended ${done.status}, expected completed`);
    step(`eddyctl watched task ${task} to completed and stored its result`);
}

async function fromEddy() {
    const started = ctl(['call', url, 'run_cfd_case', JSON.stringify(ARGS)]);
    const m = /task (\d+) working/.exec(started.stdout);
    check(m, 'eddyctl call did not report a working task');
    const task = m[1];
    const file = join(tmp, 'from-eddy.jsonl');
    ctl(['handles', 'export', task, '-o', file]);
    check((statSync(file).mode & 0o777) === 0o600, `the handles file has mode ${(statSync(file).mode & 0o777).toString(8)}, expected 600`);
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
    check(lines.length === 1, `eddyctl exported ${lines.length} references, expected 1`);
    const reference = JSON.parse(lines[0]);
    // Piped standard output is allowed (not a terminal) and gives the same line.
    const piped = ctl(['handles', 'export', task]);
    check(piped.stdout.trim() === lines[0], 'the piped export differs from the file');
    step(`eddyctl exported task ${task} (mode 600)`);

    const { session, endpointId, close } = await openSession();
    check(reference.endpointId === endpointId,
        `endpoint ids differ: eddyctl wrote ${reference.endpointId}, createTaskSessionEndpointId gives ${endpointId}`);
    step('the endpoint id matches createTaskSessionEndpointId byte for byte');
    let outcome;
    try {
        const execution = await session.resumeTask(reference);
        check(execution.kind === 'task', 'resumeTask did not give a task execution');
        outcome = (await execution.settle()).outcome;
    } finally {
        await close();
    }
    check(outcome.status === 'completed', `the resumed task ended ${outcome.status}${outcome.error ? `: ${outcome.error.message}` : ''}`);
    const text = (outcome.result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join(' ');
    check(text.length > 0, 'the resumed result carries no text');
    step(`the requester resumed the task and got its result: ${text.slice(0, 120)}`);
}

const deadline = setTimeout(() => {
    process.stderr.write('handoff: FAIL: the scenario did not finish within 200 s\n');
    process.exit(1);
}, 200000);
(direction === 'to-eddy' ? toEddy() : fromEddy()).then(() => {
    clearTimeout(deadline);
    process.stdout.write(`handoff ${direction}: PASS\n`);
}).catch((e) => {
    process.stderr.write(`handoff ${direction}: ${e instanceof StepFailure ? 'FAIL' : 'ERROR'}: ${e.message}\n`);
    if (!(e instanceof StepFailure) && e.stack) process.stderr.write(`${e.stack}\n`);
    process.exit(1);
});
