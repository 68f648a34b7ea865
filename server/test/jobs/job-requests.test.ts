// Job requests as the rate limit, the lists and Idempotency-Key see them: a 202 answers the RateLimit headers of the
// request it counted (as a synchronous extraction does), a 402 counts as a synchronous 402 does, a cursor no page
// gave is a 400 on every list, and a retry with the same body in another member order is a replay, not a 409.
import { startTestServer, type TestServer } from '../support/harness.js';

const INVOICE = 'ACME LLC\nInvoice No: INV-7\nInvoice Date: 2026-04-18\nTotal due: $4,500.00';
const RECEIPT = 'BLUE DOOR CAFE\n03/14/2026 12:47\nFlat White 4.50\nTOTAL 4.50\nVISA';
const RATE_HEADERS = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'ratelimit'];

describe('job requests: rate headers, 402 counting, cursors, canonical idempotency', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', {}, undefined, { worker: false });
    await s.db.prisma.account.create({ data: { id: 'acct_jreq', plan: 'starter' } });
    ({ key } = await s.createKey('acct_jreq'));
  });
  afterAll(async () => { await s?.close(); });

  const post = (path: string, json: unknown, headers: Record<string, string> = {}, k = key) => s.fetch(path, { method: 'POST', headers: { 'x-api-key': k, ...headers }, json });
  const rateCount = async (account: string) => (await s.db.prisma.rateWindow.findMany({ where: { accountId: account } })).reduce((n, w) => n + w.count, 0);
  const rate = (res: Response) => Object.fromEntries(RATE_HEADERS.map((h) => [h, res.headers.get(h)]));

  it('202 on POST /v1/jobs and /v1/jobs/batch carries the RateLimit headers of the request it counted', async () => {
    const counted = await rateCount('acct_jreq');
    const one = await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE } });
    expect(one.status).toBe(202);
    const batch = await post('/v1/jobs/batch', { route: 'receipt', items: [{ document: { text: RECEIPT } }, { document: { text: RECEIPT } }] });
    expect(batch.status).toBe(202);
    expect(await rateCount('acct_jreq')).toBe(counted + 2);
    const limit = s.config.plans.starter.requestsPerMinute;
    expect(rate(one)).toEqual({
      'ratelimit-limit': String(limit), 'ratelimit-remaining': String(limit - counted - 1), 'ratelimit-reset': expect.stringMatching(/^\d+$/),
      'ratelimit-policy': `"minute";q=${limit};w=60`, ratelimit: expect.stringMatching(new RegExp(`^"minute";r=${limit - counted - 1};t=\\d+$`)),
    });
    expect(batch.headers.get('ratelimit-remaining')).toBe(String(limit - counted - 2));
    // The same headers as a synchronous extraction answers.
    const sync = await post('/v1/extract/invoice', { document: { text: INVOICE } });
    expect(Object.keys(rate(sync)).filter((h) => sync.headers.get(h) !== null)).toEqual(RATE_HEADERS);
    expect(sync.headers.get('ratelimit-remaining')).toBe(String(limit - counted - 3));
  });

  it('a job refused 402 counts against the rate as a synchronous 402 does, and both answer the RateLimit headers', async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_jreq_poor', plan: 'free' } });
    const { key: poor } = await s.createKey('acct_jreq_poor');
    const period = new Date(Date.UTC(s.clock.now().getUTCFullYear(), s.clock.now().getUTCMonth(), 1));
    await s.db.prisma.usageBucket.create({ data: { accountId: 'acct_jreq_poor', periodStart: period, heuUsed: s.config.plans.free.heuPerMonth - 1 } });
    const before = await rateCount('acct_jreq_poor');
    const sync = await post('/v1/extract/invoice', { document: { text: INVOICE } }, {}, poor);
    expect(sync.status).toBe(402);
    expect(await rateCount('acct_jreq_poor')).toBe(before + 1);
    const job = await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE } }, {}, poor);
    expect(job.status).toBe(402);
    expect((await job.json()).error.code).toBe('plan_limit_exceeded');
    expect(await rateCount('acct_jreq_poor')).toBe(before + 2);
    expect(Number(job.headers.get('ratelimit-remaining'))).toBe(Number(sync.headers.get('ratelimit-remaining')) - 1);
    const batch = await post('/v1/jobs/batch', { route: 'invoice', items: [{ document: { text: INVOICE } }] }, {}, poor);
    expect(batch.status).toBe(402);
    expect(await rateCount('acct_jreq_poor')).toBe(before + 3);
    expect(await s.db.prisma.job.count({ where: { accountId: 'acct_jreq_poor' } })).toBe(0);
  });

  it('Idempotency-Key: the same body with its members in another order is a replay (same job, counted, with headers); another body 409', async () => {
    const body = { route: 'invoice', document: { text: INVOICE, filename: 'a.txt' }, metadata: { orderId: 'PO-9', line: '1' } };
    const reordered = { metadata: { line: '1', orderId: 'PO-9' }, document: { filename: 'a.txt', text: INVOICE }, route: 'invoice' };
    const first = await post('/v1/jobs', body, { 'idempotency-key': 'order-9' });
    expect(first.status).toBe(202);
    const counted = await rateCount('acct_jreq');
    const again = await post('/v1/jobs', reordered, { 'idempotency-key': 'order-9' });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).id).toBe((await first.json()).id);
    expect(await rateCount('acct_jreq')).toBe(counted + 1);
    expect(again.headers.get('ratelimit-remaining')).not.toBeNull();
    const other = await post('/v1/jobs', { ...reordered, metadata: { line: '2', orderId: 'PO-9' } }, { 'idempotency-key': 'order-9' });
    expect(other.status).toBe(409);
    // A batch too.
    const items = [{ document: { text: RECEIPT }, metadata: { a: '1', b: '2' } }];
    const b1 = await post('/v1/jobs/batch', { route: 'receipt', items }, { 'idempotency-key': 'batch-9' });
    const b2 = await post('/v1/jobs/batch', { items: [{ metadata: { b: '2', a: '1' }, document: { text: RECEIPT } }], route: 'receipt' }, { 'idempotency-key': 'batch-9' });
    expect([b1.status, b2.status]).toEqual([202, 202]);
    expect((await b2.json()).jobs[0].id).toBe((await b1.json()).jobs[0].id);
  });

  it('a cursor no page gave is 400 invalid_request on every list; the nextCursor a page gave still works', async () => {
    const bearer = `Bearer ${await s.token('acct_jreq')}`;
    const endpoint = await (await post('/v1/webhook-endpoints', { url: 'https://hooks.example.com/cursor' })).json();
    const lists: Array<[string, Record<string, string>]> = [
      ['/v1/jobs', { 'x-api-key': key }],
      ['/v1/keys', { authorization: bearer }],
      ['/v1/renewals', { 'x-api-key': key }],
      [`/v1/webhook-endpoints/${endpoint.id}/deliveries`, { 'x-api-key': key }],
    ];
    for (const [path, headers] of lists) {
      for (const garbage of ['garbage', 'zzzz', '0193a6f2-7c1e-7b3a-9d4e-5f60718293a4x', '2026-12-01|not-an-id']) {
        const res = await s.fetch(`${path}?cursor=${encodeURIComponent(garbage)}`, { headers });
        const body = await res.json();
        expect([path, garbage, res.status, body.error?.code]).toEqual([path, garbage, 400, 'invalid_request']);
        expect(body.error.details.errors[0].path).toBe('/query/cursor');
      }
    }
    // Pages of one: every nextCursor given is taken, and the pages add up to the list.
    for (const [path, headers, member] of [['/v1/jobs', { 'x-api-key': key }, 'jobs'], ['/v1/keys', { authorization: bearer }, 'keys']] as const) {
      const all = (await (await s.fetch(path, { headers })).json())[member].map((x: { id: string }) => x.id);
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const res: Response = await s.fetch(`${path}?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers });
        expect(res.status).toBe(200);
        const page = await res.json();
        seen.push(...page[member].map((x: { id: string }) => x.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual(all);
    }
  });
});
