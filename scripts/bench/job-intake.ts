// How long job intake takes to answer 202, with the API in its own process (the compiled server, no worker: nothing
// else competes) on the embedded database and, when PostgreSQL is installed, on PostgreSQL:
//   1. POST /v1/jobs/batch with 1,000 text items (target: under 1 s);
//   2. 50 files of 1 MB (PDFs), sent as 5 batches of 10 (a batch body may be 15 MB), one after another
//      (target: under 5 s in all).
// Files are stored with the job and opened by the worker, so intake does not depend on what the files hold. Beside each
// wall-clock time, the CPU time the API process spent (on the embedded database that includes the database itself).
//   node scripts/build-server.mjs && npx tsx scripts/bench/job-intake.ts      (BENCH_RUNS=3 by default)
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { mintDashboardToken } from '../../server/src/auth/dashboard-tokens.js';
import { startChildServer, type ChildServer } from '../../server/test/support/child-server.js';
import { pdfWith } from '../../server/test/support/hostile-files.js';
import { postgresBinDir, startCluster, stopCluster } from '../../server/test/support/postgres-cluster.js';

const SECRET = 'bench-intake-secret-0123456789-0123456789';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

/** A PDF of one page whose content stream is 1 MB of random bytes (deflate cannot shrink it): 1 MB on the wire. */
const megabytePdf = () => pdfWith([{ width: 612, height: 792, content: randomBytes(1_000_000) }]);

async function api(env: Record<string, string>): Promise<{ server: ChildServer; key: string }> {
  const plansFile = join(mkdtempSync(join(tmpdir(), 'bench-intake-plans-')), 'plans.json');
  writeFileSync(plansFile, JSON.stringify({ free: { heuPerMonth: 100_000_000, requestsPerMinute: 100_000 }, starter: { heuPerMonth: 100_000_000, requestsPerMinute: 100_000 } }));
  const server = await startChildServer({ DASHBOARD_JWT_SECRET: SECRET, PLANS_FILE: plansFile, START_WORKER: 'false', EXTRACTION_ENGINE: 'local', LOG_LEVEL: 'info', ...env });
  const bearer = { authorization: `Bearer ${await mintDashboardToken(SECRET, 'acct_bench_intake')}`, 'content-type': 'application/json' };
  const { key } = await (await fetch(`${server.baseUrl}/v1/keys`, { method: 'POST', headers: bearer, body: '{}' })).json() as { key: string };
  return { server, key };
}

/**
 * One call on a connection of its own (no keep-alive: building the next bodies may take longer than the service keeps
 * an idle connection, and a POST sent on a connection it is closing fails with EPIPE).
 */
function accept(server: ChildServer, key: string, body: string): Promise<{ ms: number; jobs: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(`${server.baseUrl}/v1/jobs/batch`, {
      method: 'POST', agent: false,
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      let answer = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => { answer += c; });
      res.on('end', () => {
        const ms = performance.now() - started;
        if (res.statusCode !== 202) return reject(new Error(`POST /v1/jobs/batch answered ${res.statusCode}: ${answer.slice(0, 300)}`));
        resolve({ ms, jobs: (JSON.parse(answer) as { jobs: unknown[] }).jobs.length });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * CPU seconds the API process has used (user + system, from /proc): what a call costs whatever else the machine runs,
 * since this shared machine's load stretches wall-clock times several fold.
 */
function cpuSeconds(server: ChildServer): number {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const receipt = (i: number) => `CORNER SHOP ${i}\n03/15/2026\nItem ${i} 2.00\nTOTAL ${(2 + i / 100).toFixed(2)}\nCASH`;
const textBatch = (run: number) => JSON.stringify({ route: 'receipt', items: Array.from({ length: 1000 }, (_, i) => ({ document: { text: receipt(run * 1000 + i) } })) });
const fileBatches = () => Array.from({ length: 5 }, () => JSON.stringify({
  route: 'invoice', items: Array.from({ length: 10 }, () => ({ document: { content: megabytePdf().toString('base64'), mediaType: 'application/pdf' } })),
}));

async function measure(label: string, env: Record<string, string>): Promise<void> {
  const { server, key } = await api(env);
  try {
    await accept(server, key, JSON.stringify({ route: 'receipt', items: [{ document: { text: receipt(0) } }] })); // warm-up
    const text: Array<{ ms: number; cpu: number }> = [];
    const files: Array<{ total: number; calls: number[]; cpu: number }> = [];
    for (let run = 0; run < RUNS; run++) {
      const body = textBatch(run);
      const cpuBefore = cpuSeconds(server);
      text.push({ ms: (await accept(server, key, body)).ms, cpu: cpuSeconds(server) - cpuBefore });
      const batches = fileBatches();
      const calls: number[] = [];
      const filesCpuBefore = cpuSeconds(server);
      for (const b of batches) calls.push((await accept(server, key, b)).ms);
      files.push({ total: calls.reduce((a, c) => a + c, 0), calls, cpu: cpuSeconds(server) - filesCpuBefore });
    }
    const fmt = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    const cpu = (s: number) => `${s.toFixed(2)} s CPU`;
    console.log(`| ${label} | 1,000 text items, one batch | ${text.map((t) => `${fmt(t.ms)} (${cpu(t.cpu)})`).join(', ')} | under 1 s |`);
    console.log(`| ${label} | 50 PDFs of 1 MB, 5 batches of 10 | ${files.map((f) => `${fmt(f.total)} (slowest call ${fmt(Math.max(...f.calls))}; ${cpu(f.cpu)})`).join(', ')} | under 5 s |`);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

console.log(`job intake, ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}; ${RUNS} runs each\n`);
console.log('| database | case | time to 202 (each run; the API process\'s CPU time) | target |\n|---|---|---|---|');
const embeddedDir = mkdtempSync(join(tmpdir(), 'bench-intake-'));
try {
  await measure('embedded', { DATA_DIR: embeddedDir });
} finally {
  rmSync(embeddedDir, { recursive: true, force: true });
}
if (postgresBinDir()) {
  const cluster = await startCluster();
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-intake-pg-'));
  try {
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE bench_intake');
    await admin.end();
    await measure('PostgreSQL', { DATA_DIR: dataDir, DATABASE_URL: cluster.url('bench_intake') });
  } finally {
    stopCluster(cluster.dir);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log(`\nload after: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
