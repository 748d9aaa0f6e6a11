// Serving a server built on the official @modelcontextprotocol/server (v2 SDK) over loopback HTTP,
// as the interop fixtures do: one SDK server object per request, Host checked against localhost,
// "NAME listening on URL" on stdout when ready, and an orderly exit on SIGTERM, SIGINT or (with
// exitOnStdinClose) when the test driver that started it goes away.
import { createServer } from 'node:http';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { toNodeHandler, localhostHostValidation } from '@modelcontextprotocol/node';

// The fixtures' command line: --host ADDR, --port N, --step-ms N (the pace of a pretend case),
// --exit-on-stdin-close. A bad flag or value ends the process with exit code 2 and says why.
export function parseFixtureArgs(name, argv, defaultStepMs) {
    const opts = { host: '127.0.0.1', port: 0, stepMs: defaultStepMs, exitOnStdinClose: false };
    for (let i = 0; i < argv.length; i++) {
        const flag = argv[i];
        const value = argv[i + 1];
        if (flag === '--host' && value !== undefined) { opts.host = value; i++; }
        else if (flag === '--port' && value !== undefined) { opts.port = Number(value); i++; }
        else if (flag === '--step-ms' && value !== undefined) { opts.stepMs = Number(value); i++; }
        else if (flag === '--exit-on-stdin-close') opts.exitOnStdinClose = true;
        else {
            process.stderr.write(`${name}: unknown or incomplete flag "${flag}". `
                + 'Use --host ADDR, --port N, --step-ms N, --exit-on-stdin-close.\n');
            process.exit(2);
        }
    }
    if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535
        || !Number.isInteger(opts.stepMs) || opts.stepMs < 1) {
        process.stderr.write(`${name}: --port must be 0..65535 and --step-ms a positive integer.\n`);
        process.exit(2);
    }
    return opts;
}

// options: { host, port, exitOnStdinClose }; log(line) writes one log line; onShutdown() stops
// the fixture's own timers before the process exits.
export function serveOnLoopback(name, buildServer, options, log, onShutdown = () => {}) {
    const handler = createMcpHandler(() => buildServer(), {
        legacy: 'reject',
        onerror: (e) => log(`sdk reported: ${e.message}`),
    });
    const nodeHandler = toNodeHandler(handler, { onerror: (e) => log(`adapter error: ${e.message}`) });
    const validateHost = localhostHostValidation();

    const httpServer = createServer((req, res) => {
        if (!validateHost(req, res)) return;
        nodeHandler(req, res).catch((e) => {
            log(`request failed: ${e.message}`);
            if (!res.headersSent) res.writeHead(500);
            res.end();
        });
    });
    httpServer.keepAliveTimeout = 30000;
    httpServer.on('error', (e) => {
        log(`cannot listen on ${options.host}:${options.port}: ${e.message}`);
        process.exit(1);
    });
    httpServer.listen(options.port, options.host, () => {
        const { port } = httpServer.address();
        process.stdout.write(`${name} listening on http://${options.host}:${port}/mcp\n`);
    });

    function shutdown() {
        onShutdown();
        httpServer.close(() => process.exit(0));
        handler.close().catch(() => {});
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
}
