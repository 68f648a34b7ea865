// An e-mail on a fixed route reads the part that is the document: a cover note with the invoice attached is extracted
// from the attachment (not "Kind regards," from the note), and `source.part` names the part read, as
// /v1/extract/auto names its parts. Several attachments: the one of the route's kind; the document written in the
// mail itself: the message; nothing of the route's kind and several attachments, or the custom route: the whole
// e-mail, as before (no `source.part`). Each e-mail is a real multipart/mixed message composed by nodemailer.
import { docxFile, emlFile, MEDIA } from './support/office-files.js';
import { textPdf } from './support/render-documents.js';
import { startTestServer, type TestServer } from './support/harness.js';

const INVOICE = [
  'NORTHWIND OFFICE SUPPLY LTD',
  '12 Quay Street, Bristol BS1 4DJ',
  '',
  'INVOICE',
  'Invoice No: INV-7731',
  'Invoice Date: 2026-03-02',
  'Bill To: Orbit Ltd',
  'Due Date: 2026-04-01',
  '',
  'Description                 Qty    Unit Price      Amount',
  'Archive boxes                10          4.50       45.00',
  'Desk lamp                     2         30.00       60.00',
  '',
  'Total due (GBP):                                   105.00',
].join('\n');
const CONTRACT = [
  'CONSULTING SERVICES AGREEMENT',
  'This Consulting Services Agreement is made on 3 February 2026 between Brightwater Energy plc ("Client") and Halden Advisory Ltd ("Consultant").',
  '1. Services. The Consultant shall advise the Client on grid connection applications.',
  '2. Term. This Agreement ends on 31 December 2026.',
  '3. Governing law. This Agreement is governed by the laws of England and Wales.',
].join('\n');
const COVER_NOTE = 'Hello,\n\nPlease find attached our invoice for March. Let us know if you have any questions.\n\nKind regards,\nNorthwind Billing\nNorthwind Office Supply Ltd';

type Evidence = { quote: string; start: number; end: number; page?: number };
type Answer = { data: Record<string, unknown> & { vendor: { name: string | null; address: string | null } }; evidence: Record<string, Evidence>; source: { mediaType: string; pages: number; method: string; text?: string; part?: unknown }; usage: { readingHeu?: number } };
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('an e-mail on a fixed route reads the part that is the document', () => {
  let s: TestServer;
  let key: string;
  let coverNote: Uint8Array;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_mailpart', plan: 'starter' } });
    key = (await s.createKey('acct_mailpart')).key;
    coverNote = await emlFile({ from: 'Northwind Billing <billing@northwind.test>', to: 'ap@orbit.test', subject: 'Invoice INV-7731', text: COVER_NOTE, attachments: [{ filename: 'INV-7731.pdf', contentType: 'application/pdf', content: await textPdf(INVOICE) }] });
  }, 90_000);
  afterAll(async () => { await s.close(); });

  const extract = async (route: string, eml: Uint8Array, extra: Record<string, unknown> = {}): Promise<Answer> => {
    const res = await s.fetch(`/v1/extract/${route}`, { method: 'POST', headers: { 'x-api-key': key }, json: { document: { content: b64(eml), mediaType: MEDIA.eml }, returnText: true, minConfidence: 0, ...extra } });
    const body = await res.json();
    expect([res.status, body.error]).toEqual([200, undefined]);
    return body as Answer;
  };

  it('a cover note with the invoice attached: the invoice is read from the attachment, and source.part names it', async () => {
    expect(Buffer.from(coverNote).toString('latin1')).toMatch(/Content-Type: multipart\/mixed/i);
    const body = await extract('invoice', coverNote);
    expect(body.data).toMatchObject({ invoiceNumber: 'INV-7731', issueDate: '2026-03-02', total: 105, currency: 'GBP' });
    expect(body.data.vendor.name).toBe('NORTHWIND OFFICE SUPPLY LTD');
    expect(body.data.vendor.address).not.toMatch(/Northwind Billing|Kind regards/);
    // The whole file was read and is charged; the document is the attachment's first page.
    expect(body.source).toMatchObject({ mediaType: MEDIA.eml, pages: 2, method: 'pdf_text', part: { attachment: 'INV-7731.pdf', pages: { from: 1, to: 1 } } });
    expect(body.usage.readingHeu).toBe(1);
    // Evidence points into the attachment's text, which is what `source.text` returns.
    const text = body.source.text!;
    expect(text).toContain('Invoice No: INV-7731');
    expect(text).not.toContain('Kind regards');
    for (const [pointer, e] of Object.entries(body.evidence)) {
      expect([pointer, text.slice(e.start, e.end)]).toEqual([pointer, e.quote]);
      expect([pointer, e.page]).toEqual([pointer, 1]);
    }
  });

  it('the same e-mail as a multipart form answers the same', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(coverNote)]), 'invoice.eml');
    const res = await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, body: form });
    const body = (await res.json()) as Answer;
    expect(res.status).toBe(200);
    expect(body.data.vendor.name).toBe('NORTHWIND OFFICE SUPPLY LTD');
    expect(body.source.part).toEqual({ attachment: 'INV-7731.pdf', pages: { from: 1, to: 1 } });
  });

  it('several attachments: each fixed route reads the one of its kind', async () => {
    const eml = await emlFile({ from: 'office@orbit.test', to: 'ap@orbit.test', subject: 'Documents for March', text: 'Hi,\n\nThe contract and the first invoice are attached.\n\nThanks,\nDana', attachments: [
      { filename: 'agreement.docx', contentType: MEDIA.docx, content: await docxFile(CONTRACT.split('\n')) },
      { filename: 'INV-7731.pdf', contentType: 'application/pdf', content: await textPdf(INVOICE) },
    ] });
    const invoice = await extract('invoice', eml);
    expect(invoice.source.part).toEqual({ attachment: 'INV-7731.pdf', pages: { from: 1, to: 1 } });
    expect(invoice.data).toMatchObject({ invoiceNumber: 'INV-7731', total: 105 });
    const contract = await extract('contract', eml);
    expect(contract.source.part).toEqual({ attachment: 'agreement.docx', pages: { from: 1, to: 1 } });
    expect(contract.data).toMatchObject({ governingLaw: 'England and Wales', effectiveDate: '2026-02-03' });
    expect(contract.source.text).not.toContain('INV-7731');
  });

  it('the invoice written in the mail itself, with an attachment of another kind: the message is read', async () => {
    const eml = await emlFile({ from: 'billing@northwind.test', to: 'ap@orbit.test', subject: 'Invoice INV-7731', text: INVOICE, attachments: [{ filename: 'agreement.docx', contentType: MEDIA.docx, content: await docxFile(CONTRACT.split('\n')) }] });
    const body = await extract('invoice', eml);
    expect(body.source.part).toEqual({});
    expect(body.data).toMatchObject({ invoiceNumber: 'INV-7731', total: 105 });
    expect(body.source.text).not.toContain('CONSULTING SERVICES AGREEMENT');
  });

  it('the custom route reads the e-mail whole, as before (no source.part)', async () => {
    const body = await extract('custom', coverNote, { schema: { type: 'object', properties: { invoiceNumber: { type: 'string' } } } });
    expect(body.source.part).toBeUndefined();
    expect(body.source.text).toContain('Kind regards');
    expect(body.source.text).toContain('Invoice No: INV-7731');
  });
});
