#!/usr/bin/env node
// A small MCP server built on the official @modelcontextprotocol/server (v2 SDK) and its Node HTTP
// adapter, so that Eddy's client can be proven against a peer it did not write. The SDK serves the
// 2026-07-28 wire but not the Tasks extension, so this file keeps its own task table: the SDK
// builds a fresh server object per HTTP request, which is why the table lives at module level.
//
// Usage: node sdk-fixture-server.mjs [--host 127.0.0.1] [--port 0] [--step-ms 60] [--exit-on-stdin-close]
// Prints "sdk-fixture-server listening on http://HOST:PORT/mcp" on stdout when ready.
import { randomBytes } from 'node:crypto';
import { McpServer, ProtocolError, fromJsonSchema } from '@modelcontextprotocol/server';
import { parseFixtureArgs, serveOnLoopback } from './lib/serve.mjs';
import { TASKS_EXTENSION, redact } from './lib/wire.mjs';

const TOOL_NAME = 'fixture_case';
const INVALID_PARAMS = -32602;
const MISSING_CAPABILITY = -32021;
const TTL_MS = 10 * 60 * 1000;

const options = parseFixtureArgs('sdk-fixture-server', process.argv.slice(2), 60);
const log = (line) => process.stderr.write(`sdk-fixture-server: ${line}\n`);

// taskId -> task record. Keys of inputRequests are never reused within a task.
const tasks = new Map();

function now() {
    return new Date().toISOString();
}

function purgeExpired() {
    const t = Date.now();
    for (const [id, task] of tasks) {
        if (Date.parse(task.createdAt) + task.ttlMs < t) {
            clearTimeout(task.timer);
            tasks.delete(id);
        }
    }
}

function setStatus(task, status, statusMessage) {
    task.status = status;
    task.statusMessage = statusMessage;
    task.lastUpdatedAt = now();
    log(`task ${redact(task.taskId)} -> ${status}${statusMessage ? ` (${statusMessage})` : ''}`);
}

function isTerminal(task) {
    return task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled';
}

function detailedTask(task) {
    const view = {
        taskId: task.taskId,
        status: task.status,
        createdAt: task.createdAt,
        lastUpdatedAt: task.lastUpdatedAt,
        ttlMs: task.ttlMs,
        pollIntervalMs: task.pollIntervalMs,
    };
    if (task.statusMessage) view.statusMessage = task.statusMessage;
    if (task.status === 'input_required') view.inputRequests = task.inputRequests;
    if (task.status === 'completed') view.result = task.result;
    if (task.status === 'failed') view.error = task.error;
    return view;
}

function meshQuestion(task) {
    task.questionSeq += 1;
    const key = `mesh-repair-${task.questionSeq}`;
    task.inputRequests = {
        [key]: {
            method: 'elicitation/create',
            params: {
                mode: 'form',
                message: `Case "${task.caseName}": 3 cells near the lid corner have skewness 0.97 (limit 0.85). `
                    + 'Repair the mesh by smoothing, or abort the case?',
                requestedSchema: {
                    type: 'object',
                    properties: {
                        action: {
                            type: 'string',
                            title: 'Action',
                            oneOf: [
                                { const: 'repair', title: 'Repair the mesh and continue' },
                                { const: 'abort', title: 'Abort the case' },
                            ],
                        },
                        smoothing_passes: { type: 'integer', title: 'Smoothing passes', minimum: 1, maximum: 50, default: 5 },
                    },
                    required: ['action'],
                },
            },
        },
    };
    setStatus(task, 'input_required', 'mesh check failed: 3 cells above skewness limit');
}

function finish(task, isError, text, structured) {
    task.result = {
        resultType: 'complete',
        content: [{ type: 'text', text }],
        structuredContent: structured,
        isError,
    };
    setStatus(task, 'completed', isError ? 'ended with a tool error' : 'converged');
}

function step(task) {
    task.timer = undefined;
    if (isTerminal(task)) return;
    task.iteration += 1;
    const residual = Math.pow(10, -task.iteration);
    if (task.iteration >= task.steps) {
        finish(task, false,
            `fixture case "${task.caseName}" finished after ${task.iteration} iterations with `
            + `${task.smoothingPasses} smoothing passes (fixture-result-ok).`,
            { caseName: task.caseName, iterations: task.iteration, smoothingPasses: task.smoothingPasses, converged: true });
        return;
    }
    setStatus(task, 'working', `iteration ${task.iteration} of ${task.steps}, residual ${residual.toExponential(1)}`);
    task.timer = setTimeout(() => step(task), options.stepMs);
}

function applyAnswers(task, responses) {
    if (task.status !== 'input_required') return; // late or repeated answers are ignored
    for (const [key, answer] of Object.entries(responses)) {
        if (!(key in task.inputRequests)) {
            log(`task ${redact(task.taskId)}: ignoring answer for key "${key}" that is not outstanding`);
            continue;
        }
        delete task.inputRequests[key];
        const action = answer?.action;
        const content = answer?.content ?? {};
        if (action !== 'accept') {
            finish(task, true, `fixture case "${task.caseName}" stopped: the mesh question was answered "${action}".`,
                { caseName: task.caseName, converged: false, reason: String(action) });
            return;
        }
        if (content.action === 'abort') {
            finish(task, true, `fixture case "${task.caseName}" aborted on request after the mesh check.`,
                { caseName: task.caseName, converged: false, reason: 'abort' });
            return;
        }
        if (content.action !== 'repair') {
            // A bad answer does not end the case: ask again with a fresh key.
            log(`task ${redact(task.taskId)}: answer has no valid "action"; asking again`);
            meshQuestion(task);
            return;
        }
        const passes = content.smoothing_passes ?? 5;
        task.smoothingPasses = Number.isInteger(passes) && passes > 0 ? passes : 5;
    }
    if (Object.keys(task.inputRequests).length === 0) {
        setStatus(task, 'working', `mesh repaired with ${task.smoothingPasses} smoothing passes`);
        task.timer = setTimeout(() => step(task), options.stepMs);
    }
}

function requireTasksExtension(ctx) {
    const capabilities = ctx.mcpReq.envelope?.['io.modelcontextprotocol/clientCapabilities'];
    const declared = capabilities?.extensions?.[TASKS_EXTENSION];
    if (declared === undefined || declared === null) {
        throw new ProtocolError(MISSING_CAPABILITY,
            `This server runs ${TOOL_NAME} only as a task: declare the ${TASKS_EXTENSION} extension in clientCapabilities`,
            { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
    }
}

function lookup(taskId) {
    purgeExpired();
    const task = typeof taskId === 'string' ? tasks.get(taskId) : undefined;
    if (task === undefined) throw new ProtocolError(INVALID_PARAMS, 'Failed to retrieve task: Task not found');
    return task;
}

const taskIdParams = fromJsonSchema({
    type: 'object',
    properties: { taskId: { type: 'string' } },
    required: ['taskId'],
});

function createTask(args) {
    purgeExpired();
    const stamp = now();
    const task = {
        taskId: randomBytes(16).toString('hex'),
        status: 'working',
        statusMessage: 'queued, position 1',
        createdAt: stamp,
        lastUpdatedAt: stamp,
        ttlMs: TTL_MS,
        pollIntervalMs: 100,
        caseName: args.case_name,
        steps: Number.isInteger(args.steps) && args.steps > 0 ? Math.min(args.steps, 1000) : 5,
        iteration: 0,
        smoothingPasses: 0,
        questionSeq: 0,
        inputRequests: {},
    };
    tasks.set(task.taskId, task);
    log(`created task ${redact(task.taskId)} for case "${task.caseName}"`);
    task.timer = setTimeout(() => { task.timer = undefined; meshQuestion(task); }, options.stepMs);
    return task;
}

function buildServer() {
    const server = new McpServer(
        { name: 'eddy-sdk-fixture', version: '0.1.0' },
        { capabilities: { tools: {}, extensions: { [TASKS_EXTENSION]: {} } } });

    server.registerTool(TOOL_NAME, {
        description: 'A pretend CFD case that asks one mesh-repair question, then iterates and completes.',
        inputSchema: fromJsonSchema({
            type: 'object',
            properties: {
                case_name: { type: 'string' },
                steps: { type: 'integer', minimum: 1, maximum: 1000 },
            },
            required: ['case_name'],
        }),
    }, async () => {
        throw new Error('replaced by the tools/call handler below');
    });
    // McpServer's own tools/call wrapper turns every thrown error into an isError tool result, so
    // the missing-extension case (a JSON-RPC -32021 by the spec) needs the low-level handler.
    server.server.setRequestHandler('tools/call', async (request, ctx) => {
        if (request.params?.name !== TOOL_NAME)
            throw new ProtocolError(INVALID_PARAMS, `Unknown tool "${request.params?.name}"; this server offers ${TOOL_NAME}`);
        requireTasksExtension(ctx);
        const args = request.params.arguments ?? {};
        if (typeof args.case_name !== 'string' || args.case_name.length === 0) {
            return { content: [{ type: 'text', text: 'case_name must be a non-empty string' }], isError: true };
        }
        return { resultType: 'task', ...detailedTask(createTask(args)) };
    });

    // Registered with explicit schemas: the SDK only lets an extension reuse tasks/get and
    // tasks/cancel (2025 core names) when the handler brings its own param schema.
    server.server.setRequestHandler('tasks/get', { params: taskIdParams }, async (params, ctx) => {
        requireTasksExtension(ctx);
        return { resultType: 'complete', ...detailedTask(lookup(params.taskId)) };
    });
    server.server.setRequestHandler('tasks/update', { params: taskIdParams }, async (params, ctx) => {
        requireTasksExtension(ctx);
        const task = lookup(params.taskId);
        // The SDK lifts params.inputResponses into ctx (it treats them like MRTR responses).
        applyAnswers(task, ctx.mcpReq.inputResponses ?? {});
        return { resultType: 'complete' };
    });
    server.server.setRequestHandler('tasks/cancel', { params: taskIdParams }, async (params, ctx) => {
        requireTasksExtension(ctx);
        const task = lookup(params.taskId);
        if (!isTerminal(task)) {
            clearTimeout(task.timer);
            task.timer = undefined;
            setStatus(task, 'cancelled', 'cancelled on request');
        }
        return { resultType: 'complete' };
    });
    return server;
}

serveOnLoopback('sdk-fixture-server', buildServer, options, log,
    () => { for (const task of tasks.values()) clearTimeout(task.timer); });
