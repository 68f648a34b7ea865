// How long a healthy account's webhook events take to arrive (receipt time minus the event's timestamp, the job's end)
// while another account's endpoints are slow, failing or hanging. The service runs as `npm start` does (API and worker
// in one process, embedded database, offline engine, default webhook settings) from the checkout named by BENCH_ROOT
// (default: this one), so the same script measures another build too.
//   quiet:    the healthy account alone, 10 jobs 0.3 s apart;
//   slow-500: the same while the noisy account's 40 jobs go to an endpoint answering in 2 s and one always answering 500;
//   hanging:  the same while the noisy account's 10 jobs go to 20 endpoints that never answer (15 s timeout each).
// Each healthy event not received within 90 s counts as 90 s ("> 90 s").
//   node scripts/build-server.mjs && npx tsx scripts/bench/webhook-isolation.ts
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mintDashboardToken } from '../../server/src/auth/dashboard-tokens.js';

const ROOT = resolve(process.env.BENCH_ROOT ?? new URL('../..', import.meta.url).pathname);
const SECRET = 'bench-webhooks-secret-0123456789-0123456789';
const INVOICE = 'ACME LLC\nInvoice No: INV-7\nTotal due: $4,500.00';
const CUTOFF_MS = 90_000;

async function listen(handler: (res: import('node:http').ServerResponse) => void): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => { req.resume(); req.on('end', () => handler(res)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

async function start(dataDir: string): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const plans = join(dataDir, 'plans.json');
  writeFileSync(plans, JSON.stringify({ free: { heuPerMonth: 100_000_000, requestsPerMinute: 100_000 }, starter: { heuPerMonth: 100_000_000, requestsPerMinute: 100_000 } }));
  const child = spawn(process.execPath, [join(ROOT, 'server/dist/main.js')], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', ENV_FILE: '', DATA_DIR: join(dataDir, 'data'), DASHBOARD_JWT_SECRET: SECRET, PLANS_FILE: plans, EXTRACTION_ENGINE: 'local', WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'info' },
  });
  let out = '';
  child.stderr.on('data', (d) => { out += d; });
  const port = await new Promise<number>((ok, fail) => {
    child.stdout.on('data', (d) => { out += d; const m = /"port":(\d+)/.exec(out); if (m) ok(Number(m[1])); });
    child.once('exit', (code) => fail(new Error(`exited ${code}: ${out}`)));
  });
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => { child.once('exit', () => r()); child.kill('SIGKILL'); }) };
}

async function account(baseUrl: string, id: string): Promise<string> {
  const bearer = { authorization: `Bearer ${await mintDashboardToken(SECRET, id)}`, 'content-type': 'application/json' };
  return ((await (await fetch(`${baseUrl}/v1/keys`, { method: 'POST', headers: bearer, body: '{}' })).json()) as { key: string }).key;
}

const post = (baseUrl: string, key: string, path: string, body: unknown) =>
  fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });

const pct = (xs: number[], p: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!; };

async function scenario(name: 'quiet' | 'slow-500' | 'hanging'): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-webhooks-'));
  const servers: Server[] = [];
  const svc = await start(dir);
  try {
    const arrived = new Map<string, number>();
    const healthy = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        const event = JSON.parse(body) as { timestamp: string; data: { job: { id: string } } };
        if (!arrived.has(event.data.job.id)) arrived.set(event.data.job.id, Date.now() - Date.parse(event.timestamp));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => healthy.listen(0, '127.0.0.1', () => r()));
    servers.push(healthy);
    const healthyKey = await account(svc.baseUrl, 'acct_healthy');
    await post(svc.baseUrl, healthyKey, '/v1/webhook-endpoints', { url: `http://127.0.0.1:${(healthy.address() as AddressInfo).port}/hook` });
    if (name !== 'quiet') {
      const noisyKey = await account(svc.baseUrl, 'acct_noisy');
      const endpoints = name === 'slow-500'
        ? [await listen((res) => setTimeout(() => res.writeHead(200).end(), 2000)), await listen((res) => res.writeHead(500).end())]
        : await Promise.all(Array.from({ length: 20 }, () => listen(() => {})));
      for (const e of endpoints) {
        servers.push(e.server);
        await post(svc.baseUrl, noisyKey, '/v1/webhook-endpoints', { url: e.url });
      }
      const jobs = name === 'slow-500' ? 40 : 10;
      await Promise.all(Array.from({ length: jobs }, () => post(svc.baseUrl, noisyKey, '/v1/jobs', { route: 'invoice', document: { text: INVOICE } })));
      await new Promise((r) => setTimeout(r, 3000)); // the noisy events are out and being attempted
    }
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      ids.push(((await (await post(svc.baseUrl, healthyKey, '/v1/jobs', { route: 'invoice', document: { text: INVOICE } })).json()) as { id: string }).id);
      await new Promise((r) => setTimeout(r, 300));
    }
    const end = Date.now() + CUTOFF_MS;
    while (ids.some((id) => !arrived.has(id)) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    const ms = ids.map((id) => arrived.get(id) ?? CUTOFF_MS);
    const late = ids.filter((id) => !arrived.has(id)).length;
    return `${name.padEnd(9)} healthy events: p50 ${pct(ms, 50)} ms, p95 ${pct(ms, 95)} ms, max ${Math.max(...ms)} ms${late ? ` (${late} of 10 not received within ${CUTOFF_MS / 1000} s)` : ''}`;
  } finally {
    for (const s of servers) { s.closeAllConnections(); s.close(); }
    await svc.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`checkout ${ROOT}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const name of ['quiet', 'slow-500', 'hanging'] as const) console.log(await scenario(name));
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
