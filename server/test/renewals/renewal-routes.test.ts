// The renewal-tracking routes, driven as a caller would: documents go in through POST /v1/extract/renewal (offline
// engine) and come back through GET /v1/renewals, GET /v1/renewals/{id}, GET /v1/documents/{id} and PATCH.
import { startTestServer, type TestServer } from '../support/harness.js';

const orderForm = (vendor: string, product: string, end: string, notice: string, start = '2026-01-01') =>
  `ORDER FORM\nVendor: ${vendor}\nProduct: ${product}\nFees: $1,200.00 per month\nTerm: ${start} to ${end}. This order renews automatically for successive 12-month terms unless either party gives ${notice} written notice before the end of the term.`;

type Json = Record<string, any>;

describe('renewal tracking routes', () => {
  let s: TestServer;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_renewals', plan: 'starter' } });
    await s.db.prisma.account.create({ data: { id: 'acct_other', plan: 'starter' } });
    key = (await s.createKey('acct_renewals')).key;
    otherKey = (await s.createKey('acct_other')).key;
  });
  afterAll(async () => { await s.close(); });

  const get = (path: string, k = key) => s.fetch(path, { headers: { 'x-api-key': k } });
  const patch = (path: string, json: unknown, k = key) => s.fetch(path, { method: 'PATCH', headers: { 'x-api-key': k }, json });
  async function extract(text: string, k = key, at = '2026-11-22T10:15:00.000Z'): Promise<Json> {
    s.clock.set(at);
    const res = await s.fetch('/v1/extract/renewal', { method: 'POST', headers: { 'x-api-key': k }, json: { document: { text, filename: 'order.txt' } } });
    expect(res.status).toBe(200);
    return res.json();
  }
  const renewalRow = (id: string) => s.db.prisma.vendorRenewal.findUniqueOrThrow({ where: { id }, select: { overrides: true, cancelledAt: true, updatedAt: true } });

  let cloud: Json;
  let cloudLater: Json;
  beforeAll(async () => {
    cloud = await extract(orderForm('CloudNest Inc.', 'CloudNest Storage Pro', '2026-12-31', "30 days'"));
    // A newer document of the same renewal: the term renews to the next year.
    cloudLater = await extract(orderForm('CloudNest Inc.', 'CloudNest Storage Pro', '2027-12-31', "30 days'", '2027-01-01'), key, '2026-11-23T09:00:00.000Z');
    s.clock.set('2026-11-24T12:00:00.000Z');
  });

  it('shows a stored document, with its deadline, in the list and the detail; each term names its document', async () => {
    expect(cloudLater.vendor_renewal_id).toBe(cloud.vendor_renewal_id);
    const list = await (await get('/v1/renewals')).json();
    const shown = list.renewals.find((r: Json) => r.id === cloud.vendor_renewal_id);
    expect(shown).toMatchObject({
      vendorName: 'CloudNest Inc.', product: 'CloudNest Storage Pro', documentCount: 2,
      cancellationDeadline: '2027-12-01', noticePeriod: { amount: 30, unit: 'days' }, daysLeft: 372, status: 'upcoming',
      deadlineUnknownReason: null, cancelledAt: null, lastDocumentAt: '2026-11-23T09:00:00.000Z',
    });
    expect(shown.terms.renewalDate).toEqual({
      value: '2027-12-31', source: 'extracted', override: null,
      extracted: { value: '2027-12-31', sourceQuote: 'Term: 2027-01-01 to 2027-12-31.', documentId: cloudLater.document_id },
    });
    const detail = await (await get(`/v1/renewals/${cloud.vendor_renewal_id}`)).json();
    expect(detail.documents.map((d: Json) => d.id)).toEqual([cloudLater.document_id, cloud.document_id]);
    expect(detail.documents[1]).toEqual(cloud.document);
    expect(JSON.stringify(detail)).not.toContain('ORDER FORM');
    const { documents: _d, ...withoutDocuments } = detail;
    expect(withoutDocuments).toEqual(shown);
  });

  it('reads a stored document: metadata and extraction, never the text', async () => {
    const res = await get(`/v1/documents/${cloud.document_id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(cloud.document);
  });

  it('takes a dashboard session (bearer) as well as an API key, and nothing else', async () => {
    const bearer = await s.fetch('/v1/renewals', { headers: { authorization: `Bearer ${await s.token('acct_renewals')}` } });
    expect(bearer.status).toBe(200);
    expect((await bearer.json()).renewals.length).toBeGreaterThan(0);
    const none = await s.fetch('/v1/renewals');
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe('unauthorized');
    const bad = await s.fetch(`/v1/renewals/${cloud.vendor_renewal_id}`, { headers: { 'x-api-key': 'dx_live_' + 'x'.repeat(43) } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ error: 'invalid_api_key' });
  });

  it("answers 404 for another account's renewal and document, and changes nothing", async () => {
    const before = await renewalRow(cloud.vendor_renewal_id);
    for (const path of [`/v1/renewals/${cloud.vendor_renewal_id}`, `/v1/documents/${cloud.document_id}`]) {
      const res = await get(path, otherKey);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toMatchObject({ code: 'not_found', details: null });
    }
    const res = await patch(`/v1/renewals/${cloud.vendor_renewal_id}`, { cancelled: true }, otherKey);
    expect(res.status).toBe(404);
    expect(await renewalRow(cloud.vendor_renewal_id)).toEqual(before);
    expect((await (await get('/v1/renewals', otherKey)).json()).renewals).toEqual([]);
    const unknown = await get('/v1/renewals/0193a6f2-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
  });

  it('refuses bad input with a 400 envelope naming the problem', async () => {
    const cases: Array<[string, string]> = [
      ['/v1/renewals/not-a-uuid', '/params/id'],
      ['/v1/documents/not-a-uuid', '/params/id'],
      ['/v1/renewals?status=late', '/query/status'],
      ['/v1/renewals?limit=0', '/query/limit'],
      ['/v1/renewals?deadlineFrom=2026-13-01', '/query/deadlineFrom'],
      ['/v1/renewals?deadlineTo=2027-02-29', '/query/deadlineTo'],
      ['/v1/renewals?deadlineTo=tomorrow', '/query/deadlineTo'],
      ['/v1/renewals?cursor=', '/query/cursor'],
    ];
    for (const [path, where] of cases) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, 400]);
      const body = await res.json();
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.details.errors.map((e: Json) => e.path).join(' ')).toContain(where);
    }
  });

  it('refuses a bad update with a 400 envelope, and nothing changes', async () => {
    const id = cloud.vendor_renewal_id;
    const before = await renewalRow(id);
    const cases: Array<[unknown, string]> = [
      [{ overrides: { renewalDat: { value: '2027-01-01' } } }, '/body/overrides'],
      [{ overrides: { renewalDate: { value: '2027-02-30' } } }, '/body/overrides/renewalDate/value'],
      [{ overrides: { renewalDate: '2027-01-01' } }, '/body/overrides/renewalDate'],
      [{ overrides: { noticePeriodDays: { value: -1 } } }, '/body/overrides/noticePeriodDays/value'],
      [{ overrides: { currency: { value: 'dollars' } } }, '/body/overrides/currency/value'],
      [{ overrides: { renewalDate: { value: '2027-01-31' } }, cancelled: 'yes' }, '/body/cancelled'],
      [{ cancel: true }, '/body'],
      [[], '/body'],
    ];
    for (const [body, where] of cases) {
      const res = await patch(`/v1/renewals/${id}`, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      const answer = await res.json();
      expect(answer.error.code).toBe('invalid_request');
      expect(answer.error.details.errors.map((e: Json) => e.path).join(' ')).toContain(where);
    }
    const misspelt = await (await patch(`/v1/renewals/${id}`, { overrides: { renewalDat: { value: '2027-01-01' } } })).json();
    expect(misspelt.error.details.errors).toEqual([{ path: '/body/overrides/renewalDat', message: 'is not a member this object takes' }]);
    const notJson = await s.fetch(`/v1/renewals/${id}`, { method: 'PATCH', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: '{"cancelled":' });
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.code).toBe('malformed_json');
    expect(await renewalRow(id)).toEqual(before);
    // An update that names nothing to change is refused too (README: an empty body is 400), and changes nothing.
    const empty = await patch(`/v1/renewals/${id}`, {});
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toMatchObject({ code: 'invalid_request', details: { errors: [{ path: '/body', message: expect.stringContaining('nothing to change') }] } });
    expect((await patch(`/v1/renewals/${id}`, { overrides: {} })).status).toBe(400);
    expect(await renewalRow(id)).toEqual(before);
  });

  it('keeps a manual override apart from the extracted value, derives from it, and clears it', async () => {
    const id = cloud.vendor_renewal_id;
    s.clock.set('2026-11-24T12:00:00.000Z');
    const res = await patch(`/v1/renewals/${id}`, { overrides: { renewalDate: { value: '2027-03-31' }, noticePeriodText: { value: 'three months' } } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.terms.renewalDate).toEqual({
      value: '2027-03-31', source: 'override', override: { value: '2027-03-31', setAt: '2026-11-24T12:00:00.000Z' },
      extracted: { value: '2027-12-31', sourceQuote: 'Term: 2027-01-01 to 2027-12-31.', documentId: cloudLater.document_id },
    });
    // The phrase corrected to months wins over the extracted day count; 31 March minus 3 months is 31 December.
    expect(body).toMatchObject({ noticePeriod: { amount: 3, unit: 'months' }, cancellationDeadline: '2026-12-31', daysLeft: 37, status: 'upcoming' });
    expect((await renewalRow(id)).overrides).toEqual({
      renewalDate: { value: '2027-03-31', setAt: '2026-11-24T12:00:00.000Z' },
      noticePeriodText: { value: 'three months', setAt: '2026-11-24T12:00:00.000Z' },
    });
    // The detail shows the same; the stored extraction is untouched.
    const detail = await (await get(`/v1/renewals/${id}`)).json();
    expect(detail.terms.renewalDate.source).toBe('override');
    expect(detail.documents[0].extraction.renewalDate.value).toBe('2027-12-31');

    const cleared = await (await patch(`/v1/renewals/${id}`, { overrides: { renewalDate: null, noticePeriodText: null } })).json();
    expect(cleared.terms.renewalDate).toMatchObject({ value: '2027-12-31', source: 'extracted', override: null });
    expect(cleared.cancellationDeadline).toBe('2027-12-01');
    expect((await renewalRow(id)).overrides).toEqual({});
  });

  it('marks a renewal cancelled and takes the mark back', async () => {
    const id = cloud.vendor_renewal_id;
    s.clock.set('2026-11-25T08:00:00.000Z');
    const cancelled = await (await patch(`/v1/renewals/${id}`, { cancelled: true })).json();
    expect(cancelled).toMatchObject({ status: 'cancelled', cancelledAt: '2026-11-25T08:00:00.000Z', cancellationDeadline: '2027-12-01' });
    const filtered = await (await get('/v1/renewals?status=cancelled')).json();
    expect(filtered.renewals.map((r: Json) => r.id)).toEqual([id]);
    const back = await (await patch(`/v1/renewals/${id}`, { cancelled: false })).json();
    expect(back).toMatchObject({ status: 'upcoming', cancelledAt: null });
    expect((await renewalRow(id)).cancelledAt).toBeNull();
  });

  describe('the list: sorted by deadline, filtered, paged', () => {
    let ids: Record<string, string>;
    beforeAll(async () => {
      const account = 'acct_renewal_list';
      await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
      const k = (await s.createKey(account)).key;
      const put = async (vendor: string, end: string, notice: string) => (await extract(orderForm(vendor, 'Suite', end, notice), k)).vendor_renewal_id as string;
      ids = {
        late: await put('Latewood Ltd', '2027-06-30', "30 days'"),
        soon: await put('Soonfield Ltd', '2026-12-31', "30 days'"),
        passed: await put('Pastmoor Ltd', '2026-11-30', "30 days'"),
        months: await put('Monthly Arc Ltd', '2027-05-31', "3 months'"),
        unknown: await put('Nodate Ltd', 'the end of time', "30 days'"),
      };
      s.clock.set('2026-11-22T10:00:00.000Z');
      listKey = k;
    });
    let listKey: string;

    it('sorts by deadline (none last), with days left and statuses', async () => {
      const body = await (await get('/v1/renewals', listKey)).json();
      expect(body.nextCursor).toBeNull();
      expect(body.renewals.map((r: Json) => [r.vendorName, r.cancellationDeadline, r.daysLeft, r.status])).toEqual([
        ['Pastmoor Ltd', '2026-10-31', -22, 'deadline_passed'],
        ['Soonfield Ltd', '2026-12-01', 9, 'window_closing'],
        ['Monthly Arc Ltd', '2027-02-28', 98, 'upcoming'],
        ['Latewood Ltd', '2027-05-31', 190, 'upcoming'],
        ['Nodate Ltd', null, null, 'needs_review'],
      ]);
      expect(body.renewals[2].noticePeriod).toEqual({ amount: 3, unit: 'months' });
      expect(body.renewals[4].deadlineUnknownReason).toBe('no_renewal_date');
    });

    it('pages with a cursor, each renewal once', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: Response = await get(`/v1/renewals?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, listKey);
        expect(res.status).toBe(200);
        const page = await res.json();
        expect(page.renewals.length).toBeLessThanOrEqual(2);
        seen.push(...page.renewals.map((r: Json) => r.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([ids.passed, ids.soon, ids.months, ids.late, ids.unknown]);
    });

    it('answers no renewal for a range that ends before it starts, and 400 for a cursor no page gave', async () => {
      const inverted = await get('/v1/renewals?deadlineFrom=2027-01-01&deadlineTo=2026-01-01', listKey);
      expect(inverted.status).toBe(200);
      expect((await inverted.json()).renewals).toEqual([]);
      // A cursor is the nextCursor of a page (`<deadline or ~>|<id>`), not any position: anything else is refused.
      for (const cursor of ['~|~', '2026-12-31', 'garbage']) {
        const res = await get(`/v1/renewals?cursor=${encodeURIComponent(cursor)}`, listKey);
        expect([cursor, res.status, (await res.json()).error.details.errors[0].path]).toEqual([cursor, 400, '/query/cursor']);
      }
    });

    it('filters by status and by a range of deadlines', async () => {
      const byStatus = await (await get('/v1/renewals?status=upcoming', listKey)).json();
      expect(byStatus.renewals.map((r: Json) => r.id)).toEqual([ids.months, ids.late]);
      const range = await (await get('/v1/renewals?deadlineFrom=2026-11-01&deadlineTo=2027-02-28', listKey)).json();
      expect(range.renewals.map((r: Json) => r.id)).toEqual([ids.soon, ids.months]);
      const review = await (await get('/v1/renewals?status=needs_review', listKey)).json();
      expect(review.renewals.map((r: Json) => r.id)).toEqual([ids.unknown]);
    });
  });
});
