// The dashboard's "Try a document" page in Chromium (playwright-core), desktop and phone width: paste text or drop a
// file, pick a route (or a schema) and a key, run it, and see each value beside the document; selecting a value
// highlights its quote in the text read and, for a PDF or an image, its box on the rendered page; low-confidence and
// withheld values are marked for review; loading and error states. Screenshots go to test-output/dashboard/ (the
// README's docs/dashboard-try*.png are copies of them).
import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from './support/browser.js';
import { startTestServer, type TestServer } from './support/harness.js';
import { scanPng, textPdf } from './support/render-documents.js';

const SHOTS = new URL('../../test-output/dashboard/', import.meta.url).pathname;
const run = describeInBrowser('dashboard try suite');

const INVOICE = [
  'NORTHWIND TRADING LTD',
  '12 Harbour Road, Leith, Edinburgh EH6 6LX',
  '',
  'INVOICE',
  'Invoice No: NW-2026-0042',
  'Invoice Date: 2026-03-14',
  'Due Date: 2026-04-13',
  '',
  'Bill To: Contoso Pharmaceuticals',
  '',
  'Description            Qty   Unit Price    Amount',
  'Consulting hours        12      £150.00   £1,800.00',
  'Travel                   1      £240.00     £240.00',
  '',
  'Subtotal: £2,040.00',
  'VAT (20%): £408.00',
  'Total due: £2,448.00',
].join('\n');

/** The invoice with enough line items that its total sits low on the page, under the fold of a 900 px window. */
const LONG_INVOICE = INVOICE.replace('Travel                   1      £240.00     £240.00',
  ['Travel                   1      £240.00     £240.00', ...Array.from({ length: 24 }, (_, i) => `Workshop day ${String(i + 1).padEnd(10)} 1      £100.00     £100.00`)].join('\n'))
  .replace('Subtotal: £2,040.00', 'Subtotal: £4,440.00').replace('VAT (20%): £408.00', 'VAT (20%): £888.00').replace('Total due: £2,448.00', 'Total due: £5,328.00');

/**
 * Whether an element is wholly on screen: inside the window and inside every box around it that clips (a pane that
 * scrolls), and, with `hit`, not covered by anything (a sticky pane) at its centre.
 */
const onScreen = (p: Page, selector: string, hit = false) => p.locator(selector).first().evaluate((el, hit) => {
  const r = el.getBoundingClientRect();
  const inside = (o: { top: number; left: number; bottom: number; right: number }) => r.top >= o.top - 1 && r.left >= o.left - 1 && r.bottom <= o.bottom + 1 && r.right <= o.right + 1;
  if (r.width === 0 || r.height === 0 || !inside({ top: 0, left: 0, bottom: innerHeight, right: innerWidth })) return false;
  for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
    const style = getComputedStyle(a);
    if (!/(auto|scroll|hidden)/.test(style.overflowX + style.overflowY)) continue;
    const c = a.getBoundingClientRect();
    if (!inside({ top: c.top + a.clientTop, left: c.left + a.clientLeft, bottom: c.top + a.clientTop + a.clientHeight, right: c.left + a.clientLeft + a.clientWidth })) return false;
  }
  if (hit) {
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!at || !(el === at || el.contains(at))) return false;
  }
  return true;
}, hit);

type Evidence = { quote: string; start: number; end: number; page?: number; box?: { x: number; y: number; width: number; height: number }; confidence: number };

run('dashboard "Try a document" in Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let key: { key: string; id: string };
  let revokedKeyId = '';
  const account = 'acct_browser_try';
  const external: string[] = [];
  const consoleErrors: string[] = [];
  /** Requests answered with an error status: only the run refused because its key was revoked may be one. */
  const failed: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
    key = await s.createKey(account, 'dashboard trials');
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('request', (r) => { if (!r.url().startsWith(s.baseUrl) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) external.push(r.url()); });
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.request().method()} ${new URL(r.url()).pathname}`); });
    await page.goto(`${s.baseUrl}/dashboard`);
    await page.getByLabel('Account id').fill(account);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const heuUsed = async () => (await (await s.fetch('/v1/account', { headers: { 'x-api-key': key.key } })).json()).heuUsed as number;
  /** The answer the API gives the same request, for what the page must show. */
  const api = async (body: unknown) => (await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key.key }, json: body })).json();
  const openTry = async () => {
    await page.getByRole('link', { name: 'Try a document' }).click();
    await page.getByRole('heading', { name: 'Try a document' }).waitFor();
  };
  /** Presses Extract and waits for that run to finish (the form counts finished runs). */
  const runAndWait = async (p: Page = page) => {
    const runs = Number(await p.locator('form.try-form').getAttribute('data-runs') ?? 0);
    await p.getByRole('button', { name: 'Extract', exact: true }).click();
    await p.locator(`form.try-form[data-runs="${runs + 1}"]`).waitFor({ state: 'attached' });
  };
  const field = (pointer: string) => page.locator(`button.field[data-pointer="${pointer}"]`);

  it('runs pasted text as the chosen key, metered like the API, and shows each value beside the text; selecting one highlights its quote', async () => {
    await openTry();
    // The keys are listed once the page has fetched them (a loaded machine is slower than the assertion).
    await page.getByLabel('Run as key').locator('option').first().waitFor({ state: 'attached' });
    expect(await page.getByLabel('Run as key').locator('option').allTextContents()).toEqual([`dashboard trials (${(await s.db.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).prefix}\u2026)`]);
    const before = await heuUsed();
    await page.getByLabel('Paste text').fill(INVOICE);
    await page.getByLabel('Route').selectOption('invoice');
    await runAndWait();
    const expected = await api({ document: { text: INVOICE } });
    // The run is charged to the month's bucket like any extraction (the API call above too).
    expect(await heuUsed()).toBe(before + 2 * expected.usage.heu);
    await page.getByText(/values? returned/).waitFor();
    expect(await field('/invoiceNumber').locator('.field-value').textContent()).toBe('NW-2026-0042');
    expect(await field('/total').locator('.field-value').textContent()).toBe('2448');
    // Selecting a value marks its quote in the text read: exactly the characters the evidence names.
    await field('/invoiceNumber').click();
    expect(await field('/invoiceNumber').getAttribute('aria-pressed')).toBe('true');
    const e = expected.evidence['/invoiceNumber'] as Evidence;
    expect(await page.locator('#quote-mark').textContent()).toBe(INVOICE.slice(e.start, e.end));
    await page.getByText(`read from \u201c${e.quote}\u201d`).waitFor();
    await field('/lineItems/1/amount').click();
    const amount = expected.evidence['/lineItems/1/amount'] as Evidence;
    expect(await page.locator('#quote-mark').textContent()).toBe(INVOICE.slice(amount.start, amount.end));
    expect(await field('/invoiceNumber').getAttribute('aria-pressed')).toBe('false');
    // Side by side at desktop width: the fields to the right of the text.
    const text = (await page.locator('#text-view').boundingBox())!;
    const fields = (await page.locator('#fields').boundingBox())!;
    expect(fields.x).toBeGreaterThan(text.x + text.width - 1);
    await page.screenshot({ path: `${SHOTS}try-text.png`, fullPage: true });
  }, 60_000);

  it('marks low-confidence values "check" and lists withheld values for review', async () => {
    // The value the service is least sure of (confidence is measured, not set by a rule: the test takes what it says).
    const contradicting = INVOICE.replace('Total due: £2,448.00', 'Total due: £2,948.00');
    const expected = await api({ document: { text: contradicting }, minConfidence: 0 });
    const [pointer, low] = Object.entries(expected.evidence as Record<string, Evidence>).sort(([, a], [, b]) => a.confidence - b.confidence)[0]!;
    // The page marks a value under 0.8 "check"; this document has one.
    expect(low.confidence).toBeLessThan(0.8);
    await page.getByLabel('Paste text').fill(contradicting);
    await page.getByLabel('Withhold below confidence').fill(String(Math.min(0.99, Math.round((low.confidence + 0.01) * 100) / 100)));
    await runAndWait();
    // It is under the threshold now: withheld, listed apart, marked for review, its quote still shown.
    const held = page.getByRole('list', { name: 'Values withheld' }).locator(`button.field[data-pointer="${pointer}"]`);
    await held.getByText('Withheld: review').waitFor();
    await held.click();
    expect(await page.locator('#quote-mark').textContent()).toBe(low.quote);
    // And at a threshold under it, it is returned but marked.
    await page.getByLabel('Withhold below confidence').fill('0');
    await runAndWait();
    await field(pointer).getByText('Low confidence: check').waitFor();
    expect(await page.getByRole('list', { name: 'Values withheld' }).count()).toBe(0);
    await field(pointer).click();
    await page.screenshot({ path: `${SHOTS}try-review.png`, fullPage: true });
    await page.getByLabel('Withhold below confidence').fill('0.5');
  }, 60_000);

  it('renders a PDF\'s page and draws the selected value\'s box over its glyphs', async () => {
    const pdf = Buffer.from(await textPdf(INVOICE));
    await page.setInputFiles('#doc-file', { name: 'northwind.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByText('File: northwind.pdf').waitFor();
    await runAndWait();
    const canvas = page.locator('#page-canvas');
    await canvas.waitFor();
    expect(await canvas.evaluate((c: HTMLCanvasElement) => c.width)).toBeGreaterThan(300);
    // The canvas holds the page: some of its pixels are ink.
    expect(await canvas.evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let dark = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i]! < 128) dark++;
      return dark;
    })).toBeGreaterThan(500);
    const answer = await (await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key.key }, json: { document: { content: pdf.toString('base64'), mediaType: 'application/pdf' }, returnText: true } })).json();
    const e = answer.evidence['/invoiceNumber'] as Evidence;
    expect(e.page).toBe(1);
    await field('/invoiceNumber').click();
    const box = page.locator('#quote-box');
    await box.waitFor();
    // The box drawn is the evidence's box, in the canvas's frame.
    const frame = (await page.locator('#page-view').boundingBox())!;
    const drawn = (await box.boundingBox())!;
    expect(Math.abs((drawn.x - frame.x) / frame.width - e.box!.x)).toBeLessThan(0.01);
    expect(Math.abs((drawn.y - frame.y) / frame.height - e.box!.y)).toBeLessThan(0.01);
    expect(Math.abs(drawn.width / frame.width - e.box!.width)).toBeLessThan(0.01);
    expect(await page.locator('#quote-mark').textContent()).toBe(answer.source.text.slice(e.start, e.end));
    await page.getByText('on page 1').waitFor();
    // The text box is not sent while a file is chosen: it is disabled, so that nobody thinks it is.
    expect(await page.getByLabel('Paste text').isDisabled()).toBe(true);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}try-pdf.png`, fullPage: true });
  }, 90_000);

  it('shows a PDF with values to review beside it (the README\'s screenshot)', async () => {
    // A threshold just over the least sure value of this PDF: that one is withheld, the others returned, those under
    // 0.8 marked "check" (the confidences are the service's, measured; the test reads them first).
    const contradicting = INVOICE.replace('Total due: £2,448.00', 'Total due: £2,948.00');
    const pdf = Buffer.from(await textPdf(contradicting));
    const expected = await api({ document: { content: pdf.toString('base64'), mediaType: 'application/pdf' }, minConfidence: 0 });
    const ranked = Object.entries(expected.evidence as Record<string, Evidence>).sort(([, a], [, b]) => a.confidence - b.confidence);
    const [pointer, low] = ranked[0]!;
    const threshold = Math.round((low.confidence + 0.01) * 100) / 100;
    const checked = ranked.find(([, e]) => e.confidence >= threshold && e.confidence < 0.8);
    await page.setInputFiles('#doc-file', { name: 'northwind-march.pdf', mimeType: 'application/pdf', buffer: pdf });
    await page.getByLabel('Withhold below confidence').fill(String(threshold));
    await runAndWait();
    await page.locator('#page-canvas').waitFor();
    const held = page.getByRole('list', { name: 'Values withheld' }).locator(`button.field[data-pointer="${pointer}"]`);
    await held.click();
    await page.locator('#quote-box').waitFor();
    if (checked) await field(checked[0]).getByText('Low confidence: check').waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}try-readme.png`, fullPage: true });
    await page.getByLabel('Withhold below confidence').fill('0.5');
  }, 90_000);

  it('shows an image with the box of the value read from it by OCR', async () => {
    const png = Buffer.from(await scanPng(INVOICE, { dpi: 150 }));
    await page.setInputFiles('#doc-file', { name: 'scan.png', mimeType: 'image/png', buffer: png });
    await runAndWait();
    await page.locator('#page-view img').waitFor();
    await field('/invoiceNumber').click();
    await page.locator('#quote-box').waitFor();
    const drawn = (await page.locator('#quote-box').boundingBox())!;
    expect(drawn.width).toBeGreaterThan(10);
    await page.getByRole('button', { name: 'Remove the file' }).click();
    expect(await page.getByText('File: scan.png').count()).toBe(0);
    expect(await page.getByLabel('Paste text').isDisabled()).toBe(false);
  }, 90_000);

  it('takes a dropped file and a schema of your own', async () => {
    await page.getByLabel('Route').selectOption('custom');
    await page.getByLabel('JSON Schema').fill(JSON.stringify({ type: 'object', properties: { invoiceNumber: { type: 'string' }, total: { type: 'number' } } }));
    // Dropped on the zone, as a person drags a file from their desktop.
    const dataTransfer = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'northwind.txt', { type: 'text/plain' }));
      return dt;
    }, INVOICE);
    await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer });
    await page.getByText('File: northwind.txt').waitFor();
    await runAndWait();
    await page.getByRole('heading', { name: /Result: Custom/ }).waitFor();
    expect(await field('/invoiceNumber').locator('.field-value').textContent()).toBe('NW-2026-0042');
    await page.getByRole('button', { name: 'Remove the file' }).click();
  }, 60_000);

  it('lists every type it takes: DOCX, XLSX, CSV and e-mails too', async () => {
    await openTry();
    await page.getByLabel('Run as key').locator('option').first().waitFor({ state: 'attached' });
    const label = await page.locator('label[for="doc-file"]').textContent();
    for (const type of ['PDF', 'DOCX', 'XLSX', 'CSV', 'EML']) expect(label).toContain(type);
    const accept = (await page.locator('#doc-file').getAttribute('accept'))!.split(',');
    for (const ext of ['.pdf', '.docx', '.xlsx', '.csv', '.eml']) expect(accept).toContain(ext);
  });

  it('keeps the value, its quote and its box on screen together at 1280x900, side by side', async () => {
    await page.getByLabel('Route').selectOption('invoice');
    const pdf = Buffer.from(await textPdf(LONG_INVOICE));
    await page.setInputFiles('#doc-file', { name: 'northwind-long.pdf', mimeType: 'application/pdf', buffer: pdf });
    await runAndWait();
    await page.locator('#page-canvas').waitFor();
    // The values low on the page and in the list: the total, then a line item; each time all three are in view.
    for (const pointer of ['/total', '/lineItems/20/amount', '/invoiceNumber']) {
      await field(pointer).scrollIntoViewIfNeeded();
      await field(pointer).click();
      await page.locator('#quote-box').waitFor();
      expect(await field(pointer).getAttribute('aria-pressed')).toBe('true');
      expect([pointer, await onScreen(page, `button.field[data-pointer="${pointer}"]`, true)]).toEqual([pointer, true]);
      expect([pointer, await onScreen(page, '#quote-mark')]).toEqual([pointer, true]);
      expect([pointer, await onScreen(page, '#quote-box')]).toEqual([pointer, true]);
      // Side by side: the document to the left of the values.
      const pane = (await page.locator('#document-pane').boundingBox())!;
      const fields = (await page.locator('#fields').boundingBox())!;
      expect(fields.x).toBeGreaterThanOrEqual(pane.x + pane.width - 1);
    }
    await page.screenshot({ path: `${SHOTS}try-together.png` });
    await page.getByRole('button', { name: 'Remove the file' }).click();
  }, 90_000);

  it('shows wide lines whole in the text read: a table\'s columns stay lined up, the pane scrolls sideways', async () => {
    const wide = `${INVOICE}\n\nRef        Description                                   Cost centre      Project           Qty   Unit Price      Amount\nNW-1001    Consulting hours, March, on-site in Leith      CC-4410-EDIN     PRJ-MIGRATION       12      £150.00   £1,800.00`;
    await page.getByLabel('Paste text').fill(wide);
    await runAndWait();
    await field('/invoiceNumber').click();
    const lines = await page.locator('#text-view').evaluate((view) => {
      // Each line of the text read, by its characters' positions: one row on screen per line of text.
      const text = view.textContent!;
      const rows: number[] = [];
      const walker = document.createTreeWalker(view, NodeFilter.SHOW_TEXT);
      let offset = 0;
      const wanted = ['Ref        Description', 'NW-1001    Consulting'];
      const found: Record<string, number> = {};
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const value = node.textContent!;
        for (const w of wanted) {
          const at = text.indexOf(w) - offset;
          if (at < 0 || at >= value.length) continue;
          const end = text.indexOf('\n', text.indexOf(w));
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, Math.min(value.length, (end < 0 ? text.length : end) - offset));
          found[w] = new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
        }
        offset += value.length;
      }
      rows.push(view.scrollWidth - view.clientWidth);
      return { found, overflow: rows[0] };
    });
    expect(lines.found).toEqual({ 'Ref        Description': 1, 'NW-1001    Consulting': 1 });
    expect(lines.overflow).toBeGreaterThan(0);
    await page.getByLabel('Route').selectOption('custom');
  }, 60_000);

  it('keeps a sticky preview at 390 px: the tapped value, its quote and its box on screen, nothing wider than the phone', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const p = await phone.newPage();
    p.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    await p.goto(`${s.baseUrl}/dashboard`);
    await p.getByLabel('Account id').fill(account);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'API keys' }).waitFor();
    await p.getByRole('link', { name: 'Try a document' }).click();
    await p.getByLabel('Run as key').locator('option').first().waitFor({ state: 'attached' });
    await p.setInputFiles('#doc-file', { name: 'northwind-long.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await textPdf(LONG_INVOICE)) });
    await runAndWait(p);
    await p.locator('#page-canvas').waitFor();
    for (const pointer of ['/lineItems/22/amount', '/total']) {
      const button = p.locator(`button.field[data-pointer="${pointer}"]`);
      await button.scrollIntoViewIfNeeded();
      await button.click();
      await p.locator('#quote-box').waitFor();
      expect([pointer, await onScreen(p, `button.field[data-pointer="${pointer}"]`, true)]).toEqual([pointer, true]);
      expect([pointer, await onScreen(p, '#quote-mark')]).toEqual([pointer, true]);
      expect([pointer, await onScreen(p, '#quote-box')]).toEqual([pointer, true]);
    }
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await p.screenshot({ path: `${SHOTS}try-phone-sticky.png` });
    await phone.close();
  }, 90_000);

  it('says what went wrong: a schema that is not JSON, no document, a revoked key; and shows that it is working', async () => {
    await page.getByLabel('JSON Schema').fill('{ not json');
    await page.getByRole('button', { name: 'Extract', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'The schema is not JSON' }).waitFor();
    await page.getByLabel('Route').selectOption('receipt');
    await page.getByLabel('Paste text').fill('');
    await page.getByRole('button', { name: 'Extract', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Paste some text or choose a file first.' }).waitFor();
    // Loading: the button says so and cannot be pressed twice while the answer is on its way.
    await page.getByLabel('Paste text').fill('CORNER SHOP\nTOTAL 3.00\nCASH');
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    await page.route('**/v1/keys/*/extract', async (route) => { await held; await route.continue(); });
    await page.getByRole('button', { name: 'Extract', exact: true }).click();
    await page.getByRole('button', { name: 'Extracting\u2026' }).waitFor();
    expect(await page.getByRole('button', { name: 'Extracting\u2026' }).isDisabled()).toBe(true);
    await page.locator('#try-loading').waitFor();
    await page.screenshot({ path: `${SHOTS}try-loading.png`, fullPage: true });
    release();
    await page.getByRole('button', { name: 'Extract', exact: true }).waitFor();
    await page.unroute('**/v1/keys/*/extract');
    // The key is revoked in another tab: the run is refused and the page says why (the session stays signed in).
    await s.fetch(`/v1/keys/${key.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${await s.token(account)}` } });
    revokedKeyId = key.id;
    const before = await s.db.prisma.usageRecord.count({ where: { accountId: account } });
    await page.getByRole('button', { name: 'Extract', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'That key is no longer active' }).waitFor();
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: account } })).toBe(before);
    expect(await page.getByRole('heading', { name: 'Try a document' }).count()).toBe(1);
    // Reopened without an active key, the page says to create one and offers no run.
    await page.getByRole('link', { name: 'API keys' }).click();
    await openTry();
    await page.locator('#no-keys').getByRole('link', { name: 'Create a key' }).waitFor();
    expect(await page.getByRole('button', { name: 'Extract', exact: true }).isDisabled()).toBe(true);
    key = await s.createKey(account, 'dashboard trials 2');
  }, 60_000);

  it('stacks the document and the values at phone width', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 });
    const p = await phone.newPage();
    p.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    await p.goto(`${s.baseUrl}/dashboard`);
    await p.getByLabel('Account id').fill(account);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { name: 'API keys' }).waitFor();
    await p.getByRole('link', { name: 'Try a document' }).click();
    await p.getByLabel('Paste text').fill(INVOICE);
    await runAndWait(p);
    await p.locator('button.field[data-pointer="/total"]').click();
    await p.evaluate(() => window.scrollTo(0, 0));
    const text = (await p.locator('#text-view').boundingBox())!;
    const fields = (await p.locator('#fields').boundingBox())!;
    expect(fields.y).toBeGreaterThanOrEqual(text.y + text.height - 1);
    // Nothing wider than the screen (the text view scrolls sideways inside itself).
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await p.screenshot({ path: `${SHOTS}try-phone-full.png`, fullPage: true });
    // The README's phone screenshot: the result as a phone shows it, the quote marked in the text read.
    await p.evaluate(() => document.getElementById('results-heading')!.scrollIntoView());
    await p.screenshot({ path: `${SHOTS}try-phone.png` });
    await phone.close();
  }, 60_000);

  it('loads nothing from elsewhere and breaks no rule of the page\'s policy', async () => {
    expect(external).toEqual([]);
    // The one refused run (its key revoked) is the only failed request and the only error the browser logs: no CSP
    // violation, no script error, no asset missing (pdf.js, its worker and fonts come from this origin).
    expect(failed).toEqual([`404 POST /v1/keys/${revokedKeyId}/extract`]);
    expect(consoleErrors).toEqual(['Failed to load resource: the server responded with a status of 404 (Not Found)']);
    const res = await s.fetch('/dashboard/try');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect((await s.fetch('/dashboard/assets/pdfjs/pdf.worker.min.mjs')).status).toBe(200);
  });
});
