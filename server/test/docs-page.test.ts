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
});
