// The API reference at /docs in a real browser (Debian's Chromium, driven by playwright-core): what a partner team
// sees and runs. The request samples the page shows are run, and "Test Request" is sent, against the server that
// served the page.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from './support/browser.js';
import { startTestServer, type TestServer } from './support/harness.js';

const SHOTS = new URL('../../test-output/docs/', import.meta.url).pathname;
const run = describeInBrowser('docs page suite');

type Json = Record<string, any>;
const contract: Json = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const invoiceOp: Json = contract.paths['/v1/extract/invoice'].post;
const sampleSource = (lang: string) => (invoiceOp['x-codeSamples'] as Json[]).find((x) => x.lang === lang)!.source as string;
const shownAnswer = () => Object.values<Json>(invoiceOp.responses['200'].content['application/json'].examples)[0]!.value as Json;

run('/docs in Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  let page: Page;
  let key: string;
  const external: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await startTestServer('embedded');
    key = (await s.createKey('acct_docs_page')).key;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
    page.on('request', (r) => { if (!r.url().startsWith(s.baseUrl) && !/^(data|blob):/.test(r.url())) external.push(r.url()); });
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(`${s.baseUrl}/docs#tag/extraction/POST/v1/extract/invoice`);
    await invoiceSection().getByTestId('client-picker').waitFor({ timeout: 20_000 });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const invoiceSection = (): Locator => page.locator('[id="api-1/tag/extraction/POST/v1/extract/invoice"]');
  const codeShown = async () => (await invoiceSection().locator('pre').first().innerText()).trimEnd();
  async function pickClient(name: string): Promise<void> {
    await invoiceSection().getByTestId('client-picker').click();
    await page.locator('[id^="headlessui-popover-panel"]').getByText(name, { exact: true }).click();
    await invoiceSection().getByTestId('client-picker').filter({ hasText: name }).waitFor();
  }

  it('renders the contract from this origin alone, with no hosted extras', async () => {
    await page.screenshot({ path: `${SHOTS}invoice.png` });
    const text = await page.locator('body').innerText();
    expect(text).toContain('docextract API');
    expect(text).toContain('Extract an invoice');
    for (const hosted of ['Ask AI', 'Generate MCP', 'Developer Tools', 'Deploy']) expect(text).not.toContain(hosted);
    // The server list starts with the origin that served the page.
    expect(await codeShown()).toContain(`curl ${s.baseUrl}/v1/extract/invoice`);
    expect(external).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('offers request samples in curl, Python and TypeScript with our SDK, and no other language', async () => {
    await invoiceSection().getByTestId('client-picker').click();
    const menu = await page.locator('[id^="headlessui-popover-panel"]').first().innerText();
    expect(menu.split('\n').map((l) => l.trim()).filter(Boolean)).toEqual(['Code Examples', 'TypeScript SDK', 'Python (requests)', 'Shell', 'Curl']);
    await page.keyboard.press('Escape');
    await pickClient('TypeScript SDK');
    expect(await codeShown()).toBe(sampleSource('TypeScript').trimEnd());
    await pickClient('Python (requests)');
    expect(await codeShown()).toBe(sampleSource('Python').trimEnd());
  });

  it('the curl sample it shows, run with a real key for its placeholder, is answered as the page shows', async () => {
    await pickClient('Curl');
    const curl = await codeShown();
    // The route's first example is the short text one (issue 30): a readable sample, not a wall of base64.
    expect(curl).toContain('ACME CLOUD SUPPLY LLC');
    expect(curl).not.toContain('JVBERi0');
    expect(curl.length).toBeLessThan(1000);
    expect(curl).toContain("--header 'x-api-key: YOUR_SECRET_TOKEN'");
    const { stdout } = await promisify(execFile)('bash', ['-c', curl.replace('YOUR_SECRET_TOKEN', key)], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual(shownAnswer());
  });

  it('"Test Request" sends the example to this origin with the key typed in, and shows the answer', async () => {
    await invoiceSection().getByText('Test Request').click();
    await page.getByLabel('Value').first().fill(key);
    const answered = page.waitForResponse((r) => r.url() === `${s.baseUrl}/v1/extract/invoice`);
    await page.getByText('Send Request').first().click();
    const res = await answered;
    expect(res.status()).toBe(200);
    expect(res.request().headers()['x-api-key']).toBe(key);
    expect(await res.json()).toEqual(shownAnswer());
    await page.getByText('"INV-2026-0418"').first().waitFor();
    await page.screenshot({ path: `${SHOTS}test-request.png` });
    expect(external).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });

  it('the key field\'s placeholder says what to paste, not a made-up key; a key typed in the reference is sent by Test Request', async () => {
    const fresh = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await fresh.goto(`${s.baseUrl}/docs#tag/extraction/POST/v1/extract/invoice`);
    const section = fresh.locator('[id="api-1/tag/extraction/POST/v1/extract/invoice"]');
    await section.getByTestId('client-picker').waitFor({ timeout: 20_000 });
    const field = fresh.getByLabel('Value').first();
    await field.waitFor();
    // Scalar's own placeholder is base64 text that reads as a key already filled in.
    await fresh.waitForFunction(() => [...document.querySelectorAll('input')].every((i) => !i.placeholder.startsWith('QUxM')));
    expect(await field.getAttribute('placeholder')).toBe('Paste your API key here');
    expect(await field.inputValue()).toBe('');
    // Typed in the reference's Authentication field (before opening Test Request), the key is the one sent.
    await field.fill(key);
    await section.getByText('Test Request').click();
    const answered = fresh.waitForResponse((r) => r.url() === `${s.baseUrl}/v1/extract/invoice`);
    await fresh.getByText('Send Request').first().click();
    const res = await answered;
    expect(res.request().headers()['x-api-key']).toBe(key);
    expect(res.status()).toBe(200);
    for (const placeholder of await fresh.locator('input[type="password"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).placeholder))) {
      expect(placeholder).not.toMatch(/^[A-Za-z0-9+/=_-]{16,}$/);
    }
    await fresh.screenshot({ path: `${SHOTS}key-placeholder.png` });
    await fresh.context().close();
  }, 60_000);

  it('lists the Extraction routes first in the sidebar', async () => {
    const sidebar = await page.locator('body').innerText();
    const groups = [...sidebar.matchAll(/(?:Open|Close) Group - ([^\n]+)/g)].map((m) => m[1]!.trim());
    expect(groups.slice(0, 10)).toEqual(['Extraction', 'Jobs', 'Webhooks', 'Reviews', 'Evaluations', 'API keys', 'Account', 'Renewals', 'Billing', 'Service']);
  });
});

// Issue 30, item 1: "Test Request" keeps to the screen. A request body with one long line (the PDF example's base64,
// or a text whose newlines are escapes) once widened Scalar's dialog to thousands of pixels: the Send button sat far
// to the right and a phone showed nothing to act on. Our stylesheet (docs.ts) wraps the body and lets the panes shrink.
run('/docs "Test Request" at desktop and phone widths', () => {
  let s: TestServer;
  let browser: Browser;
  const pdfExample = Object.values<Json>(invoiceOp.requestBody.content['application/json'].examples).find((e) => e.value.document.content)!.value as Json;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await startTestServer('embedded');
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  it.each([[1280, 800], [1600, 900], [390, 844]])('at %i px the dialog fits the screen, its Send button in view, with the short example and with a base64 PDF', async (width, height) => {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    await page.goto(`${s.baseUrl}/docs#tag/extraction/POST/v1/extract/invoice`);
    const section = page.locator('[id="api-1/tag/extraction/POST/v1/extract/invoice"]');
    await section.getByTestId('client-picker').waitFor({ timeout: 20_000 });
    await section.getByText('Test Request').click();
    const dialog = page.locator('.scalar-client[role="dialog"]');
    // The address bar's Send (its accessible name goes on: "Send post request to ..."); one of two, by layout.
    const send = dialog.locator('button', { hasText: 'Send post request to' }).filter({ visible: true }).first();
    await send.waitFor();
    const inView = async () => {
      const box = (await send.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      expect(box.y + box.height).toBeLessThanOrEqual(height);
      // The panes keep to the dialog: nothing makes it, or the page, wider than the screen.
      const widths = await dialog.evaluate((d) => {
        const main = d.querySelector('main')!;
        return { main: main.scrollWidth - main.clientWidth, page: document.documentElement.scrollWidth, dialog: d.getBoundingClientRect().right };
      });
      expect(widths.main).toBeLessThanOrEqual(1);
      expect(widths.page).toBeLessThanOrEqual(width);
      expect(widths.dialog).toBeLessThanOrEqual(width);
    };
    // The short example, readable in the body editor (on a phone too: the dialog is not blank).
    await dialog.locator('.cm-content').getByText('ACME CLOUD SUPPLY', { exact: false }).first().waitFor();
    await inView();
    await page.screenshot({ path: `${SHOTS}test-request-${width}.png` });
    // The PDF example's base64, one line of 2,000 characters with no space, put in the body editor.
    await dialog.locator('.cm-content').evaluate((el, body) => {
      const view = (el as unknown as { cmView: { view: { state: { doc: { length: number } }; dispatch(t: unknown): void } } }).cmView.view;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: body } });
    }, JSON.stringify(pdfExample, null, 2));
    await dialog.locator('.cm-content').getByText('JVBERi0', { exact: false }).first().waitFor();
    await inView();
    await page.screenshot({ path: `${SHOTS}test-request-pdf-${width}.png` });
    await page.context().close();
  }, 60_000);
});
