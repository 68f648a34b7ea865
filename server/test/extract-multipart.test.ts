// Files as multipart/form-data on the single-document routes (`curl -F file=@invoice.pdf`): the file part read as
// `document.content` is, its media type from the field, the part or the extension; every malformed form refused with
// the envelope, and nothing charged or stored for any refusal.
import { request } from 'node:http';
import { scanPng, textPdf } from './support/render-documents.js';
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
  '',
  'Total due (GBP):                                    45.00',
].join('\n');
const ORDER = 'ORDER FORM\nVendor: Cobalt Ledger Inc.\nProduct: Cobalt Books\nFees: $300.00 per month\nThis order renews automatically unless either party gives 30 days notice.';

type Part = { name: string; value: string | Uint8Array; filename?: string; type?: string };

/** A multipart/form-data body written by hand, so that a test controls every part (two files, a bad boundary...). */
function rawForm(parts: Part[], boundary = 'test-boundary-7f3a'): { body: Buffer; type: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
}

describe('multipart/form-data on the single-document routes', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_form', plan: 'starter' } });
    key = (await s.createKey('acct_form')).key;
  });
  afterAll(async () => { await s.close(); });

  const post = (route: string, form: FormData) => s.fetch(`/v1/extract/${route}`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
  const postRaw = (route: string, parts: Part[]) => {
    const { body, type } = rawForm(parts);
    return s.fetch(`/v1/extract/${route}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': type }, body: new Uint8Array(body) });
  };
  const formOf = (file: Blob, filename: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('file', file, filename);
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return form;
  };
  /** What the account was charged and what was stored, to show a refusal left no trace. */
  const ledger = async () => ({
    heuUsed: (await s.db.prisma.usageBucket.findMany({ where: { accountId: 'acct_form' } })).reduce((n, b) => n + b.heuUsed, 0),
    usageRecords: await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_form' } }),
    documents: await s.db.prisma.storedDocument.count({ where: { accountId: 'acct_form' } }),
  });

  it('reads a PDF sent as `-F file=@invoice.pdf`, its media type from the part, and charges as the JSON body does', async () => {
    const before = await ledger();
    const res = await post('invoice', formOf(new Blob([new Uint8Array(await textPdf(INVOICE))], { type: 'application/pdf' }), 'invoice.pdf'));
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).not.toBeNull();
    const body = await res.json();
    expect(body.source).toEqual({ mediaType: 'application/pdf', pages: 1, method: 'pdf_text' });
    expect(body.data).toMatchObject({ invoiceNumber: 'INV-7731', total: 45 });
    expect(body.usage.readingHeu).toBe(1);
    const after = await ledger();
    expect(after.heuUsed).toBe(before.heuUsed + body.usage.heu);
    expect(after.usageRecords).toBe(before.usageRecords + 1);
  });

  it('takes the media type from the extension when the part says application/octet-stream, and reads an image by OCR', async () => {
    const res = await post('invoice', formOf(new Blob([new Uint8Array(await scanPng(INVOICE))], { type: 'application/octet-stream' }), 'scan.PNG'));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.source).toMatchObject({ mediaType: 'image/png', method: 'ocr' });
    expect(body.data.invoiceNumber).toBe('INV-7731');
  });

  it('the mediaType field overrides the part, and text files are read as text', async () => {
    const res = await post('receipt', formOf(new Blob(['# CAFE\n\nTOTAL 3.00'], { type: 'application/octet-stream' }), 'receipt.bin', { mediaType: 'text/markdown' }));
    expect(res.status).toBe(200);
    expect((await res.json()).source).toEqual({ mediaType: 'text/markdown', pages: 1, method: 'text' });
  });

  it('renewal: stores the file with the part\'s file name (or the filename field), media type and byte size', async () => {
    const pdf = new Uint8Array(await textPdf(ORDER));
    const res = await post('renewal', formOf(new Blob([pdf]), 'cobalt.pdf'));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.document).toMatchObject({ filename: 'cobalt.pdf', mediaType: 'application/pdf', byteSize: pdf.byteLength });
    expect(body.data.vendorName).toEqual({ value: 'Cobalt Ledger Inc.', sourceQuote: 'Vendor: Cobalt Ledger Inc.' });
    const row = await s.db.prisma.storedDocument.findUniqueOrThrow({ where: { id: body.document_id } });
    expect(row).toMatchObject({ filename: 'cobalt.pdf', mediaType: 'application/pdf', byteSize: pdf.byteLength });

    // The same vendor renewal by id, and another name for the file.
    const again = await post('renewal', formOf(new Blob([pdf]), 'scan-0001.pdf', { vendorRenewalId: body.vendor_renewal_id, filename: 'Cobalt order form.pdf' }));
    expect(again.status).toBe(200);
    const second = await again.json();
    expect(second.vendor_renewal_id).toBe(body.vendor_renewal_id);
    expect(second.document.filename).toBe('Cobalt order form.pdf');
  });

  it('custom: the schema is a field holding its JSON text', async () => {
    const schema = { type: 'object', properties: { invoiceNumber: { type: 'string' } } };
    const res = await post('custom', formOf(new Blob([INVOICE], { type: 'text/plain' }), 'inv.txt', { schema: JSON.stringify(schema) }));
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ invoiceNumber: 'INV-7731' });
  });

  it('the model field chooses the model as `model` does in JSON', async () => {
    const ok = await post('invoice', formOf(new Blob([INVOICE]), 'inv.txt', { model: 'local-rules-1' }));
    expect(ok.status).toBe(200);
    expect((await ok.json()).model).toBe('local-rules-1');
  });

  describe('refusals: the envelope, a clear code, nothing charged or stored', () => {
    const refused = async (res: Promise<Response>, status: number, code: string, path?: string) => {
      const before = await ledger();
      const r = await res;
      const body = await r.json();
      expect({ status: r.status, code: body.error?.code }).toEqual({ status, code });
      expect(typeof body.error.message).toBe('string');
      if (path) expect(body.error.details.errors.map((e: { path: string }) => e.path)).toContain(path);
      expect(await ledger()).toEqual(before);
      return body;
    };

    it('a file over 10 MB: 413 payload_too_large with the limit', async () => {
      const big = new Blob([new Uint8Array(10 * 1024 * 1024 + 1).fill(97)], { type: 'text/plain' });
      const body = await refused(post('invoice', formOf(big, 'big.txt')), 413, 'payload_too_large');
      expect(body.error.details).toEqual({ limit: 10 * 1024 * 1024 });
    });

    // The same file answers the same way as multipart and as document.content in JSON: a file of exactly 10,485,760
    // bytes is read (was 413 as multipart, 200 as JSON), one byte more is 413 both ways.
    describe('at the 10 MB limit, as multipart and as JSON alike', () => {
      const LIMIT = 10 * 1024 * 1024;
      /** An HTML file of exactly `size` bytes: the invoice, and a comment filling the rest (little text to read). */
      const htmlOf = (size: number) => {
        const head = `<!doctype html><html><body><pre>${INVOICE}</pre><!-- `;
        const tail = ' --></body></html>';
        return new TextEncoder().encode(head + 'x'.repeat(size - head.length - tail.length) + tail);
      };
      const asJson = (bytes: Uint8Array<ArrayBuffer>) => s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { content: Buffer.from(bytes).toString('base64'), mediaType: 'text/html', filename: 'invoice.html' } } });
      const asForm = (bytes: Uint8Array<ArrayBuffer>) => post('invoice', formOf(new Blob([bytes], { type: 'text/html' }), 'invoice.html'));

      it.each([['multipart', asForm], ['JSON', asJson]] as const)('exactly 10,485,760 bytes as %s: 200', async (_way, send) => {
        const bytes = htmlOf(LIMIT);
        expect(bytes.byteLength).toBe(LIMIT);
        const res = await send(bytes);
        expect(res.status).toBe(200);
        expect((await res.json()).data.invoiceNumber).toBe('INV-7731');
      });

      it.each([['multipart', asForm], ['JSON', asJson]] as const)('10,485,761 bytes as %s: 413 with the limit, nothing charged', async (_way, send) => {
        const bytes = htmlOf(LIMIT + 1);
        const body = await refused(send(bytes), 413, 'payload_too_large');
        expect(body.error.details).toEqual({ limit: LIMIT });
      });
    });

    it('a body announced far over the limit is refused before it is read: 413 with the limit', async () => {
      const before = await ledger();
      const url = new URL(`${s.baseUrl}/v1/extract/invoice`);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: {
          'x-api-key': key, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(50 * 1024 * 1024),
        } }, (res) => {
          let text = '';
          res.on('data', (c) => { text += c; });
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        });
        req.on('error', reject);
        req.flushHeaders();
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).error).toMatchObject({ code: 'payload_too_large', details: { limit: 10 * 1024 * 1024 } });
      expect(await ledger()).toEqual(before);
    });

    it('no file part, or the file sent as a text field: 400 invalid_request', async () => {
      const form = new FormData();
      form.append('mediaType', 'application/pdf');
      await refused(post('invoice', form), 400, 'invalid_request', '/body/file');
      await refused(postRaw('invoice', [{ name: 'file', value: 'INVOICE' }]), 400, 'invalid_request', '/body/file');
    });

    it('two files, or a file under another name: 400 invalid_request', async () => {
      const form = formOf(new Blob([INVOICE]), 'a.txt');
      form.append('file', new Blob([INVOICE]), 'b.txt');
      await refused(post('invoice', form), 400, 'invalid_request', '/body/file');
      await refused(postRaw('invoice', [{ name: 'document', value: INVOICE, filename: 'a.txt' }]), 400, 'invalid_request', '/body/document');
    });

    it('a media type that is not read (by field, part or extension): 400 invalid_request', async () => {
      await refused(post('invoice', formOf(new Blob(['GIF89a'], { type: 'image/gif' }), 'a.gif')), 400, 'invalid_request', '/body/file');
      await refused(post('invoice', formOf(new Blob(['x']), 'notes')), 400, 'invalid_request', '/body/file');
      await refused(post('invoice', formOf(new Blob([INVOICE]), 'a.txt', { mediaType: 'image/gif' })), 400, 'invalid_request', '/body/mediaType');
    });

    it('a field the route does not take, or sent twice; a schema that is not JSON: 400 invalid_request', async () => {
      await refused(post('invoice', formOf(new Blob([INVOICE]), 'a.txt', { vendorRenewalId: '0193a6f2-7c1d-7e21-8c3b-2a4f5e6d7c8b' })), 400, 'invalid_request', '/body/vendorRenewalId');
      await refused(post('invoice', formOf(new Blob([INVOICE]), 'a.txt', { mediatype: 'text/plain' })), 400, 'invalid_request', '/body/mediatype');
      const twice = formOf(new Blob([INVOICE]), 'a.txt', { model: 'local-rules-1' });
      twice.append('model', 'local-rules-1');
      await refused(post('invoice', twice), 400, 'invalid_request', '/body/model');
      await refused(post('custom', formOf(new Blob([INVOICE]), 'a.txt', { schema: '{"type":' })), 400, 'invalid_request', '/body/schema');
    });

    it('fields the contract refuses (a vendorRenewalId that is not a UUID, no schema on custom): 400 invalid_request', async () => {
      await refused(post('renewal', formOf(new Blob([ORDER]), 'a.txt', { vendorRenewalId: 'nope' })), 400, 'invalid_request');
      await refused(post('custom', formOf(new Blob([INVOICE]), 'a.txt')), 400, 'invalid_request');
    });

    it('a vendorRenewalId that is not the caller\'s: 404 not_found', async () => {
      await refused(post('renewal', formOf(new Blob([ORDER]), 'a.txt', { vendorRenewalId: '0193a6f2-0000-7000-8000-000000000000' })), 404, 'not_found');
    });

    it('bytes that are not of the media type, and an empty file: the codes of document.content', async () => {
      await refused(post('invoice', formOf(new Blob(['not a pdf']), 'a.pdf')), 400, 'document_type_mismatch');
      await refused(post('invoice', formOf(new Blob([]), 'a.pdf')), 422, 'document_unreadable');
    });

    it('a body that is not well-formed multipart: 400 invalid_request', async () => {
      await refused(s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'multipart/form-data' }, body: 'x' }), 400, 'invalid_request');
      await refused(s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'multipart/form-data; boundary=b' }, body: '--b\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nINVOICE' }), 400, 'invalid_request');
    });

    it('a route without a form (batch, keys): 415 unsupported_media_type', async () => {
      await refused(post('batch', formOf(new Blob([INVOICE]), 'a.txt')), 415, 'unsupported_media_type');
    });

    it('a form without an API key: 401, before the body is read', async () => {
      const res = await s.fetch('/v1/extract/invoice', { method: 'POST', body: formOf(new Blob([INVOICE]), 'a.txt') });
      expect(res.status).toBe(401);
    });
  });

  it('logs neither the file nor its fields', async () => {
    const marker = 'UNIQUE-MARKER-7f3a9';
    const res = await post('invoice', formOf(new Blob([`${INVOICE}\n${marker}`]), `${marker}.txt`));
    expect(res.status).toBe(200);
    expect(s.logs.join('\n')).not.toContain(marker);
  });
});
