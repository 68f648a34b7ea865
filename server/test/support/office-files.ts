// Builds the files partners send besides PDFs, for tests and the packet corpus: DOCX (with the docx library, as Word
// writes them: paragraphs, tables, page breaks), XLSX (a minimal SpreadsheetML workbook zipped with fflate: shared
// strings, numbers, a date cell, several sheets), CSV, EML (nodemailer's MIME composer, attachments and all) and MSG
// (an Outlook message written as [MS-OXMSG] lays it out, in a compound file made with the cfb library).
// Deterministic: fixed dates, so the same call makes the same bytes.
import CFB from 'cfb';
import { Document, Packer, PageBreak, Paragraph, Table, TableCell, TableRow, TextRun, WidthType } from 'docx';
import { strToU8, zipSync } from 'fflate';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';

export const MEDIA = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  eml: 'message/rfc822',
  msg: 'application/vnd.ms-outlook',
} as const;

const FIXED_DATE = new Date('2026-03-02T09:15:00Z');

/** A block of a Word document: a paragraph (a line of text), a table (rows of cells), or a page break. */
export type DocxBlock = string | { table: string[][] } | { pageBreak: true };

/** A DOCX from blocks; text with `\n` becomes one paragraph per line. */
export async function docxFile(blocks: DocxBlock[]): Promise<Uint8Array> {
  const children: Array<Paragraph | Table> = [];
  for (const block of blocks) {
    if (typeof block === 'string') {
      for (const line of block.split('\n')) children.push(new Paragraph({ children: [new TextRun(line)] }));
    } else if ('table' in block) {
      children.push(new Table({
        width: { size: 100, type: WidthType.PERCENTAGE },
        rows: block.table.map((row) => new TableRow({ children: row.map((cell) => new TableCell({ children: [new Paragraph(cell)] })) })),
      }));
    } else {
      children.push(new Paragraph({ children: [new PageBreak()] }));
    }
  }
  const doc = new Document({ creator: 'docextract tests', title: 'test', description: 'test', sections: [{ children }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** An Excel cell: text, a number, or a date (stored as Excel stores dates: a serial day number with a date format). */
export type Cell = string | number | Date | null;

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const column = (i: number): string => (i < 26 ? String.fromCharCode(65 + i) : column(Math.floor(i / 26) - 1) + String.fromCharCode(65 + (i % 26)));
const excelSerial = (d: Date) => (d.getTime() - Date.UTC(1899, 11, 30)) / 86_400_000;

/** An XLSX workbook of named sheets (the parts a spreadsheet program writes, no more). */
export function xlsxFile(sheets: Array<{ name: string; rows: Cell[][] }>, extra: Record<string, Uint8Array> = {}): Uint8Array {
  const strings: string[] = [];
  const indexOf = (s: string) => {
    let i = strings.indexOf(s);
    if (i < 0) i = strings.push(s) - 1;
    return i;
  };
  const files: Record<string, Uint8Array> = {};
  sheets.forEach((sheet, n) => {
    const rows = sheet.rows.map((row, r) => `<row r="${r + 1}">${row.map((cell, c) => {
      const ref = `${column(c)}${r + 1}`;
      if (cell === null || cell === '') return '';
      if (typeof cell === 'number') return `<c r="${ref}"><v>${cell}</v></c>`;
      if (cell instanceof Date) return `<c r="${ref}" s="1"><v>${excelSerial(cell)}</v></c>`;
      return `<c r="${ref}" t="s"><v>${indexOf(cell)}</v></c>`;
    }).join('')}</row>`).join('');
    files[`xl/worksheets/sheet${n + 1}.xml`] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${rows}</sheetData></worksheet>`);
  });
  files['xl/sharedStrings.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t xml:space="preserve">${xmlEscape(s)}</t></si>`).join('')}</sst>`);
  files['xl/styles.xml'] = strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/></cellXfs></styleSheet>');
  files['xl/workbook.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${sheets.map((s, n) => `<sheet name="${xmlEscape(s.name)}" sheetId="${n + 1}" r:id="rId${n + 1}"/>`).join('')}</sheets></workbook>`);
  files['xl/_rels/workbook.xml.rels'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${sheets.map((_, n) => `<Relationship Id="rId${n + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${n + 1}.xml"/>`).join('')}<Relationship Id="rId${sheets.length + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId${sheets.length + 2}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`);
  files['_rels/.rels'] = strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>');
  files['[Content_Types].xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets.map((_, n) => `<Override PartName="/xl/worksheets/sheet${n + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('')}<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`);
  return zipSync({ ...files, ...extra }, { mtime: FIXED_DATE });
}

/** A file attached to an e-mail. */
export interface Attached {
  filename: string;
  contentType: string;
  content: Uint8Array | string;
  /** An image shown in the HTML body (Content-ID), as signatures carry logos. */
  cid?: string;
}

export interface MailFields {
  from: string;
  to: string;
  subject: string;
  text?: string;
  html?: string;
  attachments?: Attached[];
}

/** An EML file (RFC 5322 with MIME), composed by nodemailer. */
export async function emlFile(mail: MailFields): Promise<Uint8Array> {
  const composer = new MailComposer({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    date: FIXED_DATE,
    messageId: '<test-message@docextract.test>',
    ...(mail.text !== undefined ? { text: mail.text } : {}),
    ...(mail.html !== undefined ? { html: mail.html } : {}),
    attachments: (mail.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, content: typeof a.content === 'string' ? a.content : Buffer.from(a.content), ...(a.cid ? { cid: a.cid } : {}) })),
  });
  const message = await new Promise<Buffer>((resolve, reject) => composer.compile().build((err, out) => (err ? reject(err) : resolve(out))));
  return new Uint8Array(message);
}

// [MS-OXMSG] 2.1: property tags (id << 16 | type) used below.
const PT_UNICODE = 0x001f, PT_BINARY = 0x0102, PT_LONG = 0x0003;
const TAGS = {
  subject: 0x0037, body: 0x1000, senderName: 0x0c1a, senderEmail: 0x0c1f, displayTo: 0x0e04, messageClass: 0x001a,
  recipDisplayName: 0x3001, recipEmail: 0x3003, recipSmtp: 0x39fe, recipType: 0x0c15,
  attachLongFilename: 0x3707, attachFilename: 0x3704, attachData: 0x3701, attachMimeTag: 0x370e, attachMethod: 0x3705,
};

const utf16 = (s: string) => Buffer.from(`${s}\0`, 'utf16le');
const streamName = (id: number, type: number) => `__substg1.0_${id.toString(16).toUpperCase().padStart(4, '0')}${type.toString(16).toUpperCase().padStart(4, '0')}`;

/** The property stream of [MS-OXMSG] 2.4: a header (32 bytes for the message, 8 for a recipient or attachment), then 16 bytes a property. */
function propertyStream(headerBytes: number, props: Array<[number, number, number | Buffer]>, counts?: { recipients: number; attachments: number }): Buffer {
  const header = Buffer.alloc(headerBytes);
  if (counts) {
    header.writeUInt32LE(counts.recipients, 8);
    header.writeUInt32LE(counts.attachments, 12);
    header.writeUInt32LE(counts.recipients, 16);
    header.writeUInt32LE(counts.attachments, 20);
  }
  const entries = props.map(([id, type, value]) => {
    const e = Buffer.alloc(16);
    e.writeUInt32LE(((id << 16) | type) >>> 0, 0);
    e.writeUInt32LE(0x6, 4); // readable and writable
    if (typeof value === 'number') e.writeUInt32LE(value, 8);
    else e.writeUInt32LE(value.byteLength, 8);
    return e;
  });
  return Buffer.concat([header, ...entries]);
}

/** An Outlook MSG file: subject, sender, recipients, plain-text body and attachments (by value). */
export function msgFile(mail: { from: { name: string; email: string }; to: Array<{ name: string; email: string }>; subject: string; body: string; attachments?: Array<{ filename: string; contentType: string; content: Uint8Array }> }): Uint8Array {
  const cfb = CFB.utils.cfb_new();
  const add = (path: string, content: Buffer) => CFB.utils.cfb_add(cfb, path, content);
  const strings: Array<[number, string]> = [
    [TAGS.messageClass, 'IPM.Note'], [TAGS.subject, mail.subject], [TAGS.body, mail.body], [TAGS.senderName, mail.from.name],
    [TAGS.senderEmail, mail.from.email], [TAGS.displayTo, mail.to.map((r) => r.name).join('; ')],
  ];
  const props: Array<[number, number, number | Buffer]> = [];
  for (const [id, value] of strings) {
    const data = utf16(value);
    add(`/${streamName(id, PT_UNICODE)}`, data);
    props.push([id, PT_UNICODE, data]);
  }
  const attachments = mail.attachments ?? [];
  add('/__properties_version1.0', propertyStream(32, props, { recipients: mail.to.length, attachments: attachments.length }));
  add('/__nameid_version1.0/__substg1.0_00020102', Buffer.alloc(0));
  add('/__nameid_version1.0/__substg1.0_00030102', Buffer.alloc(0));
  add('/__nameid_version1.0/__substg1.0_00040102', Buffer.alloc(0));
  mail.to.forEach((r, i) => {
    const dir = `/__recip_version1.0_#${i.toString(16).toUpperCase().padStart(8, '0')}`;
    const rp: Array<[number, number, number | Buffer]> = [[TAGS.recipType, PT_LONG, 1]];
    for (const [id, value] of [[TAGS.recipDisplayName, r.name], [TAGS.recipEmail, r.email], [TAGS.recipSmtp, r.email]] as const) {
      const data = utf16(value);
      add(`${dir}/${streamName(id, PT_UNICODE)}`, data);
      rp.push([id, PT_UNICODE, data]);
    }
    add(`${dir}/__properties_version1.0`, propertyStream(8, rp));
  });
  attachments.forEach((a, i) => {
    const dir = `/__attach_version1.0_#${i.toString(16).toUpperCase().padStart(8, '0')}`;
    const ap: Array<[number, number, number | Buffer]> = [[TAGS.attachMethod, PT_LONG, 1]];
    for (const [id, value] of [[TAGS.attachLongFilename, a.filename], [TAGS.attachFilename, a.filename], [TAGS.attachMimeTag, a.contentType]] as const) {
      const data = utf16(value);
      add(`${dir}/${streamName(id, PT_UNICODE)}`, data);
      ap.push([id, PT_UNICODE, data]);
    }
    const data = Buffer.from(a.content);
    add(`${dir}/${streamName(TAGS.attachData, PT_BINARY)}`, data);
    ap.push([TAGS.attachData, PT_BINARY, data]);
    add(`${dir}/__properties_version1.0`, propertyStream(8, ap));
  });
  return new Uint8Array(CFB.write(cfb, { type: 'buffer', fileType: 'cfb' }) as Buffer);
}
