// Files in (PDF, images, HTML, Markdown), read offline: the text layer with its columns, OCR for scans, and every
// bad file refused with its own code and nothing charged.
import { PDFDocument } from 'pdf-lib';
import { encryptedPdf, scanPdf, scanPng, textPdf } from './support/render-documents.js';
import { startTestServer, type TestServer } from './support/harness.js';

const INVOICE = [
  'NORTHWIND OFFICE SUPPLY LTD',
  '12 Quay Street, Bristol BS1 4DJ',
  '',
  'INVOICE',
  'Invoice No: INV-7731',
  'Invoice Date: 2026-03-02',
  '',
  'Description                 Qty    Unit Price      Amount',
  'Archive boxes                10          4.50       45.00',
  'Desk lamp                     2         30.00       60.00',
  '',
  'Total due (GBP):                                   105.00',
].join('\n');

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

describe('documents as files on the offline engine', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_docs', plan: 'starter' } });
    key = (await s.createKey('acct_docs')).key;
  });
  afterAll(async () => { await s.close(); });

  const extract = (route: string, body: unknown) => s.fetch(`/v1/extract/${route}`, { method: 'POST', headers: { 'x-api-key': key }, json: body });
  const heuUsed = async () => (await (await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).json()).heuUsed as number;

  it('reads a PDF text layer with its columns, says so in source, and charges the reading in heu', async () => {
    const before = await heuUsed();
    const res = await extract('invoice', { document: { content: b64(await textPdf(INVOICE)), mediaType: 'application/pdf', filename: 'inv-7731.pdf' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.source).toEqual({ mediaType: 'application/pdf', pages: 1, method: 'pdf_text' });
    expect(body.data.invoiceNumber).toBe('INV-7731');
    expect(body.data.total).toBe(105);
    expect(body.data.lineItems).toEqual([
      { description: 'Archive boxes', quantity: 10, unitPrice: 4.5, amount: 45 },
      { description: 'Desk lamp', quantity: 2, unitPrice: 30, amount: 60 },
    ]);
    expect(body.usage.readingHeu).toBe(1);
    expect(body.usage.heu).toBe(Math.max(1, Math.ceil((body.usage.inputTokens + body.usage.outputTokens) / 1000)) + 1);
    expect(await heuUsed()).toBe(before + body.usage.heu);
  });

  it('reads a scanned PNG by OCR, with its mean confidence', async () => {
    const res = await extract('invoice', { document: { content: b64(await scanPng(INVOICE)), mediaType: 'image/png' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.source).toEqual({ mediaType: 'image/png', pages: 1, method: 'ocr', ocrConfidence: expect.any(Number) });
    expect(body.source.ocrConfidence).toBeGreaterThan(0.7);
    expect(body.source.ocrConfidence).toBeLessThanOrEqual(1);
    expect(body.data.invoiceNumber).toBe('INV-7731');
    expect(body.data.total).toBe(105);
    expect(body.usage.readingHeu).toBe(1);
  });

  it('reads a PDF page without a text layer by OCR', async () => {
    const res = await extract('invoice', { document: { content: b64(await scanPdf(INVOICE)), mediaType: 'application/pdf' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.source).toMatchObject({ mediaType: 'application/pdf', pages: 1, method: 'ocr' });
    expect(body.data.total).toBe(105);
  });

  it('reads HTML and Markdown as their text', async () => {
    const html = `<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Invoice</h1><p>Invoice No: H-19</p><p>Total due: $80.00</p></body></html>`;
    const h = await extract('invoice', { document: { content: b64(html), mediaType: 'text/html' } });
    expect(h.status).toBe(200);
    const hb = await h.json();
    expect(hb.source).toEqual({ mediaType: 'text/html', pages: 1, method: 'text' });
    expect(hb.data).toMatchObject({ invoiceNumber: 'H-19', total: 80 });
    const md = await extract('invoice', { document: { content: b64('# Invoice\n\n**Invoice No:** M-4\n\nTotal due: $12.00\n'), mediaType: 'text/markdown' } });
    expect(md.status).toBe(200);
    expect((await md.json()).data).toMatchObject({ invoiceNumber: 'M-4', total: 12 });
  });

  it('says how text sent as text was obtained', async () => {
    const res = await extract('receipt', { document: { text: 'CAFE\nTOTAL 3.00', mediaType: 'application/pdf' } });
    expect((await res.json()).source).toEqual({ mediaType: 'application/pdf', pages: 1, method: 'text' });
  });

  it('stores a renewal file with its filename, media type and byte size', async () => {
    const text = 'ORDER FORM\nVendor: Cobalt Ledger Inc.\nProduct: Cobalt Books\nFees: $300.00 per month\nThis order renews automatically unless either party gives 30 days notice.';
    const pdf = await textPdf(text);
    const res = await extract('renewal', { document: { content: b64(pdf), mediaType: 'application/pdf', filename: 'cobalt.pdf' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.document).toMatchObject({ filename: 'cobalt.pdf', mediaType: 'application/pdf', byteSize: pdf.byteLength });
    expect(body.data.vendorName.value).toBe('Cobalt Ledger Inc.');
    expect(body.data.vendorName.sourceQuote).toBe('Vendor: Cobalt Ledger Inc.');
    const row = await s.db.prisma.storedDocument.findUniqueOrThrow({ where: { id: body.document_id } });
    expect(row).toMatchObject({ filename: 'cobalt.pdf', mediaType: 'application/pdf', byteSize: pdf.byteLength });
  });

  describe('bad files: a clear code, nothing charged', () => {
    const refused = async (document: unknown, status: number, code: string, details?: unknown) => {
      const before = await heuUsed();
      const res = await extract('invoice', { document });
      const body = await res.json();
      expect({ status: res.status, code: body.error?.code }).toEqual({ status, code });
      if (details !== undefined) expect(body.error.details).toEqual(details);
      expect(await heuUsed()).toBe(before);
      return body;
    };

    it('bytes that are not of the media type: 400 document_type_mismatch', async () => {
      await refused({ content: b64(await scanPng('x')), mediaType: 'application/pdf' }, 400, 'document_type_mismatch');
      await refused({ content: b64(await textPdf('x')), mediaType: 'image/jpeg' }, 400, 'document_type_mismatch');
      await refused({ content: b64(await textPdf('x')), mediaType: 'text/plain' }, 400, 'document_type_mismatch');
    });

    it('an encrypted PDF: 422 document_encrypted', async () => {
      await refused({ content: b64(await encryptedPdf(INVOICE)), mediaType: 'application/pdf' }, 422, 'document_encrypted');
    });

    it('a corrupt PDF: 422 document_unreadable', async () => {
      const pdf = await textPdf(INVOICE);
      await refused({ content: b64(pdf.subarray(0, 400)), mediaType: 'application/pdf' }, 422, 'document_unreadable');
    });

    it('an image too small to read, or with no text: 422 document_unreadable', async () => {
      const { createCanvas } = await import('@napi-rs/canvas');
      await refused({ content: b64(await createCanvas(20, 12).encode('png')), mediaType: 'image/png' }, 422, 'document_unreadable');
      const blank = createCanvas(400, 300);
      const g = blank.getContext('2d');
      g.fillStyle = '#fff';
      g.fillRect(0, 0, 400, 300);
      await refused({ content: b64(await blank.encode('png')), mediaType: 'image/png' }, 422, 'document_unreadable');
    });

    it('a PDF over 50 pages: 413 with the limit', async () => {
      const pdf = await PDFDocument.create();
      for (let i = 0; i < 51; i++) pdf.addPage();
      const body = await refused({ content: b64(await pdf.save()), mediaType: 'application/pdf' }, 413, 'payload_too_large', { limit: 50 });
      expect(body.error.message).toMatch(/51 pages/);
    });

    it('a file over 10 MB: 413 with the limit', async () => {
      const big = Buffer.alloc(10 * 1024 * 1024 + 1, 'a');
      await refused({ content: b64(big), mediaType: 'text/plain' }, 413, 'payload_too_large', { limit: 10 * 1024 * 1024 });
    });

    it('both text and content, neither, or content without a media type we read: 400 invalid_request', async () => {
      await refused({ text: 'x', content: b64('x'), mediaType: 'text/plain' }, 400, 'invalid_request');
      await refused({ filename: 'a.pdf' }, 400, 'invalid_request');
      await refused({ content: b64('x') }, 400, 'invalid_request');
      await refused({ content: b64('GIF89a'), mediaType: 'image/gif' }, 400, 'invalid_request');
    });
  });

  it('a bad file in a batch fails alone, charging nothing', async () => {
    const before = await heuUsed();
    const res = await extract('batch', { items: [
      { id: 'good', kind: 'invoice', document: { content: b64(await textPdf(INVOICE)), mediaType: 'application/pdf' } },
      { id: 'bad', kind: 'invoice', document: { content: b64(await encryptedPdf(INVOICE)), mediaType: 'application/pdf' } },
    ] });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results[0]).toMatchObject({ id: 'good', ok: true, source: { method: 'pdf_text', pages: 1 } });
    expect(body.results[1]).toMatchObject({ id: 'bad', ok: false, error: { code: 'document_encrypted' } });
    expect(await heuUsed()).toBe(before + body.usage.heu);
    expect(body.usage.heu).toBe(body.results[0].usage.heu);
  });

  it('counts a file against the request rate before opening it, and refuses a caller over its rate (429) before opening its file: a damaged PDF is not even probed', async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_docs_rate' } }); // free plan: 10 requests a minute
    const throttled = (await s.createKey('acct_docs_rate')).key;
    const send = (document: unknown) => s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': throttled }, json: { document } });
    const damaged = { content: b64('%PDF-1.7\nnot really a pdf'), mediaType: 'application/pdf' };
    // Under the limit, the damaged file is opened and refused for what it is; opening it counted the request (a file
    // refused once opened still counts), so nine more requests fill the minute.
    expect((await (await send(damaged)).json()).error.code).toBe('document_unreadable');
    for (let i = 0; i < 9; i++) expect((await send({ text: 'Invoice INV-1\nTotal: $10.00' })).status).toBe(200);
    const res = await send(damaged);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await res.json()).error).toMatchObject({ code: 'too_many_requests', details: { reason: 'rate_limit', limit: 10 } });
    // The same refusal in a batch holding a file.
    const batch = await s.fetch('/v1/extract/batch', { method: 'POST', headers: { 'x-api-key': throttled }, json: { items: [{ id: 'a', kind: 'invoice', document: damaged }] } });
    expect(batch.status).toBe(429);
  });
});
