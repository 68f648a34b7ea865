// Webhook deliveries isolated per endpoint and per account: one account's endpoints that never answer hold at most
// their caps of delivery slots, so another account's event is delivered while they hang (before, every slot waited on
// them for the whole timeout); an endpoint that keeps timing out is disabled; the delivery claim keeps its caps under
// concurrent claims on PostgreSQL; an event's body is stored once whatever the number of endpoints; events of jobs
// that were never charged stop being sent past a cap; the 20-endpoint limit holds under 100 concurrent creations.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withTransaction } from '../../src/db/transaction.js';
import { claimDeliveries } from '../../src/webhooks/delivery-claim.js';
import { MAX_PENDING_UNCHARGED_DELIVERIES } from '../../src/webhooks/endpoint-limits.js';
import { recordJobEvent } from '../../src/webhooks/job-events.js';
import { RealClock, startTestServer, type TestServer } from '../support/harness.js';

type Json = Record<string, any>;

/** A receiver that answers 200, or (with `hang`) takes requests and never answers; it counts requests open at once. */
async function receiver(hang = false) {
  const got: string[] = [];
  let open = 0;
  let mostOpen = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    open++;
    mostOpen = Math.max(mostOpen, open);
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      got.push(body);
      if (!hang) { open--; res.writeHead(200).end(); }
    });
    req.socket.on('close', () => { if (hang) open--; });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`, got, get mostOpen() { return mostOpen; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

const INVOICE = 'ACME LLC\nInvoice No: INV-7\nTotal due: $4,500.00';

const until = async <T>(what: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('webhook deliveries with endpoints that never answer', () => {
  let s: TestServer;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    s = await startTestServer('embedded', {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      JOB_POLL_INTERVAL_MS: '50',
      JOB_CONCURRENCY: '4',
      // Four delivery slots, at most one attempt per endpoint and two per account in flight.
      WEBHOOK_CONCURRENCY: '4',
      WEBHOOK_ENDPOINT_CONCURRENCY: '1',
      WEBHOOK_ACCOUNT_CONCURRENCY: '2',
      // Longer than the test waits: a hanging endpoint holds its slot throughout.
      WEBHOOK_TIMEOUT_MS: '120000',
      WEBHOOK_RETRY_SCHEDULE: '600,600',
    }, new RealClock(), { worker: true });
    for (const id of ['acct_hang', 'acct_victim']) {
      await s.db.prisma.account.create({ data: { id, plan: 'starter' } });
      keys[id] = (await s.createKey(id)).key;
    }
  }, 60_000);
  afterAll(async () => { await s?.close(); });

  const call = (account: string, method: string, path: string, json?: unknown) =>
    s.fetch(path, { method, headers: { 'x-api-key': keys[account]! }, ...(json === undefined ? {} : { json }) });
  const job = async (account: string) => {
    const res = await call(account, 'POST', '/v1/jobs', { route: 'invoice', document: { text: INVOICE } });
    expect(res.status).toBe(202);
    return (await res.json()).id as string;
  };

  it("delivers another account's event while one account's endpoints hang, each hanging endpoint holding one slot at most", async () => {
    const hanging = await Promise.all([receiver(true), receiver(true), receiver(true)]);
    const healthy = await receiver();
    try {
      for (const r of hanging) expect((await call('acct_hang', 'POST', '/v1/webhook-endpoints', { url: r.url })).status).toBe(201);
      expect((await call('acct_victim', 'POST', '/v1/webhook-endpoints', { url: healthy.url })).status).toBe(201);
      // Three events to three hanging endpoints: nine deliveries, more than the four slots.
      for (let i = 0; i < 3; i++) await job('acct_hang');
      await until(async () => (await s.db.prisma.webhookDelivery.count({ where: { accountId: 'acct_hang' } })) === 9 || undefined);
      await until(() => hanging.reduce((n, r) => n + r.got.length, 0) >= 2 || undefined);
      const victimJob = await job('acct_victim');
      // Before: every slot waited on a hanging endpoint for the whole timeout, and this waited with them.
      const body = JSON.parse(await until(() => healthy.got[0]));
      expect(body.data.job.id).toBe(victimJob);
      // The hanging account got two attempts in flight (its cap), never two at one endpoint.
      expect(hanging.reduce((n, r) => n + r.got.length, 0)).toBe(2);
      for (const r of hanging) expect(r.mostOpen).toBeLessThanOrEqual(1);
      expect(await s.db.prisma.webhookDelivery.count({ where: { accountId: 'acct_hang', status: 'pending', attemptCount: 0 } })).toBe(9);
    } finally {
      for (const r of [...hanging, healthy]) await r.close();
    }
  }, 60_000);

  it('stores an event once for every endpoint it goes to', async () => {
    const receivers = await Promise.all([receiver(), receiver(), receiver()]);
    try {
      await s.db.prisma.account.create({ data: { id: 'acct_once', plan: 'starter' } });
      keys.acct_once = (await s.createKey('acct_once')).key;
      for (const r of receivers) expect((await call('acct_once', 'POST', '/v1/webhook-endpoints', { url: r.url })).status).toBe(201);
      const id = await job('acct_once');
      await until(() => receivers.every((r) => r.got.length === 1) || undefined);
      const { rows } = await s.db.pool.query('SELECT count(*)::int AS n, sum(length(payload))::int AS bytes FROM webhook_events WHERE job_id = $1', [id]);
      expect(rows[0].n).toBe(1);
      expect(await s.db.prisma.webhookDelivery.count({ where: { jobId: id } })).toBe(3);
      // Each endpoint got the same body, the one stored, and each delivery shows it.
      expect(new Set(receivers.map((r) => r.got[0])).size).toBe(1);
      expect(rows[0].bytes).toBe(Buffer.byteLength(receivers[0]!.got[0]!));
      const endpoints = (await (await call('acct_once', 'GET', '/v1/webhook-endpoints')).json()).endpoints as Json[];
      for (const e of endpoints) {
        const [delivery] = (await (await call('acct_once', 'GET', `/v1/webhook-endpoints/${e.id}/deliveries`)).json()).deliveries;
        expect(delivery.event).toEqual(JSON.parse(receivers[0]!.got[0]!));
      }
    } finally {
      for (const r of receivers) await r.close();
    }
  }, 60_000);

  it(`records events of uncharged (failed) jobs unsent once ${MAX_PENDING_UNCHARGED_DELIVERIES} such deliveries are pending`, async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_uncharged', plan: 'starter' } });
    const endpoint = await s.db.prisma.webhookEndpoint.create({ data: { id: 'we_uncharged', accountId: 'acct_uncharged', url: 'http://127.0.0.1:9/x', events: ['job.failed', 'job.succeeded'], secret: 'whsec_x', createdAt: new Date() } });
    // Pending deliveries of failed jobs' events, as a stream of failing jobs to a dead endpoint leaves them.
    await s.db.pool.query(`INSERT INTO webhook_events (id, account_id, type, job_id, payload, created_at) VALUES ('ev_old', 'acct_uncharged', 'job.failed', 'job_old', '{}', now())`);
    await s.db.pool.query(`INSERT INTO webhook_deliveries (id, endpoint_id, account_id, event_id, event_type, job_id, status, attempt_count, next_attempt_at, created_at)
      SELECT 'd_' || n, $1, 'acct_uncharged', 'ev_old', 'job.failed', 'job_old', 'pending', 1, now() + interval '1 hour', now() FROM generate_series(1, $2::int) n`, [endpoint.id, MAX_PENDING_UNCHARGED_DELIVERIES]);
    const view = (status: 'failed' | 'succeeded') => ({ id: `job_${status}`, status, route: 'invoice' }) as never;
    const record = (status: 'failed' | 'succeeded') => withTransaction(s.db.pool, (tx) => recordJobEvent(tx, s.jobs.queue, view(status), 'acct_uncharged', `job.${status}`, new Date()));
    expect(await record('failed')).toBe(0);
    const failed = await s.db.prisma.webhookDelivery.findFirstOrThrow({ where: { jobId: 'job_failed' } });
    expect([failed.status, failed.attemptCount, failed.nextAttemptAt]).toEqual(['failed', 0, null]);
    // A charged job's event is sent whatever is pending.
    expect(await record('succeeded')).toBe(1);
    expect((await s.db.prisma.webhookDelivery.findFirstOrThrow({ where: { jobId: 'job_succeeded' } })).status).toBe('pending');
    await s.db.prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
  });
});

describe('an endpoint that keeps timing out', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true', JOB_POLL_INTERVAL_MS: '50',
      WEBHOOK_TIMEOUT_MS: '200', WEBHOOK_DISABLE_AFTER_TIMEOUTS: '3', WEBHOOK_RETRY_SCHEDULE: '0.05,0.05,0.05,0.05,0.05',
    }, new RealClock(), { worker: true });
    await s.db.prisma.account.create({ data: { id: 'acct_timeouts', plan: 'starter' } });
    key = (await s.createKey('acct_timeouts')).key;
  }, 60_000);
  afterAll(async () => { await s?.close(); });
  const call = (method: string, path: string, json?: unknown) => s.fetch(path, { method, headers: { 'x-api-key': key }, ...(json === undefined ? {} : { json }) });

  it('is disabled after WEBHOOK_DISABLE_AFTER_TIMEOUTS attempts in a row without an answer, and says so in the log; enabling starts the count again', async () => {
    const hanging = await receiver(true);
    try {
      const made = await (await call('POST', '/v1/webhook-endpoints', { url: hanging.url })).json();
      expect((await call('POST', '/v1/jobs', { route: 'invoice', document: { text: INVOICE } })).status).toBe(202);
      const endpoint = await until(async () => {
        const e = await (await call('GET', `/v1/webhook-endpoints/${made.id}`)).json();
        return e.disabledAt ? e : undefined;
      });
      expect(endpoint.disabledAt).toEqual(expect.any(String));
      const delivery = await until(async () => {
        const [d] = (await (await call('GET', `/v1/webhook-endpoints/${made.id}/deliveries`)).json()).deliveries;
        return d.status === 'failed' ? d : undefined;
      });
      // Three attempts timed out (of the six the schedule allows); none was made after the endpoint was disabled.
      expect(delivery.attempts.map((a: Json) => a.error)).toEqual(['no answer within 200 ms', 'no answer within 200 ms', 'no answer within 200 ms']);
      expect(hanging.got).toHaveLength(3);
      expect(s.logs.join('')).toContain('webhook endpoint disabled: no answer in time to several attempts in a row');
      expect((await call('POST', `/v1/webhook-endpoints/${made.id}/enable`)).status).toBe(200);
      expect((await s.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: made.id } })).consecutiveTimeouts).toBe(0);
    } finally {
      await hanging.close();
    }
  }, 60_000);
});

describe.each(['embedded', 'postgres'] as const)('the delivery claim and the endpoint limit (%s)', (mode) => {
  const run = mode === 'postgres' && !process.env.TEST_PG_URL ? it.skip : it;
  let s: TestServer;
  beforeAll(async () => {
    if (mode === 'postgres' && !process.env.TEST_PG_URL) return;
    s = await startTestServer(mode, { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    await s.jobs.queue.start();
  }, 60_000);
  afterAll(async () => { await s?.close(); });

  const schedule = (attempts: Array<{ deliveryId: string; endpointId: string; accountId: string }>) =>
    withTransaction(s.db.pool, (tx) => s.jobs.queue.scheduleDeliveries(tx, attempts, 0));

  run('takes turns between endpoints and accounts, never past their caps, however the due attempts are ordered', async () => {
    // Endpoint A (account 1) has ten attempts due first; B (account 1) and C (account 2) one each after them.
    await schedule(Array.from({ length: 10 }, (_, i) => ({ deliveryId: `a${i}`, endpointId: 'A', accountId: '1' })));
    await schedule([{ deliveryId: 'b0', endpointId: 'B', accountId: '1' }, { deliveryId: 'c0', endpointId: 'C', accountId: '2' }]);
    await new Promise((r) => setTimeout(r, 20)); // due: pg-boss compares start_after with now()
    const caps = { perEndpoint: 2, perAccount: 3 };
    const first = (await claimDeliveries(s.db, 10, caps)).map((j) => j.data.deliveryId[0]).sort();
    // Two of A (its cap), B's (account 1 at its cap of three), C's: B and C do not wait behind A's eight others.
    expect(first).toEqual(['a', 'a', 'b', 'c']);
    // Nothing more while those are in flight.
    expect(await claimDeliveries(s.db, 10, caps)).toEqual([]);
    await s.db.pool.query(`DELETE FROM pgboss.job WHERE name = 'webhook-deliveries'`);
  });

  run('keeps an endpoint at one attempt in flight under 20 concurrent claims', async () => {
    await schedule(Array.from({ length: 30 }, (_, i) => ({ deliveryId: `x${i}`, endpointId: `E${i % 3}`, accountId: String(i % 3) })));
    await new Promise((r) => setTimeout(r, 20));
    const claimed = (await Promise.all(Array.from({ length: 20 }, () => claimDeliveries(s.db, 5, { perEndpoint: 1, perAccount: 10 })))).flat();
    const perEndpoint = claimed.map((j) => j.data.deliveryId).map((d) => Number(d.slice(1)) % 3).sort();
    expect(perEndpoint).toEqual([0, 1, 2]);
    await s.db.pool.query(`DELETE FROM pgboss.job WHERE name = 'webhook-deliveries'`);
  });

  run('lets exactly 20 of 100 concurrent endpoint creations of one account through; the rest are 400', async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_limit', plan: 'starter' } });
    const { key } = await s.createKey('acct_limit');
    const statuses = await Promise.all(Array.from({ length: 100 }, (_, i) => s.fetch('/v1/webhook-endpoints', {
      method: 'POST', headers: { 'x-api-key': key }, json: { url: `http://127.0.0.1:9/hook-${i}` },
    }).then((r) => r.status)));
    expect(statuses.filter((st) => st === 201)).toHaveLength(20);
    expect(statuses.filter((st) => st === 400)).toHaveLength(80);
    expect(await s.db.prisma.webhookEndpoint.count({ where: { accountId: 'acct_limit' } })).toBe(20);
  }, 120_000);
});
