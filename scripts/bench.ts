// npm run bench: the service against the machine's own limits, in one run. Prints one table and writes BENCHMARKS.md.
// Every server is a child process on 127.0.0.1; the load generator (autocannon) runs here. Stops by itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { cpus, totalmem, tmpdir, release } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { mintDashboardToken } from '../server/src/auth/dashboard-tokens.js';
import { startCluster, stopCluster, postgresBinDir } from '../server/test/support/postgres-cluster.js';
import { FakeAnthropic, schemaOf } from '../server/test/support/fake-anthropic.js';
import { emptyAnswer } from '../server/test/support/answers.js';
import { dataSchemaFor } from '../server/src/extraction/schemas/contract-schemas.js';

const root = new URL('..', import.meta.url).pathname;
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 32;
// Load cases 3-5 spread their connections over this many accounts, as a hosted API's traffic is; one account's
// rows serialise its own requests, so case 4 also runs on a single account (the worst case).
const ACCOUNTS = 8;
const SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const children: ChildProcess[] = [];
const DOC = `ACME CLOUD SUPPLY LLC\nInvoice INV-2026-0418\nDate: April 18, 2026\n${'Data pipeline setup  1 x $4,500.00  $4,500.00\n'.repeat(40)}Total due: $4,500.00\n`.slice(0, 2048);

function start(args: string[], env: Record<string, string> = {}, command = process.execPath): Promise<{ port: number; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    // Its own process group, so stopping `npm start` stops the server under it too.
    const child = spawn(command, args, { cwd: root, env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'inherit'], detached: true });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /"port":(\d+)/.exec(out);
      if (m) { child.stdout!.removeAllListeners('data'); child.stdout!.resume(); resolve({ port: Number(m[1]), child }); }
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}`)));
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return; // already gone
  }
  await exited;
}

interface Row { name: string; rps: number; p50: number; p99: number; errors: number; note?: string }
const rows: Row[] = [];

/** Each connection sends one of `keys` (in turn) as its x-api-key. */
const spread = (keys: string[]) => {
  let next = 0;
  return (client: { setHeaders(h: Record<string, string>): void }, headers: Record<string, string>) => client.setHeaders({ ...headers, 'x-api-key': keys[next++ % keys.length]! });
};

async function load(name: string, opts: autocannon.Options & { keys?: string[] }, note?: string): Promise<Row> {
  const { keys, ...rest } = opts;
  const assign = keys ? spread(keys) : undefined;
  const r = await autocannon({
    duration: DURATION, connections: CONNECTIONS, ...rest,
    ...(assign ? { setupClient: (client: autocannon.Client) => assign(client as unknown as { setHeaders(h: Record<string, string>): void }, (rest.headers ?? {}) as Record<string, string>) } : {}),
  });
  const errors = r.errors + r.timeouts + r.non2xx;
  const row = { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors, note };
  rows.push(row);
  console.log(`${name.padEnd(48)} ${String(row.rps).padStart(7)} req/s  p50 ${row.p50} ms  p99 ${row.p99} ms  errors ${errors}`);
  return row;
}

async function service(env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-data-'));
  const plans = join(dataDir, 'plans.json');
  writeFileSync(plans, JSON.stringify({ free: { heuPerMonth: 1e9, requestsPerMinute: 1e9 }, starter: { heuPerMonth: 1e9, requestsPerMinute: 1e9 } }));
  const s = await start(['server/dist/main.js'], { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DASHBOARD_JWT_SECRET: SECRET, PLANS_FILE: plans, NODE_ENV: 'production',
    // Production settings on the embedded database too (its cases measure it; production alone refuses to start on it).
    ...(env.DATABASE_URL ? {} : { ALLOW_EMBEDDED_DATABASE: 'true' }), ...env });
  const base = `http://127.0.0.1:${s.port}`;
  const keys: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const token = await mintDashboardToken(SECRET, `acct_bench_${i}`);
    const created = await (await fetch(`${base}/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' })).json();
    keys.push(created.key as string);
  }
  return { ...s, base, key: keys[0]!, keys, dataDir };
}

/**
 * 9. Liveness while the offline engine works flat out: two clients each send 20-item batches of ~190,000-character
 * invoices back to back (the largest the contract allows), and 4 connections poll /healthz meanwhile. The offline
 * engine runs in worker threads, so the event loop answering /healthz stays free (target: p99 under 100 ms).
 */
async function healthzDuringBatches(): Promise<Row> {
  // OFFLINE_THREADS=0 in the environment runs the engine on the event loop, to compare.
  const local = await service({ EXTRACTION_ENGINE: 'local', ...(process.env.OFFLINE_THREADS ? { OFFLINE_THREADS: process.env.OFFLINE_THREADS } : {}) });
  const invoice = `${DOC}\n`.repeat(Math.floor(190_000 / (DOC.length + 1)));
  const body = JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: `i${i}`, document: { text: invoice }, kind: 'invoice' })) });
  let running = true;
  let batches = 0;
  const client = async () => {
    while (running) {
      const res = await fetch(`${local.base}/v1/extract/batch`, { method: 'POST', headers: { 'x-api-key': local.key, 'content-type': 'application/json' }, body });
      if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${await res.text()}`);
      batches++;
    }
  };
  const clients = [client(), client()];
  await new Promise((r) => setTimeout(r, 1000)); // the batches are under way
  const result = await autocannon({ url: `${local.base}/healthz`, connections: 4, duration: DURATION });
  running = false;
  await Promise.all(clients);
  await stop(local.child);
  rmSync(local.dataDir, { recursive: true, force: true });
  const row: Row = {
    name: '9. GET /healthz during 20-item batches of 190,000-character invoices (local rules)', rps: Math.round(result.requests.average),
    p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx, note: `target p99 < 100 ms; ${batches} batches (${batches * 20} documents) answered meanwhile`,
  };
  rows.push(row);
  console.log(`${row.name}: p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.note}`);
  return row;
}

const rss = async (pid: number) => Number((await import('node:fs')).readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)![1]) / 1024;

async function main(): Promise<void> {
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.version}; ${DURATION} s per case at ${CONNECTIONS} connections\n`);
  // One case alone, printed (BENCHMARKS.md is written only by the whole run): `healthz` (case 9) or `local` (case 5).
  if (process.env.BENCH_ONLY === 'healthz') {
    await healthzDuringBatches();
    return;
  }
  if (process.env.BENCH_ONLY === 'local') {
    const local = await service({ EXTRACTION_ENGINE: 'local', ...(process.env.OFFLINE_THREADS ? { OFFLINE_THREADS: process.env.OFFLINE_THREADS } : {}) });
    await load('5. extract/invoice, local rules (embedded)', {
      url: `${local.base}/v1/extract/invoice`, method: 'POST', headers: { 'x-api-key': local.key, 'content-type': 'application/json' }, body: JSON.stringify({ document: { text: DOC } }), keys: local.keys,
    });
    await stop(local.child);
    return;
  }
  const fake = await (new FakeAnthropic()).start();
  fake.fallback = () => ({ kind: 'answer', input: emptyAnswer(dataSchemaFor('invoice')) });

  const http = await start(['scripts/bench/bare-http.mjs']);
  const floor = await load('1. node:http, canned 1 KB', { url: `http://127.0.0.1:${http.port}/` });
  await stop(http.child);
  const ex = await start(['scripts/bench/bare-express.mjs']);
  const expressRow = await load('2. Express 5, canned 1 KB', { url: `http://127.0.0.1:${ex.port}/` });
  await stop(ex.child);

  const cluster = postgresBinDir() ? await startCluster() : null;
  const databases: Array<[string, Record<string, string>]> = [['embedded', {}]];
  if (cluster) {
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE bench');
    await admin.end();
    databases.push(['PostgreSQL', { DATABASE_URL: cluster.url('bench') }]);
  }
  const ratio = (r: Row) => `${((r.rps / floor.rps) * 100).toFixed(0)}% of 1, ${((r.rps / expressRow.rps) * 100).toFixed(0)}% of 2`;
  try {
    for (const [label, env] of databases) {
      const claude = await service({ ...env, ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: fake.url });
      const acc = await load(`3. GET /v1/account (${label})`, { url: `${claude.base}/v1/account`, headers: { 'x-api-key': claude.key }, keys: claude.keys });
      acc.note = ratio(acc);
      const invoice = { url: `${claude.base}/v1/extract/invoice`, method: 'POST' as const, headers: { 'x-api-key': claude.key, 'content-type': 'application/json' }, body: JSON.stringify({ document: { text: DOC } }) };
      const inv = await load(`4. extract/invoice, instant fake Claude (${label})`, { ...invoice, keys: claude.keys });
      inv.note = ratio(inv);
      const one = await load(`4. the same, every request on one account (${label})`, invoice);
      one.note = ratio(one);
      await stop(claude.child);
      rmSync(claude.dataDir, { recursive: true, force: true });
      const local = await service({ ...env, EXTRACTION_ENGINE: 'local' });
      const loc = await load(`5. extract/invoice, local rules (${label})`, {
        url: `${local.base}/v1/extract/invoice`, method: 'POST', headers: { 'x-api-key': local.key, 'content-type': 'application/json' }, body: JSON.stringify({ document: { text: DOC } }), keys: local.keys,
      });
      loc.note = ratio(loc);
      await stop(local.child);
      rmSync(local.dataDir, { recursive: true, force: true });
    }

    // 6. A 20-item batch against a provider that takes 300 ms a call.
    fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)), delayMs: 300 });
    const slow = await service({ ANTHROPIC_API_KEY: 'sk-ant-bench', ANTHROPIC_BASE_URL: fake.url });
    const items = Array.from({ length: 20 }, (_, i) => ({ id: `r${i}`, document: { text: `Receipt ${i}\nTOTAL 3.00` }, kind: 'receipt' }));
    const walls: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const res = await fetch(`${slow.base}/v1/extract/batch`, { method: 'POST', headers: { 'x-api-key': slow.key, 'content-type': 'application/json' }, body: JSON.stringify({ items }) });
      if (res.status !== 200) throw new Error(`batch answered ${res.status}`);
      walls.push(performance.now() - t);
    }
    const target = Math.ceil(20 / 5) * 300 + 150;
    const median = walls.sort((a, b) => a - b)[2]!;
    rows.push({ name: '6. batch of 20, provider 300 ms a call (wall time)', rps: 0, p50: Math.round(median), p99: Math.round(walls[4]!), errors: 0, note: `target <= ${target} ms` });
    console.log(`6. batch of 20: median ${median.toFixed(0)} ms, worst ${walls[4]!.toFixed(0)} ms (target <= ${target} ms)`);
    await stop(slow.child);

    await healthzDuringBatches();

    // 7. RSS before and after 20,000 extractions (local engine), after a warm-up.
    const mem = await service({ EXTRACTION_ENGINE: 'local' });
    const post = { url: `${mem.base}/v1/extract/invoice`, method: 'POST' as const, headers: { 'x-api-key': mem.key, 'content-type': 'application/json' }, body: JSON.stringify({ document: { text: DOC } }) };
    await autocannon({ ...post, amount: 2000, connections: 16 });
    const before = await rss(mem.child.pid!);
    await autocannon({ ...post, amount: 20000, connections: 16 });
    const after = await rss(mem.child.pid!);
    const growth = ((after - before) / before) * 100;
    rows.push({ name: '7. RSS over 20,000 extractions (after 2,000 warm-up)', rps: 0, p50: 0, p99: 0, errors: 0, note: `${before.toFixed(0)} MB -> ${after.toFixed(0)} MB (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%)` });
    console.log(`7. RSS ${before.toFixed(0)} MB -> ${after.toFixed(0)} MB (${growth.toFixed(1)}%)`);
    await stop(mem.child);

    // 8. Start on an existing embedded database: spawn to "listening", the compiled server and `npm start` (npm and
    // its prestart build included). The first start creates and migrates the database and is not counted.
    const startDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
    const startEnv = { DATA_DIR: startDir, PORT: '0', LOG_LEVEL: 'info' };
    await stop((await start(['server/dist/main.js'], startEnv)).child);
    for (const [label, cmd] of [['node server/dist/main.js', [process.execPath, 'server/dist/main.js']], ['npm start', ['npm', 'start', '--silent']]] as const) {
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        const s = await start(cmd.slice(1) as string[], { ...startEnv, HOME: process.env.HOME ?? '' }, cmd[0]);
        times.push(performance.now() - t);
        await stop(s.child);
      }
      const median = times.sort((a, b) => a - b)[1]!;
      rows.push({ name: `8. start on an existing embedded database (${label}, median of 3)`, rps: 0, p50: Math.round(median), p99: Math.round(times[2]!), errors: 0, note: 'target < 3000 ms' });
      console.log(`8. start (${label}): median ${median.toFixed(0)} ms, worst ${times[2]!.toFixed(0)} ms`);
    }
    rmSync(startDir, { recursive: true, force: true });
  } finally {
    for (const c of children) await stop(c);
    await fake.stop();
    if (cluster) stopCluster(cluster.dir);
  }

  const table = ['| case | req/s | p50 ms | p99 ms | errors | note |', '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.name} | ${r.rps || '—'} | ${r.rps ? r.p50 : r.p50 || '—'} | ${r.rps ? r.p99 : r.p99 || '—'} | ${r.errors} | ${r.note ?? ''} |`)].join('\n');
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, Linux ${release()}, Node ${process.version}`;
  writeFileSync(join(root, 'BENCHMARKS.md'), `# Benchmarks\n\nWritten by \`npm run bench\` (scripts/bench.ts) on ${new Date().toISOString().slice(0, 10)}.\n\nMachine: ${machine}. Each load case runs ${DURATION} s at ${CONNECTIONS} connections with autocannon on 127.0.0.1; every server is its own process; ratios compare with cases 1 and 2 of the same run, since absolute numbers drift on shared machines. Cases 3-5 spread their connections over ${ACCOUNTS} accounts; one account's metering rows serialise its requests, so case 4 is also run with every request on one account (the worst case).\n\n${table}\n`);
  console.log('\nwrote BENCHMARKS.md');
}

main().then(() => process.exit(0), (e) => { console.error(e); for (const c of children) { try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ } } process.exit(1); });
