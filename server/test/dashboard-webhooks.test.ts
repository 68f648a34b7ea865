// The dashboard's Webhooks page in Chromium (playwright-core): an endpoint added through the page shows its secret
// once (with a copy button); an endpoint's deliveries show each attempt (a receiver that failed once, then took it),
// retries pending, and an endpoint disabled by 410; deleting asks to confirm.
import { createServer, type Server } from 'node:http';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { type Browser, type Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from './support/browser.js';
import { startTestServer, type TestServer } from './support/harness.js';

const SHOTS = new URL('../../test-output/dashboard/', import.meta.url).pathname;
const run = describeInBrowser('dashboard webhooks suite');

run('dashboard Webhooks page in Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  let receiver: Server;
  let hits = 0;
  const account = 'acct_browser_webhooks';
  const consoleErrors: string[] = [];
  const external: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // Fails the first attempt of each event (503), takes the second.
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(++hits % 2 === 1 ? 503 : 204).end());
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    s = await startTestServer('embedded', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_SCHEDULE: '0.2,0.2,0.2', JOB_POLL_INTERVAL_MS: '100' }, undefined, { worker: true });
    await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
    const { key } = await s.createKey(account);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const endpoint = await (await s.fetch('/v1/webhook-endpoints', { method: 'POST', headers: { 'x-api-key': key }, json: { url, description: 'ledger' } })).json();
    const job = await (await s.fetch('/v1/jobs', { method: 'POST', headers: { 'x-api-key': key }, json: { route: 'receipt', document: { text: 'CORNER SHOP\nTOTAL 3.00\nCASH' } } })).json();
    for (let i = 0; i < 200; i++) {
      const d = await (await s.fetch(`/v1/webhook-endpoints/${endpoint.id}/deliveries`, { headers: { 'x-api-key': key } })).json();
      if (d.deliveries[0]?.status === 'succeeded') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    void job;
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
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
    receiver?.closeAllConnections();
    await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()));
  });

  it('lists the endpoints and shows a delivery with every attempt: a 503, then delivered', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    const row = page.locator('#endpoint-list tbody tr').first();
    expect(await row.locator('td[data-label="State"]').textContent()).toBe('Active');
    expect(await row.locator('td[data-label="Events"]').textContent()).toBe('job.succeeded, job.failed');
    await row.getByRole('button', { name: /^Deliveries to / }).click();
    await page.locator('#deliveries tbody tr').first().waitFor();
    const delivery = page.locator('#deliveries tbody tr').first();
    expect(await delivery.locator('td[data-label="Status"]').textContent()).toBe('Delivered');
    expect(await delivery.locator('td[data-label="Event"]').textContent()).toMatch(/^job\.succeededjob [0-9a-f-]{36}$/);
    expect(await delivery.locator('td[data-label="Last attempt"]').textContent()).toBe('HTTP 204');
    await delivery.locator('summary').click();
    const attempts = await delivery.locator('ol.attempts li').allTextContents();
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatch(/HTTP 503 \(answered 503\), \d+ ms$/);
    expect(attempts[1]).toMatch(/HTTP 204, \d+ ms$/);
    await page.screenshot({ path: `${SHOTS}webhooks.png`, fullPage: true });
  }, 90_000);

  it('adds an endpoint through the form: its secret shown once, copyable; a refused URL says why', async () => {
    await page.getByLabel('URL').fill('https://hooks.example.com/docextract');
    await page.getByLabel('job.failed').uncheck();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = page.getByLabel('Signing secret');
    await secret.waitFor();
    expect(await secret.inputValue()).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await page.getByRole('button', { name: 'Copy secret' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await secret.inputValue());
    const added = page.locator('#endpoint-list tbody tr', { hasText: 'https://hooks.example.com/docextract' });
    expect(await added.locator('td[data-label="Events"]').textContent()).toBe('job.succeeded');
    await page.getByLabel('URL').fill('ftp://example.com/x');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#new-secret [role="alert"]').waitFor();
    expect(await page.locator('#new-secret [role="alert"]').textContent()).toContain('/body/url');
  }, 90_000);

  it('deletes an endpoint after a confirm step', async () => {
    const added = page.locator('#endpoint-list tbody tr', { hasText: 'https://hooks.example.com/docextract' });
    await added.getByRole('button', { name: 'Delete https://hooks.example.com/docextract' }).click();
    await page.getByRole('button', { name: 'Confirm deleting https://hooks.example.com/docextract' }).click();
    await page.getByText('Deleted https://hooks.example.com/docextract: it receives nothing more.').waitFor();
    await added.waitFor({ state: 'detached' });
    expect(await page.locator('#endpoint-list tbody tr').count()).toBe(1);
    // The one failed request is the refused URL of the case above (the browser logs a 400 it was shown).
    expect(consoleErrors.filter((e) => !e.includes('status of 400'))).toEqual([]);
    expect(external).toEqual([]);
  }, 90_000);
});
