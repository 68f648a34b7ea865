// Smaller holes a fourth hostile review found, each as a caller meets it: request bodies in flight are bounded across
// requests (503 with Retry-After, not a process grown to gigabytes); job bodies and job batch items refuse members they
// do not have (400, nothing created), as /v1/extract/batch refuses an item's model; a job past its retention is gone
// for an idempotent replay and for DELETE too (404, as GET says), not a 202 with no result or a 409.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jobRepository } from '../../src/jobs/job-repository.js';
import { startTestServer, type TestServer } from '../support/harness.js';

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

describe('request bodies in flight, all requests together', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', { HTTP_MAX_BODY_BYTES_IN_FLIGHT: String(1024 * 1024) });
    await s.db.prisma.account.create({ data: { id: 'acct_bytes', plan: 'starter' } });
    key = (await s.createKey('acct_bytes')).key;
  }, 60_000);
  afterAll(async () => { await s?.close(); });

  it('answers 503 with Retry-After, unread, a body that would pass the budget while others are read; then takes bodies again', async () => {
    // A body of 900 KB announced, its first bytes sent, the rest held back: it holds 900 KB of the 1 MB budget.
    const url = new URL(`${s.baseUrl}/v1/jobs`);
    let held: ClientRequest | undefined;
    const heldAnswer = new Promise<void>((resolve) => {
      held = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', 'content-length': String(900 * 1024) } });
      held.on('error', () => resolve());
      held.on('response', () => resolve());
      held.on('close', () => resolve());
      held.write('{"route":"invoice","document":{"text":"');
    });
    // 200 KB, most of it whitespace after the JSON (the text itself stays within its own limit).
    const body = `${JSON.stringify({ route: 'invoice', document: { text: INVOICE } })}${' '.repeat(200 * 1024)}`;
    const refused = await until(async () => {
      const res = await s.fetch('/v1/jobs', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
      return res.status === 503 ? res : (await res.body?.cancel(), undefined);
    });
    expect(refused.headers.get('retry-after')).toBe('2');
    expect((await refused.json()).error).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('request bodies') });
    expect(await s.db.prisma.job.count({ where: { accountId: 'acct_bytes' } })).toBe(0);
    // The held body's caller hangs up: its bytes are given back, and the same request is taken.
    held!.destroy();
    await heldAnswer;
    const accepted = await until(async () => {
      const res = await s.fetch('/v1/jobs', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
      return res.status === 503 ? (await res.body?.cancel(), undefined) : res;
    });
    expect(accepted.status).toBe(202);
  }, 60_000);
});

describe('job requests and their retention', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', { JOB_POLL_INTERVAL_MS: '50' }, undefined, { worker: true });
    await s.db.prisma.account.create({ data: { id: 'acct_jobs4', plan: 'starter' } });
    key = (await s.createKey('acct_jobs4')).key;
  }, 60_000);
  afterAll(async () => { await s?.close(); });
  const post = (path: string, json: unknown, headers: Record<string, string> = {}) => s.fetch(path, { method: 'POST', headers: { 'x-api-key': key, ...headers }, json });

  it('refuses a job body member it does not have (400, naming it), creating nothing', async () => {
    const res = await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE }, minConfidense: 0.9 });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe('invalid_request');
    expect(error.details.errors).toEqual([{ path: '/body/minConfidense', message: 'is not a member of a job request' }]);
    expect(await s.db.prisma.job.count({ where: { accountId: 'acct_jobs4' } })).toBe(0);
  });

  it('refuses members of a job batch item other than document and metadata, as /v1/extract/batch refuses an item\'s model', async () => {
    const res = await post('/v1/jobs/batch', {
      route: 'invoice',
      items: [{ document: { text: INVOICE } }, { document: { text: INVOICE }, model: 'local-rules-1', minConfidence: 0.9, schema: { type: 'object' } }],
    });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.details.errors.map((e: { path: string }) => e.path)).toEqual(['/body/items/1/model', '/body/items/1/minConfidence', '/body/items/1/schema']);
    expect(error.details.errors[0].message).toBe('is not a member of a job batch item (document and metadata only): a batch names its model once for all its items, beside items');
    expect(await s.db.prisma.job.count({ where: { accountId: 'acct_jobs4' } })).toBe(0);
  });

  it('after its retention a job is 404 to an idempotent replay and to DELETE, as to GET', async () => {
    const body = { route: 'invoice', document: { text: INVOICE } };
    const first = await post('/v1/jobs', body, { 'idempotency-key': 'kept-then-gone' });
    expect(first.status).toBe(202);
    const { id } = await first.json();
    await until(async () => ((await (await s.fetch(`/v1/jobs/${id}`, { headers: { 'x-api-key': key } })).json()).status === 'succeeded' || undefined));
    // Its retention passes (the sweep's own statement, a year on); the idempotency record is still within its day.
    await jobRepository.purgeExpired(s.db.sql, new Date(Date.now() + 365 * 86_400_000));
    const get = await s.fetch(`/v1/jobs/${id}`, { headers: { 'x-api-key': key } });
    expect(get.status).toBe(404);
    const gone = (await get.json()).error;
    const replay = await post('/v1/jobs', body, { 'idempotency-key': 'kept-then-gone' });
    expect(replay.status).toBe(404);
    expect((await replay.json()).error).toEqual(gone);
    const del = await s.fetch(`/v1/jobs/${id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
    expect(del.status).toBe(404);
    expect((await del.json()).error).toEqual(gone);
  }, 60_000);
});

describe('files on the job routes, counted as on the synchronous routes', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    // No worker: nothing is run, so whatever opens a file here is the intake's own.
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_files4', plan: 'free' } });
    key = (await s.createKey('acct_files4')).key;
  }, 60_000);
  afterAll(async () => { await s?.close(); });
  const post = (path: string, json: unknown) => s.fetch(path, { method: 'POST', headers: { 'x-api-key': key }, json });
  const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n').toString('base64');

  it('a batch refused 402 opened none of its files, and every refused file counted against the rate: the next job is 429', async () => {
    const batch = await post('/v1/jobs/batch', { route: 'invoice', items: Array.from({ length: 200 }, () => ({ document: { content: PDF, mediaType: 'application/pdf' } })) });
    expect(batch.status).toBe(402);
    // No reader process was ever started: the estimate came from the bytes, the probe is the worker's.
    expect(s.documents.readerState()).toBeNull();
    // A file over 10 MB (413) and eight that are not base64 (400): each refused, each counted (the free plan takes 10 a minute).
    const big = await post('/v1/jobs', { route: 'invoice', document: { content: Buffer.alloc(10 * 1024 * 1024 + 1, 1).toString('base64'), mediaType: 'application/pdf' } });
    expect(big.status).toBe(413);
    for (let i = 0; i < 8; i++) expect((await post('/v1/jobs', { route: 'invoice', document: { content: '!!not base64!!', mediaType: 'application/pdf' } })).status).toBe(400);
    const valid = await post('/v1/jobs', { route: 'invoice', document: { content: PDF, mediaType: 'application/pdf' } });
    expect(valid.status).toBe(429);
    expect((await valid.json()).error.details.reason).toBe('rate_limit');
    expect(await s.db.prisma.job.count({ where: { accountId: 'acct_files4' } })).toBe(0);
  }, 120_000);
});

describe('a bucket held by queued jobs while no worker runs', () => {
  let s: TestServer;
  let key: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'plans-'));
    writeFileSync(join(dir, 'plans.json'), JSON.stringify({ free: { heuPerMonth: 20, requestsPerMinute: 1000 }, starter: { heuPerMonth: 10000, requestsPerMinute: 120 } }));
    s = await startTestServer('embedded', { PLANS_FILE: join(dir, 'plans.json') });
    await s.db.prisma.account.create({ data: { id: 'acct_queued', plan: 'free' } });
    key = (await s.createKey('acct_queued')).key;
  }, 60_000);
  afterAll(async () => { await s?.close(); rmSync(dir, { recursive: true, force: true }); });

  it('answers heu_in_flight with Retry-After 60 and says the jobs hold it, not Retry-After 1', async () => {
    let refused: Response | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const res = await s.fetch('/v1/jobs', { method: 'POST', headers: { 'x-api-key': key }, json: { route: 'invoice', document: { text: INVOICE } } });
      if (res.status !== 202) refused = res;
    }
    expect(refused?.status).toBe(429);
    expect(refused!.headers.get('retry-after')).toBe('60');
    const { error } = await refused!.json();
    expect(error.details.reason).toBe('heu_in_flight');
    expect(error.message).toContain('by your queued or running jobs, which settle as workers run them');
    expect(error.message).toContain('DELETE /v1/jobs/{id}');
  }, 60_000);
});
