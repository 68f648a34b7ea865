// Jobs as a caller sees them, on the embedded database and on PostgreSQL: accepted at once (202), run by the worker in
// the server through the synchronous route's path (a job's result is that route's answer), metered (reserved when
// accepted, charged once when done, given back when cancelled or failed), listed, cancelled, replayed by their
// Idempotency-Key, refused as the route refuses, and gone after their retention with a 404 that says so.
import { dbModes } from '../support/databases.js';
import { RealClock, startTestServer, type TestServer } from '../support/harness.js';
import { jobRepository } from '../../src/jobs/job-repository.js';

type Json = Record<string, any>;

const INVOICE = 'ACME LLC\nInvoice No: INV-7\nInvoice Date: 2026-04-18\nTotal due: $4,500.00';
const RECEIPT = 'BLUE DOOR CAFE\n03/14/2026 12:47\nFlat White 4.50\nTOTAL 4.50\nVISA';
const ORDER = 'ORDER FORM\nVendor: CloudNest Inc.\nProduct: CloudNest Storage Pro\nFees: $1,200.00 per month\nTerm: 2099-01-01 to 2099-12-31. This order renews automatically unless either party gives 30 days\' written notice before the end of the term.';
// Property names in an order no sorting would give: jsonb would store them as capacity, eventName, zVenue, aDate.
const SCHEMA = { type: 'object', properties: { zVenue: { type: 'string' }, eventName: { type: 'string' }, capacity: { type: 'integer' }, aDate: { type: 'string' } } };
const MEETUP = 'Spring Meetup\nEvent name: Spring Meetup\nCapacity: 120 places\nVenue: Hall B';

describe.each(dbModes())('jobs (%s database)', (mode) => {
  let s: TestServer;
  let key: string;
  let keyId: string;
  let otherKey: string;
  beforeAll(async () => {
    s = await startTestServer(mode, { JOB_POLL_INTERVAL_MS: '100' }, undefined, { worker: true });
    await s.db.prisma.account.create({ data: { id: 'acct_jobs', plan: 'starter' } });
    await s.db.prisma.account.create({ data: { id: 'acct_jobs_other', plan: 'starter' } });
    ({ key, id: keyId } = await s.createKey('acct_jobs'));
    otherKey = (await s.createKey('acct_jobs_other')).key;
  });
  afterAll(async () => { await s?.close(); });

  const post = (path: string, json: unknown, headers: Record<string, string> = {}, k = key) => s.fetch(path, { method: 'POST', headers: { 'x-api-key': k, ...headers }, json });
  const get = (path: string, k = key) => s.fetch(path, { headers: { 'x-api-key': k } });
  const heuUsed = async (account = 'acct_jobs') => (await s.db.prisma.usageBucket.findMany({ where: { accountId: account } })).reduce((n, b) => n + b.heuUsed, 0);
  async function finished(id: string, k = key): Promise<Json> {
    for (let i = 0; i < 300; i++) {
      const job = await (await get(`/v1/jobs/${id}`, k)).json();
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`job ${id} did not finish`);
  }

  it('accepts a job at once (202, Location) and its result is exactly the synchronous answer to the same request', async () => {
    const res = await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE }, metadata: { orderId: 'PO-1' } });
    expect(res.status).toBe(202);
    const accepted = await res.json();
    expect(res.headers.get('location')).toBe(`/v1/jobs/${accepted.id}`);
    expect(accepted).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'queued', route: 'invoice', metadata: { orderId: 'PO-1' },
      createdAt: s.clock.now().toISOString(), startedAt: null, finishedAt: null, expiresAt: null,
    });
    const job = await finished(accepted.id);
    const sync = await (await post('/v1/extract/invoice', { document: { text: INVOICE } })).json();
    expect(job.status).toBe('succeeded');
    expect(job.result).toEqual(sync);
    expect(job.startedAt).not.toBeNull();
    expect(new Date(job.expiresAt).getTime() - new Date(job.finishedAt).getTime()).toBe(7 * 24 * 3_600_000);
    // The request (with the document) is not kept once the job is done.
    const row = await s.db.prisma.job.findUniqueOrThrow({ where: { id: accepted.id } });
    expect(row.request).toBeNull();
    const record = await s.db.prisma.usageRecord.findUniqueOrThrow({ where: { id: row.usageRecordId } });
    expect(record).toMatchObject({ state: 'settled', heu: job.result.usage.heu });
  });

  it('keeps a custom schema\'s property order through storage, as the synchronous answer has it', async () => {
    const accepted = await (await post('/v1/jobs', { route: 'custom', document: { text: MEETUP }, schema: SCHEMA })).json();
    const job = await finished(accepted.id);
    const res = await get(`/v1/jobs/${accepted.id}`);
    const text = await res.text();
    const sync = await (await post('/v1/extract/custom', { document: { text: MEETUP }, schema: SCHEMA })).json();
    expect(Object.keys(job.result.data)).toEqual(['zVenue', 'eventName', 'capacity', 'aDate']);
    expect(text).toContain(JSON.stringify(sync.data));
    expect(job.result).toEqual(sync);
  });

  it('runs a renewal job as the route does: a document stored against its vendor renewal, answered with its ids', async () => {
    const accepted = await (await post('/v1/jobs', { route: 'renewal', document: { text: ORDER, filename: 'order.txt' } })).json();
    const job = await finished(accepted.id);
    expect(job.status).toBe('succeeded');
    const sync = await (await post('/v1/extract/renewal', { document: { text: ORDER, filename: 'order.txt' } })).json();
    expect(Object.keys(job.result)).toEqual(Object.keys(sync));
    const ids = (r: Json) => ({ ...r, document_id: 'x', document: { ...r.document, id: 'x', createdAt: 'x' } });
    expect(ids(job.result)).toEqual(ids(sync));
    expect(job.result.vendor_renewal_id).toBe(sync.vendor_renewal_id);
    const stored = await (await get(`/v1/documents/${job.result.document_id}`)).json();
    expect(stored.id).toBe(job.result.document_id);
  });

  it('refuses what the route refuses, before anything is reserved or stored', async () => {
    const before = { heu: await heuUsed(), jobs: await s.db.prisma.job.count() };
    const cases: Array<[unknown, number, string]> = [
      [{ route: 'invoice', document: {} }, 400, 'invalid_request'],
      [{ route: 'custom', document: { text: MEETUP } }, 400, 'invalid_request'],
      [{ route: 'custom', document: { text: MEETUP }, schema: { type: 'object', properties: { a: { type: 'string', if: {} } } } }, 400, 'invalid_schema'],
      [{ route: 'invoice', document: { text: INVOICE }, model: 'gpt-9' }, 400, 'invalid_request'],
      [{ route: 'renewal', document: { text: ORDER, vendorRenewalId: '0193a6f2-7c1e-7b3a-9d4e-5f60718293a4' } }, 404, 'not_found'],
      [{ route: 'invoice', document: { text: 'x'.repeat(200_001) } }, 413, 'payload_too_large'],
      [{ route: 'teapot', document: { text: INVOICE } }, 400, 'invalid_request'],
      [{ route: 'invoice', document: { text: INVOICE }, metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }, 400, 'invalid_request'],
    ];
    for (const [body, status, code] of cases) {
      const res = await post('/v1/jobs', body);
      expect([JSON.stringify(body).slice(0, 80), res.status]).toEqual([JSON.stringify(body).slice(0, 80), status]);
      expect((await res.json()).error.code).toBe(code);
    }
    expect(await heuUsed()).toBe(before.heu);
    expect(await s.db.prisma.job.count()).toBe(before.jobs);
  });

  it('answers 402 when the bucket cannot hold the job\'s worst case, and reserves it when it can', async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_jobs_poor', plan: 'free' } });
    const { key: poor } = await s.createKey('acct_jobs_poor');
    const period = new Date(Date.UTC(s.clock.now().getUTCFullYear(), s.clock.now().getUTCMonth(), 1));
    await s.db.prisma.usageBucket.create({ data: { accountId: 'acct_jobs_poor', periodStart: period, heuUsed: 99 } });
    const res = await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE } }, {}, poor);
    expect(res.status).toBe(402);
    expect((await res.json()).error).toMatchObject({ code: 'plan_limit_exceeded', details: { plan: 'free', bucketHeu: 1 } });
    expect(await s.db.prisma.job.count({ where: { accountId: 'acct_jobs_poor' } })).toBe(0);
  });

  it('replays an Idempotency-Key: the same job for the same body, 409 for another', async () => {
    const body = { route: 'receipt', document: { text: RECEIPT } };
    const first = await post('/v1/jobs', body, { 'idempotency-key': 'receipt-1' });
    const again = await post('/v1/jobs', body, { 'idempotency-key': 'receipt-1' });
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).id).toBe((await first.json()).id);
    const other = await post('/v1/jobs', { ...body, metadata: { a: 'b' } }, { 'idempotency-key': 'receipt-1' });
    expect(other.status).toBe(409);
    expect((await other.json()).error.code).toBe('idempotency_key_reused');
    // Concurrent twins make one job.
    const twins = await Promise.all([1, 2, 3].map(() => post('/v1/jobs', body, { 'idempotency-key': 'receipt-twins' })));
    const ids = new Set(await Promise.all(twins.map(async (r) => (await r.json()).id)));
    expect(twins.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(ids.size).toBe(1);
  });

  it('accepts a batch of one route, each item its own job in order, all reserved together', async () => {
    const res = await post('/v1/jobs/batch', {
      route: 'custom', schema: SCHEMA, metadata: { batch: 'b1' },
      items: [{ document: { text: MEETUP } }, { document: { text: 'Autumn Fair\nCapacity: 80 places' }, metadata: { row: '2' } }],
    });
    expect(res.status).toBe(202);
    const { jobs } = await res.json();
    expect(jobs.map((j: Json) => [j.route, j.status, j.metadata])).toEqual([['custom', 'queued', { batch: 'b1' }], ['custom', 'queued', { row: '2' }]]);
    const done = await Promise.all(jobs.map((j: Json) => finished(j.id)));
    expect(done.map((j) => j.status)).toEqual(['succeeded', 'succeeded']);
    expect(done[1].result.data.capacity).toBe(80);
    const tooMany = await post('/v1/jobs/batch', { route: 'invoice', items: Array.from({ length: 1001 }, () => ({ document: { text: 'x' } })) });
    expect(tooMany.status).toBe(400);
    const badItem = await post('/v1/jobs/batch', { route: 'invoice', items: [{ document: { text: INVOICE } }, { document: {} }] });
    expect(badItem.status).toBe(400);
    expect((await badItem.json()).error.details.errors[0].path).toBe('/body/items/1/document');
  });

  it('lists the account\'s jobs newest first, filtered, a page at a time, and hides other accounts\' jobs', async () => {
    const page1 = await (await get('/v1/jobs?limit=2')).json();
    expect(page1.jobs).toHaveLength(2);
    expect(page1.jobs[0].result).toBeUndefined();
    const page2 = await (await get(`/v1/jobs?limit=2&cursor=${page1.nextCursor}`)).json();
    expect(page2.jobs[0].id < page1.jobs[1].id).toBe(true);
    const customs = await (await get('/v1/jobs?route=custom&status=succeeded')).json();
    expect(customs.jobs.length).toBeGreaterThanOrEqual(3);
    expect(customs.jobs.every((j: Json) => j.route === 'custom' && j.status === 'succeeded')).toBe(true);
    expect((await (await get('/v1/jobs', otherKey)).json()).jobs).toEqual([]);
    const res = await get(`/v1/jobs/${page1.jobs[0].id}`, otherKey);
    expect(res.status).toBe(404);
    expect((await get('/v1/jobs?status=done')).status).toBe(400);
  });

  it('cancels a queued job and gives its reservation back; twice answers the same; a finished job is 409', async () => {
    await s.jobs.stopWorkers(1_000); // no worker for this case: the job stays queued
    try {
      const before = await heuUsed();
      const accepted = await (await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE } })).json();
      expect(await heuUsed()).toBeGreaterThan(before);
      const res = await s.fetch(`/v1/jobs/${accepted.id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      const cancelled = await res.json();
      expect(cancelled).toMatchObject({ id: accepted.id, status: 'cancelled', finishedAt: s.clock.now().toISOString() });
      expect(await heuUsed()).toBe(before);
      const twice = await s.fetch(`/v1/jobs/${accepted.id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
      expect(await twice.json()).toEqual(cancelled);
    } finally {
      await s.jobs.start({ worker: true });
    }
    const done = await finished((await (await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE } })).json()).id);
    const refused = await s.fetch(`/v1/jobs/${done.id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe('job_not_cancellable');
    expect((await s.fetch(`/v1/jobs/${done.id}`, { method: 'DELETE', headers: { 'x-api-key': otherKey } })).status).toBe(404);
  });

  it('stops a running job only when it was cancelled or its key revoked: a job taken but not yet started is left alone', async () => {
    await s.jobs.stopWorkers(1_000);
    try {
      const queued = (await (await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE } })).json()).id as string;
      expect(await jobRepository.toStop(s.db.sql, [queued])).toEqual([]);
      await s.fetch(`/v1/jobs/${queued}`, { method: 'DELETE', headers: { 'x-api-key': key } });
      expect(await jobRepository.toStop(s.db.sql, [queued])).toEqual([{ id: queued, cancelled: true }]);
    } finally {
      await s.jobs.start({ worker: true });
    }
  });

  it('fails a job whose key was revoked before it ran, and charges nothing', async () => {
    await s.jobs.stopWorkers(1_000);
    const { key: doomed, id } = await s.createKey('acct_jobs', 'doomed');
    const before = await heuUsed();
    const accepted = await (await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE } }, {}, doomed)).json();
    await s.fetch(`/v1/keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${await s.token('acct_jobs')}` } });
    await s.jobs.start({ worker: true });
    const job = await finished(accepted.id);
    expect(job.status).toBe('failed');
    expect(job.error).toEqual({ code: 'invalid_api_key', message: 'The API key is not valid.', details: null });
    expect(await heuUsed()).toBe(before);
    void keyId;
  });

  it('logs each job\'s life, one line a step: accepted (API), started, succeeded or failed (worker), with id, route, ms and HEU, never the document', async () => {
    const lines = (jobId: string) => s.logs.map((l) => JSON.parse(l) as Json).filter((l) => l.jobId === jobId);
    const accepted = await (await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE } }, { 'x-request-id': 'job-log-1' })).json();
    const job = await finished(accepted.id);
    expect(job.status).toBe('succeeded');
    const own = lines(accepted.id);
    expect(own.map((l) => l.msg)).toEqual(['job accepted', 'job started', 'job succeeded']);
    const row = await s.db.prisma.job.findUniqueOrThrow({ where: { id: accepted.id } });
    expect(own[0]).toMatchObject({ level: 30, req: { id: 'job-log-1', path: '/v1/jobs' }, accountId: 'acct_jobs', route: 'invoice', reservedHeu: row.reservedHeu });
    expect(own[1]).toMatchObject({ level: 30, accountId: 'acct_jobs', route: 'invoice', attempt: 1, waitedMs: expect.any(Number) });
    expect(own[2]).toMatchObject({ level: 30, accountId: 'acct_jobs', route: 'invoice', attempt: 1, status: 'succeeded', heu: job.result.usage.heu, ms: expect.any(Number) });
    expect(own[2]!.error).toBeUndefined();

    // Failed: its error code, nothing charged.
    await s.jobs.stopWorkers(1_000);
    const { key: doomed, id } = await s.createKey('acct_jobs', 'doomed for the log');
    const refused = await (await post('/v1/jobs', { route: 'receipt', document: { text: RECEIPT } }, {}, doomed)).json();
    await s.fetch(`/v1/keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${await s.token('acct_jobs')}` } });
    await s.jobs.start({ worker: true });
    expect((await finished(refused.id)).status).toBe('failed');
    expect(lines(refused.id).map((l) => [l.msg, l.status, l.heu, l.error?.code])).toEqual([
      ['job accepted', undefined, undefined, undefined], ['job started', undefined, undefined, undefined], ['job failed', 'failed', 0, 'invalid_api_key'],
    ]);
    const all = s.logs.join('\n');
    for (const secret of [key, doomed, 'Invoice No: INV-7', 'BLUE DOOR CAFE']) expect(all).not.toContain(secret);
  });

  it('deletes a job after its retention; a read then is 404 and says when and why', async () => {
    const accepted = await (await post('/v1/jobs', { route: 'receipt', document: { text: RECEIPT } })).json();
    const job = await finished(accepted.id);
    const started = s.clock.now();
    s.clock.set(new Date(new Date(job.expiresAt).getTime() + 60_000));
    try {
      await s.jobs.sweep(s.clock.now());
      const res = await get(`/v1/jobs/${accepted.id}`);
      expect(res.status).toBe(404);
      const { error } = await res.json();
      expect(error.code).toBe('not_found');
      expect(error.message).toBe(`This job finished on ${job.finishedAt} and was deleted on ${s.clock.now().toISOString()}: jobs and their results are kept 7 days after they finish.`);
      const row = await s.db.prisma.job.findUniqueOrThrow({ where: { id: accepted.id } });
      expect([row.result, row.metadata, row.request]).toEqual([null, null, null]);
      expect((await (await get('/v1/jobs?route=receipt&limit=100')).json()).jobs.map((j: Json) => j.id)).not.toContain(accepted.id);
    } finally {
      s.clock.set(started);
    }
  });
});

describe('fairness between accounts', () => {
  let s: TestServer;
  afterAll(async () => { await s?.close(); });

  it("one account's queued jobs do not hold back another account's one: it runs after at most one more of them", async () => {
    // One job at a time, so the order jobs start in is the order they end in.
    s = await startTestServer('embedded', { JOB_CONCURRENCY: '1', JOB_POLL_INTERVAL_MS: '50' }, new RealClock());
    for (const id of ['acct_fair_big', 'acct_fair_small']) await s.db.prisma.account.create({ data: { id, plan: 'starter' } });
    const big = (await s.createKey('acct_fair_big')).key;
    const small = (await s.createKey('acct_fair_small')).key;
    const text = 'CORNER SHOP\nTOTAL 3.00\nCASH';
    const batch = await (await s.fetch('/v1/jobs/batch', { method: 'POST', headers: { 'x-api-key': big }, json: { route: 'receipt', items: Array.from({ length: 12 }, () => ({ document: { text } })) } })).json();
    const mine = await (await s.fetch('/v1/jobs', { method: 'POST', headers: { 'x-api-key': small }, json: { route: 'receipt', document: { text } } })).json();
    await s.jobs.start({ worker: true });
    const ids = [...batch.jobs.map((j: Json) => j.id), mine.id];
    for (let i = 0; i < 400; i++) {
      if ((await s.db.prisma.job.count({ where: { id: { in: ids }, status: 'succeeded' } })) === ids.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const order = (await s.db.prisma.job.findMany({ where: { id: { in: ids } }, orderBy: [{ finishedAt: 'asc' }, { id: 'asc' }] })).map((j) => j.accountId);
    expect(order).toHaveLength(13);
    // The small account's job was queued last, behind 12: it runs second (the big account's first was already next).
    expect(order.indexOf('acct_fair_small')).toBeLessThanOrEqual(1);
  });
});
