// The dashboard's pages in Chromium (playwright-core), as a new user finds them: a late answer from a page left is
// never drawn over the page on screen; the Webhooks form and deliveries keep to the screen at 1280 and 390 px; Billing
// says a paid plan's period without calling it free, and writes counts with separators; and no page logs a console
// error (the landing page, /docs and every dashboard page: no CSP violation, no failed load).
import { mkdirSync } from 'node:fs';
import { type Browser, type Page, type Request } from 'playwright-core';
import { describeInBrowser, launchChromium } from './support/browser.js';
import { startTestServer, type TestServer } from './support/harness.js';

const SHOTS = new URL('../../test-output/dashboard/', import.meta.url).pathname;
const run = describeInBrowser('dashboard pages suite');
const LONG_URL = 'https://hooks.example.com/docextract/receivers/accounts-payable/northwind-trading-ltd/invoices-and-receipts';

run('dashboard pages in Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  const account = 'acct_browser_pages';
  let key: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
    key = (await s.createKey(account, 'pages')).key;
    expect((await s.fetch('/v1/webhook-endpoints', { method: 'POST', headers: { 'x-api-key': key }, json: { url: LONG_URL } })).status).toBe(201);
    // This month's bucket, 1,234 HEU used of the starter plan's 10,000.
    expect((await s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: 'SHOP\nTOTAL 3.00' } } })).status).toBe(200);
    const period = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    await s.db.prisma.usageBucket.update({ where: { accountId_periodStart: { accountId: account, periodStart: period } }, data: { heuUsed: 1234 } });
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  /** A page signed in as the account, at the given size, with its console errors collected. */
  async function signedIn(width: number, height: number): Promise<{ page: Page; errors: string[] }> {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(`${new URL(page.url()).pathname}: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`${new URL(page.url()).pathname}: ${e.message}`));
    await page.goto(`${s.baseUrl}/dashboard`);
    await page.getByLabel('Account id').fill(account);
    await page.getByRole('button', { name: 'Sign in' }).click();
    return { page, errors };
  }

  it('draws no late answer of a page left over the page on screen: Webhooks stays Webhooks when the keys answer after it', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    // The list of keys is held until Webhooks is on screen (as a slow answer, 3 s late, would be).
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    let asked!: () => void;
    const keysAsked = new Promise<void>((r) => { asked = r; });
    const isKeys = (r: Request) => new URL(r.url()).pathname === '/v1/keys' && r.method() === 'GET';
    let settled!: () => void;
    const keysSettled = new Promise<void>((r) => { settled = r; });
    page.on('requestfinished', (r) => { if (isKeys(r)) settled(); });
    page.on('requestfailed', (r) => { if (isKeys(r)) settled(); });
    await page.route((url) => url.pathname === '/v1/keys', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      asked();
      await held;
      await route.continue().catch(() => undefined);
    });
    await page.goto(`${s.baseUrl}/dashboard`);
    await page.getByLabel('Account id').fill(account);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await keysAsked;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await page.locator('#endpoint-list tbody tr').first().waitFor();
    release();
    await keysSettled;
    // Whatever the late answer would draw, it has had its turn.
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    expect(new URL(page.url()).pathname).toBe('/dashboard/webhooks');
    expect(await page.locator('nav a[aria-current="page"]').textContent()).toBe('Webhooks');
    expect(await page.locator('#main h1').allTextContents()).toEqual(['Webhooks']);
    expect(await page.locator('#key-list').count()).toBe(0);
    expect(await page.locator('#endpoint-list tbody tr').count()).toBe(1);
    await page.unroute((url) => url.pathname === '/v1/keys');
    await page.context().close();
  }, 60_000);

  it('Billing: a paid plan without a subscription period is not called free; counts have thousands separators', async () => {
    const { page } = await signedIn(1280, 900);
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.locator('#heu-used').waitFor();
    expect(await page.locator('#plan').textContent()).toBe('starter');
    const period = await page.locator('#period-ends').textContent();
    expect(period).not.toContain('free plan');
    // The first of next month (UTC), when the month's HEU reset.
    const next = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1));
    expect(period).toBe(`${next.toLocaleDateString('en-US', { timeZone: 'UTC' })} (the month's HEU reset then)`);
    expect(await page.locator('label[for="usage-meter"]').textContent()).toBe('1,234 of 10,000 HEU used (12%)');
    await page.screenshot({ path: `${SHOTS}billing-starter.png`, fullPage: true });
    await page.context().close();
  }, 60_000);

  it('Webhooks at 1280 px: the heading above the form, each box beside its label, the URL field as wide as its placeholder', async () => {
    const { page } = await signedIn(1280, 900);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.locator('#endpoint-list tbody tr').first().waitFor();
    const heading = (await page.getByRole('heading', { name: 'Add an endpoint' }).boundingBox())!;
    const url = (await page.getByLabel('URL').boundingBox())!;
    expect(heading.y + heading.height).toBeLessThanOrEqual(url.y);
    for (const event of ['job.succeeded', 'job.failed']) {
      const box = (await page.getByLabel(event).boundingBox())!;
      const label = (await page.locator(`label[for="event-${event}"]`).boundingBox())!;
      // On the label's line, at its start: beside it, not above it.
      expect(Math.abs((box.y + box.height / 2) - (label.y + label.height / 2))).toBeLessThan(4);
      expect(label.height).toBeLessThan(2 * box.height + 8);
      expect(box.x).toBeLessThan(label.x + 4);
    }
    // The whole placeholder fits in the field.
    const fits = await page.getByLabel('URL').evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      return context.measureText(input.placeholder).width <= input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    });
    expect(fits).toBe(true);
    await page.screenshot({ path: `${SHOTS}webhooks-form.png`, fullPage: true });
    await page.context().close();
  }, 60_000);

  it('Webhooks at 390 px: the deliveries title of a long URL wraps within the screen', async () => {
    const { page } = await signedIn(390, 844);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: `Deliveries to ${LONG_URL}` }).click();
    const title = page.locator('#deliveries-heading');
    await title.waitFor();
    expect(await title.textContent()).toBe(`Deliveries to ${LONG_URL}`);
    const box = (await title.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await title.evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}webhooks-phone.png`, fullPage: true });
    await page.context().close();
  }, 60_000);

  it('logs no console error on any page: the landing page, /docs and every dashboard page', async () => {
    const { page, errors } = await signedIn(1280, 900);
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    for (const [path, ready] of [
      ['/dashboard/keys', '#key-list'], ['/dashboard/try', '#key option'], ['/dashboard/renewals', 'h1'],
      ['/dashboard/webhooks', '#endpoint-list tbody tr'], ['/dashboard/billing', '#heu-used'], ['/dashboard/nowhere', 'h1'],
    ] as const) {
      await page.goto(`${s.baseUrl}${path}`);
      await page.locator(ready).first().waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
    }
    await page.goto(`${s.baseUrl}/`);
    await page.getByRole('heading', { name: 'docextract' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.goto(`${s.baseUrl}/docs`);
    await page.getByText('Extract an invoice').first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    // The dashboard's unknown page answers 404 by design (the page says so): the browser logs that load, nothing else.
    expect(errors).toEqual(['/dashboard/nowhere: Failed to load resource: the server responded with a status of 404 (Not Found)']);
    await page.context().close();
  }, 90_000);
});
