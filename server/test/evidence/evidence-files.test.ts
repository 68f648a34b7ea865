// Evidence of a file: each quote's page and box. On a text PDF the box must cover the glyphs the test renderer drew
// (intersection over union >= 0.8 against the positions it drew them at); on a scan, OCR's word boxes place it.
import { scanPng, textPdf } from '../support/render-documents.js';
import { startTestServer, type TestServer } from '../support/harness.js';

type Box = { x: number; y: number; width: number; height: number };
type Answer = { data: unknown; evidence: Record<string, { quote: string; start: number; end: number; page?: number; box?: Box }>; source: { text?: string; method: string } };

const INVOICE = [
  'NORTHWIND FABRICATION LTD',
  '14 Harbour Road, Leith, Edinburgh EH6 6LU',
  '',
  'INVOICE',
  'Invoice No: NWF-2026-0311',
  'Invoice Date: 11 March 2026',
  'Due Date: 10 April 2026',
  '',
  'Bill To: Caledonia Marine Services',
  '',
  'Description                 Qty   Unit Price      Amount',
  'Steel brackets (galv.)       40        12.50      500.00',
  'Welding, on site (hours)      6        45.00      270.00',
  '',
  'Subtotal: 770.00',
  'VAT 20%: 154.00',
  'Total due: GBP 924.00',
];

// What the renderer draws (render-documents.ts): Letter pages, Courier 10 pt (6 pt a character) on 12 pt lines from a
// 40 pt margin; a glyph's box is its em box, 0.8 of the size above the baseline and 0.2 below.
const PAGE = { width: 612, height: 792, margin: 40, char: 6, leading: 12, size: 10 };

function drawnBox(line: number, from: number, to: number): Box {
  const baseline = PAGE.margin + line * PAGE.leading;
  return {
    x: (PAGE.margin + from * PAGE.char) / PAGE.width,
    y: (baseline - 0.8 * PAGE.size) / PAGE.height,
    width: ((to - from) * PAGE.char) / PAGE.width,
    height: PAGE.size / PAGE.height,
  };
}

function iou(a: Box, b: Box): number {
  const x0 = Math.max(a.x, b.x), y0 = Math.max(a.y, b.y), x1 = Math.min(a.x + a.width, b.x + b.width), y1 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return inter / (a.width * a.height + b.width * b.height - inter);
}

describe('evidence of files', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_files', plan: 'starter' } });
    key = (await s.createKey('acct_files')).key;
  });
  afterAll(async () => { await s.close(); });

  const extract = async (content: Uint8Array, mediaType: string): Promise<Answer> => {
    const res = await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { content: Buffer.from(content).toString('base64'), mediaType }, minConfidence: 0, returnText: true } });
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  };

  it('on a text PDF, every quote reproduces from the text read, on page 1, its box covering the drawn glyphs (IoU >= 0.8)', async () => {
    const body = await extract(await textPdf(INVOICE.join('\n')), 'application/pdf');
    expect(body.source.method).toBe('pdf_text');
    const text = body.source.text!;
    const entries = Object.entries(body.evidence);
    expect(entries.length).toBeGreaterThan(10);
    for (const [pointer, e] of entries) {
      expect([pointer, text.slice(e.start, e.end)]).toEqual([pointer, e.quote]);
      expect([pointer, e.page]).toEqual([pointer, 1]);
      expect(e.box).toBeDefined();
      if (e.quote.includes('\n')) continue;
      // Where the renderer drew the quote: its line and columns in the document as written.
      const line = text.slice(0, e.start).split('\n').length - 1;
      const from = INVOICE[line]!.indexOf(e.quote);
      expect([pointer, from >= 0]).toEqual([pointer, true]);
      const overlap = iou(e.box!, drawnBox(line, from, from + e.quote.length));
      expect([pointer, overlap >= 0.8]).toEqual([pointer, true]);
    }
  });

  it('on a scanned image, quotes carry page 1 and a box inside the page around the words OCR read', async () => {
    const body = await extract(await scanPng(INVOICE.join('\n'), { dpi: 200 }), 'image/png');
    expect(body.source.method).toBe('ocr');
    const text = body.source.text!;
    const entries = Object.entries(body.evidence);
    expect(entries.length).toBeGreaterThan(5);
    for (const [pointer, e] of entries) {
      expect([pointer, text.slice(e.start, e.end)]).toEqual([pointer, e.quote]);
      expect(e.page).toBe(1);
      const b = e.box!;
      expect(b.x).toBeGreaterThanOrEqual(0); expect(b.y).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(1.0001); expect(b.y + b.height).toBeLessThanOrEqual(1.0001);
    }
    // The total's box stands on the last line, where the scan drew it: about 17 lines of 12 pt below a 0.6 inch margin.
    const total = body.evidence['/total']!.box!;
    const expectedY = (0.6 * 72 + 17 * 12) / 792;
    expect(Math.abs(total.y + total.height - expectedY)).toBeLessThan(0.02);
  });
});
