// A deployment in miniature, for the tests and the bench that start processes: one API process (START_WORKER=false)
// and N worker processes (`npm run worker`) on one PostgreSQL, Claude faked on 127.0.0.1 (answering after a delay),
// accounts with a key and a webhook endpoint each (receivers on 127.0.0.1), and the checks that follow a run: every
// job ended once, the HEU charged are those the results report, and every endpoint got one signed event per job.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { mintDashboardToken } from '../../src/auth/dashboard-tokens.js';
import { emptyAnswer } from './answers.js';
import { startChildServer, startChildWorker, type ChildServer } from './child-server.js';
import { FakeAnthropic, schemaOf } from './fake-anthropic.js';

const SECRET = 'fleet-test-secret-0123456789-0123456789-01';

export interface FleetOptions {
  databaseUrl: string;
  dataDir: string;
  workers: number;
  accounts: number;
  /** How long the fake provider takes to answer each call. */
  providerDelayMs: number;
  /** Jobs a worker runs at once. */
  concurrency: number;
  env?: Record<string, string>;
}

export interface FleetAccount {
  id: string;
  key: string;
  endpointId: string;
  secret: string;
  received: Array<{ body: string; headers: IncomingHttpHeaders }>;
  server: Server;
}

export interface FleetReport {
  jobs: number;
  succeeded: number;
  failed: number;
  /** Jobs run more than once (their worker was killed). */
  rerun: number;
  /** HEU charged for these jobs (settled reservations) and what their results report. */
  heuSettled: number;
  heuReported: number;
  /** Reservations of these jobs still held (should be none). */
  stillReserved: number;
  /** Per account: distinct events received (by webhook-id), requests received in all, signatures that failed. */
  webhooks: Array<{ account: string; distinct: number; received: number; badSignatures: number; jobsCovered: number }>;
  /** Enqueue-to-start delay of each job, and the span from the first acceptance to the last end (ms). */
  startDelaysMs: number[];
  spanMs: number;
}

export class JobFleet {
  api!: ChildServer;
  workers: ChildServer[] = [];
  accounts: FleetAccount[] = [];
  fake!: FakeAnthropic;
  private env!: Record<string, string>;

  private constructor(private readonly options: FleetOptions) {}

  static async start(options: FleetOptions): Promise<JobFleet> {
    const fleet = new JobFleet(options);
    // Whatever ends this process (a failed assertion, a crash), its children end with it: none is left polling.
    const orphans = () => {
      for (const p of [fleet.api, ...fleet.workers]) if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
    };
    process.once('exit', orphans);
    try {
      await fleet.boot();
    } catch (e) {
      orphans();
      await fleet.fake?.stop().catch(() => {});
      throw e;
    }
    return fleet;
  }

  private async boot(): Promise<void> {
    const o = this.options;
    this.fake = await new FakeAnthropic().start();
    this.fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)), delayMs: o.providerDelayMs });
    const plansFile = join(mkdtempSync(join(tmpdir(), 'fleet-plans-')), 'plans.json');
    writeFileSync(plansFile, JSON.stringify({ free: { heuPerMonth: 10_000_000, requestsPerMinute: 100_000 }, starter: { heuPerMonth: 10_000_000, requestsPerMinute: 100_000 } }));
    this.env = {
      DATA_DIR: o.dataDir, DATABASE_URL: o.databaseUrl, DASHBOARD_JWT_SECRET: SECRET, PLANS_FILE: plansFile,
      ANTHROPIC_API_KEY: 'sk-ant-fleet', ANTHROPIC_BASE_URL: this.fake.url, ANTHROPIC_MAX_RETRIES: '0',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true', JOB_HEARTBEAT_SECONDS: '10', JOB_CONCURRENCY: String(o.concurrency), LOG_LEVEL: 'warn',
      ...o.env,
    };
    this.api = await startChildServer({ ...this.env, START_WORKER: 'false', LOG_LEVEL: 'info' });
    for (let i = 0; i < o.workers; i++) await this.addWorker();
    for (let i = 0; i < o.accounts; i++) this.accounts.push(await this.account(`acct_fleet_${i}`));
  }

  async addWorker(): Promise<ChildServer> {
    const worker = await startChildWorker({ ...this.env, LOG_LEVEL: 'info' });
    this.workers.push(worker);
    return worker;
  }

  private async account(id: string): Promise<FleetAccount> {
    const bearer = { authorization: `Bearer ${await mintDashboardToken(SECRET, id)}`, 'content-type': 'application/json' };
    const { key } = await (await fetch(`${this.api.baseUrl}/v1/keys`, { method: 'POST', headers: bearer, body: '{}' })).json() as { key: string };
    const received: FleetAccount['received'] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => { received.push({ body, headers: req.headers }); res.writeHead(204).end(); });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const endpoint = await (await fetch(`${this.api.baseUrl}/v1/webhook-endpoints`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ url }) })).json() as { id: string; secret: string };
    return { id, key, endpointId: endpoint.id, secret: endpoint.secret, received, server };
  }

  /** Sends one job; answers its id. */
  async submit(account: FleetAccount, text: string): Promise<string> {
    const res = await fetch(`${this.api.baseUrl}/v1/jobs`, {
      method: 'POST', headers: { 'x-api-key': account.key, 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'receipt', document: { text } }),
    });
    if (res.status !== 202) throw new Error(`POST /v1/jobs answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { id: string }).id;
  }

  /** Sends jobs as batches of up to 1,000 documents; answers their ids. */
  async submitBatch(account: FleetAccount, texts: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < texts.length; i += 1000) {
      const res = await fetch(`${this.api.baseUrl}/v1/jobs/batch`, {
        method: 'POST', headers: { 'x-api-key': account.key, 'content-type': 'application/json' },
        body: JSON.stringify({ route: 'receipt', items: texts.slice(i, i + 1000).map((text) => ({ document: { text } })) }),
      });
      if (res.status !== 202) throw new Error(`POST /v1/jobs/batch answered ${res.status}: ${await res.text()}`);
      ids.push(...((await res.json()) as { jobs: Array<{ id: string }> }).jobs.map((j) => j.id));
    }
    return ids;
  }

  /** How many of these jobs have ended. */
  async ended(ids: string[]): Promise<number> {
    return this.query<{ n: string }>(`SELECT count(*) AS n FROM jobs WHERE id = ANY($1) AND status IN ('succeeded', 'failed', 'cancelled')`, [ids]).then((r) => Number(r[0]!.n));
  }

  async waitEnded(ids: string[], timeoutMs: number): Promise<void> {
    const end = Date.now() + timeoutMs;
    while ((await this.ended(ids)) < ids.length) {
      if (Date.now() > end) throw new Error(`${ids.length - (await this.ended(ids))} of ${ids.length} jobs did not end within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Waits until every account's receiver has an event for each of its jobs (or the time runs out). */
  async waitDelivered(byAccount: Map<string, string[]>, timeoutMs: number): Promise<void> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const missing = this.accounts.some((a) => {
        const seen = new Set(a.received.map((r) => (JSON.parse(r.body) as { data: { job: { id: string } } }).data.job.id));
        return (byAccount.get(a.id) ?? []).some((id) => !seen.has(id));
      });
      if (!missing || Date.now() > end) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** The checks after a run, over these jobs. */
  async report(byAccount: Map<string, string[]>): Promise<FleetReport> {
    const ids = [...byAccount.values()].flat();
    const rows = await this.query<{ status: string; attempts: number; result: string | null; usage_record_id: string; created_at: Date; started_at: Date | null; finished_at: Date | null }>(
      `SELECT status::text, attempts, result, usage_record_id, created_at AT TIME ZONE 'UTC' AS created_at, started_at AT TIME ZONE 'UTC' AS started_at,
              finished_at AT TIME ZONE 'UTC' AS finished_at FROM jobs WHERE id = ANY($1)`, [ids]);
    const records = await this.query<{ state: string; heu: number }>('SELECT state::text, heu FROM usage_records WHERE id = ANY($1)', [rows.map((r) => r.usage_record_id)]);
    const webhooks = this.accounts.map((a) => {
      const mine = new Set(byAccount.get(a.id) ?? []);
      let bad = 0;
      const covered = new Set<string>();
      for (const r of a.received) {
        try {
          const event = new Webhook(a.secret).verify(r.body, r.headers as Record<string, string>) as { type: string; data: { job: { id: string } } };
          if (event.type === 'job.succeeded' && mine.has(event.data.job.id)) covered.add(event.data.job.id);
        } catch {
          bad++;
        }
      }
      return { account: a.id, distinct: new Set(a.received.map((r) => String(r.headers['webhook-id']))).size, received: a.received.length, badSignatures: bad, jobsCovered: covered.size };
    });
    const times = rows.flatMap((r) => [r.created_at.getTime(), r.finished_at?.getTime() ?? 0]);
    return {
      jobs: rows.length,
      succeeded: rows.filter((r) => r.status === 'succeeded').length,
      failed: rows.filter((r) => r.status === 'failed').length,
      rerun: rows.filter((r) => r.attempts > 1).length,
      heuSettled: records.filter((r) => r.state === 'settled').reduce((n, r) => n + r.heu, 0),
      heuReported: rows.reduce((n, r) => n + (r.result ? (JSON.parse(r.result) as { usage: { heu: number } }).usage.heu : 0), 0),
      stillReserved: records.filter((r) => r.state === 'reserved').length,
      webhooks,
      startDelaysMs: rows.filter((r) => r.started_at).map((r) => r.started_at!.getTime() - r.created_at.getTime()),
      spanMs: Math.max(...times) - Math.min(...rows.map((r) => r.created_at.getTime())),
    };
  }

  async query<R extends object>(text: string, values: unknown[]): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    for (const p of [this.api, ...this.workers]) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    }
    await Promise.all([this.api, ...this.workers].map((p) => p.exited));
    for (const a of this.accounts) {
      a.server.closeAllConnections();
      await new Promise<void>((r) => a.server.close(() => r()));
    }
    await this.fake.stop();
  }
}
