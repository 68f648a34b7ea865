// The dashboard in a real browser: Debian's Chromium driven by playwright-core against the server on 127.0.0.1.
import { mkdirSync } from 'node:fs';
import { type Browser, type Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from './support/browser.js';
import { startTestServer, type TestServer } from './support/harness.js';

const SHOTS = new URL('../../test-output/dashboard/', import.meta.url).pathname;
const run = describeInBrowser('dashboard suite');

run('dashboard in Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  const external: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await startTestServer('embedded');
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.baseUrl });
    page = await context.newPage();
    page.on('request', (r) => { if (!r.url().startsWith(s.baseUrl) && !r.url().startsWith('data:')) external.push(r.url()); });
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it('signs in, creates a key shown once, uses it, sees usage rise, revokes it, and explains unconfigured billing', async () => {
    await page.goto(`${s.baseUrl}/dashboard`);
    await page.getByLabel('Account id').waitFor();
    expect(await page.locator('#nav').isVisible()).toBe(false); // signed out: no navigation to pages that need a session
    await page.getByLabel('Account id').fill('acct_browser');
    await page.screenshot({ path: `${SHOTS}sign-in.png`, fullPage: true });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();

    await page.getByLabel('Name').fill('browser key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const raw = await page.getByLabel('API key', { exact: true }).inputValue();
    expect(raw).toMatch(/^dx_live_[A-Za-z0-9]{43}$/);
    await page.getByText('it will not be shown again').waitFor();
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(raw);
    await page.locator('td[data-label="Name"]', { hasText: /^browser key$/ }).waitFor();
    await page.screenshot({ path: `${SHOTS}keys-created.png`, fullPage: true });

    // No raw key is kept in the browser's storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
    expect(stored).not.toContain(raw);

    // The key works against the API, and usage shows on the billing page.
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { name: 'Billing and usage' }).waitFor();
    const before = Number(await page.locator('#heu-used').getAttribute('data-heu-used'));
    const extraction = await s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': raw }, json: { document: { text: 'SHOP\nTOTAL 3.00' } } });
    expect(extraction.status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: 'Billing and usage' }).waitFor();
    const after = Number(await page.locator('#heu-used').getAttribute('data-heu-used'));
    expect(after).toBeGreaterThan(before);

    // Billing unconfigured on this server: said plainly, and no Upgrade button that could only fail.
    await page.getByText('Upgrades are not available on this server').waitFor();
    expect(await page.getByRole('button', { name: 'Upgrade to starter' }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}billing.png`, fullPage: true });

    // Past the bucket (121%): the page says requests are refused until the reset, not only a coloured bar.
    const period = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    await s.db.prisma.usageBucket.update({ where: { accountId_periodStart: { accountId: 'acct_browser', periodStart: period } }, data: { heuUsed: 121 } });
    await page.reload();
    await page.getByRole('alert').filter({ hasText: "This month's HEU are used up: extraction requests are refused (429) until the bucket resets" }).waitFor();
    await page.screenshot({ path: `${SHOTS}billing-over.png`, fullPage: true });
    await s.db.prisma.usageBucket.update({ where: { accountId_periodStart: { accountId: 'acct_browser', periodStart: period } }, data: { heuUsed: after } });

    // Revoke with a confirm step; the list updates without a reload and the API refuses the key.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: /^Revoke browser key/ }).click();
    await page.getByRole('button', { name: 'Confirm revoke' }).click();
    await page.getByText(/^Revoked /).first().waitFor();
    await page.screenshot({ path: `${SHOTS}keys-revoked.png`, fullPage: true });
    const refused = await s.fetch('/v1/account', { headers: { 'x-api-key': raw } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'invalid_api_key' });

    expect(external).toEqual([]);
    expect(consoleErrors).toEqual([]); // no failed load at all (a favicon included)
  }, 60_000);

  it('takes the raw key off the screen when the key just created is revoked', async () => {
    await page.getByLabel('Name').fill('short-lived');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('API key', { exact: true }).waitFor();
    await page.getByRole('button', { name: /^Revoke short-lived/ }).click();
    await page.getByRole('button', { name: 'Confirm revoke' }).click();
    await page.getByText('Revoked short-lived.').waitFor();
    expect(await page.locator('#raw-key').count()).toBe(0);
    expect(await page.getByText('it will not be shown again').count()).toBe(0);
  });

  it('offers the upgrade when billing is configured on the server', async () => {
    const billing = await startTestServer('embedded', { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PRICE_STARTER: 'price_1', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
    try {
      expect(await (await billing.fetch('/dashboard/billing')).text()).toContain('data-billing="true"');
      expect(await (await s.fetch('/dashboard/billing')).text()).toContain('data-billing="false"');
    } finally {
      await billing.close();
    }
  });

  it('serves the pages with a Content-Security-Policy of our own origin only', async () => {
    const res = await s.fetch('/dashboard/keys');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|https?:/);
  });

  it('works by keyboard: the sign-in form is reachable and submits with Enter', async () => {
    const ctx = await browser.newContext();
    const p = await ctx.newPage();
    await p.goto(`${s.baseUrl}/dashboard`);
    await p.keyboard.press('Tab');
    let focused = '';
    for (let i = 0; i < 6 && focused !== 'account-id'; i++) {
      focused = await p.evaluate(() => document.activeElement?.id ?? '');
      if (focused !== 'account-id') await p.keyboard.press('Tab');
    }
    expect(focused).toBe('account-id');
    await p.keyboard.type('acct_keyboard');
    await p.keyboard.press('Enter');
    await p.getByRole('heading', { name: 'API keys' }).waitFor();
    await ctx.close();
  });

  // Issue 30, item 3: loading and error states.
  describe('loading and error states', () => {
    const signedIn = async (account: string, token?: string) => {
      const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const p = await ctx.newPage();
      p.on('console', (m) => { if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) consoleErrors.push(m.text()); });
      await p.goto(`${s.baseUrl}/dashboard`);
      await p.evaluate((t) => sessionStorage.setItem('docextract.session', t), token ?? await s.token(account));
      return { ctx, p };
    };

    it('a service that answers 503 is said, with a retry that loads the keys once it answers', async () => {
      const { ctx, p } = await signedIn('acct_states');
      await s.createKey('acct_states', 'existing key');
      let down = true;
      await p.route('**/v1/keys*', (route) => (down
        ? route.fulfill({ status: 503, contentType: 'application/json', headers: { 'x-request-id': 'req-503-test', 'retry-after': '0' }, body: JSON.stringify({ error: { code: 'service_unavailable', message: 'The service is temporarily unavailable.', details: null } }) })
        : route.continue()));
      await p.goto(`${s.baseUrl}/dashboard/keys`);
      await p.getByRole('alert').filter({ hasText: 'temporarily unavailable (503)' }).waitFor();
      expect(await p.getByRole('heading', { name: 'API keys' }).isVisible()).toBe(true);
      expect(await p.getByText('Request id: req-503-test').isVisible()).toBe(true);
      expect(await p.locator('#key-list').count()).toBe(0); // no empty list that looks like "no keys"
      await p.screenshot({ path: `${SHOTS}keys-503.png`, fullPage: true });
      down = false;
      await p.getByRole('button', { name: 'Try again' }).click();
      await p.locator('td[data-label="Name"]', { hasText: /^existing key$/ }).waitFor();
      await ctx.close();
    });

    it('shows a loading line until the data arrives', async () => {
      const { ctx, p } = await signedIn('acct_loading');
      let release!: () => void;
      const held = new Promise<void>((r) => { release = r; });
      await p.route('**/v1/account', async (route) => { await held; await route.continue(); });
      await p.goto(`${s.baseUrl}/dashboard/billing`);
      await p.getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
      expect(await p.getByRole('heading', { name: 'Billing and usage' }).isVisible()).toBe(true);
      release();
      await p.locator('#heu-used').waitFor();
      expect(await p.getByText('Loading…').count()).toBe(0);
      await ctx.close();
    });

    it('an expired session returns to sign-in, saying the session expired', async () => {
      const { ctx, p } = await signedIn('acct_expired', await s.token('acct_expired', { expired: true }));
      await p.goto(`${s.baseUrl}/dashboard/keys`);
      await p.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await p.getByRole('alert').innerText()).toBe('Your session has expired or is no longer valid: sign in again.');
      expect(await p.evaluate(() => sessionStorage.getItem('docextract.session'))).toBeNull();
      await p.screenshot({ path: `${SHOTS}session-expired.png`, fullPage: true });
      await ctx.close();
    });

    it('an unknown /dashboard path is the dashboard\'s own 404 page, not raw JSON', async () => {
      const res = await s.fetch('/dashboard/settings');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      const { ctx, p } = await signedIn('acct_lost');
      const answer = await p.goto(`${s.baseUrl}/dashboard/no-such-page`);
      expect(answer!.status()).toBe(404);
      await p.getByRole('heading', { name: 'Page not found' }).waitFor();
      const text = await p.locator('body').innerText();
      expect(text).toContain('There is no dashboard page at /dashboard/no-such-page.');
      expect(text).not.toContain('"error"');
      await p.getByRole('link', { name: 'API keys' }).last().click();
      await p.getByRole('heading', { name: 'API keys' }).waitFor();
      await ctx.close();
    });
  });
});
