#!/usr/bin/env node
// The official @modelcontextprotocol/server-everything (its own createServer(): tools, prompts,
// resources, tasks capability) served over streamable HTTP on loopback. Its bundled launcher
// (dist/transports/streamableHttp.js) listens on every interface at a fixed PORT, so this file
// wires the same pieces the same way (one transport per session, an in-memory event store for
// resumability) on 127.0.0.1 and port 0. Its tool trigger-long-running-operation answers a
// tools/call as an SSE stream of notifications/progress when the call carries a progressToken.
//
// Usage: node everything-server.mjs [--host 127.0.0.1] [--port 0] [--exit-on-stdin-close]
// Prints "everything-server listening on http://HOST:PORT/mcp" on stdout when ready.
import { createServer as createHttpServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '@modelcontextprotocol/server-everything/dist/server/index.js';

function parseArgs(argv) {
    const opts = { host: '127.0.0.1', port: 0, exitOnStdinClose: false };
    for (let i = 0; i < argv.length; i++) {
        const flag = argv[i];
        const value = argv[i + 1];
        if (flag === '--host' && value !== undefined) { opts.host = value; i++; }
        else if (flag === '--port' && value !== undefined) { opts.port = Number(value); i++; }
        else if (flag === '--exit-on-stdin-close') opts.exitOnStdinClose = true;
        else {
            process.stderr.write(`everything-server: unknown or incomplete flag "${flag}". `
                + 'Use --host ADDR, --port N, --exit-on-stdin-close.\n');
            process.exit(2);
        }
    }
    if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
        process.stderr.write('everything-server: --port must be 0..65535.\n');
        process.exit(2);
    }
    return opts;
}

const options = parseArgs(process.argv.slice(2));
const log = (line) => process.stderr.write(`everything-server: ${line}\n`);

// The same in-memory event store as the package's launcher: replays a stream after Last-Event-ID.
class InMemoryEventStore {
    events = new Map();
    async storeEvent(streamId, message) {
        const eventId = randomUUID();
        this.events.set(eventId, { streamId, message });
        return eventId;
    }
    async replayEventsAfter(lastEventId, { send }) {
        const entries = Array.from(this.events.entries());
        const start = entries.findIndex(([id]) => id === lastEventId);
        if (start === -1) return lastEventId;
        const streamId = entries[start][1].streamId;
        let last = lastEventId;
        for (let i = start + 1; i < entries.length; i++) {
            const [eventId, { streamId: s, message }] = entries[i];
            if (s !== streamId) continue;
            await send(eventId, message);
            last = eventId;
        }
        return streamId;
    }
}

const transports = new Map(); // session id -> transport

function readBody(req) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (!text) return resolve(undefined);
            try { resolve(JSON.parse(text)); } catch (e) { reject(e); }
        });
        req.on('error', reject);
    });
}

function badRequest(res, message, id = null) {
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id }));
}

async function handle(req, res) {
    const url = new URL(req.url, 'http://localhost');
    if (url.pathname !== '/mcp') {
        res.writeHead(404);
        res.end();
        return;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (req.method === 'POST') {
        let body;
        try {
            body = await readBody(req);
        } catch {
            badRequest(res, 'Parse error: the body is not JSON');
            return;
        }
        if (sessionId && transports.has(sessionId)) {
            await transports.get(sessionId).handleRequest(req, res, body);
            return;
        }
        if (!sessionId && isInitializeRequest(body)) {
            const { server, cleanup } = createServer();
            const transport = new StreamableHTTPServerTransport({
                sessionIdGenerator: () => randomUUID(),
                eventStore: new InMemoryEventStore(),
                onsessioninitialized: (sid) => transports.set(sid, transport),
            });
            transport.onclose = () => {
                const sid = transport.sessionId;
                if (sid && transports.has(sid)) {
                    transports.delete(sid);
                    cleanup(sid);
                }
            };
            await server.connect(transport);
            await transport.handleRequest(req, res, body);
            return;
        }
        badRequest(res, 'Bad Request: No valid session ID provided', body?.id ?? null);
        return;
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
        if (!sessionId || !transports.has(sessionId)) {
            badRequest(res, 'Bad Request: No valid session ID provided');
            return;
        }
        await transports.get(sessionId).handleRequest(req, res);
        return;
    }
    res.writeHead(405, { Allow: 'GET, POST, DELETE' });
    res.end();
}

const httpServer = createHttpServer((req, res) => {
    handle(req, res).catch((e) => {
        log(`request failed: ${e.message}`);
        if (!res.headersSent) res.writeHead(500);
        res.end();
    });
});
httpServer.on('error', (e) => {
    log(`cannot listen on ${options.host}:${options.port}: ${e.message}`);
    process.exit(1);
});
httpServer.listen(options.port, options.host, () => {
    const { port } = httpServer.address();
    process.stdout.write(`everything-server listening on http://${options.host}:${port}/mcp\n`);
});

function shutdown() {
    for (const t of transports.values()) t.close().catch(() => {});
    httpServer.close(() => process.exit(0));
    httpServer.closeAllConnections?.();
    setTimeout(() => process.exit(0), 2000).unref();
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// A test driver that dies (e.g. killed by a ctest timeout) closes our stdin: do not outlive it.
if (options.exitOnStdinClose) {
    process.stdin.on('end', shutdown);
    process.stdin.on('error', shutdown);
    process.stdin.resume();
}
