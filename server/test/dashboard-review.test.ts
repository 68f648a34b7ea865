// The dashboard's Review page in Chromium (playwright-core): the account's open reviews as a queue; the document on
// the left (a PDF's page with the value's box drawn, the text with its quote marked), the values on the right with the
// withheld and low ones first; the keyboard moves, accepts, edits and resolves, and the resolution is the API's; at
// 390 px nothing is wider than the phone. Screenshots go to test-output/dashboard/ (docs/dashboard-review*.png).
import { mkdirSync } from 'node:fs';
import { type Browser, type Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from './support/browser.js';
import { startTestServer, type TestServer } from './support/harness.js';
import { textPdf } from './support/render-documents.js';

const SHOTS = new URL('../../test-output/dashboard/', import.meta.url).pathname;
const run = describeInBrowser('dashboard review suite');

const INVOICE = [
  'NORTHWIND TRADING LTD', '12 Harbour Road, Leith, Edinburgh EH6 6LX', '', 'INVOICE', 'Invoice No: NW-2026-0042',
  'Invoice Date: 2026-03-14', 'Due Date: 2026-04-13', '', 'Bill To: Contoso Pharmaceuticals', '',
  'Description            Qty   Unit Price    Amount', 'Consulting hours        12      £150.00   £1,800.00',
  'Travel                   1      £240.00     £240.00', '', 'Subtotal: £2,040.00', 'VAT (20%): £408.00', 'Total due: £2,448.00',
].join('\n');

/** Whether an element is wholly on screen: in the window and in every clipping box around it. */
const onScreen = (p: Page, selector: string) => p.locator(selector).first().evaluate((el) => {
  const r = el.getBoundingClientRect();
  const inside = (o: { top: number; left: number; bottom: number; right: number }) => r.top >= o.top - 1 && r.left >= o.left - 1 && r.bottom <= o.bottom + 1 && r.right <= o.right + 1;
  if (r.width === 0 || !inside({ top: 0, left: 0, bottom: innerHeight, right: innerWidth })) return false;
  for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
    const style = getComputedStyle(a);
    if (!/(auto|scroll|hidden)/.test(style.overflowX + style.overflowY)) continue;
    const c = a.getBoundingClientRect();
    if (!inside({ top: c.top + a.clientTop, left: c.left + a.clientLeft, bottom: c.top + a.clientTop + a.clientHeight, right: c.left + a.clientLeft + a.clientWidth })) return false;
  }
  return true;
});

run('dashboard Review page in Chromium', () => {
  let s: TestServer;
  let browser: Browser;
  let key: string;
  let textReview: string;
  let pdfReview: string;
  const account = 'acct_browser_review';
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
    key = (await s.createKey(account, 'review')).key;
    const extract = async (document: unknown) => {
      const res = await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document, review: true, minConfidence: 0.95, reviewBelow: 0.99 } });
      expect(res.status).toBe(200);
    };
    await extract({ text: INVOICE, filename: 'northwind.txt' });
    await extract({ content: Buffer.from(await textPdf(INVOICE)).toString('base64'), mediaType: 'application/pdf', filename: 'northwind.pdf' });
    const list = await (await s.fetch('/v1/reviews?status=open', { headers: { 'x-api-key': key } })).json();
    expect(list.reviews).toHaveLength(2);
    [pdfReview, textReview] = [list.reviews[0].id, list.reviews[1].id];
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  async function signedIn(width: number, height: number): Promise<Page> {
    const page = await (await browser.newContext({ viewport: { width, height } })).newPage();
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    await page.goto(`${s.baseUrl}/dashboard`);
    await page.getByLabel('Account id').fill(account);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByRole('link', { name: 'Review' }).click();
    await page.locator('#review-values li').first().waitFor();
    return page;
  }
  const selected = (page: Page) => page.locator('#review-values li[aria-selected="true"]').getAttribute('data-pointer');

  it('shows the queue, the PDF with the value\'s box and quote, and the withheld and low values first', async () => {
    const page = await signedIn(1280, 900);
    expect(await page.locator('#queue-position').textContent()).toBe('Review 1 of 2 open');
    const review = await (await s.fetch(`/v1/reviews/${pdfReview}`, { headers: { 'x-api-key': key } })).json();
    // Withheld first, then low (lowest first), then the others.
    const kinds = await page.locator('#review-values li').evaluateAll((els) => els.map((e) => e.classList.contains('withheld') ? 0 : e.classList.contains('low') ? 1 : 2));
    expect(kinds.length).toBeGreaterThan(3);
    expect([...kinds].sort()).toEqual(kinds);
    expect(kinds.filter((k) => k === 0)).toHaveLength(review.withheld.length);
    expect(kinds.filter((k) => k === 1)).toHaveLength(review.low.length);
    expect(review.withheld.length).toBeGreaterThan(0);
    // The first value is selected: its quote marked in the text read, its box drawn on the rendered page.
    await page.locator('#page-canvas').waitFor();
    const first = review.withheld[0];
    expect(await selected(page)).toBe(first.path);
    expect(await page.locator('#quote-mark').textContent()).toBe(review.document.text.slice(first.start, first.end));
    await page.locator('#quote-box').waitFor();
    expect(await onScreen(page, '#quote-box')).toBe(true);
    expect(await onScreen(page, '#quote-mark')).toBe(true);
    await page.screenshot({ path: `${SHOTS}review.png` });
    await page.context().close();
  }, 90_000);

  it('moves, accepts, edits and resolves from the keyboard; the API records each value\'s outcome', async () => {
    const page = await signedIn(1280, 900);
    const pointers = await page.locator('#review-values li').evaluateAll((els) => els.map((e) => e.getAttribute('data-pointer')!));
    expect(await selected(page)).toBe(pointers[0]);
    await page.keyboard.press('j');
    expect(await selected(page)).toBe(pointers[1]);
    await page.keyboard.press('k');
    expect(await selected(page)).toBe(pointers[0]);
    // Accept the first (withheld) value: marked, and the next one selected.
    await page.keyboard.press('a');
    expect(await page.locator('#review-values li').first().getAttribute('data-state')).toBe('accepted');
    expect(await selected(page)).toBe(pointers[1]);
    // Edit the customer's name: select it, e, type, Enter.
    await page.locator('#review-values li[data-pointer="/customer/name"] .field-name').click();
    expect(await selected(page)).toBe('/customer/name');
    await page.keyboard.press('e');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Contoso Pharmaceuticals plc');
    await page.keyboard.press('Enter');
    expect(await page.locator('#review-values li[data-pointer="/customer/name"]').getAttribute('data-state')).toBe('edited');
    // Resolve: the next review opens; this one is resolved, as the API says.
    await page.keyboard.press('r');
    await page.getByText(/^Resolved: \d+ confirmed, 1 corrected/).waitFor();
    expect(await page.locator('#queue-position').textContent()).toBe('Review 1 of 1 open');
    const resolved = await (await s.fetch(`/v1/reviews/${pdfReview}`, { headers: { 'x-api-key': key } })).json();
    expect(resolved.status).toBe('resolved');
    expect(resolved.resolution.resolvedBy.kind).toBeDefined();
    const outcome = (path: string) => resolved.resolution.values.find((v: { path: string }) => v.path === path);
    expect(outcome('/customer/name')).toMatchObject({ outcome: 'corrected', value: 'Contoso Pharmaceuticals plc' });
    expect(outcome(pointers[0]!)).toMatchObject({ outcome: 'confirmed' });
    await page.context().close();
  }, 90_000);

  it('at 390 px: the document held above the values, the quote on screen, nothing wider than the phone', async () => {
    const page = await signedIn(390, 844);
    expect(await page.locator('#queue-position').textContent()).toBe('Review 1 of 1 open');
    const last = page.locator('#review-values li').last();
    await last.scrollIntoViewIfNeeded();
    await last.locator('.field-name').click();
    expect(await selected(page)).toBe(await last.getAttribute('data-pointer'));
    expect(await onScreen(page, '#quote-mark')).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SHOTS}review-phone.png` });
    // This review is the text one: no page view, its text only.
    expect(await page.locator('#page-canvas').count()).toBe(0);
    void textReview;
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  }, 90_000);
});
