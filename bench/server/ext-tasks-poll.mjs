#!/usr/bin/env node
// Comparison client: the official ext-tasks requester observing tasks with snapshot() (one
// tasks/get each, validated by the package's own schemas) over the same raw keep-alive
// dispatcher the interop test uses. Started by bench_server.
import { Client, StreamableHTTPClientTransport, createTaskSessionFromClient } from '../../tests/interop/lib/sdk.mjs';
import { CLIENT_CAPABILITIES, CLIENT_INFO, PROTOCOL_VERSION, RawRpc } from '../../tests/interop/lib/wire.mjs';
import { parseArgs, report, runSchedule } from './pollloop.mjs';

const opts = parseArgs(process.argv.slice(2));
const client = new Client(CLIENT_INFO, { capabilities: CLIENT_CAPABILITIES, versionNegotiation: { mode: { pin: PROTOCOL_VERSION } } });
await client.connect(new StreamableHTTPClientTransport(new URL(opts.url)));
const rpc = new RawRpc(opts.url, { keepAlive: true, maxSockets: opts.maxInFlight });
const session = createTaskSessionFromClient(client, {
    endpointId: `eddy-bench:${opts.url}`,
    rawDispatch: async (request, o) => {
        const reply = await rpc.send(request, { signal: o?.signal });
        return reply.kind === 'result' ? { kind: 'result', result: reply.result } : { kind: 'error', error: reply.error };
    },
    v2RequestFraming: { protocolVersion: PROTOCOL_VERSION, clientInfo: CLIENT_INFO, clientCapabilities: CLIENT_CAPABILITIES },
});
const controllers = new Map(opts.taskIds.map((id) => [id, session.task(id)]));
const result = await runSchedule(opts, async (taskId) => {
    const view = await controllers.get(taskId).snapshot();
    return typeof view.status === 'string';
});
await session.close().catch(() => {});
rpc.close();
await client.close().catch(() => {});
report(opts, result);
