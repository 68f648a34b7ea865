// The readers of Office files, CSV and e-mail, as pure functions of bytes: what they read, where pages begin, an
// e-mail's attachments as parts, and hostile files (zip bombs, deep MIME, thousands of attachments) refused by the
// readers' own checks, before any library inflates or walks them. Fixtures are generated here and kept small.
import { deflateRawSync } from 'node:zlib';
import { strToU8, zipSync } from 'fflate';
import { probeFile, readFile } from '../../src/documents/read-file.js';
import { DocumentProblemError, type DocumentProblem } from '../../src/documents/problems.js';
import { MAIL_LIMITS, ZIP_LIMITS } from '../../src/documents/limits.js';
import { docxFile, emlFile, MEDIA, msgFile, xlsxFile } from '../support/office-files.js';
import { textPdf } from '../support/render-documents.js';

const problemOf = async (work: Promise<unknown>): Promise<DocumentProblem> => {
  try {
    await work;
  } catch (e) {
    if (e instanceof DocumentProblemError) return e.problem;
    throw e;
  }
  throw new Error('expected a refusal');
};

const CONTRACT = 'SERVICE AGREEMENT\nThis Agreement is made between Thames Analytics Ltd and Orbital Labs Inc.';

/** A minimal DOCX whose parts are given: the bombs below hide in an otherwise ordinary Word file. */
function docxWith(extra: Record<string, Uint8Array>): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>'),
    'word/document.xml': strToU8('<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Hello</w:t></w:r></w:p></w:body></w:document>'),
    ...extra,
  });
}

/**
 * A ZIP holding one stored-as-deflate entry of `inflated` zero bytes whose headers declare `declared` bytes: the
 * classic zip bomb when `declared` is honest and large, a lying one when `declared` is small.
 */
function zipBomb(inflated: number, declared: number, name = 'word/media/image1.png'): Uint8Array {
  const data = deflateRawSync(Buffer.alloc(inflated), { level: 9 });
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(8, 8);
  local.writeUInt32LE(0, 14); local.writeUInt32LE(data.length, 18); local.writeUInt32LE(declared, 22); local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt16LE(8, 10);
  central.writeUInt32LE(0, 16); central.writeUInt32LE(data.length, 20); central.writeUInt32LE(declared, 24); central.writeUInt16LE(nameBytes.length, 28);
  const cdOffset = local.length + nameBytes.length + data.length;
  const cd = Buffer.concat([central, nameBytes]);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(1, 8); end.writeUInt16LE(1, 10); end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(cdOffset, 16);
  return new Uint8Array(Buffer.concat([local, nameBytes, data, cd, end]));
}

describe('DOCX', () => {
  it('reads paragraphs and tables as aligned rows, and starts a page at each page break', async () => {
    const bytes = await docxFile(['INVOICE', 'Invoice No: INV-1', { table: [['Description', 'Qty', 'Amount'], ['Archive boxes', '10', '45.00']] }, { pageBreak: true }, CONTRACT]);
    const read = await readFile(bytes, MEDIA.docx);
    expect(read.text).toBe('INVOICE\nInvoice No: INV-1\n\nDescription     Qty   Amount\nArchive boxes   10    45.00\n\nSERVICE AGREEMENT\nThis Agreement is made between Thames Analytics Ltd and Orbital Labs Inc.');
    expect(read.pages).toBe(2);
    expect(read.text.slice(read.pageStarts[1]!)).toMatch(/^SERVICE AGREEMENT/);
    expect(read.pageReads).toEqual([{ method: 'text' }, { method: 'text' }]);
    expect(await probeFile(bytes, MEDIA.docx)).toMatchObject({ pages: 2, textChars: read.text.length });
  });

  it('a workbook sent as a DOCX is a type mismatch; a damaged one is unreadable', async () => {
    expect((await problemOf(readFile(xlsxFile([{ name: 'A', rows: [['x']] }]), MEDIA.docx))).code).toBe('document_type_mismatch');
    const docx = await docxFile([CONTRACT]);
    expect((await problemOf(probeFile(docx.subarray(0, Math.floor(docx.length / 2)), MEDIA.docx))).code).toBe('document_unreadable');
  });

  it('refuses a zip bomb by its declared size before inflating it (413)', async () => {
    // The entry declares more than the budget: the guard stops at the central directory, nothing is inflated.
    const honest = zipBomb(1024, ZIP_LIMITS.inflatedBytes + 1);
    expect(honest.byteLength).toBeLessThan(10_000);
    expect(await problemOf(probeFile(honest, MEDIA.docx))).toEqual({ code: 'payload_too_large', message: expect.stringContaining('inflates to more than'), limit: ZIP_LIMITS.inflatedBytes });
  });

  it('refuses a zip bomb that lies about its size once it inflates past what it declared (422)', async () => {
    // 80 MB of zeros in about 80 KB, declared as 1 KB.
    const lying = zipBomb(80 * 1024 * 1024, 1024);
    expect(lying.byteLength).toBeLessThan(200_000);
    const p = await problemOf(probeFile(lying, MEDIA.docx));
    expect(p.code).toBe('document_unreadable');
  });

  it('refuses an archive of more parts than are read (413)', async () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i <= ZIP_LIMITS.entries; i++) many[`word/media/x${i}.txt`] = new Uint8Array(0);
    expect(await problemOf(probeFile(docxWith(many), MEDIA.docx))).toMatchObject({ code: 'payload_too_large', limit: ZIP_LIMITS.entries });
  });
});

describe('XLSX and CSV', () => {
  it('reads each sheet as a page headed by its name, cells as a table, dates as dates; empty sheets left out', async () => {
    const bytes = xlsxFile([
      { name: 'Prices', rows: [['Item', 'Unit price', 'Valid from'], ['Widget', 12.5, new Date('2026-01-15T00:00:00Z')], ['Gadget', 1200, null]] },
      { name: 'Empty', rows: [] },
      { name: 'Notes', rows: [['Prices exclude VAT.']] },
    ]);
    const read = await readFile(bytes, MEDIA.xlsx);
    expect(read.text).toBe('Sheet: Prices\n\nItem    Unit price  Valid from\nWidget  12.5        2026-01-15\nGadget  1200\n\nSheet: Notes\n\nPrices exclude VAT.');
    expect(read.pageStarts).toEqual([0, read.text.indexOf('Sheet: Notes')]);
  });

  it('a zip bomb inside an XLSX is refused as in a DOCX', async () => {
    expect((await problemOf(probeFile(zipBomb(1024, ZIP_LIMITS.inflatedBytes + 1, 'xl/worksheets/sheet1.xml'), MEDIA.xlsx))).code).toBe('payload_too_large');
    expect((await problemOf(probeFile(zipBomb(80 * 1024 * 1024, 1024, 'xl/worksheets/sheet1.xml'), MEDIA.xlsx))).code).toBe('document_unreadable');
    const workbook = xlsxFile([{ name: 'A', rows: [['x']] }]);
    expect((await problemOf(readFile(workbook.subarray(0, workbook.length - 30), MEDIA.xlsx))).code).toBe('document_unreadable');
  });

  it('reads CSV with its separator found (semicolons, quoted fields, Windows-1252) as a table', async () => {
    const csv = 'Description;Qty;Amount\n"Archive boxes; large";10;45,00\nDesk lamp;2;60,00\n';
    expect((await readFile(Buffer.from(csv), MEDIA.csv)).text).toBe('Description           Qty  Amount\nArchive boxes; large  10   45,00\nDesk lamp             2    60,00');
    const latin1 = Buffer.from('Caf\xe9,Total\nCr\xe8me,4.50\n', 'latin1');
    expect((await readFile(latin1, MEDIA.csv)).text).toBe('Café   Total\nCrème  4.50');
  });

  it('a CSV whose quote is never closed is unreadable; binary bytes are not CSV', async () => {
    expect((await problemOf(readFile(Buffer.from('a,b\n"never closed,1\n'), MEDIA.csv))).code).toBe('document_unreadable');
    expect((await problemOf(probeFile(await textPdf('x'), MEDIA.csv))).code).toBe('document_type_mismatch');
  });
});

describe('e-mail', () => {
  const INVOICE = 'INVOICE\nInvoice No: INV-9\nTotal: $10.00';

  it('reads the headers, the body and each attachment as a part of its own', async () => {
    const pdf = await textPdf(INVOICE);
    const docx = await docxFile([CONTRACT]);
    const eml = await emlFile({
      from: 'Ana Silva <ana@supplier.test>', to: 'Bo <bo@customer.test>', subject: 'Invoice and contract', text: 'Please find both attached.',
      attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', content: pdf }, { filename: 'contract.docx', contentType: 'application/octet-stream', content: docx }, { filename: 'calendar.ics', contentType: 'text/calendar', content: 'BEGIN:VCALENDAR' }],
    });
    const read = await readFile(eml, MEDIA.eml);
    expect(read.text.startsWith('From: Ana Silva <ana@supplier.test>\nTo: Bo <bo@customer.test>\nDate: Mon, 02 Mar 2026 09:15:00 +0000\nSubject: Invoice and contract\n\nPlease find both attached.')).toBe(true);
    expect(read.parts!.map((p) => [p.attachment, p.mediaType, p.pages, p.method])).toEqual([
      [undefined, 'message/rfc822', 1, 'text'],
      ['invoice.pdf', 'application/pdf', 1, 'pdf_text'],
      ['contract.docx', MEDIA.docx, 1, 'text'],
    ]);
    expect(read.text.slice(read.parts![1]!.start, read.parts![1]!.end)).toBe(INVOICE);
    expect(read.text.slice(read.parts![2]!.start, read.parts![2]!.end)).toBe(CONTRACT);
    expect(read.skipped).toEqual([{ attachment: 'calendar.ics', mediaType: 'text/calendar', code: 'unsupported_media_type', message: expect.any(String) }]);
    expect(read.method).toBe('pdf_text');
    expect(read.textLayerPages).toBe(1);
    expect(await probeFile(eml, MEDIA.eml)).toMatchObject({ pages: 3 });
  });

  it('reads an Outlook MSG: sender, recipients, subject, body and attachments', async () => {
    const msg = msgFile({ from: { name: 'Ana Silva', email: 'ana@supplier.test' }, to: [{ name: 'Bo', email: 'bo@customer.test' }], subject: 'Invoice INV-9', body: 'Attached.', attachments: [{ filename: 'invoice.pdf', contentType: 'application/pdf', content: await textPdf(INVOICE) }] });
    const read = await readFile(msg, MEDIA.msg);
    expect(read.text).toBe(`From: Ana Silva <ana@supplier.test>\nTo: Bo <bo@customer.test>\nSubject: Invoice INV-9\n\nAttached.\n\nAttachment: invoice.pdf\n\n${INVOICE}`);
    expect(read.parts!.map((p) => p.attachment)).toEqual([undefined, 'invoice.pdf']);
  });

  it('a damaged attachment is skipped with its reason; the e-mail is still read', async () => {
    const eml = await emlFile({ from: 'a@x.test', to: 'b@y.test', subject: 'Scan', text: 'See attached.', attachments: [{ filename: 'broken.pdf', contentType: 'application/pdf', content: '%PDF-1.7\nnot really' }] });
    const read = await readFile(eml, MEDIA.eml);
    expect(read.parts).toHaveLength(1);
    expect(read.skipped).toEqual([{ attachment: 'broken.pdf', mediaType: 'application/pdf', code: 'document_unreadable', message: expect.any(String) }]);
  });

  it('an e-mail with no legible text and a damaged MSG are unreadable', async () => {
    expect((await problemOf(readFile(Buffer.from('X-Mailer: nothing\r\n\r\n'), MEDIA.eml))).code).toBe('document_unreadable');
    const junk = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600, 7)]);
    expect((await problemOf(readFile(junk, MEDIA.msg))).code).toBe('document_unreadable');
  });

  it('refuses MIME nested deeper than the limit, before reading any part (413)', async () => {
    let body = 'Content-Type: text/plain\r\n\r\nbottom\r\n';
    for (let depth = 40; depth > 0; depth--) body = `Content-Type: multipart/mixed; boundary="b${depth}"\r\n\r\n--b${depth}\r\n${body}--b${depth}--\r\n`;
    const eml = Buffer.from(`From: a@x.test\r\nSubject: deep\r\nMIME-Version: 1.0\r\n${body}`);
    expect(await problemOf(readFile(eml, MEDIA.eml))).toMatchObject({ code: 'payload_too_large', limit: MAIL_LIMITS.mimeDepth });
  });

  it('refuses thousands of attachments on the raw bytes, before parsing (413)', async () => {
    const parts = Array.from({ length: 3000 }, (_, i) => `--b\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="f${i}.txt"\r\n\r\nx\r\n`).join('');
    const eml = Buffer.from(`From: a@x.test\r\nSubject: many\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n${parts}--b--\r\n`);
    expect(await problemOf(probeFile(eml, MEDIA.eml))).toMatchObject({ code: 'payload_too_large', limit: MAIL_LIMITS.mimeParts });
  });

  it('refuses more attachments than are read (413), in EML and in MSG', async () => {
    const attachments = Array.from({ length: MAIL_LIMITS.attachments + 1 }, (_, i) => ({ filename: `n${i}.txt`, contentType: 'text/plain', content: `note ${i}` }));
    const eml = await emlFile({ from: 'a@x.test', to: 'b@y.test', subject: 'many', text: 'x', attachments });
    expect(await problemOf(readFile(eml, MEDIA.eml))).toMatchObject({ code: 'payload_too_large', limit: MAIL_LIMITS.attachments });
    const msg = msgFile({ from: { name: 'A', email: 'a@x.test' }, to: [{ name: 'B', email: 'b@y.test' }], subject: 'many', body: 'x', attachments: attachments.map((a) => ({ ...a, content: Buffer.from(a.content) })) });
    expect(await problemOf(readFile(msg, MEDIA.msg))).toMatchObject({ code: 'payload_too_large', limit: MAIL_LIMITS.attachments });
  });

  it('follows e-mails attached to e-mails, and refuses them nested deeper than the limit (413)', async () => {
    let inner = await emlFile({ from: 'a@x.test', to: 'b@y.test', subject: 'level 0', text: 'the innermost message' });
    const once = await emlFile({ from: 'a@x.test', to: 'b@y.test', subject: 'Fwd', text: 'forwarding', attachments: [{ filename: 'original.eml', contentType: 'message/rfc822', content: inner }] });
    const read = await readFile(once, MEDIA.eml);
    expect(read.parts!.map((p) => p.attachment)).toEqual([undefined, 'original.eml']);
    expect(read.text).toContain('the innermost message');
    for (let level = 1; level <= MAIL_LIMITS.nestedMessages + 1; level++) {
      inner = await emlFile({ from: 'a@x.test', to: 'b@y.test', subject: `level ${level}`, text: 'x', attachments: [{ filename: `l${level}.eml`, contentType: 'message/rfc822', content: inner }] });
    }
    expect(await problemOf(readFile(inner, MEDIA.eml))).toMatchObject({ code: 'payload_too_large', limit: MAIL_LIMITS.nestedMessages });
  });
});
