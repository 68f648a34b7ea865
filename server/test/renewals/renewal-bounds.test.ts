// Renewal dates and notice periods are held to bounds (server/src/renewals/term-bounds.ts): years 1900-2199, notice
// periods of at most 3 years. An override outside them is 400 and changes nothing; a value outside them already in
// the database (extracted, or set before the bounds were checked) never makes the list, the detail or the calendar
// feed fail: the renewal reads as needs_review with a reason. Was: PATCH with renewalDate 0100-01-01 and 3,660 days
// (or "9999 months") answered 500, and from then on the account's list, the renewal's detail and calendar.ics too.
import ICAL from 'ical.js';
import { dbModes } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/harness.js';

type Json = Record<string, any>;
const orderForm = (vendor: string, end: string, notice: string) =>
  `ORDER FORM\nVendor: ${vendor}\nProduct: ${vendor} Suite\nFees: $1,200.00 per month\nTerm: 2026-01-01 to ${end}. This order renews automatically for successive 12-month terms unless either party gives ${notice} written notice before the end of the term.`;

describe.each(dbModes())('renewal bounds (%s database)', (mode) => {
  let s: TestServer;
  let key: string;
  let bearer: Record<string, string>;
  const account = 'acct_renewal_bounds';
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    s = await startTestServer(mode);
    s.clock.set('2026-11-24T12:00:00.000Z');
    await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
    key = (await s.createKey(account)).key;
    bearer = { authorization: `Bearer ${await s.token(account)}` };
    for (const [name, vendor] of [['good', 'Goodwell Ltd'], ['zero', 'Zerodate Ltd'], ['months', 'Longmonth Ltd'], ['farout', 'Farout Ltd'], ['patched', 'Patchfield Ltd']]) {
      const res = await s.fetch('/v1/extract/renewal', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: orderForm(vendor!, '2027-06-30', "30 days'") } } });
      expect(res.status).toBe(200);
      ids[name!] = (await res.json()).vendor_renewal_id;
    }
  });
  afterAll(async () => { await s.close(); });

  const get = (path: string) => s.fetch(path, { headers: { 'x-api-key': key } });
  const patch = (id: string, json: unknown) => s.fetch(`/v1/renewals/${id}`, { method: 'PATCH', headers: { 'x-api-key': key }, json });
  const row = (id: string) => s.db.prisma.vendorRenewal.findUniqueOrThrow({ where: { id }, select: { overrides: true, cancelledAt: true, updatedAt: true } });

  it('refuses overrides outside the bounds, unknown members inside a term and updates that name nothing, with 400, changing nothing', async () => {
    const id = ids.patched!;
    const before = await row(id);
    const cases: Array<[unknown, string]> = [
      [{ overrides: { renewalDate: { value: '0100-01-01' }, noticePeriodDays: { value: 3660 } } }, '/body/overrides/noticePeriodDays/value'],
      [{ overrides: { renewalDate: { value: '0100-01-01' } } }, '/body/overrides/renewalDate/value'],
      [{ overrides: { renewalDate: { value: '1899-12-31' } } }, '/body/overrides/renewalDate/value'],
      [{ overrides: { renewalDate: { value: '2200-01-01' } } }, '/body/overrides/renewalDate/value'],
      [{ overrides: { contractEndDate: { value: '9999-12-31' } } }, '/body/overrides/contractEndDate/value'],
      [{ overrides: { noticePeriodDays: { value: 3660 } } }, '/body/overrides/noticePeriodDays/value'],
      [{ overrides: { noticePeriodDays: { value: 1096 } } }, '/body/overrides/noticePeriodDays/value'],
      [{ overrides: { noticePeriodText: { value: '9999 months' } } }, '/body/overrides/noticePeriodText/value'],
      [{ overrides: { noticePeriodText: { value: 'thirty-seven (37) calendar months' } } }, '/body/overrides/noticePeriodText/value'],
      [{ overrides: { noticePeriodText: { value: '157 weeks' } } }, '/body/overrides/noticePeriodText/value'],
      [{ overrides: { renewalDate: { value: '2027-01-31', note: 'by hand' } } }, '/body/overrides/renewalDate'],
      [{}, '/body'],
      [{ overrides: {} }, '/body/overrides'],
    ];
    for (const [body, where] of cases) {
      const res = await patch(id, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      const answer = await res.json();
      expect(answer.error.code).toBe('invalid_request');
      expect([JSON.stringify(body), answer.error.details.errors.map((e: Json) => e.path).join(' ')]).toEqual([JSON.stringify(body), expect.stringContaining(where)]);
    }
    // No body at all is the same as an empty one.
    const none = await s.fetch(`/v1/renewals/${id}`, { method: 'PATCH', headers: { 'x-api-key': key } });
    expect(none.status).toBe(400);
    expect((await none.json()).error.code).toBe('invalid_request');
    expect(await row(id)).toEqual(before);
    expect((await get(`/v1/renewals/${id}`)).status).toBe(200);
  });

  it('accepts the edges of the bounds', async () => {
    const id = ids.patched!;
    const edges = [
      [{ overrides: { renewalDate: { value: '2199-12-31' }, noticePeriodDays: { value: 1095 } } }, { cancellationDeadline: '2196-12-31', noticePeriod: { amount: 1095, unit: 'days' } }],
      [{ overrides: { renewalDate: { value: '1900-01-01' }, noticePeriodDays: null, noticePeriodText: { value: '36 months' } } }, { cancellationDeadline: '1897-01-01', status: 'deadline_passed' }],
      [{ overrides: { noticePeriodText: { value: '156 weeks' } } }, { noticePeriod: { amount: 156, unit: 'weeks' } }],
    ] as const;
    for (const [body, expected] of edges) {
      const res = await patch(id, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 200]);
      expect(await res.json()).toMatchObject({ deadlineUnknownReason: null, ...expected });
    }
  });

  describe('values out of bounds already stored', () => {
    beforeAll(async () => {
      // As the old service stored them: overrides the PATCH accepted, and a document's extraction with a far date.
      const setAt = '2026-11-20T10:00:00.000Z';
      await s.db.prisma.vendorRenewal.update({ where: { id: ids.zero! }, data: { overrides: { renewalDate: { value: '0100-01-01', setAt }, noticePeriodDays: { value: 3660, setAt } } } });
      await s.db.prisma.vendorRenewal.update({ where: { id: ids.months! }, data: { overrides: { noticePeriodText: { value: '9999 months', setAt }, noticePeriodDays: { value: null, setAt } } } });
      const doc = await s.db.prisma.storedDocument.findFirstOrThrow({ where: { vendorRenewalId: ids.farout! } });
      const extraction = doc.extraction as Json;
      await s.db.prisma.storedDocument.update({ where: { id: doc.id }, data: { extraction: { ...extraction, renewalDate: { ...extraction.renewalDate, value: '2300-06-30' } } } });
    });

    it('lists them with the others, each out-of-range one as needs_review with the reason', async () => {
      const res = await get('/v1/renewals');
      expect(res.status).toBe(200);
      const list = (await res.json()).renewals as Json[];
      const by = (id: string) => list.find((r) => r.id === id)!;
      expect(list).toHaveLength(5);
      expect(by(ids.good!)).toMatchObject({ status: 'upcoming', cancellationDeadline: '2027-05-31', deadlineUnknownReason: null });
      expect(by(ids.zero!)).toMatchObject({
        status: 'needs_review', cancellationDeadline: null, daysLeft: null, noticePeriod: null, deadlineUnknownReason: 'renewal_date_out_of_range',
        terms: { renewalDate: { value: '0100-01-01', source: 'override' }, noticePeriodDays: { value: 3660, source: 'override' } },
      });
      expect(by(ids.months!)).toMatchObject({ status: 'needs_review', cancellationDeadline: null, noticePeriod: null, deadlineUnknownReason: 'notice_period_out_of_range', terms: { noticePeriodText: { value: '9999 months' } } });
      expect(by(ids.farout!)).toMatchObject({ status: 'needs_review', cancellationDeadline: null, deadlineUnknownReason: 'renewal_date_out_of_range', terms: { renewalDate: { value: '2300-06-30', source: 'extracted' } } });
      const review = await (await get('/v1/renewals?status=needs_review')).json();
      expect(review.renewals.map((r: Json) => r.id).sort()).toEqual([ids.zero, ids.months, ids.farout].sort());
    });

    it('answers each one\'s detail', async () => {
      for (const name of ['zero', 'months', 'farout']) {
        const res = await get(`/v1/renewals/${ids[name]}`);
        expect([name, res.status]).toEqual([name, 200]);
        expect((await res.json()).status).toBe('needs_review');
      }
    });

    it('writes the calendar feed without them: no event on a date a calendar cannot hold', async () => {
      const created = await s.fetch('/v1/renewals/calendar-feed', { method: 'POST', headers: bearer });
      expect(created.status).toBe(201);
      const { token } = await created.json();
      const res = await s.fetch(`/v1/renewals/calendar.ics?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(200);
      const calendar = new ICAL.Component(ICAL.parse(await res.text()));
      const events = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c)).map((e) => `${e.startDate.toString()} ${e.summary}`).sort();
      expect(events).toEqual([
        '2027-05-31 Cancellation deadline: Goodwell Ltd - Goodwell Ltd Suite',
        '2027-06-30 Renews: Goodwell Ltd - Goodwell Ltd Suite',
        '2027-06-30 Renews: Longmonth Ltd - Longmonth Ltd Suite',
      ].concat(events.filter((e) => e.includes('Patchfield'))).sort());
      expect(events.join('\n')).not.toMatch(/Zerodate|Farout/);
    });

    it('reads again once the value is corrected by hand', async () => {
      const res = await patch(ids.zero!, { overrides: { renewalDate: { value: '2027-06-30' }, noticePeriodDays: { value: 30 } } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'upcoming', cancellationDeadline: '2027-05-31', deadlineUnknownReason: null });
    });
  });
});
