// npm run soak: mixed traffic at a steady rate against two instances on one PostgreSQL, then a ledger check.
// One throw-away PostgreSQL cluster (127.0.0.1), two servers (child processes, `node server/dist/main.js`, built by
// `presoak`), a fake Anthropic API in this process that answers valid tool_use answers after 20-200 ms and fails a
// few per cent of calls. Requests are scheduled by a timer (open loop: a fixed number a second whatever the answers
// take), spread over both instances and several accounts. At the end: every account's bucket against its settled
// usage records and against the HEU the answers reported. Prints a report, writes the `## Soak (npm run soak)`
// section of RELIABILITY.md, exits 1 on any failed check. Stops everything it started, also on error and Ctrl-C.
//
//   SOAK_SECONDS  how long traffic runs (default 300)
//   SOAK_RPS      requests a second (default 40)
//   SOAK_FAIL_RATE  share of model calls the fake provider fails with 529 or 500 (default 0.04)
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { mintDashboardToken } from '../server/src/auth/dashboard-tokens.js';
import { FakeAnthropic, schemaOf, type Behaviour } from '../server/test/support/fake-anthropic.js';
import { emptyAnswer } from '../server/test/support/answers.js';
import { startCluster, stopCluster, type Cluster } from '../server/test/support/postgres-cluster.js';

const root = new URL('..', import.meta.url).pathname;
const SECONDS = positive('SOAK_SECONDS', 300);
const RPS = positive('SOAK_RPS', 40);
const FAIL_RATE = Number(process.env.SOAK_FAIL_RATE ?? 0.04);
const SECRET = 'soak-secret-soak-secret-soak-secret-0123456';
/** Accounts on the generous plan (`starter` here) and on a small one (`free` here: a small bucket, a low rate). */
const BIG_ACCOUNTS = 6;
const SMALL_ACCOUNTS = 2;
const PLANS = { starter: { heuPerMonth: 100_000_000, requestsPerMinute: 1_000_000 }, free: { heuPerMonth: 150, requestsPerMinute: 60 } };
/** Open loop, but not without bound: past this many requests in flight the generator skips (and reports it). */
const MAX_IN_FLIGHT = 2000;
const CLIENT_TIMEOUT_MS = 130_000;
/** Latency is also reported without the first seconds, where the fresh processes warm up. */
const WARMUP_S = 10;

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`${name} must be a positive number (got ${JSON.stringify(raw)})`);
    process.exit(2);
  }
  return n;
}

// ---------------------------------------------------------------------------------------------------------------
// What this process started, and stopping it (always).

interface Instance { name: string; child: ChildProcess; port: number; base: string; log: string; exited: string | null }
const instances: Instance[] = [];
const children: ChildProcess[] = [];
let cluster: Cluster | null = null;
let fake: FakeAnthropic | null = null;
let runDir = '';
let cleaning: Promise<void> | null = null;
let stopRequested = false;

function startInstance(name: string, env: Record<string, string>, logFile: string): Promise<Instance> {
  return new Promise((resolve, reject) => {
    // Its own process group, so it can be stopped as a whole, and a Ctrl-C in the terminal reaches only this script
    // (which then stops it in order).
    const child = spawn(process.execPath, ['server/dist/main.js'], { cwd: root, env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.push(child);
    const log: WriteStream = createWriteStream(logFile);
    child.stderr!.pipe(log, { end: false });
    let resolved = false;
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      log.write(`${line}\n`);
      if (!resolved) {
        const m = /"port":(\d+)/.exec(line);
        if (m && line.includes('listening')) {
          resolved = true;
          const port = Number(m[1]);
          const inst: Instance = { name, child, port, base: `http://127.0.0.1:${port}`, log: logFile, exited: null };
          child.once('exit', (code, signal) => { inst.exited = `code ${code}, signal ${signal}`; });
          instances.push(inst);
          resolve(inst);
        }
      }
    });
    lines.once('close', () => log.end());
    child.once('exit', (code, signal) => {
      if (!resolved) reject(new Error(`instance ${name} exited before listening (code ${code}, signal ${signal}); log: ${logFile}\n${readTail(logFile)}`));
    });
  });
}

function readTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '';
  }
}

async function stopChild(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return; // already gone
  }
  const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, graceMs);
  await exited;
  clearTimeout(timer);
}

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await Promise.all(children.map((c) => stopChild(c)));
    if (fake) await fake.stop().catch(() => {});
    if (cluster) stopCluster(cluster.dir);
    cluster = null;
  })();
  return cleaning;
}

/** Last resort, synchronous: used on a second Ctrl-C and at exit. */
function killEverything(): void {
  for (const c of children) {
    if (c.exitCode === null && c.signalCode === null) {
      try { process.kill(-c.pid!, 'SIGKILL'); } catch { /* gone */ }
    }
  }
  if (cluster) { stopCluster(cluster.dir); cluster = null; }
}

let firstSignalAt = 0;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    // A Ctrl-C can arrive twice at once (from the terminal and relayed by tsx): only a later one means "hurry".
    if (stopRequested && Date.now() - firstSignalAt < 1000) return;
    if (stopRequested) {
      console.error(`\n${signal} again: killing everything`);
      killEverything();
      process.exit(130);
    }
    stopRequested = true;
    firstSignalAt = Date.now();
    console.error(`\n${signal}: stopping the traffic, the servers and the database`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.on('exit', () => killEverything());

// ---------------------------------------------------------------------------------------------------------------
// Traffic.

type Kind =
  | 'invoice' | 'receipt' | 'custom' | 'batch' | 'account' | 'keys_list' | 'keys_create' | 'keys_replay'
  | 'bad_json' | 'bad_missing' | 'bad_key' | 'bad_oversized' | 'bad_idem_conflict';

/** Weights of the mix (per cent) and the statuses each kind may legitimately answer. */
const MIX: Array<{ kind: Kind; weight: number; expect: number[] }> = [
  { kind: 'invoice', weight: 22, expect: [200, 402, 429, 502, 504] },
  { kind: 'receipt', weight: 18, expect: [200, 402, 429, 502, 504] },
  { kind: 'custom', weight: 12, expect: [200, 402, 429, 502, 504] },
  { kind: 'batch', weight: 8, expect: [200, 402, 429, 502, 504] },
  { kind: 'account', weight: 12, expect: [200] },
  { kind: 'keys_list', weight: 8, expect: [200] },
  { kind: 'keys_create', weight: 4, expect: [201] },
  { kind: 'keys_replay', weight: 3, expect: [200] },
  { kind: 'bad_json', weight: 3, expect: [400] },
  { kind: 'bad_missing', weight: 3, expect: [400] },
  { kind: 'bad_key', weight: 3, expect: [401] },
  { kind: 'bad_oversized', weight: 2, expect: [413] },
  { kind: 'bad_idem_conflict', weight: 2, expect: [409] },
];
const TOTAL_WEIGHT = MIX.reduce((s, m) => s + m.weight, 0);
const EXTRACTION: ReadonlySet<Kind> = new Set(['invoice', 'receipt', 'custom', 'batch']);
/** Statuses the fake provider's failures produce (after the SDK's retries): 502 upstream_error, 504 upstream_timeout. */
const PROVIDER_CODES = new Set(['upstream_error', 'upstream_timeout']);

interface Account { id: string; small: boolean; token: string; apiKey: string; idempotent: Array<{ key: string; name: string; id: string }> }

interface Result {
  n: number;
  kind: Kind;
  instance: string;
  account: string;
  status: number; // 0: network failure or timeout
  code: string | null;
  reason: string | null;
  ms: number;
  lagMs: number;
  /** Seconds since traffic started, when it was sent. */
  at: number;
  error?: string;
}

const results: Result[] = [];
const problems: string[] = [];
let skipped = 0;
let batchItemsFailed = 0;
let batchItemsOk = 0;
/** HEU the 200 answers reported, per account. */
const reportedHeu = new Map<string, number>();
const okExtractions = new Map<string, number>();

const rand = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(xs: readonly T[]): T => xs[rand(xs.length)]!;

const CUSTOM_SCHEMA = { type: 'object', properties: { eventName: { type: 'string' }, capacity: { type: 'integer' }, date: { type: 'string', description: 'ISO date' } } };
const INVOICE = (i: number) => `ACME CLOUD SUPPLY LLC\nInvoice INV-2026-${String(i).padStart(5, '0')}\nDate: April 18, 2026\n${'Data pipeline setup  1 x $4,500.00  $4,500.00\n'.repeat(1 + rand(8))}Total due: $4,500.00\n`;
const RECEIPT = (i: number) => `BLUE DOOR CAFE\n03/14/2026 12:${String(i % 60).padStart(2, '0')}\n${'Flat White 4.50\n'.repeat(1 + rand(5))}TOTAL 4.50\nVISA`;
const EVENT = (i: number) => `Spring Meetup #${i}, 2026-05-0${1 + (i % 9)}, ${50 + (i % 200)} places`;
const OVERSIZED = JSON.stringify({ document: { text: 'x'.repeat(200_001) } });

function batchBody(n: number): { items: unknown[] } {
  const count = 2 + rand(19);
  return {
    items: Array.from({ length: count }, (_, i) => {
      const id = `b${n}-${i}`;
      switch (rand(3)) {
        case 0: return { id, document: { text: INVOICE(n + i) }, kind: 'invoice' };
        case 1: return { id, document: { text: RECEIPT(n + i) }, kind: 'receipt' };
        default: return { id, document: { text: EVENT(n + i) }, schema: CUSTOM_SCHEMA };
      }
    }),
  };
}

function chooseKind(): (typeof MIX)[number] {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const m of MIX) {
    r -= m.weight;
    if (r < 0) return m;
  }
  return MIX[0]!;
}

interface Plan { method: 'GET' | 'POST'; path: string; headers: Record<string, string>; body?: string; after?: (status: number, json: unknown) => void }

function planRequest(kind: Kind, n: number, acct: Account): Plan {
  const json = { 'content-type': 'application/json' };
  const key = { 'x-api-key': acct.apiKey };
  const bearer = { authorization: `Bearer ${acct.token}` };
  const post = (path: string, body: unknown, headers: Record<string, string> = key): Plan => ({ method: 'POST', path, headers: { ...json, ...headers }, body: JSON.stringify(body) });
  switch (kind) {
    case 'invoice': return post('/v1/extract/invoice', { document: { text: INVOICE(n) } });
    case 'receipt': return post('/v1/extract/receipt', { document: { text: RECEIPT(n) } });
    case 'custom': return post('/v1/extract/custom', { document: { text: EVENT(n) }, schema: CUSTOM_SCHEMA });
    case 'batch': return post('/v1/extract/batch', batchBody(n));
    case 'account': return { method: 'GET', path: '/v1/account', headers: n % 2 ? key : bearer };
    case 'keys_list': return { method: 'GET', path: '/v1/keys?limit=10', headers: n % 2 ? key : bearer };
    case 'keys_create': {
      const idem = `soak-${n}`;
      const name = `soak key ${n}`;
      return {
        ...post('/v1/keys', { name }, { ...bearer, 'x-idempotency-key': idem }),
        after: (status, body) => {
          if (status === 201) acct.idempotent.push({ key: idem, name, id: (body as { id: string }).id });
        },
      };
    }
    case 'keys_replay':
    case 'bad_idem_conflict': {
      const prior = acct.idempotent.length ? pick(acct.idempotent) : null;
      if (!prior) return planRequest('keys_create', n, acct); // nothing to replay yet: counted as keys_create
      const name = kind === 'keys_replay' ? prior.name : `${prior.name} (changed)`;
      return {
        ...post('/v1/keys', { name }, { ...bearer, 'x-idempotency-key': prior.key }),
        after: (status, body) => {
          if (kind !== 'keys_replay' || status !== 200) return;
          const b = body as { id?: string; idempotent?: boolean; key?: string };
          if (b.id !== prior.id || b.idempotent !== true || b.key !== undefined) {
            problems.push(`replayed idempotency key ${prior.key} answered ${JSON.stringify({ id: b.id, idempotent: b.idempotent, hasRawKey: b.key !== undefined })}, expected the key ${prior.id}, idempotent, no raw key`);
          }
        },
      };
    }
    case 'bad_json': return { method: 'POST', path: '/v1/extract/invoice', headers: { ...json, ...key }, body: '{"document": {"text": "Invoice 7", }' };
    case 'bad_missing': return post(pick(['/v1/extract/invoice', '/v1/extract/custom', '/v1/extract/batch']), n % 2 ? {} : { document: {} });
    case 'bad_key': return post('/v1/extract/receipt', { document: { text: RECEIPT(n) } }, { 'x-api-key': `dx_live_${'0'.repeat(43)}` });
    case 'bad_oversized': return { method: 'POST', path: '/v1/extract/invoice', headers: { ...json, ...key }, body: OVERSIZED };
  }
}

/** Real kind actually sent (a replay without a prior key becomes a creation). */
function effectiveKind(kind: Kind, acct: Account): Kind {
  return (kind === 'keys_replay' || kind === 'bad_idem_conflict') && acct.idempotent.length === 0 ? 'keys_create' : kind;
}

function checkSuccess(kind: Kind, acct: Account, body: unknown, requestBody: string | undefined, n: number): void {
  if (!EXTRACTION.has(kind)) return;
  const b = body as { usage?: { heu?: unknown }; results?: Array<{ id: string; ok: boolean; usage?: { heu: number }; error?: { code: string } }> };
  const heu = b?.usage?.heu;
  if (typeof heu !== 'number' || !Number.isInteger(heu) || heu < 0) {
    problems.push(`request soak-${n} (${kind}) answered 200 without a valid usage.heu: ${JSON.stringify(b?.usage)}`);
    return;
  }
  if (kind === 'batch') {
    const sent = (JSON.parse(requestBody!) as { items: Array<{ id: string }> }).items;
    const items = b.results ?? [];
    if (items.length !== sent.length || items.some((it, i) => it.id !== sent[i]!.id)) problems.push(`request soak-${n} (batch): items answered ${items.length} / ids out of order, sent ${sent.length}`);
    let sum = 0;
    for (const it of items) {
      if (it.ok) { sum += it.usage?.heu ?? 0; batchItemsOk++; } else {
        batchItemsFailed++;
        if (!PROVIDER_CODES.has(it.error?.code ?? '')) problems.push(`request soak-${n} (batch): item ${it.id} failed with ${it.error?.code} (not a provider failure)`);
      }
    }
    if (sum !== heu) problems.push(`request soak-${n} (batch): usage.heu ${heu} but its items sum to ${sum}`);
  } else if (heu < 1) {
    problems.push(`request soak-${n} (${kind}): usage.heu ${heu} < 1`);
  }
  reportedHeu.set(acct.id, (reportedHeu.get(acct.id) ?? 0) + heu);
  okExtractions.set(acct.id, (okExtractions.get(acct.id) ?? 0) + 1);
}

async function send(n: number, scheduledAt: number, trafficStart: number, accounts: Account[]): Promise<void> {
  const mix = chooseKind();
  // Accounts uniformly: the small-plan ones get their share of every kind.
  const acct = accounts[rand(accounts.length)]!;
  const kind = effectiveKind(mix.kind, acct);
  const inst = instances[n % instances.length]!;
  const plan = planRequest(kind, n, acct);
  const started = performance.now();
  const lagMs = started - scheduledAt;
  const r: Result = { n, kind, instance: inst.name, account: acct.id, status: 0, code: null, reason: null, ms: 0, lagMs, at: (started - trafficStart) / 1000 };
  try {
    const res = await fetch(inst.base + plan.path, {
      method: plan.method,
      headers: { ...plan.headers, 'x-request-id': `soak-${n}` },
      body: plan.body,
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    const text = await res.text();
    r.ms = performance.now() - started;
    r.status = res.status;
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      if (res.status !== 204) problems.push(`request soak-${n} (${kind}) answered ${res.status} with a body that is not JSON: ${text.slice(0, 120)}`);
    }
    const err = (body as { error?: unknown } | null)?.error;
    if (err && typeof err === 'object') {
      const e = err as { code?: string; details?: { reason?: string } | null };
      r.code = e.code ?? null;
      r.reason = e.details?.reason ?? null;
    } else if (typeof err === 'string') {
      r.code = err;
    }
    if (res.status === 200) checkSuccess(kind, acct, body, plan.body, n);
    plan.after?.(res.status, body);
  } catch (e) {
    r.ms = performance.now() - started;
    r.error = (e as Error).name === 'TimeoutError' ? `timeout after ${CLIENT_TIMEOUT_MS} ms` : `${(e as Error).message}${(e as { cause?: Error }).cause ? ` (${(e as { cause?: Error }).cause!.message})` : ''}`;
  }
  results.push(r);
}

// ---------------------------------------------------------------------------------------------------------------
// Figures.

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}
const fmt = (ms: number) => (Number.isNaN(ms) ? '—' : ms >= 100 ? ms.toFixed(0) : ms.toFixed(1));
const rssMb = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
  } catch {
    return NaN;
  }
};
const countBy = <T>(xs: T[], f: (x: T) => string) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(f(x), (m.get(f(x)) ?? 0) + 1);
  return new Map([...m].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
};
const statusLabel = (r: Result) => (r.status === 0 ? 'network' : r.status === 429 ? `429 ${r.reason ?? r.code}` : String(r.status));
const listCounts = (m: Map<string, number>) => [...m].map(([k, v]) => `${k}: ${v}`).join(', ');

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Linux ${release()}, Node ${process.version}`;
  console.log(`soak: ${SECONDS} s at ${RPS} req/s over 2 instances, ${BIG_ACCOUNTS + SMALL_ACCOUNTS} accounts; provider fails ${(FAIL_RATE * 100).toFixed(1)}% of calls\nmachine: ${machine}`);
  if (!existsSync(join(root, 'server/dist/main.js'))) throw new Error('server/dist/main.js is missing: run `node scripts/build-server.mjs` (npm run soak does it first)');
  runDir = mkdtempSync(join(tmpdir(), 'docextract-soak-'));

  // The fake model provider: a valid answer after 20-200 ms, usage varied so items cost 1 to 4 HEU; a few per cent
  // of calls fail with 529 (overloaded) or 500.
  fake = await new FakeAnthropic().start();
  let injected = 0;
  fake.fallback = (req): Behaviour => {
    if (Math.random() < FAIL_RATE) {
      injected++;
      return { kind: 'status', status: Math.random() < 0.5 ? 529 : 500 };
    }
    return {
      kind: 'answer',
      input: emptyAnswer(schemaOf(req)),
      delayMs: 20 + rand(181),
      usage: { input_tokens: 200 + rand(2800), output_tokens: 50 + rand(750) },
    };
  };

  cluster = await startCluster();
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE soak');
  await admin.end();
  const databaseUrl = cluster.url('soak');
  const plansFile = join(runDir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify(PLANS));

  // Two instances started together on the empty database: they take turns migrating. Instance B does not retry the
  // provider, so its failures reach the caller (502); instance A retries (the SDK's default, 2).
  const common = {
    DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', NODE_ENV: 'production', LOG_LEVEL: 'info', DASHBOARD_JWT_SECRET: SECRET,
    PLANS_FILE: plansFile, ANTHROPIC_API_KEY: 'sk-ant-soak', ANTHROPIC_BASE_URL: fake.url, SHUTDOWN_TIMEOUT_MS: '10000',
  };
  const t0 = performance.now();
  const [a, b] = await Promise.all([
    startInstance('A', { ...common, DATA_DIR: join(runDir, 'a') }, join(runDir, 'instance-A.log')),
    startInstance('B', { ...common, DATA_DIR: join(runDir, 'b'), ANTHROPIC_MAX_RETRIES: '0' }, join(runDir, 'instance-B.log')),
  ]);
  instances.sort((x, y) => x.name.localeCompare(y.name));
  console.log(`instances A (${a.base}, provider retries 2) and B (${b.base}, no retries) up in ${((performance.now() - t0) / 1000).toFixed(1)} s; logs in ${runDir}`);

  // Accounts: each gets a key through the API (which creates the account); the generous ones are moved to `starter`.
  const accounts: Account[] = [];
  for (let i = 0; i < BIG_ACCOUNTS + SMALL_ACCOUNTS; i++) {
    const small = i >= BIG_ACCOUNTS;
    const id = `acct_soak_${small ? 'small' : 'big'}_${i}`;
    const token = await mintDashboardToken(SECRET, id);
    const res = await fetch(`${instances[i % 2]!.base}/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'soak' }) });
    if (res.status !== 201) throw new Error(`creating the key of ${id} answered ${res.status}: ${await res.text()}`);
    accounts.push({ id, small, token, apiKey: ((await res.json()) as { key: string }).key, idempotent: [] });
  }
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`UPDATE accounts SET plan = 'starter' WHERE id = ANY($1)`, [accounts.filter((x) => !x.small).map((x) => x.id)]);

  const rssStart = instances.map((i) => rssMb(i.child.pid!));
  let trafficStart = performance.now();
  const rssPeak = [...rssStart];
  /** RSS samples: [seconds since traffic started, MB per instance]. */
  const rssSamples: Array<[number, number[]]> = [];
  const sampler = setInterval(() => {
    const now = instances.map((inst) => rssMb(inst.child.pid!));
    now.forEach((mb, k) => { rssPeak[k] = Math.max(rssPeak[k]!, mb); });
    rssSamples.push([(performance.now() - trafficStart) / 1000, now]);
  }, 2000);

  // Open loop: request i is due at start + i / RPS, whether earlier ones have answered or not.
  const total = Math.round(SECONDS * RPS);
  const inFlight = new Set<Promise<void>>();
  trafficStart = performance.now();
  let sent = 0;
  let lastProgress = trafficStart;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (sent < total && !stopRequested && trafficStart + (sent * 1000) / RPS <= now) {
        const n = sent++;
        if (inFlight.size >= MAX_IN_FLIGHT) { skipped++; continue; }
        const p = send(n, trafficStart + (n * 1000) / RPS, trafficStart, accounts).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
      if (now - lastProgress >= 30_000) {
        lastProgress = now;
        const done = results.length;
        const bad = results.filter((r) => r.status === 0 || r.status >= 500).length;
        console.log(`  ${((now - trafficStart) / 1000).toFixed(0)} s: sent ${sent}, answered ${done}, in flight ${inFlight.size}, network/5xx ${bad}, RSS ${instances.map((i) => `${i.name} ${rssMb(i.child.pid!).toFixed(0)} MB`).join(', ')}`);
      }
      if (sent >= total || stopRequested) resolve();
      else setTimeout(tick, Math.max(0, trafficStart + (sent * 1000) / RPS - performance.now()));
    };
    tick();
  });
  const sendSeconds = (performance.now() - trafficStart) / 1000;
  await Promise.allSettled([...inFlight]);
  const allSeconds = (performance.now() - trafficStart) / 1000;
  clearInterval(sampler);
  if (stopRequested) return 130;
  const rssEnd = instances.map((i) => rssMb(i.child.pid!));
  instances.forEach((_, k) => { rssPeak[k] = Math.max(rssPeak[k]!, rssEnd[k]!); });

  // ------------------------------------------------------------------------------------------------------------
  // Ledger: after traffic stopped and every answer arrived.
  const ledger = await db.query<{ id: string; bucket: string; settled: string; settled_n: string; reserved_n: string; released_nonzero: string }>(`
    SELECT a.id,
           COALESCE((SELECT SUM(heu_used) FROM usage_buckets b WHERE b.account_id = a.id), 0)
             + COALESCE((SELECT SUM(heu) FROM usage_bucket_deltas d WHERE d.account_id = a.id), 0) AS bucket,
           COALESCE((SELECT SUM(heu) FROM usage_records r WHERE r.account_id = a.id AND r.state = 'settled'), 0) AS settled,
           (SELECT COUNT(*) FROM usage_records r WHERE r.account_id = a.id AND r.state = 'settled') AS settled_n,
           (SELECT COUNT(*) FROM usage_records r WHERE r.account_id = a.id AND r.state = 'reserved') AS reserved_n,
           (SELECT COUNT(*) FROM usage_records r WHERE r.account_id = a.id AND r.state = 'released' AND r.heu <> 0) AS released_nonzero
    FROM accounts a WHERE a.id = ANY($1) ORDER BY a.id`, [accounts.map((x) => x.id)]);
  const checks: Array<{ name: string; pass: boolean; detail: string }> = [];
  for (const acct of accounts) {
    const row = ledger.rows.find((r) => r.id === acct.id);
    const bucket = Number(row?.bucket ?? NaN);
    const settled = Number(row?.settled ?? NaN);
    const reported = reportedHeu.get(acct.id) ?? 0;
    const oks = okExtractions.get(acct.id) ?? 0;
    const summary = await (await fetch(`${instances[0]!.base}/v1/account`, { headers: { 'x-api-key': acct.apiKey } })).json() as { heuUsed?: number; heuLimit?: number };
    const label = `${acct.id}${acct.small ? ` (small plan, ${PLANS.free.heuPerMonth} HEU)` : ''}`;
    checks.push({ name: `${label}: usage_buckets.heu_used = Σ settled usage_records.heu`, pass: bucket === settled, detail: `${bucket} vs ${settled}` });
    checks.push({ name: `${label}: no reserved records left, released ones carry 0 HEU`, pass: Number(row?.reserved_n) === 0 && Number(row?.released_nonzero) === 0, detail: `${row?.reserved_n} reserved, ${row?.released_nonzero} released with HEU` });
    checks.push({ name: `${label}: Σ usage.heu of the 200 answers = Σ settled`, pass: reported === settled, detail: `${reported} vs ${settled}` });
    checks.push({ name: `${label}: one settled record per 200 extraction answer`, pass: oks === Number(row?.settled_n), detail: `${oks} answers, ${row?.settled_n} records` });
    checks.push({ name: `${label}: GET /v1/account heuUsed = bucket`, pass: summary.heuUsed === bucket, detail: `${summary.heuUsed} vs ${bucket}` });
  }
  await db.end();

  // ------------------------------------------------------------------------------------------------------------
  // Figures.
  const answered = results.filter((r) => r.status !== 0);
  const network = results.filter((r) => r.status === 0);
  const byStatus = countBy(results, statusLabel);
  const provider = results.filter((r) => r.status >= 500 && PROVIDER_CODES.has(r.code ?? ''));
  const server5xx = results.filter((r) => r.status >= 500 && !PROVIDER_CODES.has(r.code ?? ''));
  const unexpected = results.filter((r) => r.status !== 0 && r.status < 500 && !MIX.find((m) => m.kind === r.kind)!.expect.includes(r.status));
  const exitedDuring = instances.filter((i) => i.exited);
  const lat = (rs: Result[]) => rs.map((r) => r.ms).sort((x, y) => x - y);
  const all = lat(answered);
  const lags = results.map((r) => r.lagMs).sort((x, y) => x - y);
  const kinds = MIX.map((m) => m.kind).filter((k) => results.some((r) => r.kind === k));
  const perKind = kinds.map((k) => {
    const rs = results.filter((r) => r.kind === k);
    const l = lat(rs.filter((r) => r.status !== 0));
    return { kind: k, n: rs.length, statuses: listCounts(countBy(rs, statusLabel)), p50: percentile(l, 0.5), p99: percentile(l, 0.99), max: l[l.length - 1] ?? NaN };
  });

  checks.unshift(
    { name: 'no network failures or client timeouts', pass: network.length === 0, detail: `${network.length}` },
    { name: 'no 5xx other than the provider failures (502 upstream_error / 504 upstream_timeout)', pass: server5xx.length === 0, detail: `${server5xx.length}` },
    { name: 'provider failures surfaced ≤ failures injected', pass: provider.length <= injected, detail: `${provider.length} surfaced, ${injected} injected` },
    { name: 'every request answered a status its kind allows (bad input: its 4xx)', pass: unexpected.length === 0, detail: `${unexpected.length} unexpected` },
    { name: 'answers consistent (batch sums, replays, bodies)', pass: problems.length === 0, detail: `${problems.length} problems` },
    { name: 'both instances stayed up', pass: exitedDuring.length === 0, detail: exitedDuring.map((i) => `${i.name}: ${i.exited}`).join('; ') || 'yes' },
    { name: 'generator kept the rate (nothing skipped)', pass: skipped === 0, detail: `${skipped} skipped` },
  );

  const refusals = results.filter((r) => r.status === 402 || r.status === 429);
  const lines: string[] = [];
  const out = (s = '') => { lines.push(s); console.log(s); };
  out();
  out(`requests: ${results.length} sent in ${sendSeconds.toFixed(1)} s = ${(results.length / sendSeconds).toFixed(1)} req/s (target ${RPS}); last answer after ${allSeconds.toFixed(1)} s; generator lag p50 ${fmt(percentile(lags, 0.5))} ms, p99 ${fmt(percentile(lags, 0.99))} ms`);
  out(`by status: ${listCounts(byStatus)}`);
  out(`refusals: ${refusals.length} (${listCounts(countBy(refusals, (r) => `${r.status} ${r.reason ?? r.code}`))}) — ${results.filter((r) => (r.status === 402 || r.status === 429) && !accounts.find((x) => x.id === r.account)!.small).length} of them on generous accounts`);
  out(`provider failures: ${injected} injected in ${fake.requests.length} model calls; surfaced as ${provider.length} answers (${listCounts(countBy(provider, (r) => `${r.status} ${r.code} on ${r.instance}`)) || 'none'}), ${batchItemsFailed} failed batch items (of ${batchItemsOk + batchItemsFailed})`);
  out(`errors: ${network.length} network, ${server5xx.length} unexpected 5xx, ${unexpected.length} unexpected 4xx/2xx, ${problems.length} inconsistent answers`);
  const warm = lat(answered.filter((r) => r.at >= WARMUP_S));
  out(`latency: overall p50 ${fmt(percentile(all, 0.5))} ms, p99 ${fmt(percentile(all, 0.99))} ms, max ${fmt(all[all.length - 1] ?? NaN)} ms; after the first ${WARMUP_S} s (cold start: JIT, connection pools) p50 ${fmt(percentile(warm, 0.5))} ms, p99 ${fmt(percentile(warm, 0.99))} ms`);
  out(`RSS: ${instances.map((inst, k) => `${inst.name} ${rssStart[k]!.toFixed(0)} MB → ${rssEnd[k]!.toFixed(0)} MB (peak ${rssPeak[k]!.toFixed(0)} MB)`).join('; ')}`);
  out();
  out(`| kind | requests | statuses | p50 ms | p99 ms | max ms |`);
  out(`|---|---|---|---|---|---|`);
  for (const k of perKind) out(`| ${k.kind} | ${k.n} | ${k.statuses} | ${fmt(k.p50)} | ${fmt(k.p99)} | ${fmt(k.max)} |`);
  out(`| **all** | ${results.length} | | ${fmt(percentile(all, 0.5))} | ${fmt(percentile(all, 0.99))} | ${fmt(all[all.length - 1] ?? NaN)} |`);
  out();
  // Over time: a stall or a drift (latency, memory) shows here.
  const windowS = SECONDS >= 120 ? 30 : Math.max(5, Math.round(SECONDS / 6));
  out(`| window (s) | requests | p50 ms | p99 ms | max ms | 5xx | RSS A / B MB |`);
  out(`|---|---|---|---|---|---|---|`);
  for (let w = 0; w < sendSeconds; w += windowS) {
    const rs = results.filter((r) => r.at >= w && r.at < w + windowS);
    const l = lat(rs.filter((r) => r.status !== 0));
    const sample = rssSamples.filter(([t]) => t <= w + windowS).pop()?.[1] ?? rssStart;
    out(`| ${w}-${Math.min(w + windowS, Math.round(sendSeconds))} | ${rs.length} | ${fmt(percentile(l, 0.5))} | ${fmt(percentile(l, 0.99))} | ${fmt(l[l.length - 1] ?? NaN)} | ${rs.filter((r) => r.status >= 500).length} | ${sample.map((mb) => mb.toFixed(0)).join(' / ')} |`);
  }
  out();
  for (const c of checks) out(`${c.pass ? 'PASS' : 'FAIL'}  ${c.name}  (${c.detail})`);

  const failed = checks.filter((c) => !c.pass);
  const defects = [...server5xx, ...unexpected, ...network];
  if (defects.length || problems.length || exitedDuring.length) {
    console.log('\ndetails (first 20):');
    for (const r of defects.slice(0, 20)) {
      console.log(`  soak-${r.n} ${r.kind} on ${r.instance} (${r.account}): ${r.status || r.error} ${r.code ?? ''} after ${fmt(r.ms)} ms`);
      const inst = instances.find((i) => i.name === r.instance)!;
      const logLines = readFileSync(inst.log, 'utf8').split('\n').filter((l) => l.includes(`"soak-${r.n}"`));
      for (const l of logLines.slice(0, 3)) console.log(`    log: ${l.slice(0, 600)}`);
    }
    for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
  }
  for (const inst of instances) {
    const errs = readFileSync(inst.log, 'utf8').split('\n').filter((l) => /"level":(50|60)/.test(l) && !/"message":"The model provider (failed|did not answer)/.test(l) && !/"statusCode":50[24]/.test(l));
    if (errs.length) {
      console.log(`\ninstance ${inst.name}: ${errs.length} error log lines other than the provider's failures; first ones:`);
      for (const l of errs.slice(0, 5)) console.log(`  ${l.slice(0, 600)}`);
    }
  }

  // RELIABILITY.md: replace only our section.
  const section = [
    '## Soak (npm run soak)',
    '',
    `Written by \`npm run soak\` (scripts/soak.ts) on ${new Date().toISOString().slice(0, 10)}. Machine: ${machine}.`,
    '',
    `Two instances (\`node server/dist/main.js\`, started together on an empty database, so they took turns migrating) on one`,
    `PostgreSQL cluster, all on 127.0.0.1. Traffic: open loop, ${RPS} requests a second scheduled by a timer for ${SECONDS} s,`,
    `alternating between the instances, over ${BIG_ACCOUNTS + SMALL_ACCOUNTS} accounts (${SMALL_ACCOUNTS} on a small plan: ${PLANS.free.heuPerMonth} HEU a month,`,
    `${PLANS.free.requestsPerMinute} requests a minute, so they are refused with 402/429). Mix: single extractions (invoice, receipt, custom),`,
    `batches of 2-20 items, key listing, account reads, key creation with idempotency keys (some replayed, some reused with`,
    `another body: 409) and bad input (malformed JSON, missing members, a wrong key, text over 200,000 characters).`,
    `The model is a fake Anthropic API answering valid tool_use input after 20-200 ms; ${(FAIL_RATE * 100).toFixed(1)}% of its calls fail`,
    `with 529 or 500. Instance A lets the SDK retry (2); instance B does not, so those failures reach callers as 502.`,
    '',
    ...lines.slice(1),
    '',
  ].join('\n');
  const file = join(root, 'RELIABILITY.md');
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : '# Reliability\n\nHow the service holds up over time and under failure, measured by the scripts named in each section.\n';
  const start = existing.indexOf('\n## Soak (npm run soak)');
  let next: string;
  if (start === -1) {
    next = `${existing.trimEnd()}\n\n${section}`;
  } else {
    const after = existing.indexOf('\n## ', start + 1);
    next = `${existing.slice(0, start).trimEnd()}\n\n${section}${after === -1 ? '' : `\n${existing.slice(after + 1)}`}`;
  }
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
  console.log(`\nwrote RELIABILITY.md; ${failed.length ? `${failed.length} checks FAILED (server logs kept in ${runDir})` : 'all checks passed'}`);
  return failed.length ? 1 : 0;
}

main()
  .then(async (code) => {
    await cleanup();
    if (code === 0 && runDir) rmSync(runDir, { recursive: true, force: true });
    process.exit(code);
  }, async (e) => {
    console.error(e);
    await cleanup();
    if (runDir) console.error(`server logs kept in ${runDir}`);
    process.exit(1);
  });
