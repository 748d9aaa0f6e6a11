#!/usr/bin/env node
// Drives one task through input_required -> tasks/update -> completed with the official
// @modelcontextprotocol/ext-tasks requester on @modelcontextprotocol/client, against any 2026-07-28
// Tasks server (by default eddy-cfd-server's run_cfd_case with a forced mesh defect). Every step
// is asserted; on failure it prints what went wrong and exits 1.
//
// Usage: node ext-tasks-requester.mjs URL [--tool NAME] [--args JSON] [--timeout-ms N]
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient } from '@modelcontextprotocol/ext-tasks/client';
import { CLIENT_CAPABILITIES, CLIENT_INFO, PROTOCOL_VERSION, TASKS_EXTENSION, RawRpc, redact } from './lib/wire.mjs';

const DEFAULT_ARGS = {
    case_name: 'interop-ext-tasks',
    reynolds: 100,
    grid: 16,
    max_iterations: 400,
    tolerance: 1e-3,
    force_mesh_defect: true,
};

function usage(message) {
    process.stderr.write(`ext-tasks-requester: ${message}\n`
        + 'Usage: node ext-tasks-requester.mjs URL [--tool NAME] [--args JSON] [--timeout-ms N]\n');
    process.exit(2);
}

function parseArgs(argv) {
    const opts = { url: undefined, tool: 'run_cfd_case', args: DEFAULT_ARGS, timeoutMs: 90000 };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--tool') opts.tool = argv[++i];
        else if (a === '--args') {
            try { opts.args = JSON.parse(argv[++i]); } catch (e) { usage(`--args is not valid JSON: ${e.message}`); }
        } else if (a === '--timeout-ms') opts.timeoutMs = Number(argv[++i]);
        else if (opts.url === undefined && !a.startsWith('--')) opts.url = a;
        else usage(`unexpected argument "${a}"`);
    }
    if (!opts.url) usage('the server URL is missing');
    if (!opts.tool) usage('--tool needs a name');
    if (!Number.isFinite(opts.timeoutMs) || opts.timeoutMs <= 0) usage('--timeout-ms must be a positive number');
    return opts;
}

class StepFailure extends Error {}
function check(condition, message) {
    if (!condition) throw new StepFailure(message);
}
const step = (text) => process.stdout.write(`ok - ${text}\n`);

async function main() {
    const opts = parseArgs(process.argv.slice(2));
    const deadline = setTimeout(() => {
        process.stderr.write(`ext-tasks-requester: FAIL: the scenario did not finish within ${opts.timeoutMs} ms\n`);
        process.exit(1);
    }, opts.timeoutMs);

    const client = new Client(CLIENT_INFO, {
        capabilities: CLIENT_CAPABILITIES,
        versionNegotiation: { mode: { pin: PROTOCOL_VERSION } },
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(opts.url)));
    check(client.getProtocolEra() === 'modern',
        `the SDK client negotiated era "${client.getProtocolEra()}", expected "modern" (2026-07-28) from server/discover`);
    const extension = client.getServerCapabilities()?.extensions?.[TASKS_EXTENSION];
    check(extension !== undefined, `server/discover does not advertise the ${TASKS_EXTENSION} extension`);
    step(`connected over ${PROTOCOL_VERSION}; server advertises ${TASKS_EXTENSION}`);

    const tools = await client.listTools();
    check(tools.tools.some((t) => t.name === opts.tool), `tools/list has no tool "${opts.tool}" (got ${tools.tools.map((t) => t.name).join(', ')})`);
    step(`tools/list offers ${opts.tool}`);

    // The host-owned raw dispatcher the requester needs for the 2026 task wire; it also counts
    // what went over the wire so the scenario can assert on it.
    const rpc = new RawRpc(opts.url);
    const sent = {};
    const rawDispatch = async (request, dispatchOptions) => {
        sent[request.method] = (sent[request.method] ?? 0) + 1;
        const reply = await rpc.send(request, { signal: dispatchOptions?.signal });
        return reply.kind === 'result' ? { kind: 'result', result: reply.result } : { kind: 'error', error: reply.error };
    };

    const questions = [];
    const session = createTaskSessionFromClient(client, {
        endpointId: `eddy-interop:${opts.url}`,
        rawDispatch,
        v2RequestFraming: {
            protocolVersion: PROTOCOL_VERSION,
            clientInfo: CLIENT_INFO,
            clientCapabilities: CLIENT_CAPABILITIES,
        },
        onInputRequest: async (request, context) => {
            questions.push({ request, context });
            if (request.kind !== 'elicitation') return { action: 'decline' };
            const props = request.params?.requestedSchema?.properties ?? {};
            if (!('action' in props) || !('smoothing_passes' in props)) {
                // Declining would end the task; answer but let the final assertion report it.
                return { action: 'decline' };
            }
            return { action: 'accept', content: { action: 'repair', smoothing_passes: 5 } };
        },
    });

    const statuses = [];
    let outcome;
    try {
        const execution = await session.callTool(opts.tool, opts.args);
        check(execution.kind === 'task', `tools/call returned an immediate result (kind "${execution.kind}"), expected a task`);
        step(`tools/call answered with a task (${redact(execution.handle.taskId)})`);

        const settled = await execution.settle({
            onEvent: (event) => {
                if (event.type === 'task') {
                    const last = statuses[statuses.length - 1];
                    if (last !== event.task.status) statuses.push(event.task.status);
                }
            },
        });
        outcome = settled.outcome;
        if (settled.lastTask && statuses[statuses.length - 1] !== settled.lastTask.status) statuses.push(settled.lastTask.status);
    } finally {
        await session.close().catch(() => {});
        rpc.close();
        await client.close().catch(() => {});
        clearTimeout(deadline);
    }

    check(questions.length === 1, `expected exactly one input request, the requester routed ${questions.length}`);
    const q = questions[0];
    check(q.request.kind === 'elicitation', `the input request is a "${q.request.kind}", expected an elicitation`);
    check(q.context.scope === 'task' && q.context.delivery === 'task-update',
        `the input request arrived as scope "${q.context.scope}" / delivery "${q.context.delivery}", expected task / task-update`);
    const props = q.request.params?.requestedSchema?.properties ?? {};
    check('action' in props && 'smoothing_passes' in props,
        `the elicitation schema lacks action/smoothing_passes: ${JSON.stringify(q.request.params?.requestedSchema)}`);
    check(typeof q.request.params?.message === 'string' && q.request.params.message.length > 0, 'the elicitation has no message');
    step(`input_required surfaced one elicitation/create form ("${q.request.params.message.slice(0, 80)}")`);

    check(statuses.includes('input_required'), `the requester never observed input_required (saw ${statuses.join(' -> ')})`);
    check((sent['tasks/update'] ?? 0) === 1, `expected one tasks/update on the wire, saw ${sent['tasks/update'] ?? 0}`);
    step('answered with one tasks/update (accept, action repair, smoothing_passes 5)');

    check(outcome !== undefined, 'the execution settled without an outcome');
    check(outcome.status === 'completed',
        `the task ended "${outcome.status}"${outcome.error ? `: ${outcome.error.message}` : ''}, expected completed`);
    const result = outcome.result;
    check(result && Array.isArray(result.content), `the completed result has no content array: ${JSON.stringify(result).slice(0, 300)}`);
    check(result.isError !== true, `the tool reported an error: ${JSON.stringify(result.content).slice(0, 400)}`);
    const text = result.content.filter((c) => c.type === 'text').map((c) => c.text).join(' ');
    check(text.length > 0, 'the completed result carries no text content');
    step(`completed (statuses ${statuses.join(' -> ')}; wire: ${Object.entries(sent).map(([m, n]) => `${m}×${n}`).join(', ')})`);
    process.stdout.write(`result: ${text.slice(0, 300)}\n`);
    process.stdout.write('ext-tasks-requester: PASS\n');
}

main().catch((e) => {
    const kind = e instanceof StepFailure ? 'FAIL' : 'ERROR';
    process.stderr.write(`ext-tasks-requester: ${kind}: ${e.message}\n`);
    if (!(e instanceof StepFailure) && e.stack) process.stderr.write(`${e.stack}\n`);
    process.exit(1);
});
