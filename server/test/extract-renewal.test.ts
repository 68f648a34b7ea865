import { dataSchemaFor } from '../src/extraction/schemas/contract-schemas.js';
import { emptyAnswer } from './support/answers.js';
import { dbModes } from './support/databases.js';
import { FakeAnthropic } from './support/fake-anthropic.js';
import { startTestServer, type TestServer } from './support/harness.js';

const TEXT = `ORDER FORM
Vendor: Cloudpeak Systems, Inc.
Product: Cloudpeak Vault Standard
Term: January 1, 2026 through December 31, 2026.
This order renews automatically for successive one-year terms unless either party gives
written notice at least 45 days before the end of the term.`;

/** Another account's vendor renewal (a UUID, as every id is). */
const FOREIGN_RENEWAL = '0193a6f2-0000-7000-8000-00000000f0e1';

type Grounded = { value: unknown; sourceQuote: string | null };
function renewalAnswer(overrides: Record<string, Grounded | string>): Record<string, unknown> {
  return { ...(emptyAnswer(dataSchemaFor('renewal')) as object), documentKindGuess: 'order_form', ...overrides };
}
const FULL = {
  vendorName: { value: 'Cloudpeak Systems, Inc.', sourceQuote: 'Vendor: Cloudpeak Systems, Inc.' },
  product: { value: 'Cloudpeak Vault Standard', sourceQuote: 'Product: Cloudpeak Vault Standard' },
  contractEndDate: { value: '2026-12-31', sourceQuote: 'January 1, 2026 through December 31, 2026' },
  renewalDate: { value: '2026-12-31', sourceQuote: 'January 1, 2026 through December 31, 2026' },
  noticePeriodDays: { value: 45, sourceQuote: 'written notice at least 45 days before the end of the term' },
  autoRenewal: { value: true, sourceQuote: 'This order renews automatically for successive one-year terms' },
};

describe.each(dbModes())('renewal extraction (%s database)', (mode) => {
  let fake: FakeAnthropic;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    fake = await (new FakeAnthropic()).start();
    s = await startTestServer(mode, { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.url });
    await s.db.prisma.account.create({ data: { id: 'acct_renewal', plan: 'starter' } });
    key = (await s.createKey('acct_renewal')).key;
  });
  afterAll(async () => { await s.close(); await fake.stop(); });
  beforeEach(() => fake.reset());

  const extract = (document: Record<string, unknown>) => s.fetch('/v1/extract/renewal', { method: 'POST', headers: { 'x-api-key': key }, json: { document } });

  it('keeps grounded values (quotes matched across line breaks and case), confirms, and stores the record without the text', async () => {
    fake.next({ kind: 'answer', input: renewalAnswer({ ...FULL, autoRenewal: { value: true, sourceQuote: 'this order RENEWS automatically for successive one-year terms' } }) });
    const res = await extract({ text: TEXT, filename: 'order.txt', mediaType: 'text/plain' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.overall_status).toBe('confirmed');
    expect(body.data.noticePeriodDays).toEqual(FULL.noticePeriodDays);
    const uuid = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.data).not.toHaveProperty('overall_status');
    expect(body.document).toEqual({
      id: uuid, vendorRenewalId: uuid, filename: 'order.txt', mediaType: 'text/plain', byteSize: Buffer.byteLength(TEXT),
      documentKindGuess: 'order_form', overallStatus: 'confirmed', extraction: body.data, model: body.model, createdAt: expect.any(String),
    });
    expect(body.document_id).toBe(body.document.id);
    expect(body.vendor_renewal_id).toBe(body.document.vendorRenewalId);
    const row = await s.db.prisma.storedDocument.findUniqueOrThrow({ where: { id: body.document.id }, include: { vendorRenewal: true } });
    expect(row.extraction).toEqual(body.data);
    expect(JSON.stringify(row)).not.toContain('renews automatically for successive one-year terms unless');
    expect(row.vendorRenewal).toMatchObject({ accountId: 'acct_renewal', vendorName: 'Cloudpeak Systems, Inc.', product: 'Cloudpeak Vault Standard' });
  });

  it('removes a value whose quote is not in the document, and lowers the status to needs_review', async () => {
    fake.next({ kind: 'answer', input: renewalAnswer({ ...FULL, committedSpend: { value: 50000, sourceQuote: 'Committed spend: $50,000' } }) });
    const body = await (await extract({ text: TEXT })).json();
    expect(body.data.committedSpend).toEqual({ value: null, sourceQuote: null });
    expect(body.overall_status).toBe('needs_review');
    expect(body.document.overallStatus).toBe('needs_review');
  });

  it('says no_terms_found when no renewal term was found', async () => {
    fake.next({ kind: 'answer', input: renewalAnswer({ vendorName: FULL.vendorName }) });
    const body = await (await extract({ text: TEXT })).json();
    expect(body.overall_status).toBe('no_terms_found');
  });

  it('links documents of the same vendor and product to one vendor renewal, whatever the legal form and case', async () => {
    fake.next({ kind: 'answer', input: renewalAnswer(FULL) });
    const a = await (await extract({ text: TEXT })).json();
    const text2 = TEXT.replace('Cloudpeak Systems, Inc.', 'CLOUDPEAK SYSTEMS INC');
    fake.next({ kind: 'answer', input: renewalAnswer({ ...FULL, vendorName: { value: 'CLOUDPEAK SYSTEMS INC', sourceQuote: 'Vendor: CLOUDPEAK SYSTEMS INC' } }) });
    const b = await (await extract({ text: text2 })).json();
    expect(b.document.vendorRenewalId).toBe(a.document.vendorRenewalId);
  });

  it('links to the vendor renewal the caller names', async () => {
    fake.next({ kind: 'answer', input: renewalAnswer(FULL) });
    const first = await (await extract({ text: TEXT })).json();
    fake.next({ kind: 'answer', input: renewalAnswer({ vendorName: { value: 'Someone Else', sourceQuote: null } }) });
    const named = await (await extract({ text: TEXT, vendorRenewalId: first.document.vendorRenewalId })).json();
    expect(named.document.vendorRenewalId).toBe(first.document.vendorRenewalId);
  });

  it("answers 404 for another account's vendorRenewalId before any model call, charging nothing", async () => {
    const other = await s.db.prisma.vendorRenewal.create({ data: { id: FOREIGN_RENEWAL, accountId: (await s.db.prisma.account.create({ data: { id: `acct_foreign_${mode}` } })).id, vendorKey: 'x', productKey: 'y' } });
    const before = await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_renewal' } });
    const res = await extract({ text: TEXT, vendorRenewalId: other.id });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
    expect(fake.requests).toHaveLength(0);
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_renewal' } })).toBe(before);
    expect(await s.db.prisma.storedDocument.count({ where: { vendorRenewalId: FOREIGN_RENEWAL } })).toBe(0);
  });

  it('stores nothing for a batch refused mid-way: a key revoked after two renewal items were stored answers 401 and takes them back', async () => {
    await s.db.prisma.account.create({ data: { id: `acct_refused_${mode}`, plan: 'starter' } });
    const made = await s.createKey(`acct_refused_${mode}`);
    const docs = () => s.db.prisma.storedDocument.count({ where: { accountId: `acct_refused_${mode}` } });
    const renewals = () => s.db.prisma.vendorRenewal.count({ where: { accountId: `acct_refused_${mode}` } });
    fake.next(
      { kind: 'answer', input: renewalAnswer(FULL) },
      { kind: 'answer', input: renewalAnswer({ ...FULL, product: { value: 'Cloudpeak Vault Standard', sourceQuote: 'Product: Cloudpeak Vault Standard' } }) },
      { kind: 'answer', input: renewalAnswer(FULL), delayMs: 5_000 },
    );
    const items = ['a', 'b', 'c'].map((id) => ({ id, kind: 'renewal', document: { text: TEXT } }));
    const pending = s.fetch('/v1/extract/batch', { method: 'POST', headers: { 'x-api-key': made.key }, json: { items } });
    for (let i = 0; i < 100 && (await docs()) < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await docs()).toBe(2); // two items answered and stored, the third still with the model
    expect((await s.fetch(`/v1/keys/${made.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${await s.token(`acct_refused_${mode}`)}` } })).status).toBe(200);
    const res = await pending;
    expect([res.status, await res.json()]).toEqual([401, { error: 'invalid_api_key' }]);
    expect(await docs()).toBe(0);
    expect(await renewals()).toBe(0);
    const account = await s.db.prisma.usageBucket.findMany({ where: { accountId: `acct_refused_${mode}` } });
    expect(account.reduce((sum, b) => sum + b.heuUsed, 0)).toBe(0);
  });
});
