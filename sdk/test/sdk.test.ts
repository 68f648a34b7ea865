import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AuthenticationError, DocExtract, DocExtractError, InvalidRequestError, PlanLimitExceededError, RateLimitError } from '../src/index.js';
import { FakeStripe } from '../../server/test/support/fake-stripe.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';

describe('SDK against the real server', () => {
  let s: TestServer;
  let stripe: FakeStripe;
  let dashboard: DocExtract;
  let client: DocExtract;
  let keyId: string;
  beforeAll(async () => {
    stripe = await (new FakeStripe()).start();
    s = await startTestServer('embedded', { STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_STARTER: 'price_1', STRIPE_API_BASE: stripe.url });
    await s.db.prisma.account.create({ data: { id: 'acct_sdk', plan: 'starter' } });
    dashboard = new DocExtract({ baseUrl: s.baseUrl, token: await s.token('acct_sdk') });
    const created = await dashboard.keys.create({ name: 'sdk' });
    keyId = created.id;
    client = new DocExtract({ baseUrl: s.baseUrl, apiKey: created.key });
  });
  afterAll(async () => { await s.close(); await stripe.stop(); });

  it('creates a key with an idempotency key it generates, and shows the raw key', async () => {
    const key = await dashboard.keys.create({ name: 'second' });
    expect(key).toMatchObject({ name: 'second', idempotent: false, key: expect.stringMatching(/^dx_live_/) });
    const replay = await dashboard.keys.create({ name: 'third' }, { idempotencyKey: 'sdk-idem' });
    const again = await dashboard.keys.create({ name: 'third' }, { idempotencyKey: 'sdk-idem' });
    expect(again).toMatchObject({ id: replay.id, idempotent: true });
    expect(again.key).toBeUndefined();
  });

  it.each([
    ['invoice', 'ACME LLC\nInvoice INV-1\nTotal: $10.00'],
    ['receipt', 'CORNER SHOP\nTOTAL 3.00\nCASH'],
    ['contract', 'SERVICES AGREEMENT between A Ltd and B Inc.'],
    ['jobPosting', 'Backend Engineer\nRemote'],
    ['meetingNotes', 'Weekly sync\nAttendees: Ana, Ben'],
    ['renewal', 'Vendor: Cloudnest Inc.\nRenews automatically.'],
  ] as const)('extract.%s answers {data, model, usage}', async (method, text) => {
    const answer = await client.extract[method](text);
    expect(answer).toMatchObject({ data: expect.any(Object), model: 'local-rules-1', usage: { heu: expect.any(Number) } });
  });

  it('extract.custom and extract.batch', async () => {
    const custom = await client.extract.custom({ text: 'Spring Meetup' }, { type: 'object', properties: { eventName: { type: 'string' } } } as const);
    expect(Object.keys(custom.data)).toEqual(['eventName']);
    const batch = await client.extract.batch([{ id: 'a', document: { text: 'TOTAL 1.00' }, kind: 'receipt' }, { id: 'b', document: { text: 'x' }, schema: { type: 'object', properties: { a: { type: 'string' } } } }]);
    expect(batch.results.map((i) => i.ok)).toEqual([true, true]);
  });

  it('classify and extract.auto, with the kinds to choose among', async () => {
    const invoice = 'INVOICE\nInvoice No: 77\nBill To: Orbit Ltd\nDue Date: 2026-05-01\nTotal: $10.00';
    const c = await client.classify(invoice);
    expect(c).toMatchObject({ kind: 'invoice', model: 'local-rules-1', usage: { heu: 1, classificationHeu: 1 } });
    expect((await client.classify({ text: invoice }, { kinds: ['receipt'] })).kind).toBe('other');
    const auto = await client.extract.auto({ file: { bytes: new TextEncoder().encode(invoice), mediaType: 'text/plain', filename: 'a.txt' } });
    expect(auto.parts).toHaveLength(1);
    expect(auto.parts[0]).toMatchObject({ kind: 'invoice', result: { data: { invoiceNumber: '77' } } });
    const none = await client.extract.auto(invoice, { kinds: ['contract'] });
    expect(none.parts[0]!.result).toBeUndefined();
  });

  it('extract.auto sends minConfidence and returnText, as every extract call does', async () => {
    const invoice = 'INVOICE\nInvoice No: 77\nBill To: Orbit Ltd\nDue Date: 2026-05-01\nTotal: $10.00';
    const all = await client.extract.auto(invoice, { minConfidence: 0, returnText: true });
    expect(all.parts[0]!.result!.source.text).toBe(invoice);
    expect(all.parts[0]!.result!.withheld).toEqual([]);
    // Nothing is sure enough at 1: every value found is withheld.
    const none = await client.extract.auto(invoice, { minConfidence: 1 });
    expect(none.parts[0]!.result!.source.text).toBeUndefined();
    expect(none.parts[0]!.result!.withheld.length).toBeGreaterThan(0);
  });

  it('keys.extract and batch results are typed by kind, and answer that kind\'s data', async () => {
    const tried = await dashboard.keys.extract(keyId, { document: 'BLUE DOOR CAFE\n03/14/2026\nTOTAL $9.00\nVISA', kind: 'receipt' });
    expect(tried.kind).toBe('receipt');
    const total: number | null = tried.data.total;
    expect(total).toBe(9);
    const batch = await client.extract.batch([{ id: 'r', document: { text: 'BLUE DOOR CAFE\nTOTAL $9.00' }, kind: 'receipt' }, { id: 'i', document: { text: 'INVOICE\nInvoice No: 77\nTotal: $10.00' }, kind: 'invoice' }]);
    const [receipt, inv] = batch.results;
    expect(receipt.ok && receipt.data.total).toBe(9);
    expect(inv.ok && inv.data.invoiceNumber).toBe('77');
  });

  it('lists keys page by page and iterates over all of them', async () => {
    const page = await client.keys.list({ limit: 1 });
    expect(page.keys).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));
    const all: string[] = [];
    for await (const k of dashboard.keys.listAll(2)) all.push(k.id);
    expect(all.length).toBeGreaterThanOrEqual(3);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain(keyId);
  });

  it('reads the account and starts a checkout', async () => {
    expect(await client.account.get()).toMatchObject({ id: 'acct_sdk', plan: 'starter' });
    await s.db.prisma.account.update({ where: { id: 'acct_sdk' }, data: { plan: 'free' } });
    const { url } = await dashboard.billing.checkout('starter');
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    await s.db.prisma.account.update({ where: { id: 'acct_sdk' }, data: { plan: 'starter' } });
  });

  it('throws typed errors with the code, details and request id', async () => {
    const bad = await client.extract.invoice({ text: '' }).catch((e) => e);
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect(bad).toMatchObject({ status: 400, code: 'invalid_request', requestId: expect.stringMatching(/^req_/) });
    expect(bad.details.errors[0].path).toContain('/body/document/text');

    await s.db.prisma.usageBucket.upsert({
      where: { accountId_periodStart: { accountId: 'acct_sdk', periodStart: new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)) } },
      create: { accountId: 'acct_sdk', periodStart: new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1)), heuUsed: 9999 },
      update: { heuUsed: 9999 },
    });
    const limit = await client.extract.invoice('Invoice').catch((e) => e);
    expect(limit).toBeInstanceOf(PlanLimitExceededError);
    const details = (limit as PlanLimitExceededError).details;
    expect(details).toMatchObject({ plan: 'starter', bucketHeu: 1, requestedHeu: expect.any(Number), upgradeUrl: expect.any(String) });
    await s.db.prisma.usageBucket.updateMany({ where: { accountId: 'acct_sdk' }, data: { heuUsed: 0 } });
  });

  it('revokes a key; the revoked key then fails with invalid_api_key', async () => {
    const doomed = await dashboard.keys.create({ name: 'doomed' });
    const user = new DocExtract({ baseUrl: s.baseUrl, apiKey: doomed.key });
    await user.account.get();
    expect((await dashboard.keys.revoke(doomed.id)).revokedAt).not.toBeNull();
    const err = await user.account.get().catch((e) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    expect(err).toMatchObject({ status: 401, code: 'invalid_api_key' });
  });
});

/** A server that answers from a script, to test retries and timeouts. */
async function scripted(answers: Array<{ status: number; headers?: Record<string, string>; body?: unknown } | 'hang'>) {
  const seen: { method: string; url: string; headers: Record<string, unknown> }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    const a = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    if (a === 'hang') return;
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers }).end(JSON.stringify(a.body ?? {}));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => { server.closeAllConnections(); return new Promise((r) => server.close(r)); } };
}

const ACCOUNT = { id: 'a', plan: 'free', status: 'active', heuLimit: 100, heuUsed: 0, periodStart: '2026-11-01T00:00:00.000Z', requestsPerMinute: 10, hasBillingCustomer: false, currentPeriodEnd: null, cancelAt: null, priorPlan: null, subscriptionEndedAt: null, createdAt: '2026-11-01T00:00:00.000Z' };
const TOO_MANY = { status: 429, headers: { 'retry-after': '0' }, body: { error: { code: 'too_many_requests', message: 'slow down', details: { reason: 'rate_limit', limit: 10, resetAt: '2026-11-22T10:01:00.000Z' } } } };

describe('SDK retries and timeouts', () => {
  it('retries 429 honouring Retry-After, then answers', async () => {
    const srv = await scripted([TOO_MANY, TOO_MANY, { status: 200, body: ACCOUNT }]);
    try {
      const client = new DocExtract({ baseUrl: srv.url, apiKey: 'dx_live_x' });
      expect(await client.account.get()).toEqual(ACCOUNT);
      expect(srv.seen).toHaveLength(3);
    } finally { await srv.close(); }
  });

  it('gives up after maxRetries with a typed RateLimitError, and does not retry when turned off', async () => {
    const srv = await scripted([TOO_MANY]);
    try {
      const err = await new DocExtract({ baseUrl: srv.url, apiKey: 'k', maxRetries: 1 }).account.get().catch((e) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err.details.reason).toBe('rate_limit');
      expect(srv.seen).toHaveLength(2);
      await new DocExtract({ baseUrl: srv.url, apiKey: 'k', maxRetries: 0 }).account.get().catch(() => {});
      expect(srv.seen).toHaveLength(3);
    } finally { await srv.close(); }
  });

  it('does not sleep past maxRetryWaitMs: a longer Retry-After fails the call at once, with when to come back', async () => {
    const srv = await scripted([{ ...TOO_MANY, headers: { 'retry-after': '34' } }, { status: 200, body: ACCOUNT }]);
    try {
      const err = await new DocExtract({ baseUrl: srv.url, apiKey: 'k', maxRetryWaitMs: 5_000 }).account.get().catch((e) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err.details.resetAt).toBe('2026-11-22T10:01:00.000Z');
      expect(srv.seen).toHaveLength(1);
    } finally { await srv.close(); }
  });

  it('reports a key whose first answer was lost to its own retry, instead of answering it without the raw key', async () => {
    const replayed = { id: '0193a6f2-7c1e-7b3a-9d4e-5f60718293a4', name: 'n', prefix: 'dx_live_abcd', createdAt: '2026-11-01T00:00:00.000Z', lastUsedAt: null, revokedAt: null, idempotent: true };
    const srv = await scripted([{ status: 503, body: { error: { code: 'service_unavailable', message: 'down', details: null } } }, { status: 200, body: replayed }]);
    try {
      const err = await new DocExtract({ baseUrl: srv.url, token: 't', retry: { baseDelayMs: 1 } }).keys.create({ name: 'n' }).catch((e) => e);
      expect(err).toBeInstanceOf(DocExtractError);
      expect(err.message).toContain(`The key ${replayed.id} was created but its answer was lost`);
    } finally { await srv.close(); }
  });

  it('retries 503 on reads and on key creation with the same idempotency key, but not on an extraction', async () => {
    const unavailable = { status: 503, body: { error: { code: 'service_unavailable', message: 'down', details: null } } };
    const srv = await scripted([unavailable, { status: 201, body: { id: 'key_1', name: 'n', prefix: 'dx_live_abcd', createdAt: '2026-11-01T00:00:00.000Z', lastUsedAt: null, revokedAt: null, key: 'dx_live_abc', idempotent: false } }]);
    try {
      const client = new DocExtract({ baseUrl: srv.url, token: 't', retry: { baseDelayMs: 1 } });
      await client.keys.create({ name: 'n' });
      expect(srv.seen).toHaveLength(2);
      expect(srv.seen[0]!.headers['x-idempotency-key']).toEqual(expect.any(String));
      expect(srv.seen[1]!.headers['x-idempotency-key']).toBe(srv.seen[0]!.headers['x-idempotency-key']);
    } finally { await srv.close(); }
    const srv2 = await scripted([unavailable]);
    try {
      const err = await new DocExtract({ baseUrl: srv2.url, apiKey: 'k', retry: { baseDelayMs: 1 } }).extract.invoice('x').catch((e) => e);
      expect(err).toBeInstanceOf(DocExtractError);
      expect(err.status).toBe(503);
      expect(srv2.seen).toHaveLength(1);
    } finally { await srv2.close(); }
  });

  it('sends the credential each operation needs', async () => {
    const srv = await scripted([{ status: 200, body: ACCOUNT }]);
    try {
      const both = new DocExtract({ baseUrl: srv.url, apiKey: 'dx_live_key', token: 'tok' });
      await both.account.get();
      await both.billing.checkout('starter').catch(() => {});
      await both.extract.receipt('x').catch(() => {});
      expect(srv.seen.map((r) => [r.url, r.headers['x-api-key'] ?? null, r.headers.authorization ?? null])).toEqual([
        ['/v1/account', 'dx_live_key', null],
        ['/v1/billing/checkout', null, 'Bearer tok'],
        ['/v1/extract/receipt', 'dx_live_key', null],
      ]);
    } finally { await srv.close(); }
  });

  it('times out a call, and stops on the caller\'s AbortSignal', async () => {
    const srv = await scripted(['hang']);
    try {
      const client = new DocExtract({ baseUrl: srv.url, apiKey: 'k' });
      const err = await client.account.get({ timeoutMs: 200 }).catch((e) => e);
      expect(err).toMatchObject({ code: 'timeout' });
      const controller = new AbortController();
      const pending = client.account.get({ signal: controller.signal }).catch((e) => e);
      controller.abort();
      expect((await pending).name).toBe('AbortError');
    } finally { await srv.close(); }
  });

  it('refuses an API key in a browser unless told otherwise; bearer tokens work there', () => {
    const g = globalThis as Record<string, unknown>;
    g.window = {};
    g.document = {};
    try {
      expect(() => new DocExtract({ apiKey: 'dx_live_x' })).toThrow(/browser/);
      expect(() => new DocExtract({ token: 't' })).not.toThrow();
      expect(() => new DocExtract({ apiKey: 'dx_live_x', dangerouslyAllowBrowser: true })).not.toThrow();
    } finally {
      delete g.window;
      delete g.document;
    }
  });
});
