import { csvText } from './csv-text.js';
import { docxText } from './docx-text.js';
import { htmlToText } from './html-text.js';
import { imageFacts } from './image-decode.js';
import { CHARS_PER_PAGE, MAIL_LIMITS, MAX_PAGES, TEXT_LIMIT } from './limits.js';
import { emlMessage, type Mail } from './mail-message.js';
import { markdownToText } from './markdown-text.js';
import { attachmentMediaType, kindOf, MESSAGE_KINDS, type FileMediaType } from './media-types.js';
import { ocrImage } from './ocr.js';
import { msgMessage } from './outlook-message.js';
import { openPdf, pageText } from './pdf-text.js';
import { DocumentProblemError, problem, type DocumentProblem } from './problems.js';
import { renderPage } from './render-page.js';
import { sheetText } from './sheet-text.js';
import { bytesMatch } from './sniff.js';
import type { PageLayout, PlacedRun, TextLayout } from './text-layout.js';

/** What is known of a file before it is read: enough to refuse it and to reserve its cost. */
export interface FileFacts {
  mediaType: FileMediaType;
  byteSize: number;
  pages: number;
  /** An image's size in pixels. */
  width?: number;
  height?: number;
  /**
   * The most characters its text can have, when the probe could tell better than pages x CHARS_PER_PAGE: exact for
   * Office files, CSV and e-mails (read to be probed, as they need no OCR), with a PDF or image attached to an e-mail
   * counted at CHARS_PER_PAGE a page.
   */
  textChars?: number;
}

export type ReadMethod = 'text' | 'pdf_text' | 'ocr';

/** How one page was read: from text, a PDF's text layer, or OCR (with its words' mean confidence and count). */
export interface PageRead {
  method: ReadMethod;
  confidence?: number;
  words?: number;
}

/** The text read from a file, and how. */
export interface FileText {
  text: string;
  pages: number;
  /**
   * Where each page begins in `text` (UTF-16 offsets; page 1 at 0): a PDF's pages, a DOCX's explicit page breaks, an
   * XLSX's sheets; an e-mail's message and then each page of each attachment. One entry for a file of one page.
   */
  pageStarts: number[];
  /** How each page was read, in the order of `pageStarts`: what reading a run of its pages costs. */
  pageReads: PageRead[];
  method: ReadMethod;
  /** Pages read from a PDF's text layer, and pages (or images) read by OCR: what reading costs. */
  textLayerPages: number;
  ocrPages: number;
  /** Mean OCR confidence of the words read, 0 to 1, when OCR read any. */
  ocrConfidence?: number;
  /**
   * Where the text stands on its pages, one entry per entry of `pageStarts`: the runs of a PDF's text layer or of the
   * words OCR read, as boxes on their page (a page of text has no runs).
   */
  layout?: TextLayout;
  /** An e-mail's documents: the message itself, then each attachment read (attached e-mails' own parts follow them). */
  parts?: FilePart[];
  /** An e-mail's attachments that were not read, and why. */
  skipped?: SkippedAttachment[];
}

/** A document inside a file (an e-mail's message, or one of its attachments): plain data, read with the file. */
export interface FilePart {
  /** The attachment's file name (`forwarded.eml/invoice.pdf` inside an attached e-mail); absent for the message. */
  attachment?: string;
  mediaType: FileMediaType;
  byteSize: number;
  /** Where its text lies in the file's `text`: [start, end). */
  start: number;
  end: number;
  pages: number;
  /** Where each of its pages begins, relative to `start`, and how each was read. */
  pageStarts: number[];
  pageReads: PageRead[];
  method: ReadMethod;
  textLayerPages: number;
  ocrPages: number;
  ocrConfidence?: number;
}

/** An attachment that was not read: its type is not one read here, or it could not be read (its problem). */
export interface SkippedAttachment {
  attachment: string;
  mediaType: string | null;
  code: DocumentProblem['code'] | 'unsupported_media_type';
  message: string;
}

/** A page with fewer characters than this in its text layer has none worth the name (a scan with a page number). */
const MIN_TEXT_LAYER_CHARS = 16;

/**
 * Checks a file without reading its text: its bytes are of its media type, a PDF opens (not encrypted, not corrupt)
 * and has at most the page limit, an image has a readable size within the limits. Throws DocumentProblemError.
 */
export async function probeFile(bytes: Uint8Array, mediaType: FileMediaType): Promise<FileFacts> {
  const kind = kindOf(mediaType);
  // An image's bytes are checked by its decoder (image-decode.ts).
  if (kind !== 'image' && !bytesMatch(mediaType, bytes)) {
    problem({ code: 'document_type_mismatch', message: `The bytes of document.content are not ${mediaType}.` });
  }
  const facts: FileFacts = { mediaType, byteSize: bytes.byteLength, pages: 1 };
  if (kind === 'pdf') {
    const pdf = await openPdf(bytes);
    facts.pages = pdf.numPages;
    await pdf.destroy();
  } else if (kind === 'image') {
    Object.assign(facts, await imageFacts(bytes, mediaType));
  } else if (STRUCTURED.has(kind)) {
    // Office files, CSV and e-mails are read to be probed (no OCR is needed, and their text bounds the reservation);
    // a PDF or an image attached to an e-mail is only probed.
    const read = await readStructured(bytes, mediaType, { deadline: Infinity, depth: 0, probe: true });
    facts.pages = read.pages;
    facts.textChars = read.text.length + read.unreadChars;
    checkText(read.text.length);
  }
  return facts;
}

/** Kinds read from their own structure: their text needs no OCR (an e-mail's attachments may). */
const STRUCTURED = new Set(['csv', 'docx', 'xlsx', 'eml', 'msg']);

function checkText(chars: number): void {
  if (chars > TEXT_LIMIT) {
    problem({ code: 'payload_too_large', message: `The file holds ${chars.toLocaleString('en-US')} characters of text; at most ${TEXT_LIMIT.toLocaleString('en-US')} are read.`, limit: TEXT_LIMIT });
  }
}

/** Reads the text of a file that passed `probeFile`. Throws DocumentProblemError. */
/** `deadline` (epoch ms): a PDF still being read page by page then is given up (`document_unreadable`). */
export async function readFile(bytes: Uint8Array, mediaType: FileMediaType, deadline = Infinity): Promise<FileText> {
  const result = await readAny(bytes, mediaType, deadline, 0);
  // Every file's text has its pages, boxes or not: evidence names the page a quote stands on.
  result.layout ??= { pages: result.pageStarts.map((start, i) => ({ start, end: result.pageStarts[i + 1] !== undefined ? Math.max(start, result.pageStarts[i + 1]! - 2) : result.text.length, runs: [] })) };
  if (result.text.trim() === '') problem({ code: 'document_unreadable', message: 'No legible text was found in the file.' });
  checkText(result.text.length);
  return result;
}

async function readAny(bytes: Uint8Array, mediaType: FileMediaType, deadline: number, depth: number): Promise<FileText> {
  const kind = kindOf(mediaType);
  if (kind === 'pdf') return readPdf(bytes, deadline);
  if (kind === 'image') return readImage(bytes, mediaType);
  if (STRUCTURED.has(kind)) {
    const { unreadChars: _, ...read } = await readStructured(bytes, mediaType, { deadline, depth, probe: false });
    return read;
  }
  const raw = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const text = kind === 'html' ? htmlToText(raw) : kind === 'markdown' ? markdownToText(raw) : raw;
  return { text, pages: 1, pageStarts: [0], pageReads: [{ method: 'text' }], method: 'text', textLayerPages: 0, ocrPages: 0 };
}

/** A read of a structured file; when only probing, attached PDFs and images are not read, and their bound is apart. */
type StructuredRead = FileText & { unreadChars: number };
interface ReadOptions { deadline: number; depth: number; probe: boolean }

async function readStructured(bytes: Uint8Array, mediaType: FileMediaType, options: ReadOptions): Promise<StructuredRead> {
  const kind = kindOf(mediaType);
  const plain = (text: string, pageStarts: number[] = [0]): StructuredRead =>
    ({ text, pages: pageStarts.length, pageStarts, pageReads: pageStarts.map(() => ({ method: 'text' as const })), method: 'text', textLayerPages: 0, ocrPages: 0, unreadChars: 0 });
  if (kind === 'csv') return plain(csvText(bytes));
  if (kind === 'docx') {
    const { text, pageStarts } = await docxText(bytes);
    return plain(text, pageStarts);
  }
  if (kind === 'xlsx') {
    const { text, pageStarts } = await sheetText(bytes);
    return plain(text, pageStarts);
  }
  return readMail(kind === 'eml' ? await emlMessage(bytes) : msgMessage(bytes), mediaType, bytes.byteLength, options);
}

/**
 * An e-mail as one text (its header lines and body, then each attachment under a line naming it), and as parts: the
 * message, then every attachment of a media type read here, read as a document of its own (an attached e-mail with
 * its own attachments, at most MAIL_LIMITS.nestedMessages deep). An attachment that cannot be read is skipped with
 * its reason; the e-mail as a whole holds at most MAX_PAGES pages (its message counting one).
 */
async function readMail(mail: Mail, mediaType: FileMediaType, byteSize: number, options: ReadOptions, prefix = ''): Promise<StructuredRead> {
  const message = [...mail.headerLines, '', mail.body].join('\n').trim();
  const parts: FilePart[] = [{ ...(prefix ? { attachment: prefix.slice(0, -1) } : {}), mediaType, byteSize, start: 0, end: message.length, pages: 1, pageStarts: [0], pageReads: [{ method: 'text' }], method: 'text', textLayerPages: 0, ocrPages: 0 }];
  const skipped: SkippedAttachment[] = [];
  // One layout page for each page of `pageStarts` below: the message's (text, no boxes), then each attachment's.
  const layoutPages: PageLayout[] = [{ start: 0, end: message.length, runs: [] }];
  const addLayout = (read: Pick<FileText, 'text' | 'pageStarts' | 'layout'>, start: number) => {
    const own = read.layout?.pages ?? read.pageStarts.map((p, i) => ({ start: p, end: read.pageStarts[i + 1] !== undefined ? read.pageStarts[i + 1]! - 2 : read.text.length, runs: [] }));
    for (const page of own) layoutPages.push({ start: page.start + start, end: page.end + start, runs: page.runs.map((r) => ({ ...r, start: r.start + start, end: r.end + start })) });
  };
  let text = message;
  let pages = 1, unreadChars = 0;
  const append = (heading: string, body: string) => {
    text += `\n\n${heading}\n\n`;
    const start = text.length;
    text += body;
    return start;
  };
  for (const attachment of mail.attachments) {
    const name = `${prefix}${attachment.filename}`;
    const type = attachmentMediaType(attachment.declaredType, attachment.filename);
    if (!type) {
      skipped.push({ attachment: name, mediaType: attachment.declaredType ?? null, code: 'unsupported_media_type', message: `${attachment.declaredType ?? 'This type'} is not a media type that is read.` });
      continue;
    }
    const kind = kindOf(type);
    if (MESSAGE_KINDS.has(kind) && options.depth + 1 > MAIL_LIMITS.nestedMessages) {
      problem({ code: 'payload_too_large', message: `The e-mail holds e-mails attached to e-mails more than ${MAIL_LIMITS.nestedMessages} deep; at most ${MAIL_LIMITS.nestedMessages} levels are read.`, limit: MAIL_LIMITS.nestedMessages });
    }
    try {
      if (kindOf(type) !== 'image' && !bytesMatch(type, attachment.bytes)) problem({ code: 'document_type_mismatch', message: `The bytes of ${attachment.filename} are not ${type}.` });
      if (MESSAGE_KINDS.has(kind)) {
        const inner = await readMail(kind === 'eml' ? await emlMessage(attachment.bytes) : msgMessage(attachment.bytes), type, attachment.bytes.byteLength, { ...options, depth: options.depth + 1 }, `${name}/`);
        const start = append(`Attachment: ${name}`, inner.text);
        for (const part of inner.parts!) parts.push({ ...part, start: part.start + start, end: part.end + start });
        addLayout(inner, start);
        skipped.push(...inner.skipped!);
        pages += inner.pages;
        unreadChars += inner.unreadChars;
      } else if (options.probe && (kind === 'pdf' || kind === 'image')) {
        const facts = await probeFile(attachment.bytes, type);
        pages += facts.pages;
        unreadChars += facts.pages * CHARS_PER_PAGE;
      } else {
        const read = await readAny(attachment.bytes, type, options.deadline, options.depth + 1);
        if (read.text.trim() === '') problem({ code: 'document_unreadable', message: `No legible text was found in ${attachment.filename}.` });
        const start = append(`Attachment: ${name}`, read.text);
        parts.push({ attachment: name, mediaType: type, byteSize: attachment.bytes.byteLength, start, end: start + read.text.length, pages: read.pages, pageStarts: read.pageStarts, pageReads: read.pageReads, method: read.method, textLayerPages: read.textLayerPages, ocrPages: read.ocrPages, ...(read.ocrConfidence !== undefined ? { ocrConfidence: read.ocrConfidence } : {}) });
        addLayout(read, start);
        pages += read.pages;
      }
    } catch (e) {
      if (!(e instanceof DocumentProblemError)) throw e;
      // Limits of the e-mail as a whole refuse it; a damaged or unreadable attachment is skipped.
      if (/attached to e-mails/.test(e.problem.message)) throw e;
      skipped.push({ attachment: name, mediaType: type, code: e.problem.code, message: e.problem.message });
    }
    if (pages > MAX_PAGES) {
      problem({ code: 'payload_too_large', message: `The e-mail and its attachments have more than ${MAX_PAGES} pages; at most ${MAX_PAGES} are read.`, limit: MAX_PAGES });
    }
  }
  const pageStarts = parts.flatMap((part) => part.pageStarts.map((p) => p + part.start));
  const pageReads = parts.flatMap((part) => part.pageReads);
  const textLayerPages = parts.reduce((n, p) => n + p.textLayerPages, 0);
  const ocrPages = parts.reduce((n, p) => n + p.ocrPages, 0);
  const words = parts.filter((p) => p.ocrConfidence !== undefined);
  const method: ReadMethod = ocrPages > 0 ? 'ocr' : textLayerPages > 0 ? 'pdf_text' : 'text';
  const read: StructuredRead = { text, pages: Math.max(pages, pageStarts.length), pageStarts, pageReads, method, textLayerPages, ocrPages, parts, skipped, unreadChars, layout: { pages: layoutPages } };
  if (words.length) read.ocrConfidence = round2(words.reduce((n, p) => n + p.ocrConfidence! * p.ocrPages, 0) / words.reduce((n, p) => n + p.ocrPages, 0));
  return read;
}

async function readImage(bytes: Uint8Array, mediaType: FileMediaType): Promise<FileText> {
  await imageFacts(bytes, mediaType);
  let page;
  try {
    page = await ocrImage(bytes);
  } catch (e) {
    if (e instanceof DocumentProblemError) throw e;
    return problem({ code: 'document_unreadable', message: 'The image cannot be decoded.' });
  }
  const layout: TextLayout = { pages: [{ start: 0, end: page.text.length, runs: page.runs }] };
  return { text: page.text, pages: 1, pageStarts: [0], pageReads: [{ method: 'ocr', ...(page.confidence !== null ? { confidence: page.confidence, words: page.words } : {}) }], method: 'ocr', textLayerPages: 0, ocrPages: 1, layout, ...(page.confidence !== null ? { ocrConfidence: round2(page.confidence) } : {}) };
}

/** The pages' texts joined by an empty line, each page's runs moved to where its text landed. */
function joinPages(pages: { text: string; runs: PlacedRun[] }[]): { text: string; pageStarts: number[]; layout: TextLayout } {
  const out: PageLayout[] = [];
  let offset = 0;
  for (const p of pages) {
    out.push({ start: offset, end: offset + p.text.length, runs: p.runs.map((r) => ({ ...r, start: r.start + offset, end: r.end + offset })) });
    offset += p.text.length + 2;
  }
  return { text: pages.map((p) => p.text).join('\n\n'), pageStarts: out.map((p) => p.start), layout: { pages: out } };
}

/** Each page from its text layer; a page without one rendered and read by OCR. Pages are parted by an empty line. */
async function readPdf(bytes: Uint8Array, deadline: number): Promise<FileText> {
  const pdf = await openPdf(bytes);
  try {
    const texts: { text: string; runs: PlacedRun[] }[] = [];
    const pageReads: PageRead[] = [];
    let textLayerPages = 0, ocrPages = 0, confidenceSum = 0, words = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      if (Date.now() > deadline) return problem({ code: 'document_unreadable', message: 'The file took too long to read.' });
      const page = await pdf.getPage(n);
      let read = await pageText(page);
      if (read.text.replace(/\s/g, '').length >= MIN_TEXT_LAYER_CHARS) {
        textLayerPages++;
        pageReads.push({ method: 'pdf_text' });
      } else {
        const ocr = await ocrImage(await renderPage(pdf, page));
        ocrPages++;
        if (ocr.confidence !== null) {
          confidenceSum += ocr.confidence * ocr.words;
          words += ocr.words;
        }
        pageReads.push({ method: 'ocr', ...(ocr.confidence !== null ? { confidence: ocr.confidence, words: ocr.words } : {}) });
        read = ocr;
      }
      page.cleanup();
      texts.push(read);
    }
    return {
      ...joinPages(texts),
      pages: pdf.numPages,
      pageReads,
      method: ocrPages > 0 ? 'ocr' : 'pdf_text',
      textLayerPages,
      ocrPages,
      ...(words > 0 ? { ocrConfidence: round2(confidenceSum / words) } : {}),
    };
  } catch (e) {
    if (e instanceof DocumentProblemError) throw e;
    return problem({ code: 'document_unreadable', message: 'The PDF cannot be read: a page is damaged.' });
  } finally {
    await pdf.destroy();
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100;
