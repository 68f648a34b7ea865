// The calendar feed, read back with a real iCalendar parser (ical.js): one event per cancellation deadline (with
// reminders) and per renewal date, the same dates the API shows; a revocable token in the URL, kept only as a hash.
import ICAL from 'ical.js';
import { startTestServer, type TestServer } from '../support/harness.js';

type Json = Record<string, any>;
const orderForm = (vendor: string, end: string, notice: string) =>
  `ORDER FORM\nVendor: ${vendor}\nProduct: ${vendor} Cloud\nFees: $1,200.00 per month\nTerm: 2026-01-01 to ${end}. This order renews automatically for successive 12-month terms unless either party gives ${notice} written notice before the end of the term.`;

interface ParsedEvent { uid: string; summary: string; start: string; allDay: boolean; alarms: string[]; description: string; url: string | null }

function parse(ics: string): { calendar: ICAL.Component; events: ParsedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const events = calendar.getAllSubcomponents('vevent').map((c) => {
    const e = new ICAL.Event(c);
    return {
      uid: e.uid, summary: e.summary, start: e.startDate.toString(), allDay: e.startDate.isDate, description: e.description,
      url: (c.getFirstPropertyValue('url') as string | null) ?? null,
      alarms: c.getAllSubcomponents('valarm').map((a) => `${a.getFirstPropertyValue('action')} ${String(a.getFirstPropertyValue('trigger'))}`),
    };
  });
  return { calendar, events };
}

describe('calendar feed of renewal deadlines', () => {
  let s: TestServer;
  let key: string;
  let bearer: Record<string, string>;
  const account = 'acct_calendar';
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
    key = (await s.createKey(account)).key;
    bearer = { authorization: `Bearer ${await s.token(account)}` };
  });
  afterAll(async () => { await s.close(); });

  const extract = async (text: string) => (await (await s.fetch('/v1/extract/renewal', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text } } })).json()) as Json;
  const createFeed = async (headers = bearer) => s.fetch('/v1/renewals/calendar-feed', { method: 'POST', headers });
  const feed = (token: string) => s.fetch(`/v1/renewals/calendar.ics?token=${encodeURIComponent(token)}`);

  it('answers 401 without a token or with a wrong one', async () => {
    for (const path of ['/v1/renewals/calendar.ics', '/v1/renewals/calendar.ics?token=', `/v1/renewals/calendar.ics?token=dxcal_${'A'.repeat(43)}`, '/v1/renewals/calendar.ics?token=nonsense']) {
      const res = await s.fetch(path);
      expect([path, res.status]).toEqual([path, 401]);
      expect((await res.json()).error.code).toBe('unauthorized');
    }
    // An API key or a session is not a feed token.
    expect((await s.fetch('/v1/renewals/calendar.ics', { headers: { 'x-api-key': key } })).status).toBe(401);
  });

  it('creates the token with a dashboard session only, and shows it once', async () => {
    s.clock.set('2026-11-22T10:30:00.000Z');
    expect(await (await s.fetch('/v1/renewals/calendar-feed', { headers: { 'x-api-key': key } })).json()).toEqual({ active: false, prefix: null, createdAt: null });
    const byKey = await createFeed({ 'x-api-key': key });
    expect(byKey.status).toBe(401);
    expect(await s.db.prisma.calendarFeed.count()).toBe(0);
    const res = await createFeed();
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      active: true, prefix: body.token.slice(0, 12), createdAt: '2026-11-22T10:30:00.000Z',
      token: expect.stringMatching(/^dxcal_[A-Za-z0-9]{43}$/), url: `http://127.0.0.1:8080/v1/renewals/calendar.ics?token=${body.token}`,
    });
    const row = await s.db.prisma.calendarFeed.findUniqueOrThrow({ where: { accountId: account } });
    expect(JSON.stringify(row)).not.toContain(body.token);
    expect(await (await s.fetch('/v1/renewals/calendar-feed', { headers: { 'x-api-key': key } })).json()).toEqual({ active: true, prefix: body.prefix, createdAt: '2026-11-22T10:30:00.000Z' });
  });

  it('feeds one event per deadline (reminders 7 days and 1 day before) and per renewal date, as the API dates them', async () => {
    s.clock.set('2026-11-22T10:15:00.000Z');
    const cloud = await extract(orderForm('CloudNest Inc.', '2026-12-31', "30 days'"));
    const monthly = await extract(orderForm('Monthly Arc Ltd', '2027-05-31', "3 months'"));
    const undated = await extract(orderForm('Nodate Ltd', 'the end of time', "30 days'"));
    const gone = await extract(orderForm('Gonefield Ltd', '2027-03-31', "30 days'"));
    expect((await s.fetch(`/v1/renewals/${gone.vendor_renewal_id}`, { method: 'PATCH', headers: { 'x-api-key': key }, json: { cancelled: true } })).status).toBe(200);
    const { token } = await (await createFeed()).json();

    s.clock.set('2026-11-23T08:00:00.000Z');
    const res = await feed(token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const ics = await res.text();
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    const { calendar, events } = parse(ics);
    expect(calendar.getFirstPropertyValue('prodid')).toBe('-//docextract//renewals//EN');

    const list = (await (await s.fetch('/v1/renewals', { headers: { 'x-api-key': key } })).json()).renewals as Json[];
    const byId = new Map(list.map((r) => [r.id, r]));
    expect(byId.get(cloud.vendor_renewal_id)?.cancellationDeadline).toBe('2026-12-01');
    expect(byId.get(monthly.vendor_renewal_id)?.cancellationDeadline).toBe('2027-02-28');

    expect(events.map((e) => [e.uid, e.start, e.allDay, e.summary])).toEqual([
      [`deadline-${cloud.vendor_renewal_id}@docextract`, '2026-12-01', true, 'Cancellation deadline: CloudNest Inc. - CloudNest Inc. Cloud'],
      [`renewal-${cloud.vendor_renewal_id}@docextract`, '2026-12-31', true, 'Renews: CloudNest Inc. - CloudNest Inc. Cloud'],
      [`deadline-${monthly.vendor_renewal_id}@docextract`, '2027-02-28', true, 'Cancellation deadline: Monthly Arc Ltd - Monthly Arc Ltd Cloud'],
      [`renewal-${monthly.vendor_renewal_id}@docextract`, '2027-05-31', true, 'Renews: Monthly Arc Ltd - Monthly Arc Ltd Cloud'],
    ]);
    // No event for the renewal without dates, none for the cancelled one.
    expect(ics).not.toContain(undated.vendor_renewal_id);
    expect(ics).not.toContain(gone.vendor_renewal_id);
    const deadline = events[0]!;
    expect(deadline.alarms).toEqual(['DISPLAY -P7D', 'DISPLAY -P1D']);
    expect(events[1]!.alarms).toEqual([]);
    expect(deadline.description).toContain('Notice period: 30 days');
    expect(deadline.url).toBe(`http://127.0.0.1:8080/dashboard/renewals?id=${cloud.vendor_renewal_id}`);
    expect(events[2]!.description).toContain('Notice period: 3 months');
    // The token is never written to a log line.
    expect(s.logs.join('')).not.toContain(token);
  });

  it('a reset token replaces the old one at once; a revoked one stops working', async () => {
    const first = (await (await createFeed()).json()).token;
    expect((await feed(first)).status).toBe(200);
    const second = (await (await createFeed()).json()).token;
    expect((await feed(first)).status).toBe(401);
    expect((await feed(second)).status).toBe(200);
    const revoked = await s.fetch('/v1/renewals/calendar-feed', { method: 'DELETE', headers: bearer });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ active: false, prefix: null, createdAt: null });
    expect((await feed(second)).status).toBe(401);
    expect(await s.db.prisma.calendarFeed.count({ where: { accountId: account } })).toBe(0);
    const again = await s.fetch('/v1/renewals/calendar-feed', { method: 'DELETE', headers: bearer });
    expect(await again.json()).toEqual({ active: false, prefix: null, createdAt: null });
  });

  it("feeds only the token's own account", async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_calendar_other', plan: 'starter' } });
    const other = await (await s.fetch('/v1/renewals/calendar-feed', { method: 'POST', headers: { authorization: `Bearer ${await s.token('acct_calendar_other')}` } })).json();
    const { events } = parse(await (await feed(other.token)).text());
    expect(events).toEqual([]);
  });
});
