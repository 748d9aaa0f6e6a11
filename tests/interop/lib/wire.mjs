// Shared 2026-07-28 Streamable HTTP plumbing for the interop scripts and the Node poll benchmarks.
// The official client SDK cannot send task-wire requests itself (its codecs reject the 2026
// `tasks/*` shapes), so the ext-tasks requester asks the host for a raw dispatcher: this is it.
import http from 'node:http';

export const PROTOCOL_VERSION = '2026-07-28';
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
export const CLIENT_INFO = Object.freeze({ name: 'eddy-interop', version: '0.1.0' });
export const CLIENT_CAPABILITIES = Object.freeze({
    elicitation: { form: {} },
    extensions: { [TASKS_EXTENSION]: {} },
});

// Task ids are bearer secrets: only a short prefix may reach a log line.
export function redact(secret) {
    if (typeof secret !== 'string' || secret.length === 0) return '<none>';
    return secret.length <= 6 ? '***' : `${secret.slice(0, 6)}…`;
}

export function requestMeta() {
    return {
        'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
        'io.modelcontextprotocol/clientCapabilities': CLIENT_CAPABILITIES,
    };
}

// Header values that are not plain printable ASCII travel base64-encoded (spec §1.8).
export function encodeHeaderValue(value) {
    const text = String(value);
    const plain = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(text);
    if (plain && !/^=\?base64\?.*\?=$/.test(text)) return text;
    return `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

export function routingHeaders(method, params) {
    const headers = {
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': PROTOCOL_VERSION,
        'Mcp-Method': method,
    };
    let name;
    if (method === 'tools/call' || method === 'prompts/get') name = params?.name;
    else if (method === 'resources/read') name = params?.uri;
    else if (method.startsWith('tasks/')) name = params?.taskId;
    if (name !== undefined && name !== null) headers['Mcp-Name'] = encodeHeaderValue(name);
    return headers;
}

// Returns the JSON-RPC response object from a body that is either JSON or an SSE stream.
export function parseRpcBody(contentType, body, id) {
    if ((contentType || '').includes('text/event-stream')) {
        let data = [];
        for (const rawLine of body.split(/\r?\n/)) {
            if (rawLine === '') {
                if (data.length > 0) {
                    const msg = JSON.parse(data.join('\n'));
                    data = [];
                    if (msg && msg.id === id && ('result' in msg || 'error' in msg)) return msg;
                }
                continue;
            }
            if (rawLine.startsWith(':')) continue;
            if (rawLine.startsWith('data:')) data.push(rawLine.slice(5).replace(/^ /, ''));
        }
        if (data.length > 0) {
            const msg = JSON.parse(data.join('\n'));
            if (msg && msg.id === id) return msg;
        }
        throw new Error(`SSE response ended without the JSON-RPC response for id ${id}`);
    }
    return JSON.parse(body);
}

// A keep-alive JSON-RPC client on node:http: one agent, new id per request, full _meta framing.
export class RawRpc {
    constructor(url, { keepAlive = true, maxSockets = 16 } = {}) {
        this.url = new URL(url);
        this.agent = new http.Agent({ keepAlive, maxSockets });
        this.nextId = 1;
    }

    close() {
        this.agent.destroy();
    }

    // Sends one already-framed request object ({method, params} with _meta) and resolves with
    // {kind:'result', result} or {kind:'error', error, httpStatus}; rejects on transport failure.
    send(request, { signal } = {}) {
        const id = request.id ?? this.nextId++;
        const message = { jsonrpc: '2.0', id, method: request.method, params: request.params ?? {} };
        const body = JSON.stringify(message);
        const headers = routingHeaders(message.method, message.params);
        headers['Content-Length'] = Buffer.byteLength(body);
        return new Promise((resolve, reject) => {
            const req = http.request({
                host: this.url.hostname,
                port: this.url.port,
                path: this.url.pathname,
                method: 'POST',
                agent: this.agent,
                headers,
                signal,
            }, (res) => {
                const chunks = [];
                res.on('data', (c) => chunks.push(c));
                res.on('end', () => {
                    const text = Buffer.concat(chunks).toString('utf8');
                    let parsed;
                    try {
                        parsed = parseRpcBody(res.headers['content-type'], text, id);
                    } catch (e) {
                        reject(new Error(`HTTP ${res.statusCode} from ${message.method}: unreadable body (${e.message}): ${text.slice(0, 200)}`));
                        return;
                    }
                    if (parsed && parsed.error) resolve({ kind: 'error', error: parsed.error, httpStatus: res.statusCode });
                    else if (parsed && 'result' in parsed) resolve({ kind: 'result', result: parsed.result, httpStatus: res.statusCode });
                    else reject(new Error(`HTTP ${res.statusCode} from ${message.method}: not a JSON-RPC response: ${text.slice(0, 200)}`));
                });
                res.on('error', reject);
            });
            req.on('error', reject);
            req.end(body);
        });
    }

    // Frames a request with the per-request _meta the 2026 protocol requires.
    call(method, params = {}) {
        return this.send({ method, params: { ...params, _meta: { ...requestMeta(), ...(params._meta ?? {}) } } });
    }
}

// Resolves with {proc, url} once a child prints its "listening on http://..." line on stdout.
export function waitForListening(proc, { timeoutMs = 60000, what = 'server' } = {}) {
    return new Promise((resolve, reject) => {
        let out = '';
        let err = '';
        const timer = setTimeout(() => {
            cleanup();
            reject(new Error(`${what} printed no "listening on" line within ${timeoutMs} ms; stderr: ${err.slice(-2000)}`));
        }, timeoutMs);
        const onOut = (chunk) => {
            out += chunk.toString();
            const m = out.match(/listening on (http:\/\/[^\s]+)/);
            if (m) {
                cleanup();
                resolve(m[1]);
            }
        };
        const onErr = (chunk) => { err += chunk.toString(); };
        const onExit = (code, sig) => {
            cleanup();
            reject(new Error(`${what} exited (code ${code}, signal ${sig}) before listening; stderr: ${err.slice(-2000)}`));
        };
        function cleanup() {
            clearTimeout(timer);
            proc.stdout.off('data', onOut);
            proc.stderr.off('data', onErr);
            proc.off('exit', onExit);
        }
        proc.stdout.on('data', onOut);
        proc.stderr.on('data', onErr);
        proc.on('exit', onExit);
    });
}
