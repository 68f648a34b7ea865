// One account's rows never hold up another account, on PostgreSQL (where requests run side by side): a job request
// of an account whose bucket row is held (a burst of its own, its jobs ending) neither waits with a connection of the
// pool nor keeps another account's request from being accepted; a settlement never waits for the bucket row (what it
// gives back is folded in once the row is free, the bucket exact throughout); jobs are listed by status through an
// index; a job dead-lettered before any run of it started does not say its worker stopped.
import pg from 'pg';
import { dbModes } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { createSql } from '../../src/db/sql.js';
import { LIST_BY_STATUS_SQL } from '../../src/jobs/job-repository.js';
import { Meter } from '../../src/metering/meter.js';
import { monthStart } from '../../src/time/clock.js';

type Json = Record<string, any>;
const INVOICE = 'ACME LLC\nInvoice No: INV-7\nInvoice Date: 2026-04-18\nTotal due: $4,500.00';
const onPostgres = dbModes().includes('postgres') ? describe : describe.skip;

onPostgres('noisy neighbours (postgres database)', () => {
  let s: TestServer;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    // A pool of 4 (so one account may hold 1 of them in admission) and a short wait for a connection.
    s = await startTestServer('postgres', { DATABASE_POOL_MAX: '4', DATABASE_CONNECT_TIMEOUT_MS: '2000' }, undefined, { worker: false });
    for (const id of ['acct_busy', 'acct_quiet', 'acct_settle', 'acct_list', 'acct_dead']) {
      await s.db.prisma.account.create({ data: { id, plan: 'starter' } });
      keys[id] = (await s.createKey(id)).key;
    }
  }, 60_000);
  afterAll(async () => { await s?.close(); });

  const submit = (account: string, i = 0) => s.fetch('/v1/jobs', { method: 'POST', headers: { 'x-api-key': keys[account]! }, json: { route: 'invoice', document: { text: `${INVOICE}\nLine ${i}` } } });
  const period = () => monthStart(s.clock.now());
  /** A connection of the test's own, outside the service's pool. */
  async function connect(): Promise<pg.Client> {
    const c = new pg.Client({ connectionString: s.config.databaseUrl });
    await c.connect();
    return c;
  }
  async function lockWaiters(c: pg.Client): Promise<number> {
    const { rows } = await c.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
    return rows[0].n;
  }

  it("accepts a quiet account's job while a busy account's bucket row is held and its requests queue behind it", async () => {
    expect((await submit('acct_busy')).status).toBe(202); // the bucket row exists
    const holder = await connect();
    const watcher = await connect();
    try {
      // The busy account's bucket row held, as a long transaction of its own would hold it.
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM usage_buckets WHERE account_id = 'acct_busy' FOR UPDATE`);
      const busy = Array.from({ length: 6 }, (_, i) => submit('acct_busy', i + 1));
      while ((await lockWaiters(watcher)) === 0) await new Promise((r) => setTimeout(r, 20));
      // More of the busy account's requests than the pool has connections are in: the quiet account's is answered.
      const quiet = await submit('acct_quiet');
      expect(quiet.status).toBe(202);
      // One connection of the pool waits on the held row, not all of them.
      expect(await lockWaiters(watcher)).toBe(1);
      await holder.query('COMMIT');
      // The busy account's requests are accepted once its row is free, or answered 503 with Retry-After (never 500).
      const answers = await Promise.all(busy);
      for (const a of answers) {
        expect([202, 503]).toContain(a.status);
        if (a.status === 503) expect(a.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      // Each accepted job holds its reservation, and nothing is reserved for a refused one.
      const accepted = answers.filter((a) => a.status === 202).length + 1;
      const reserved = await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_busy', state: 'reserved' } });
      expect(reserved).toBe(accepted);
      expect(await s.db.prisma.job.count({ where: { accountId: 'acct_busy' } })).toBe(accepted);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
      await watcher.end();
    }
  });

  it('settles without waiting for the bucket row: the HEU given back are folded in once it is free, the bucket exact throughout', async () => {
    const meter = new Meter(s.db.sql, s.config.plans, 'http://x');
    const { id: apiKeyId } = await s.db.prisma.apiKey.findFirstOrThrow({ where: { accountId: 'acct_settle' } });
    const reservation = await meter.admit('acct_settle', 10, 'invoice', undefined, s.clock.now());
    const bucket = async () => (await s.db.prisma.usageBucket.findUniqueOrThrow({ where: { accountId_periodStart: { accountId: 'acct_settle', periodStart: period() } } })).heuUsed;
    const account = async () => (await (await s.fetch('/v1/account', { headers: { 'x-api-key': keys.acct_settle! } })).json() as Json).heuUsed;
    expect(await bucket()).toBe(10);
    const holder = await connect();
    const settler = await connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM usage_buckets WHERE account_id = 'acct_settle' FOR UPDATE`);
      // A settlement that waited for the row would be cancelled here (55P03) instead of answering.
      await settler.query(`SET lock_timeout = '3s'`);
      await meter.settle(reservation, { heu: 4, inputTokens: 1, outputTokens: 1 }, apiKeyId, createSql(settler, false));
      expect(await s.db.prisma.usageRecord.findUniqueOrThrow({ where: { id: reservation.id } })).toMatchObject({ state: 'settled', heu: 4 });
      // The row still says 10 (never less than is used), the account already 4 (the give-back pending counted).
      expect(await bucket()).toBe(10);
      expect(await account()).toBe(4);
      await holder.query('COMMIT');
      await meter.fold();
      expect(await bucket()).toBe(4);
      expect(await account()).toBe(4);
      expect(await s.db.prisma.usageBucketDelta.count()).toBe(0);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
      await settler.end();
    }
  });

  it('lists jobs of one status through an index on (account, status, id), not by reading every job', async () => {
    const c = await connect();
    try {
      await c.query('SET enable_seqscan = off');
      const { rows } = await c.query(`EXPLAIN ${LIST_BY_STATUS_SQL}`, ['acct_list', null, null, 20, 'queued']);
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index Cond: \(\(account_id = 'acct_list'::text\) AND \(status = 'queued'::"JobStatus"\)\)/);
    } finally {
      await c.end();
    }
    expect((await submit('acct_list')).status).toBe(202);
    const page = await (await s.fetch('/v1/jobs?status=queued', { headers: { 'x-api-key': keys.acct_list! } })).json() as Json;
    expect(page.jobs).toHaveLength(1);
    expect((await (await s.fetch('/v1/jobs?status=running', { headers: { 'x-api-key': keys.acct_list! } })).json() as Json).jobs).toHaveLength(0);
  });

  it('fails a job dead-lettered before any run of it started without saying its worker stopped', async () => {
    const res = await submit('acct_dead');
    expect(res.status).toBe(202);
    const { id } = await res.json() as Json;
    await s.jobs.runner.abandon(id);
    const job = await (await s.fetch(`/v1/jobs/${id}`, { headers: { 'x-api-key': keys.acct_dead! } })).json() as Json;
    expect(job.status).toBe('failed');
    expect(job.error.message).toBe('The job could not be run: the workers that took it stopped before it started. Nothing was charged.');
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_dead', state: 'reserved' } })).toBe(0);
  });
});
