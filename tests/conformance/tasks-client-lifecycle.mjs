#!/usr/bin/env node
// tasks-client-lifecycle: the client-side Tasks checks proposed upstream for the conformance suite
// (not published in @modelcontextprotocol/conformance 0.2.0-alpha.12), as our own scenario until
// it is. A scripted 2026-07-28 Tasks server (node:http on 127.0.0.1:0) plays the task; Eddy's
// real client, eddyctl (EDDYCTL_BIN or --eddyctl), drives it as a person would:
//
//   create        tools/call answered with a CreateTaskResult is polled with tasks/get (Mcp-Name =
//                 taskId, Tasks extension declared), never taken as the result
//   poll-interval consecutive tasks/get of a live task are at least pollIntervalMs apart
//   input         input_required -> exactly one tasks/update with the answer keyed as asked,
//                 without requestState
//   cancel        eddyctl cancel -> tasks/cancel for that task, the {resultType:"complete"} ack
//                 accepted, the task ends cancelled
//   terminal      once completed, the client does not poll the task again and keeps its result,
//                 although this server then (wrongly) reports the task as working again
//
// Prints one line per check and "tasks-client-lifecycle: N/M checks pass"; exit 1 on any failure.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';

const POLL_MS = 250;
const TASKS = 'io.modelcontextprotocol/tasks';
const argIndex = process.argv.indexOf('--eddyctl');
const eddyctl = argIndex > 0 ? resolve(process.argv[argIndex + 1]) : process.env.EDDYCTL_BIN;
const checks = [];
const check = (id, ok, detail) => {
    checks.push({ id, ok });
    process.stdout.write(`tasks-client-lifecycle: ${ok ? 'SUCCESS' : 'FAILURE'} ${id}${detail ? `: ${detail}` : ''}\n`);
};

// ---- the scripted server -----------------------------------------------------------------------

const wire = []; // every request: {at, method, headers, params}
const tasks = new Map(); // taskId -> {tool, polls, state, updates, cancelled}

const tool = (name, description) => ({
    name, description, inputSchema: { type: 'object', properties: {} }, execution: { taskSupport: 'required' },
});
const confirmQuestion = {
    method: 'elicitation/create',
    params: {
        mode: 'form', message: 'Delete the scratch files and continue?',
        requestedSchema: { type: 'object', properties: { confirmed: { type: 'boolean' } }, required: ['confirmed'] },
    },
};

function detail(id, t) {
    const base = { taskId: id, createdAt: t.createdAt, lastUpdatedAt: new Date().toISOString(), ttlMs: 600000 };
    switch (t.state) {
    case 'working': return { ...base, status: 'working', statusMessage: `step ${t.polls}`, pollIntervalMs: POLL_MS };
    case 'input_required': return { ...base, status: 'input_required', pollIntervalMs: POLL_MS, inputRequests: { confirm: confirmQuestion } };
    case 'completed': return { ...base, status: 'completed', result: { resultType: 'complete', content: [{ type: 'text', text: 'lifecycle done' }] } };
    case 'cancelled': return { ...base, status: 'cancelled', statusMessage: 'cancelled by the client' };
    // What a broken server says after the task ended: the client must not believe it.
    case 'relapsed': return { ...base, status: 'working', statusMessage: 'started again?', pollIntervalMs: POLL_MS };
    default: throw new Error(t.state);
    }
}

// One tasks/get advances lifecycle_job: working (3 polls) -> input_required -> (tasks/update)
// working (1 poll) -> completed -> relapsed for every later poll.
function poll(id, t) {
    t.polls++;
    if (t.tool === 'lifecycle_job') {
        if (t.state === 'working' && !t.answered && t.polls >= 3) t.state = 'input_required';
        else if (t.state === 'working' && t.answered && t.polls >= t.answeredAt + 1) t.state = 'completed';
        else if (t.state === 'completed' && t.reportedTerminal) t.state = 'relapsed';
    }
    const d = detail(id, t);
    if (d.status === 'completed') t.reportedTerminal = true;
    return d;
}

function rpc(res, id, result, status = 200) {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, ...(status === 200 && !result.code ? { result } : { error: result }) }));
}

function handle(req, res, body) {
    let msg;
    try { msg = JSON.parse(body); } catch { return rpc(res, null, { code: -32700, message: 'Parse error' }, 400); }
    const params = msg.params ?? {};
    wire.push({ at: Date.now(), method: msg.method, headers: req.headers, params });
    if (msg.id === undefined) { res.writeHead(202); return res.end(); }
    const caps = params._meta?.['io.modelcontextprotocol/clientCapabilities'] ?? {};
    const complete = (r) => rpc(res, msg.id, { resultType: 'complete', ...r });
    switch (msg.method) {
    case 'server/discover':
        return complete({ supportedVersions: ['2026-07-28'], capabilities: { tools: {}, extensions: { [TASKS]: {} } },
                          _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'tasks-client-lifecycle', version: '1.0.0' } },
                          ttlMs: 0, cacheScope: 'private' });
    case 'tools/list':
        return complete({ tools: [tool('lifecycle_job', 'working, a question, completed'), tool('cancel_job', 'works until cancelled')],
                          ttlMs: 0, cacheScope: 'private' });
    case 'tools/call': {
        if (!caps.extensions?.[TASKS])
            return rpc(res, msg.id, { code: -32021, message: 'Missing required client capability',
                                      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } }, 400);
        const id = randomUUID();
        tasks.set(id, { tool: params.name, polls: 0, state: 'working', createdAt: new Date().toISOString() });
        const { inputRequests, result, ...created } = detail(id, tasks.get(id));
        return rpc(res, msg.id, { resultType: 'task', ...created });
    }
    case 'tasks/get': {
        const t = tasks.get(params.taskId);
        if (!t) return rpc(res, msg.id, { code: -32602, message: 'Task not found' });
        return complete(poll(params.taskId, t));
    }
    case 'tasks/update': {
        const t = tasks.get(params.taskId);
        if (!t) return rpc(res, msg.id, { code: -32602, message: 'Task not found' });
        if (t.state === 'input_required' && params.inputResponses?.confirm) {
            t.answered = true;
            t.answeredAt = t.polls;
            t.state = 'working';
        }
        return complete({});
    }
    case 'tasks/cancel': {
        const t = tasks.get(params.taskId);
        if (!t) return rpc(res, msg.id, { code: -32602, message: 'Task not found' });
        if (t.state === 'working' || t.state === 'input_required') t.state = 'cancelled';
        return complete({});
    }
    default:
        return rpc(res, msg.id, { code: -32601, message: `Method not found: ${msg.method}` }, 404);
    }
}

const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => handle(req, res, body));
});

// ---- the scenario ------------------------------------------------------------------------------

function eddy(db, ...args) {
    // Asynchronous: the scripted server runs in this process and must keep serving.
    return new Promise((done) => {
        {
            const child = spawn(eddyctl, ['--db', db, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
            let stdout = '', stderr = '';
            child.stdout.on('data', (d) => { stdout += d; });
            child.stderr.on('data', (d) => { stderr += d; });
            const timer = setTimeout(() => child.kill('SIGKILL'), 90000);
            child.on('close', (code) => {
                clearTimeout(timer);
                process.stdout.write(`  eddyctl ${args.join(' ')} -> exit ${code}\n`);
                if (stderr.trim()) process.stdout.write(stderr.replace(/^/gm, '    ! '));
                done({ code, stdout, stderr });
            });
        }
    });
}

const forTask = (method, taskId) => wire.filter((w) => w.method === method && w.params.taskId === taskId);

async function main() {
    if (!eddyctl) {
        check('setup', false, 'give --eddyctl PATH or EDDYCTL_BIN');
        return;
    }
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${server.address().port}/mcp`;
    const work = mkdtempSync(join(tmpdir(), 'eddy-tasks-client-'));
    const db = join(work, 'eddy.db');
    const answers = join(work, 'answers.json');
    writeFileSync(answers, JSON.stringify({ confirmed: true }));
    try {
        // 1. create, poll, input, complete
        const run = await eddy(db, 'call', url, 'lifecycle_job', '{}', '--wait', '--answers', answers);
        const [lifecycleId] = [...tasks.entries()].filter(([, t]) => t.tool === 'lifecycle_job').map(([id]) => id);
        const gets = lifecycleId ? forTask('tasks/get', lifecycleId) : [];
        check('create-polls-the-task', run.code === 0 && gets.length >= 3 && /lifecycle done/.test(run.stdout)
              && gets.every((g) => g.headers['mcp-name'] === lifecycleId && g.headers['mcp-method'] === 'tasks/get'
                                   && g.params._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions?.[TASKS]),
              `exit ${run.code}, ${gets.length} tasks/get with Mcp-Name = taskId and the extension declared`);

        // Intervals between consecutive polls of the task.
        const gaps = gets.slice(1).map((g, i) => g.at - gets[i].at).filter((_, i) => {
            // a tasks/update between two polls resets the client's timer legitimately
            const from = gets[i].at, to = gets[i + 1].at;
            return !wire.some((w) => w.method === 'tasks/update' && w.at > from && w.at < to);
        });
        process.stdout.write(`  wire: ${wire.map((w) => `${w.method}@${w.at - wire[0].at}`).join(" ")}\n`);
        const shortest = gaps.length ? Math.min(...gaps) : NaN;
        check('polls-at-pollIntervalMs', gaps.length >= 2 && shortest >= POLL_MS * 0.9,
              `${gaps.length} intervals, shortest ${shortest} ms, pollIntervalMs ${POLL_MS}`);

        const updates = lifecycleId ? forTask('tasks/update', lifecycleId) : [];
        const u = updates[0]?.params ?? {};
        check('input-required-to-tasks-update', updates.length === 1 && updates[0].headers['mcp-name'] === lifecycleId
              && u.inputResponses?.confirm?.action === 'accept' && u.inputResponses.confirm.content?.confirmed === true
              && !('requestState' in u),
              `${updates.length} tasks/update, inputResponses ${JSON.stringify(u.inputResponses)}`);

        // 2. terminal states are immutable: this server now says "working" again.
        const getsAtEnd = gets.length;
        const watch = await eddy(db, 'watch', '--until-done');
        const result = await eddy(db, 'result', '1');
        const listed = await eddy(db, '--json', 'tasks');
        let status;
        try { status = JSON.parse(listed.stdout).find((t) => t.id === 1 || t.id === '1')?.status; } catch { status = undefined; }
        const getsAfter = forTask('tasks/get', lifecycleId).length - getsAtEnd;
        check('terminal-state-immutable', watch.code === 0 && result.code === 0 && /lifecycle done/.test(result.stdout)
              && status === 'completed' && getsAfter === 0,
              `status ${status}, ${getsAfter} tasks/get after completion, result ${result.code === 0 ? 'kept' : 'lost'}`);

        // 3. cancel
        const started = await eddy(db, 'call', url, 'cancel_job', '{}');
        const number = (started.stdout.match(/\d+/) ?? [])[0];
        const cancelRun = number ? await eddy(db, 'cancel', number) : { code: -1 };
        const watched = await eddy(db, 'watch', '--until-done');
        const [cancelId] = [...tasks.entries()].filter(([, t]) => t.tool === 'cancel_job').map(([id]) => id);
        const cancels = cancelId ? forTask('tasks/cancel', cancelId) : [];
        let cancelStatus;
        try {
            cancelStatus = JSON.parse((await eddy(db, '--json', 'tasks')).stdout)
                .find((t) => String(t.id) === String(number))?.status;
        } catch { cancelStatus = undefined; }
        check('cancel-ack', started.code === 0 && cancelRun.code === 0 && watched.code === 0 && cancels.length >= 1
              && cancels[0].headers['mcp-name'] === cancelId && cancelStatus === 'cancelled',
              `task #${number}, ${cancels.length} tasks/cancel, final status ${cancelStatus}`);
    } finally {
        server.close();
        server.closeAllConnections?.();
        rmSync(work, { recursive: true, force: true });
    }
}

await main();
const passed = checks.filter((c) => c.ok).length;
process.stdout.write(`tasks-client-lifecycle: ${passed}/${checks.length} checks pass\n`);
process.exitCode = passed === checks.length && checks.length === 5 ? 0 : 1;
