// The SDK's renewal methods and the `docextract renewals` command, against the real server (offline engine).
import { DocExtract, DocExtractError, InvalidRequestError, type VendorRenewal } from '../src/index.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { cli } from './run-cli.js';

const orderForm = (vendor: string, end: string, notice: string) =>
  `ORDER FORM\nVendor: ${vendor}\nProduct: ${vendor.split(' ')[0]} Suite\nFees: $1,200.00 per month\nTerm: 2026-01-01 to ${end}. This order renews automatically for successive 12-month terms unless either party gives ${notice} written notice before the end of the term.`;

describe('SDK and CLI: vendor renewals', () => {
  let s: TestServer;
  let client: DocExtract;
  let dashboard: DocExtract;
  let apiKey: string;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_sdk_renewals', plan: 'starter' } });
    apiKey = (await s.createKey('acct_sdk_renewals')).key;
    client = new DocExtract({ baseUrl: s.baseUrl, apiKey });
    dashboard = new DocExtract({ baseUrl: s.baseUrl, token: await s.token('acct_sdk_renewals') });
    s.clock.set('2026-11-22T10:00:00.000Z');
    for (const [name, vendor, end, notice] of [
      ['soon', 'Soonfield Ltd', '2026-12-31', "30 days'"],
      ['late', 'Latewood Ltd', '2027-06-30', "30 days'"],
      ['passed', 'Pastmoor Ltd', '2026-11-30', "30 days'"],
      ['months', 'Monthly Arc Ltd', '2027-05-31', "3 months'"],
      ['gone', 'Gonefield Ltd', '2027-03-31', "30 days'"],
    ] as const) ids[name] = (await client.extract.renewal({ text: orderForm(vendor, end, notice) })).vendor_renewal_id;
    await client.renewals.cancel(ids.gone!);
  });
  afterAll(async () => { await s.close(); });

  it('iterates over every page, soonest deadline first', async () => {
    const seen: VendorRenewal[] = [];
    for await (const r of client.renewals.listAll({}, 2)) seen.push(r);
    expect(seen.map((r) => r.id)).toEqual([ids.passed, ids.soon, ids.months, ids.gone, ids.late]);
    const pages: number[] = [];
    for await (const page of client.renewals.pages({ status: 'upcoming' }, 1)) pages.push(page.renewals.length);
    expect(pages).toEqual([1, 1]);
  });

  it('reads a renewal, its documents, corrects a term and marks it cancelled; a session works too', async () => {
    const detail = await dashboard.renewals.get(ids.soon!);
    expect(detail).toMatchObject({ cancellationDeadline: '2026-12-01', daysLeft: 9, status: 'window_closing', documentCount: 1 });
    const document = await client.documents.get(detail.documents[0]!.id);
    expect(document).toEqual(detail.documents[0]);
    const updated = await client.renewals.update(ids.soon!, { overrides: { noticePeriodDays: { value: 60 } } });
    expect(updated.terms.noticePeriodDays).toMatchObject({ value: 60, source: 'override', extracted: { value: 30 } });
    expect(updated).toMatchObject({ cancellationDeadline: '2026-11-01', status: 'deadline_passed' });
    await client.renewals.update(ids.soon!, { overrides: { noticePeriodDays: null } });
  });

  it('throws typed errors: not_found for an unknown id, invalid_request for a bad update', async () => {
    await expect(client.renewals.get('0193a6f2-0000-7000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    const bad = await client.renewals.update(ids.soon!, { overrides: { renewalDate: { value: '2027-02-30' } } }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect(bad).toBeInstanceOf(DocExtractError);
  });

  it('manages the calendar feed token with a session', async () => {
    const created = await dashboard.renewals.calendarFeed.reset();
    expect(created.url).toBe(`http://127.0.0.1:8080/v1/renewals/calendar.ics?token=${created.token}`);
    expect(await client.renewals.calendarFeed.get()).toEqual({ active: true, prefix: created.prefix, createdAt: created.createdAt });
    expect((await s.fetch(`/v1/renewals/calendar.ics?token=${created.token}`)).status).toBe(200);
    expect(await dashboard.renewals.calendarFeed.revoke()).toEqual({ active: false, prefix: null, createdAt: null });
    // Creating one is for a dashboard session, not an API key.
    await expect(client.renewals.calendarFeed.reset()).rejects.toMatchObject({ status: 401 });
  });

  it('`docextract renewals` prints the deadlines still ahead as a table, soonest first', async () => {
    const env = { DOCEXTRACT_API_KEY: apiKey, DOCEXTRACT_BASE_URL: s.baseUrl };
    // The CLI runs in another process, on the server's clock (the test clock, 2026-11-22).
    const r = await cli(['renewals'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe([
      'DEADLINE    DAYS LEFT  STATUS          VENDOR           PRODUCT          RENEWS      NOTICE',
      '2026-12-01          9  window_closing  Soonfield Ltd    Soonfield Suite  2026-12-31  30 days',
      '2027-02-28         98  upcoming        Monthly Arc Ltd  Monthly Suite    2027-05-31  3 months',
      '2027-05-31        190  upcoming        Latewood Ltd     Latewood Suite   2027-06-30  30 days',
      '',
    ].join('\n'));
    const all = await cli(['renewals', '--all'], env);
    expect(all.stdout.trim().split('\n').map((l) => l.split(/\s{2,}/)[0])).toEqual(['DEADLINE', '2026-10-31', '2026-12-01', '2027-02-28', '2027-03-01', '2027-05-31']);
    const passed = await cli(['renewals', '--status', 'deadline_passed'], env);
    expect(passed.stdout).toContain('Pastmoor Ltd');
    expect(passed.stdout).not.toContain('Soonfield');
    const bad = await cli(['renewals', '--status', 'late'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown status late');
  });
});
