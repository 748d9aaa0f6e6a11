#!/usr/bin/env node
// A job-id server in a naming style Eddy's own server does not use, built on the official
// @modelcontextprotocol/server (v2 SDK): camelCase tools (startSimulation, simulationStatus,
// simulationResult, cancelSimulation), no output schemas, and a submit answer that carries the
// job id only as {"job": {"id": ...}} and as "queued as job sim-..." in its text. Eddy's adapter
// proposal cannot see where the id is from tools/list alone; it has to learn it from the first
// answer. No Tasks extension: every call is a plain tool result.
//
// Usage: node sdk-job-server.mjs [--host 127.0.0.1] [--port 0] [--step-ms 80] [--exit-on-stdin-close]
// Prints "sdk-job-server listening on http://HOST:PORT/mcp" on stdout when ready.
import { randomBytes } from 'node:crypto';
import { McpServer, fromJsonSchema } from '@modelcontextprotocol/server';
import { parseFixtureArgs, serveOnLoopback } from './lib/serve.mjs';
import { redact } from './lib/wire.mjs';

const options = parseFixtureArgs('sdk-job-server', process.argv.slice(2), 80);
const log = (line) => process.stderr.write(`sdk-job-server: ${line}\n`);

// jobId -> { caseName, steps, step, state, timer }
const jobs = new Map();

function advance(job) {
    job.timer = undefined;
    if (job.state === 'cancelled') return;
    job.state = 'running';
    job.step += 1;
    if (job.step >= job.steps) {
        job.state = 'done';
        log(`job ${redact(job.id)} done after ${job.step} steps`);
        return;
    }
    job.timer = setTimeout(() => advance(job), options.stepMs);
}

const text = (t) => [{ type: 'text', text: t }];

function jobOf(args) {
    return typeof args?.jobId === 'string' ? jobs.get(args.jobId) : undefined;
}

function buildServer() {
    const server = new McpServer({ name: 'eddy-sdk-job-server', version: '0.1.0' },
        { capabilities: { tools: {} } });
    const idOnly = fromJsonSchema({
        type: 'object', properties: { jobId: { type: 'string' } }, required: ['jobId'],
    });

    server.registerTool('startSimulation', {
        description: 'Start a simulation run in the queue. Answers with the queued job.',
        inputSchema: fromJsonSchema({
            type: 'object',
            properties: {
                case_name: { type: 'string' },
                steps: { type: 'integer', minimum: 1, maximum: 1000 },
            },
            required: ['case_name'],
        }),
    }, async (args) => {
        const id = `sim-${randomBytes(12).toString('hex')}`;
        const steps = Number.isInteger(args.steps) ? args.steps : 5;
        const job = { id, caseName: args.case_name, steps, step: 0, state: 'queued' };
        jobs.set(id, job);
        job.timer = setTimeout(() => advance(job), options.stepMs);
        log(`queued job ${redact(id)} for "${job.caseName}"`);
        return {
            content: text(`Simulation "${job.caseName}" queued as job ${id} (position ${jobs.size}).`),
            structuredContent: { job: { id, queue: 'default', position: jobs.size } },
        };
    });

    server.registerTool('simulationStatus', {
        description: "Report a simulation job's state (queued, running, done, cancelled) and progress.",
        inputSchema: idOnly,
    }, async (args) => {
        const job = jobOf(args);
        if (!job) return { content: text('no such job'), structuredContent: { state: 'unknown' } };
        return {
            content: text(`${job.state}, step ${job.step} of ${job.steps}`),
            structuredContent: { state: job.state, progress: job.step / job.steps,
                message: `step ${job.step} of ${job.steps}` },
        };
    });

    server.registerTool('simulationResult', {
        description: "Fetch a finished simulation job's results.",
        inputSchema: idOnly,
    }, async (args) => {
        const job = jobOf(args);
        if (!job || job.state !== 'done')
            return { content: text('no finished job with that id'), isError: true };
        return {
            content: text(`simulation "${job.caseName}" finished (simulation-result-ok)`),
            structuredContent: { caseName: job.caseName, steps: job.step, converged: true },
        };
    });

    server.registerTool('cancelSimulation', {
        description: 'Cancel a queued or running simulation job.',
        inputSchema: idOnly,
    }, async (args) => {
        const job = jobOf(args);
        if (!job) return { content: text('no such job'), isError: true };
        clearTimeout(job.timer);
        job.state = 'cancelled';
        return { content: text('cancelled') };
    });
    return server;
}

serveOnLoopback('sdk-job-server', buildServer, options, log,
    () => { for (const job of jobs.values()) clearTimeout(job.timer); });
