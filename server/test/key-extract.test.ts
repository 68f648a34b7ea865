// POST /v1/keys/{id}/extract: the dashboard's "Try a document" runs an extraction as one of the account's keys, with
// its session (bearer). It must be metered exactly as /v1/extract/* with that key, and refuse what that key could not do.
import { FakeAnthropic } from './support/fake-anthropic.js';
import { emptyAnswer } from './support/answers.js';
import { schemaOf } from './support/fake-anthropic.js';
import { startTestServer, type TestServer } from './support/harness.js';

const RECEIPT = 'BLUE DOOR CAFE\n03/14/2026 12:47\nFlat White 4.50\nTOTAL 4.50\nVISA';

describe('extraction with one of your keys (dashboard session)', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer('embedded'); });
  afterAll(async () => { await s.close(); });

  const setup = async (account: string, plan: 'free' | 'starter' = 'starter') => {
    await s.db.prisma.account.create({ data: { id: account, plan } });
    const key = await s.createKey(account, 'dashboard');
    return { key, auth: { authorization: `Bearer ${await s.token(account)}` } };
  };
  const account = async (key: string) => (await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).json() as Promise<{ heuUsed: number }>;

  it('answers what the route answers, with its kind, metered as the same request with the key', async () => {
    const { key, auth } = await setup('acct_try_1');
    const viaKey = await s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': key.key }, json: { document: { text: RECEIPT } } });
    const direct = await viaKey.json();
    const before = (await account(key.key)).heuUsed;
    const res = await s.fetch(`/v1/keys/${key.id}/extract`, { method: 'POST', headers: auth, json: { document: { text: RECEIPT }, kind: 'receipt' } });
    expect(res.status).toBe(200);
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(res.headers.get(h)).toMatch(/^\d+$/);
    const body = await res.json();
    expect(body).toEqual({ kind: 'receipt', ...direct });
    expect((await account(key.key)).heuUsed).toBe(before + body.usage.heu);
    // One usage record per run, under the route's name, as the API writes it.
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_try_1', route: 'receipt', state: 'settled' } })).toBe(2);
    const row = await s.db.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } });
    expect(row.lastUsedAt).not.toBeNull();
  });

  it('takes a schema (kind custom), the request options, and a renewal\'s record and status', async () => {
    const { key, auth } = await setup('acct_try_2');
    const custom = await (await s.fetch(`/v1/keys/${key.id}/extract`, { method: 'POST', headers: auth, json: { document: { text: 'Spring Meetup\nCapacity: 120 places' }, schema: { type: 'object', properties: { capacity: { type: 'integer' } } }, minConfidence: 0, returnText: true } })).json();
    expect(custom).toMatchObject({ kind: 'custom', data: { capacity: 120 }, source: { text: 'Spring Meetup\nCapacity: 120 places' }, withheld: [] });
    const strict = await (await s.fetch(`/v1/keys/${key.id}/extract`, { method: 'POST', headers: auth, json: { document: { text: RECEIPT }, kind: 'receipt', minConfidence: 1 } })).json();
    expect(strict.data.merchant).toBeNull();
    expect(strict.withheld.map((w: { path: string }) => w.path)).toContain('/merchant');
    const renewal = await (await s.fetch(`/v1/keys/${key.id}/extract`, { method: 'POST', headers: auth, json: { document: { text: 'Vendor: Cloudnest Inc.\nTerm ends: 2026-12-31. This order renews automatically unless notice is given 60 days before the end of the term.' }, kind: 'renewal' } })).json();
    expect(renewal).toMatchObject({ kind: 'renewal', overall_status: expect.any(String), document_id: expect.any(String), document: { vendorRenewalId: renewal.vendor_renewal_id } });
  });

  it('refuses another account\'s key, an unknown or revoked one (404), an API key (401) and a bad body (400); nothing is charged', async () => {
    const { key, auth } = await setup('acct_try_3');
    const other = await setup('acct_try_4');
    const before = (await account(key.key)).heuUsed;
    const run = (id: string, headers: Record<string, string>, json: unknown = { document: { text: RECEIPT }, kind: 'receipt' }) => s.fetch(`/v1/keys/${id}/extract`, { method: 'POST', headers, json });
    expect((await run(other.key.id, auth)).status).toBe(404);
    expect((await run('0193a6f2-7c1e-7b3a-9d4e-5f60718293a4', auth)).status).toBe(404);
    const apiKey = await run(key.id, { 'x-api-key': key.key });
    expect(apiKey.status).toBe(401);
    expect((await apiKey.json()).error.code).toBe('unauthorized');
    expect((await run(key.id, auth, { document: { text: RECEIPT } })).status).toBe(400);
    expect((await run(key.id, auth, { document: { text: RECEIPT }, kind: 'passport' })).status).toBe(400);
    expect((await run('not-a-uuid', auth)).status).toBe(400);
    const revoked = await s.createKey('acct_try_3', 'old');
    await s.fetch(`/v1/keys/${revoked.id}`, { method: 'DELETE', headers: auth });
    const gone = await run(revoked.id, auth);
    expect(gone.status).toBe(404);
    expect((await gone.json()).error.code).toBe('not_found');
    expect((await account(key.key)).heuUsed).toBe(before);
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_try_3' } })).toBe(0);
  });

  it('shares the account\'s request rate with its API calls (429 with Retry-After)', async () => {
    const { key, auth } = await setup('acct_try_5', 'free');
    for (let i = 0; i < 9; i++) expect((await s.fetch('/v1/account', { headers: { 'x-api-key': key.key } })).status).toBe(200);
    for (let i = 0; i < 10; i++) await s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': key.key }, json: { document: { text: RECEIPT } } });
    const res = await s.fetch(`/v1/keys/${key.id}/extract`, { method: 'POST', headers: auth, json: { document: { text: RECEIPT }, kind: 'receipt' } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('takes a file in the body up to the extraction routes\' 15 MB (not the 5 MB of other routes)', async () => {
    const { key, auth } = await setup('acct_try_6');
    const big = Buffer.alloc(6 * 1024 * 1024, 7).toString('base64');
    const res = await s.fetch(`/v1/keys/${key.id}/extract`, { method: 'POST', headers: auth, json: { document: { content: big, mediaType: 'application/pdf' }, kind: 'invoice' } });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('document_type_mismatch');
  });
});

describe('extraction with one of your keys, revoked while it runs (Claude, fake provider)', () => {
  let fake: FakeAnthropic;
  let s: TestServer;
  beforeAll(async () => {
    fake = await (new FakeAnthropic()).start();
    s = await startTestServer('embedded', { ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: fake.url, PLANS_FILE: '' });
  });
  afterAll(async () => { await s.close(); await fake.stop(); });

  it('stops, answers 404 (the session is fine) and charges nothing', async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_try_revoked', plan: 'starter' } });
    const key = await s.createKey('acct_try_revoked');
    const auth = { authorization: `Bearer ${await s.token('acct_try_revoked')}` };
    fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)), delayMs: 2000 });
    const pending = s.fetch(`/v1/keys/${key.id}/extract`, { method: 'POST', headers: auth, json: { document: { text: RECEIPT }, kind: 'receipt' } });
    await new Promise((r) => setTimeout(r, 500));
    expect((await s.fetch(`/v1/keys/${key.id}`, { method: 'DELETE', headers: auth })).status).toBe(200);
    const res = await pending;
    expect(res.status).toBe(404);
    expect((await res.json()).error.message).toContain('revoked');
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_try_revoked', state: 'settled' } })).toBe(0);
  });
});
