// Office files, CSV and e-mail on every route, as JSON (`content` + `mediaType`) and as multipart/form-data; damaged
// files of each kind refused (422) with nothing charged; /v1/classify; and /v1/extract/auto: an e-mail with a PDF
// invoice and a DOCX contract attached answers both parts with the right route and fields, each `result` equal to the
// route's own answer for that document sent alone, and a packet PDF split where its documents start.
import { docxFile, emlFile, MEDIA, msgFile, xlsxFile } from './support/office-files.js';
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
const NOTES = 'Platform Sync - Weekly\nDate: 2026-03-09\nAttendees: Priya Nair, Tom Becker\n\nDecisions:\n- Move the release to Thursday.\n\nAction items:\n- Tom Becker to update the runbook by 2026-03-12';

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

describe('Office files, CSV and e-mail', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_office', plan: 'starter' } });
    key = (await s.createKey('acct_office')).key;
  });
  afterAll(async () => { await s.close(); });

  const post = (path: string, body: unknown) => s.fetch(path, { method: 'POST', headers: { 'x-api-key': key }, json: body });
  const postForm = (path: string, bytes: Uint8Array, filename: string, fields: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), filename);
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return s.fetch(path, { method: 'POST', headers: { 'x-api-key': key }, body: form });
  };
  const heuUsed = async () => (await (await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).json()).heuUsed as number;

  describe('each new kind on the routes, JSON and multipart', () => {
    const cases: Array<[string, () => Promise<Uint8Array>, string, string, (data: Record<string, unknown>) => void]> = [
      ['DOCX', () => docxFile(CONTRACT.split('\n')), MEDIA.docx, 'contract.docx', (d) => expect(d).toMatchObject({ title: 'CONSULTING SERVICES AGREEMENT', governingLaw: 'England and Wales', effectiveDate: '2026-02-03' })],
      ['XLSX', async () => xlsxFile([{ name: 'Invoice', rows: INVOICE.split('\n').map((l) => [l]) }]), MEDIA.xlsx, 'invoice.xlsx', (d) => expect(d).toMatchObject({ invoiceNumber: 'INV-7731', total: 105 })],
      ['CSV', async () => Buffer.from('Northwind Office Supply Ltd,,,\nInvoice No,INV-7731,,\nInvoice Date,2026-03-02,,\n,,,\nDescription,Qty,Unit Price,Amount\nArchive boxes,10,4.50,45.00\nDesk lamp,2,30.00,60.00\nTotal due (GBP),,,105.00\n'), MEDIA.csv, 'invoice.csv', (d) => expect(d).toMatchObject({ invoiceNumber: 'INV-7731', total: 105, currency: 'GBP', lineItems: [{ description: 'Archive boxes', quantity: 10, unitPrice: 4.5, amount: 45 }, { description: 'Desk lamp', quantity: 2, unitPrice: 30, amount: 60 }] })],
      ['EML', () => emlFile({ from: 'billing@northwind.test', to: 'ap@orbit.test', subject: 'Invoice INV-7731', text: INVOICE }), MEDIA.eml, 'invoice.eml', (d) => expect(d).toMatchObject({ invoiceNumber: 'INV-7731', total: 105 })],
      ['MSG', async () => msgFile({ from: { name: 'Northwind billing', email: 'billing@northwind.test' }, to: [{ name: 'Orbit AP', email: 'ap@orbit.test' }], subject: 'Invoice INV-7731', body: 'Please find our invoice attached.', attachments: [{ filename: 'INV-7731.pdf', contentType: 'application/pdf', content: await textPdf(INVOICE) }] }), MEDIA.msg, 'invoice.msg', (d) => expect(d).toMatchObject({ invoiceNumber: 'INV-7731', total: 105 })],
    ];
    const routeOf = (name: string) => (name === 'DOCX' ? 'contract' : 'invoice');

    it.each(cases)('%s as JSON content', async (name, make, mediaType, filename, check) => {
      const res = await post(`/v1/extract/${routeOf(name)}`, { document: { content: b64(await make()), mediaType, filename } });
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(body.source.mediaType).toBe(mediaType);
      check(body.data);
    });

    it.each(cases)('%s as multipart/form-data, its media type from the extension', async (name, make, mediaType, filename, check) => {
      const res = await postForm(`/v1/extract/${routeOf(name)}`, await make(), filename);
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(body.source.mediaType).toBe(mediaType);
      check(body.data);
    });

    it('an e-mail read on a single route reads its attachments too, charges their reading, and extracts the attached invoice', async () => {
      const eml = await emlFile({ from: 'billing@northwind.test', to: 'ap@orbit.test', subject: 'Your invoice', text: 'Please find the invoice attached.', attachments: [{ filename: 'INV-7731.pdf', contentType: 'application/pdf', content: await textPdf(INVOICE) }] });
      const body = await (await post('/v1/extract/invoice', { document: { content: b64(eml), mediaType: MEDIA.eml } })).json();
      expect(body.source).toEqual({ mediaType: MEDIA.eml, pages: 2, method: 'pdf_text', part: { attachment: 'INV-7731.pdf', pages: { from: 1, to: 1 } } });
      expect(body.usage.readingHeu).toBe(1);
      expect(body.data).toMatchObject({ invoiceNumber: 'INV-7731', total: 105 });
    });
  });

  describe('damaged files of each kind: 422 document_unreadable, nothing charged', () => {
    const damaged: Array<[string, () => Promise<Uint8Array>, string, string]> = [
      ['DOCX', async () => (await docxFile([CONTRACT])).subarray(0, 2000), MEDIA.docx, 'broken.docx'],
      ['XLSX', async () => { const x = xlsxFile([{ name: 'A', rows: [['x']] }]); return x.subarray(0, x.length - 30); }, MEDIA.xlsx, 'broken.xlsx'],
      ['CSV', async () => Buffer.from('a,b\n"never closed,1\n'), MEDIA.csv, 'broken.csv'],
      ['EML', async () => Buffer.from('X-Mailer: nothing else\r\n\r\n'), MEDIA.eml, 'empty.eml'],
      ['MSG', async () => Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600, 7)]), MEDIA.msg, 'broken.msg'],
    ];

    it.each(damaged)('%s, as JSON and as a form', async (_name, make, mediaType, filename) => {
      const before = await heuUsed();
      const bytes = await make();
      const json = await post('/v1/extract/invoice', { document: { content: b64(bytes), mediaType } });
      expect({ status: json.status, code: (await json.json()).error.code }).toEqual({ status: 422, code: 'document_unreadable' });
      const form = await postForm('/v1/extract/invoice', bytes, filename);
      expect({ status: form.status, code: (await form.json()).error.code }).toEqual({ status: 422, code: 'document_unreadable' });
      expect(await heuUsed()).toBe(before);
    });

    it('a zip bomb in a DOCX is refused 413 with the limit, nothing charged', async () => {
      const { deflateRawSync } = await import('node:zlib');
      // One entry declaring 100 MB: refused at the archive's directory, never inflated.
      const { zipSync, strToU8 } = await import('fflate');
      const zip = Buffer.from(zipSync({ 'word/document.xml': strToU8('<w:document/>'), 'word/media/a.bin': new Uint8Array(deflateRawSync(Buffer.alloc(0))) }));
      const declared = 100 * 1024 * 1024;
      // Patch the second entry's declared size in its local header and in the central directory.
      let at = zip.indexOf('word/media/a.bin');
      zip.writeUInt32LE(declared, at - 30 + 22);
      at = zip.indexOf('word/media/a.bin', at + 1);
      zip.writeUInt32LE(declared, at - 46 + 24);
      const before = await heuUsed();
      const res = await post('/v1/extract/contract', { document: { content: b64(zip), mediaType: MEDIA.docx } });
      const body = await res.json();
      expect({ status: res.status, code: body.error.code, limit: body.error.details.limit }).toEqual({ status: 413, code: 'payload_too_large', limit: 64 * 1024 * 1024 });
      expect(await heuUsed()).toBe(before);
    });

    it('a file of a type not read is 400, naming the types that are', async () => {
      const res = await post('/v1/extract/invoice', { document: { content: b64('x'), mediaType: 'application/zip' } });
      const body = await res.json();
      expect(res.status).toBe(400);
      expect(body.error.message).toContain('text/csv');
      expect(body.error.message).toContain('message/rfc822');
      expect(body.error.message).toContain('application/vnd.ms-outlook');
    });
  });

  describe('POST /v1/classify', () => {
    it('classifies text: kind, confidence, alternatives, 1 HEU', async () => {
      const before = await heuUsed();
      const res = await post('/v1/classify', { document: { text: INVOICE } });
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(body).toMatchObject({ kind: 'invoice', model: 'local-rules-1', source: { mediaType: 'text/plain', pages: 1, method: 'text' } });
      expect(body.confidence).toBeGreaterThanOrEqual(0.5);
      expect(body.alternatives).toHaveLength(3);
      expect(body.usage).toMatchObject({ heu: 1, classificationHeu: 1 });
      expect(await heuUsed()).toBe(before + 1);
    });

    it('classifies a file sent as a form, and charges its reading', async () => {
      const res = await postForm('/v1/classify', await textPdf(NOTES), 'notes.pdf');
      const body = await res.json();
      expect(body).toMatchObject({ kind: 'meeting-notes', source: { mediaType: 'application/pdf', pages: 1, method: 'pdf_text' }, usage: { heu: 2, readingHeu: 1, classificationHeu: 1 } });
    });

    it('answers other for a kind not asked for, and for a document of no route', async () => {
      const restricted = await (await post('/v1/classify', { document: { text: INVOICE }, kinds: ['receipt', 'contract'] })).json();
      expect(restricted.kind).toBe('other');
      expect(restricted.alternatives[0].kind).toBe('invoice');
      const form = await (await postForm('/v1/classify', Buffer.from(INVOICE), 'invoice.txt', { kinds: '["receipt"]' })).json();
      expect(form.kind).toBe('other');
      const payslip = await (await post('/v1/classify', { document: { text: 'PAYSLIP\nEmployer: Wattle & Finch Pty Ltd\nEmployee: J. Thompson\nPay period: 01/06/2026 - 15/06/2026\nGross pay: $3,120.00\nNet pay: $2,480.00' } })).json();
      expect(payslip.kind).toBe('other');
    });

    it('a damaged file is 422 and charges nothing; a bearer token is refused', async () => {
      const before = await heuUsed();
      const res = await post('/v1/classify', { document: { content: b64('%PDF-1.7\ndamaged'), mediaType: 'application/pdf' } });
      expect(res.status).toBe(422);
      expect(await heuUsed()).toBe(before);
      const bearer = await s.fetch('/v1/classify', { method: 'POST', headers: { authorization: `Bearer ${await s.token('acct_office')}` }, json: { document: { text: 'x' } } });
      expect(bearer.status).toBe(401);
    });
  });

  describe('POST /v1/extract/auto', () => {
    it('an e-mail with a PDF invoice and a DOCX contract attached: both parts, each with its route, fields and the route\'s own answer', async () => {
      const pdf = await textPdf(INVOICE);
      const docx = await docxFile(CONTRACT.split('\n'));
      const eml = await emlFile({
        from: 'Ana Silva <ana@northwind.test>', to: 'ap@orbit.test', subject: 'Invoice INV-7731 and the signed agreement',
        text: 'Hello,\n\nplease find attached our invoice and the signed agreement.\n\nKind regards,\nAna',
        attachments: [{ filename: 'INV-7731.pdf', contentType: 'application/pdf', content: pdf }, { filename: 'agreement.docx', contentType: MEDIA.docx, content: docx }],
      });
      const before = await heuUsed();
      const res = await post('/v1/extract/auto', { document: { content: b64(eml), mediaType: MEDIA.eml, filename: 'mail.eml' } });
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(body.parts.map((p: { source: unknown; kind: string }) => [p.source, p.kind])).toEqual([
        [{}, 'other'],
        [{ attachment: 'INV-7731.pdf', pages: { from: 1, to: 1 } }, 'invoice'],
        [{ attachment: 'agreement.docx', pages: { from: 1, to: 1 } }, 'contract'],
      ]);
      expect(body.parts[0].result).toBeUndefined();
      const [, invoice, contract] = body.parts;
      expect(invoice.result.data).toMatchObject({ invoiceNumber: 'INV-7731', issueDate: '2026-03-02', total: 105, currency: 'GBP' });
      expect(contract.result.data).toMatchObject({ title: 'CONSULTING SERVICES AGREEMENT', governingLaw: 'England and Wales' });
      // Each result is what the route answers for the attachment sent alone.
      const alone = await (await post('/v1/extract/invoice', { document: { content: b64(pdf), mediaType: 'application/pdf', filename: 'INV-7731.pdf' } })).json();
      expect(invoice.result).toEqual(alone);
      const contractAlone = await (await postForm('/v1/extract/contract', docx, 'agreement.docx')).json();
      expect(contract.result).toEqual(contractAlone);
      // Reading once, classifying three parts, extracting two.
      expect(body.usage).toMatchObject({ readingHeu: 1, classificationHeu: 3 });
      expect(body.usage.heu).toBe(1 + 3 + (invoice.result.usage.heu - 1) + contract.result.usage.heu);
      expect(await heuUsed()).toBe(before + body.usage.heu + alone.usage.heu + contractAlone.usage.heu);
    });

    it('splits a packet PDF where its documents start, and restricts the kinds', async () => {
      const { PDFDocument } = await import('pdf-lib');
      const packet = await PDFDocument.create();
      for (const text of [INVOICE, CONTRACT, NOTES]) {
        const one = await PDFDocument.load(await textPdf(text));
        for (const page of await packet.copyPages(one, one.getPageIndices())) packet.addPage(page);
      }
      const bytes = await packet.save();
      const body = await (await postForm('/v1/extract/auto', bytes, 'packet.pdf')).json();
      expect(body.parts.map((p: { source: { pages: unknown }; kind: string; result?: { source: unknown } }) => [p.source.pages, p.kind, p.result?.source])).toEqual([
        [{ from: 1, to: 1 }, 'invoice', { mediaType: 'application/pdf', pages: 1, method: 'pdf_text' }],
        [{ from: 2, to: 2 }, 'contract', { mediaType: 'application/pdf', pages: 1, method: 'pdf_text' }],
        [{ from: 3, to: 3 }, 'meeting-notes', { mediaType: 'application/pdf', pages: 1, method: 'pdf_text' }],
      ]);
      const only = await (await postForm('/v1/extract/auto', bytes, 'packet.pdf', { kinds: '["invoice"]' })).json();
      expect(only.parts.map((p: { kind: string; result?: unknown }) => [p.kind, p.result !== undefined])).toEqual([['invoice', true], ['other', false], ['other', false]]);
    });

    it('extracts an other part with the schema given, and reports an unreadable attachment as a part with its error', async () => {
      const eml = await emlFile({
        from: 'hotel@alpenrose.test', to: 'guest@x.test', subject: 'Booking confirmed',
        text: 'Hotel Alpenrose Innsbruck\nBooking confirmation\n\nConfirmation: HX-77120\nGuest: Jonas Weber\nArrival: 17 April 2026',
        attachments: [{ filename: 'broken.pdf', contentType: 'application/pdf', content: '%PDF-1.7\nbroken' }],
      });
      const schema = { type: 'object', properties: { confirmation: { type: 'string' }, guest: { type: 'string' } } };
      const body = await (await post('/v1/extract/auto', { document: { content: b64(eml), mediaType: MEDIA.eml }, schema })).json();
      expect(body.parts).toHaveLength(2);
      expect(body.parts[0]).toMatchObject({ kind: 'other', result: { data: { confirmation: 'HX-77120', guest: 'Jonas Weber' } } });
      expect(body.parts[1]).toEqual({ source: { attachment: 'broken.pdf' }, kind: 'other', confidence: 0, alternatives: [], error: { code: 'document_unreadable', message: expect.any(String) } });
    });

    it('text in is one part; a damaged file is 422 and nothing is charged', async () => {
      const text = await (await post('/v1/extract/auto', { document: { text: NOTES } })).json();
      expect(text.parts).toHaveLength(1);
      // Its title (the first line) is withheld at the default threshold, as on the synchronous route.
      expect(text.parts[0]).toMatchObject({ source: { pages: { from: 1, to: 1 } }, kind: 'meeting-notes', result: { data: { title: null }, withheld: [expect.objectContaining({ path: '/title', value: 'Platform Sync - Weekly' })] } });
      expect(text.parts[0].result).toEqual(await (await post('/v1/extract/meeting-notes', { document: { text: NOTES } })).json());
      const before = await heuUsed();
      const res = await post('/v1/extract/auto', { document: { content: b64('PK\u0003\u0004broken'), mediaType: MEDIA.docx } });
      expect(res.status).toBe(422);
      expect(await heuUsed()).toBe(before);
    });
  });
});
