// The poll schedule shared by the Node comparison clients: every task once per interval, evenly
// staggered, at most `maxInFlight` requests outstanding, for a fixed window. Reports the same
// numbers bench_server does, as JSON, so the C++ side can put them in one table.
import { readFileSync, writeFileSync } from 'node:fs';

export function parseArgs(argv) {
    const opts = { url: undefined, ids: undefined, durationMs: 10000, intervalMs: 500, out: undefined, maxInFlight: 32 };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--ids') opts.ids = argv[++i];
        else if (a === '--duration-ms') opts.durationMs = Number(argv[++i]);
        else if (a === '--interval-ms') opts.intervalMs = Number(argv[++i]);
        else if (a === '--max-in-flight') opts.maxInFlight = Number(argv[++i]);
        else if (a === '--out') opts.out = argv[++i];
        else if (!opts.url && !a.startsWith('--')) opts.url = a;
        else throw new Error(`unknown argument "${a}"`);
    }
    if (!opts.url || !opts.ids) throw new Error('usage: SCRIPT URL --ids FILE [--duration-ms N] [--interval-ms N] [--out FILE]');
    const ids = JSON.parse(readFileSync(opts.ids, 'utf8'));
    if (!Array.isArray(ids) || ids.length === 0) throw new Error(`${opts.ids} holds no task ids`);
    return { ...opts, taskIds: ids };
}

// pollOnce(taskId) resolves true when the poll returned a task status.
export async function runSchedule(opts, pollOnce) {
    const n = opts.taskIds.length;
    const gap = opts.intervalMs / n;
    const asked = Math.floor((opts.durationMs / opts.intervalMs) * n);
    let issued = 0, served = 0, errors = 0, inFlight = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const end = t0 + opts.durationMs;
    let wake;
    const finished = () => { inFlight--; if (wake) { const w = wake; wake = undefined; w(); } };
    while (performance.now() < end) {
        const now = performance.now();
        while (issued < asked && inFlight < opts.maxInFlight && t0 + issued * gap <= now) {
            const id = opts.taskIds[issued % n];
            issued++;
            inFlight++;
            pollOnce(id).then((ok) => { if (performance.now() < end) { if (ok) served++; else errors++; } finished(); },
                () => { if (performance.now() < end) errors++; finished(); });
        }
        const nextDue = issued < asked ? t0 + issued * gap : end;
        const waitMs = Math.max(0, Math.min(end, nextDue) - performance.now());
        await new Promise((resolve) => {
            wake = resolve;
            setTimeout(() => { if (wake === resolve) wake = undefined; resolve(); }, inFlight >= opts.maxInFlight ? 50 : waitMs);
        });
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const result = {
        seconds, asked, served, errors,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        rssMiB: process.memoryUsage().rss / (1024 * 1024),
    };
    while (inFlight > 0) await new Promise((r) => setTimeout(r, 20));
    return result;
}

export function report(opts, result) {
    const text = JSON.stringify(result);
    if (opts.out) writeFileSync(opts.out, text);
    process.stdout.write(`${text}\n`);
}
