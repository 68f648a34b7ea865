// The dashboard's Renewals page in Chromium (playwright-core): documents sent to the renewal route show up sorted by
// deadline with days left and status; the detail shows each term's quote; an override and the cancelled mark are
// saved through the page; the calendar link is created, copied, works, and is reset.
import { mkdirSync } from 'node:fs';
import ICAL from 'ical.js';
import { type Browser, type Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from './support/browser.js';
import { startTestServer, type TestServer } from './support/harness.js';

const SHOTS = new URL('../../test-output/dashboard/', import.meta.url).pathname;
const run = describeInBrowser('dashboard renewals suite');

const orderForm = (vendor: string, product: string, end: string, notice: string) =>
  `ORDER FORM\nVendor: ${vendor}\nProduct: ${product}\nFees: $1,200.00 per month\nTerm: 2026-01-01 to ${end}. This order renews automatically for successive 12-month terms unless either party gives ${notice} written notice before the end of the term.`;

run('dashboard Renewals page in Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  const account = 'acct_browser_renewals';
  const consoleErrors: string[] = [];
  const external: string[] = [];
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
    const { key } = await s.createKey(account);
    s.clock.set('2026-11-22T10:00:00.000Z');
    for (const [name, vendor, product, end, notice] of [
      ['cloud', 'CloudNest Inc.', 'CloudNest Storage Pro', '2026-12-31', "30 days'"],
      ['metrics', 'Pylon Metrics Ltd', 'Pylon Observe', '2027-05-31', "3 months'"],
      ['chat', 'Chatterbox GmbH', 'Chatterbox Teams', '2026-11-30', "30 days'"],
      ['mail', 'Mailgrove Inc.', 'Mailgrove Send', 'the end of the year', "30 days'"],
    ] as const) {
      const res = await s.fetch('/v1/extract/renewal', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: orderForm(vendor, product, end, notice), filename: `${name}-order.txt` } } });
      ids[name] = (await res.json()).vendor_renewal_id;
    }
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.baseUrl });
    page = await context.newPage();
    page.on('request', (r) => { if (!r.url().startsWith(s.baseUrl) && !r.url().startsWith('data:')) external.push(r.url()); });
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    await page.goto(`${s.baseUrl}/dashboard`);
    await page.getByLabel('Account id').fill(account);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const rowTexts = () => page.locator('#renewal-list tbody tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].slice(0, 4).map((c) => c.textContent)));

  it('lists the renewals soonest deadline first, with days left and a written, coloured status', async () => {
    await page.getByRole('link', { name: 'Renewals' }).click();
    await page.getByRole('heading', { name: 'Renewals' }).waitFor();
    await page.locator('#renewal-list tbody tr').first().waitFor();
    expect(await rowTexts()).toEqual([
      ['Chatterbox GmbH — Chatterbox Teams', '2026-10-31', '22 days ago', 'Deadline passed'],
      ['CloudNest Inc. — CloudNest Storage Pro', '2026-12-01', '9 days', 'Window closing'],
      ['Pylon Metrics Ltd — Pylon Observe', '2027-02-28', '98 days', 'Upcoming'],
      ['Mailgrove Inc. — Mailgrove Send', '—', '—', 'Needs review'],
    ]);
    const colour = await page.locator(`tr[data-renewal-id="${ids.cloud}"] .badge`).evaluate((b) => getComputedStyle(b).color);
    const passed = await page.locator(`tr[data-renewal-id="${ids.chat}"] .badge`).evaluate((b) => getComputedStyle(b).color);
    expect(colour).not.toBe(passed);
  });

  it('shows the detail with each term\'s quote and source document, and saves an override and the cancelled mark', async () => {
    await page.getByRole('button', { name: 'Details of CloudNest Inc. — CloudNest Storage Pro' }).click();
    await page.getByRole('heading', { name: 'CloudNest Inc. — CloudNest Storage Pro' }).waitFor();
    const renewalRow = page.locator('tr[data-term="renewalDate"]');
    expect(await renewalRow.locator('blockquote').textContent()).toBe('Term: 2026-01-01 to 2026-12-31.');
    expect(await renewalRow.locator('td[data-label="Source"]').textContent()).toBe('From cloud-order.txt');
    expect(new URL(page.url()).search).toBe(`?id=${ids.cloud}`);
    await page.screenshot({ path: `${SHOTS}renewals.png`, fullPage: true });

    await page.locator('#override-term').selectOption('renewalDate');
    await page.locator('#override-value').fill('2027-01-31');
    await page.getByRole('button', { name: 'Save override' }).click();
    await page.getByText('Saved the override of Renewal date.').waitFor();
    expect(await page.locator('#detail-deadline').textContent()).toBe('2027-01-01');
    expect(await renewalRow.locator('td[data-label="Value"]').textContent()).toBe('2027-01-31');
    expect(await renewalRow.locator('.badge.override').textContent()).toMatch(/^Manual override/);
    expect(await renewalRow.getByText('Extracted: 2026-12-31').count()).toBe(1);
    const stored = await s.db.prisma.vendorRenewal.findUniqueOrThrow({ where: { id: ids.cloud } });
    expect(stored.overrides).toEqual({ renewalDate: { value: '2027-01-31', setAt: '2026-11-22T10:00:00.000Z' } });
    await page.screenshot({ path: `${SHOTS}renewals-override.png`, fullPage: true });

    // A refused value says why and changes nothing.
    await page.locator('#override-term').selectOption('currency');
    await page.locator('#override-value').fill('dollars');
    await page.getByRole('button', { name: 'Save override' }).click();
    await page.getByRole('alert').filter({ hasText: /^Not saved:/ }).waitFor();
    expect((await s.db.prisma.vendorRenewal.findUniqueOrThrow({ where: { id: ids.cloud } })).overrides).toEqual(stored.overrides);
    // The browser logs that refused request (400); it is the only failed load of the page.
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)']);
    consoleErrors.length = 0;

    await page.getByRole('button', { name: 'Clear the override of Renewal date' }).click();
    await page.getByText('Cleared the override of Renewal date.').waitFor();
    expect(await page.locator('#detail-deadline').textContent()).toBe('2026-12-01');

    await page.getByRole('button', { name: 'Mark cancelled' }).click();
    await page.getByText('Marked cancelled.').waitFor();
    expect(await page.locator(`tr[data-renewal-id="${ids.cloud}"] .badge`).textContent()).toBe('Cancelled');
    await page.getByRole('button', { name: 'Undo cancelled' }).click();
    await page.getByText('No longer marked cancelled.').waitFor();
    expect(await page.locator(`tr[data-renewal-id="${ids.cloud}"] .badge`).textContent()).toBe('Window closing');
  }, 60_000);

  it('creates a calendar link shown once, copies it, and resets it (the old link stops working)', async () => {
    await page.getByRole('button', { name: 'Create calendar link' }).click();
    const url = await page.getByLabel('Calendar link').inputValue();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:8080\/v1\/renewals\/calendar\.ics\?token=dxcal_[A-Za-z0-9]{43}$/);
    await page.getByRole('button', { name: 'Copy link' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
    await page.screenshot({ path: `${SHOTS}renewals-calendar.png`, fullPage: true });
    const token = new URL(url).searchParams.get('token')!;
    const feed = await s.fetch(`/v1/renewals/calendar.ics?token=${token}`);
    expect(feed.status).toBe(200);
    const events = new ICAL.Component(ICAL.parse(await feed.text())).getAllSubcomponents('vevent').map((e) => new ICAL.Event(e));
    expect(events.find((e) => e.uid === `deadline-${ids.cloud}@docextract`)?.startDate.toString()).toBe('2026-12-01');
    // Not kept in the browser's storage.
    expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }))).not.toContain(token);

    await page.getByRole('button', { name: 'Reset calendar link' }).click();
    await page.waitForFunction((old) => (document.getElementById('calendar-url') as HTMLInputElement | null)?.value !== old, url);
    const next = await page.getByLabel('Calendar link').inputValue();
    expect((await s.fetch(`/v1/renewals/calendar.ics?token=${token}`)).status).toBe(401);
    expect((await s.fetch(`/v1/renewals/calendar.ics?token=${new URL(next).searchParams.get('token')}`)).status).toBe(200);
    // On a later visit the link is not shown again, only that one is active.
    await page.reload();
    await page.locator('#calendar-state').waitFor();
    expect(await page.getByLabel('Calendar link').count()).toBe(0);

    expect(external).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 60_000);
});
