// Reviews as a caller sees them, on the embedded database and on PostgreSQL: made only when an extraction asks
// (`review: true`) and a value is withheld or under `reviewBelow`; listed (status, route, cursor pages), read with the
// document, resolved with the corrected data (each value's outcome, who resolved it), deleted; another account's is
// 404; nothing charged; a review event recorded for the account's endpoints; gone after REVIEW_RETENTION_DAYS.
import { dbModes } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/harness.js';

type Json = Record<string, any>;

// The invoice of the contract's examples: on the offline engine the vendor's name (0.745) and address (0.629) come back
// under 0.8, every other value above it.
const INVOICE = 'ACME CLOUD SUPPLY LLC\n500 Market Street, San Francisco, CA 94105\n\nINVOICE\nInvoice No: INV-2026-0418\nInvoice Date: April 18, 2026\nDue Date: May 18, 2026\n\nBill To: Brightline Analytics Inc.\n\nDescription            Qty   Unit Price    Amount\nData pipeline setup      1    $4,500.00   $4,500.00\n\nTotal due: $4,500.00';

describe.each(dbModes())('reviews (%s database)', (mode) => {
  let s: TestServer;
  let key: string;
  let keyId: string;
  let otherKey: string;
  beforeAll(async () => {
    s = await startTestServer(mode, { REVIEW_RETENTION_DAYS: '30' });
    await s.db.prisma.account.create({ data: { id: 'acct_rev', plan: 'starter' } });
    await s.db.prisma.account.create({ data: { id: 'acct_rev_other', plan: 'starter' } });
    ({ key, id: keyId } = await s.createKey('acct_rev'));
    otherKey = (await s.createKey('acct_rev_other')).key;
  });
  afterAll(async () => { await s?.close(); });

  const call = (method: string, path: string, json?: unknown, k = key) => s.fetch(path, { method, headers: { 'x-api-key': k }, ...(json === undefined ? {} : { json }) });
  const heuUsed = async (account = 'acct_rev') => (await s.db.prisma.usageBucket.findMany({ where: { accountId: account } })).reduce((n, b) => n + b.heuUsed, 0);
  const reviewCount = () => s.db.prisma.review.count({ where: { accountId: 'acct_rev' } });
  const extract = async (body: Json, path = '/v1/extract/invoice') => {
    const res = await call('POST', path, body);
    expect(res.status).toBe(200);
    return res.json() as Promise<Json>;
  };
  const newest = async () => (await (await call('GET', '/v1/reviews?limit=1')).json()).reviews[0] as Json;

  it('keeps nothing without review: true, nor when every value is above reviewBelow', async () => {
    const before = await reviewCount();
    await extract({ document: { text: INVOICE } });
    await extract({ document: { text: INVOICE }, minConfidence: 0.9 });
    await extract({ document: { text: INVOICE }, review: true, reviewBelow: 0.1 });
    expect(await reviewCount()).toBe(before);
  });

  it('makes a review of the values under reviewBelow, with the answer and the document, and charges nothing for it', async () => {
    const answer = await extract({ document: { text: INVOICE, filename: 'inv.txt' }, review: true, reviewBelow: 0.8 });
    const summary = await newest();
    expect(summary).toMatchObject({ status: 'open', route: 'invoice', model: 'local-rules-1', jobId: null, minConfidence: 0.5, reviewBelow: 0.8, withheldCount: 0, lowCount: 2, resolvedAt: null });
    expect(new Date(summary.expiresAt).getTime() - new Date(summary.createdAt).getTime()).toBe(30 * 86_400_000);
    const charged = await heuUsed();
    const res = await call('GET', `/v1/reviews/${summary.id}`);
    expect(res.status).toBe(200);
    const review = await res.json();
    expect(review.data).toEqual(answer.data);
    expect(review.evidence).toEqual(answer.evidence);
    expect(review.withheld).toEqual([]);
    expect(review.low).toEqual(['/vendor/address', '/vendor/name']);
    expect(review.document).toEqual({ text: INVOICE, mediaType: 'text/plain', filename: 'inv.txt', pages: [{ page: 1, start: 0, end: INVOICE.length }], hasFile: false });
    expect(review.resolution).toBeNull();
    expect((await call('GET', `/v1/reviews/${summary.id}/file`)).status).toBe(404);
    expect(await heuUsed()).toBe(charged);
  });

  it('makes a review of withheld values (reviewBelow defaults to minConfidence)', async () => {
    const answer = await extract({ document: { text: INVOICE }, review: true, minConfidence: 0.7 });
    expect(answer.withheld.map((w: Json) => w.path)).toEqual(['/vendor/address']);
    const review = await (await call('GET', `/v1/reviews/${(await newest()).id}`)).json();
    expect(review).toMatchObject({ minConfidence: 0.7, reviewBelow: 0.7, withheldCount: 1, lowCount: 0, low: [] });
    expect(review.withheld).toEqual(answer.withheld);
    expect(review.data.vendor.address).toBeNull();
  });

  it('keeps the file of a document sent as one, and its bytes come back as sent', async () => {
    const content = Buffer.from(INVOICE).toString('base64');
    await extract({ document: { content, mediaType: 'text/plain', filename: 'inv.txt' }, review: true, reviewBelow: 0.8 });
    const { id } = await newest();
    const review = await (await call('GET', `/v1/reviews/${id}`)).json();
    expect(review.document).toMatchObject({ mediaType: 'text/plain', filename: 'inv.txt', hasFile: true });
    const file = await call('GET', `/v1/reviews/${id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(Buffer.from(await file.arrayBuffer()).toString()).toBe(INVOICE);
  });

  it('makes reviews from batch items and from jobs (with the job id)', async () => {
    const before = await reviewCount();
    const res = await call('POST', '/v1/extract/batch', { items: [{ id: 'a', kind: 'invoice', document: { text: INVOICE } }, { id: 'b', kind: 'receipt', document: { text: 'CORNER SHOP\n03/15/2026\nTOTAL 3.00\nCASH' } }], review: true, reviewBelow: 0.99 });
    expect(res.status).toBe(200);
    expect(await reviewCount()).toBe(before + 2);
    const job = await (await call('POST', '/v1/jobs', { route: 'invoice', document: { text: INVOICE }, review: true, reviewBelow: 0.8 })).json();
    await s.jobs.runner.run(job.id, new AbortController().signal);
    expect(await newest()).toMatchObject({ jobId: job.id, route: 'invoice', lowCount: 2 });
  });

  it('lists newest first, filtered by status and route, a page at a time; a cursor it did not give is 400', async () => {
    const all = (await (await call('GET', '/v1/reviews')).json()).reviews as Json[];
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect(all.map((r) => r.id)).toEqual([...all.map((r) => r.id)].sort().reverse());
    const receipts = (await (await call('GET', '/v1/reviews?route=receipt')).json()).reviews as Json[];
    expect(receipts.map((r) => r.route)).toEqual(['receipt']);
    const first = await (await call('GET', '/v1/reviews?limit=2')).json();
    expect(first.reviews).toHaveLength(2);
    const second = await (await call('GET', `/v1/reviews?limit=2&cursor=${first.nextCursor}`)).json();
    expect([...first.reviews, ...second.reviews].map((r: Json) => r.id)).toEqual(all.slice(0, 4).map((r) => r.id));
    for (const bad of ['nonsense', '00000000-0000-0000-0000-00000000000Z']) {
      const res = await call('GET', `/v1/reviews?cursor=${bad}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
    expect((await call('GET', '/v1/reviews?status=closed')).status).toBe(400);
    expect((await (await call('GET', '/v1/reviews?status=resolved')).json()).reviews).toEqual([]);
  });

  it('resolves with the corrected data: each value confirmed, corrected, added or removed, and who resolved it', async () => {
    await extract({ document: { text: INVOICE }, review: true, reviewBelow: 0.8 });
    const { id } = await newest();
    const review = await (await call('GET', `/v1/reviews/${id}`)).json();
    const data = structuredClone(review.data);
    data.vendor.name = 'Acme Cloud Supply LLC';
    data.vendor.address = null;
    data.subtotal = 4500;
    const charged = await heuUsed();
    const res = await call('POST', `/v1/reviews/${id}/resolve`, { data });
    expect(res.status).toBe(200);
    const resolved = await res.json();
    expect(resolved).toMatchObject({ status: 'resolved', resolution: { data, resolvedBy: { kind: 'api_key', id: keyId }, counts: { confirmed: 10, corrected: 1, added: 1, removed: 1 } } });
    expect(resolved.resolvedAt).not.toBeNull();
    const byPath = Object.fromEntries(resolved.resolution.values.map((v: Json) => [v.path, v]));
    expect(byPath['/vendor/name']).toEqual({ path: '/vendor/name', outcome: 'corrected', found: 'ACME CLOUD SUPPLY LLC', value: 'Acme Cloud Supply LLC', confidence: 0.745 });
    expect(byPath['/vendor/address']).toMatchObject({ outcome: 'removed', value: null, confidence: 0.629 });
    expect(byPath['/subtotal']).toEqual({ path: '/subtotal', outcome: 'added', found: null, value: 4500, confidence: null });
    expect(byPath['/total']).toMatchObject({ outcome: 'confirmed', found: 4500, value: 4500 });
    // The labels the account's calibration is fitted on: every value the service found, right or not.
    const labels = await s.db.prisma.reviewLabel.findMany({ where: { reviewId: id } });
    expect(labels).toHaveLength(12);
    expect(labels.filter((l) => !l.correct).map((l) => l.path).sort()).toEqual(['/vendor/address', '/vendor/name']);
    expect((await call('GET', '/v1/reviews?status=resolved')).status).toBe(200);
    expect((await (await call('GET', '/v1/reviews?status=resolved')).json()).reviews.map((r: Json) => r.id)).toEqual([id]);
    // A dashboard session resolves it again: the resolution is replaced, the subject recorded.
    const again = await s.fetch(`/v1/reviews/${id}/resolve`, { method: 'POST', headers: { authorization: `Bearer ${await s.token('acct_rev')}` }, json: { data: review.data } });
    expect(again.status).toBe(200);
    expect((await again.json()).resolution).toMatchObject({ resolvedBy: { kind: 'dashboard', id: 'acct_rev' }, counts: { confirmed: 12, corrected: 0, added: 0, removed: 0 } });
    expect(await s.db.prisma.reviewLabel.count({ where: { reviewId: id, correct: false } })).toBe(0);
    expect(await heuUsed()).toBe(charged);
  });

  it('refuses corrected data that breaks the route schema (400) and changes nothing', async () => {
    await extract({ document: { text: INVOICE }, review: true, reviewBelow: 0.8 });
    const { id } = await newest();
    for (const body of [{ data: { total: 'a lot' } }, { data: { invoiceNumber: 'X', surprise: 1 } }, {}]) {
      const res = await call('POST', `/v1/reviews/${id}/resolve`, body);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
    expect((await (await call('GET', `/v1/reviews/${id}`)).json()).status).toBe('open');
    expect(await s.db.prisma.reviewLabel.count({ where: { reviewId: id } })).toBe(0);
  });

  it('answers 404 for another account\'s review, on every route, and leaves it as it was', async () => {
    const { id } = await newest();
    for (const [method, path, body] of [['GET', `/v1/reviews/${id}`], ['GET', `/v1/reviews/${id}/file`], ['POST', `/v1/reviews/${id}/resolve`, { data: {} }], ['DELETE', `/v1/reviews/${id}`]] as const) {
      const res = await call(method, path, body, otherKey);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
    expect((await (await call('GET', '/v1/reviews', undefined, otherKey)).json()).reviews).toEqual([]);
    expect((await call('GET', `/v1/reviews/${id}`)).status).toBe(200);
    expect((await call('GET', '/v1/reviews/0193a6f9-2b3c-7d4e-8f5a-6b7c8d9e0f1a')).status).toBe(404);
  });

  it('deletes a review with its document and labels', async () => {
    const { id } = (await (await call('GET', '/v1/reviews?status=resolved')).json()).reviews[0];
    const res = await call('DELETE', `/v1/reviews/${id}`);
    expect(res.status).toBe(200);
    expect((await res.json()).id).toBe(id);
    expect((await call('GET', `/v1/reviews/${id}`)).status).toBe(404);
    expect(await s.db.prisma.reviewLabel.count({ where: { reviewId: id } })).toBe(0);
    expect((await call('DELETE', `/v1/reviews/${id}`)).status).toBe(404);
  });

  it('records review.created and review.resolved for endpoints that take them, not for others; the deliveries list keeps to job events', async () => {
    const made = await call('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/reviews', events: ['review.created', 'review.resolved'] });
    expect(made.status).toBe(201);
    const endpoint = await made.json();
    const jobsOnly = await (await call('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/jobs', events: ['job.succeeded'] })).json();
    await extract({ document: { text: INVOICE }, review: true, reviewBelow: 0.8 });
    const review = await (await call('GET', `/v1/reviews/${(await newest()).id}`)).json();
    await call('POST', `/v1/reviews/${review.id}/resolve`, { data: review.data });
    const rows = await s.db.prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.eventType)).toEqual(['review.created', 'review.resolved']);
    const created = JSON.parse(rows[0]!.payload);
    expect(created).toMatchObject({ type: 'review.created', data: { review: { id: review.id, status: 'open', lowCount: 2 } } });
    expect(JSON.parse(rows[1]!.payload)).toMatchObject({ type: 'review.resolved', data: { review: { id: review.id, status: 'resolved' } } });
    expect(await s.db.prisma.webhookDelivery.count({ where: { endpointId: jobsOnly.id } })).toBe(0);
    const listed = await call('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`);
    expect(listed.status).toBe(200);
    expect((await listed.json()).deliveries).toEqual([]);
  });

  it('deletes reviews past REVIEW_RETENTION_DAYS with the sweep', async () => {
    const before = await reviewCount();
    expect(before).toBeGreaterThan(0);
    await s.jobs.sweep(new Date(s.clock.now().getTime() + 29 * 86_400_000));
    expect(await reviewCount()).toBe(before);
    await s.jobs.sweep(new Date(s.clock.now().getTime() + 31 * 86_400_000));
    expect(await reviewCount()).toBe(0);
    expect(await s.db.prisma.reviewLabel.count({ where: { accountId: 'acct_rev' } })).toBe(0);
  });
});
