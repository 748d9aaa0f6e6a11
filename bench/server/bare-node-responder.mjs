#!/usr/bin/env node
// Calibration floor for bench_server: a bare node:http responder with no MCP validation at all.
// It answers tools/call with a CreateTaskResult and every other POST with one fixed
// input_required task, so its CPU per poll is roughly the kernel + runtime cost of an HTTP round
// trip on this machine. Usage: node bare-node-responder.mjs [--host 127.0.0.1] [--port 0]
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';

let host = '127.0.0.1';
let port = 0;
for (let i = 2; i < process.argv.length; i++) {
    if (process.argv[i] === '--host') host = process.argv[++i];
    else if (process.argv[i] === '--port') port = Number(process.argv[++i]);
}
const stamp = new Date().toISOString();
const taskBody = (id, resultType) => JSON.stringify({
    jsonrpc: '2.0', id, result: {
        resultType, taskId: randomBytes(16).toString('hex'), status: 'input_required',
        createdAt: stamp, lastUpdatedAt: stamp, ttlMs: 600000, pollIntervalMs: 500,
        inputRequests: { q: { method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } } },
    },
});
const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        // Cheap field sniffing, deliberately no JSON.parse: this is the floor, not a server.
        const id = Number((text.match(/"id":(\d+)/) ?? [])[1] ?? 0);
        const body = taskBody(id, text.includes('"tools/call"') ? 'task' : 'complete');
        res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
        res.end(body);
    });
});
server.keepAliveTimeout = 30000;
server.listen(port, host, () => process.stdout.write(`bare-node-responder listening on http://${host}:${server.address().port}/mcp\n`));
process.on('SIGTERM', () => process.exit(0));
