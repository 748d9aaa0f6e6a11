#!/usr/bin/env node
// Comparison client: a bare node:http keep-alive loop sending framed tasks/get requests (full
// _meta and routing headers, JSON parse of the reply), no SDK. Started by bench_server.
import { RawRpc } from '../../tests/interop/lib/wire.mjs';
import { parseArgs, report, runSchedule } from './pollloop.mjs';

const opts = parseArgs(process.argv.slice(2));
const rpc = new RawRpc(opts.url, { keepAlive: true, maxSockets: opts.maxInFlight });
const result = await runSchedule(opts, async (taskId) => {
    const reply = await rpc.call('tasks/get', { taskId });
    return reply.kind === 'result' && typeof reply.result?.status === 'string';
});
rpc.close();
report(opts, result);
