import { csvText } from './csv-text.js';
import { docxText } from './docx-text.js';
import { htmlToText } from './html-text.js';
import { imageSize } from './image-size.js';
import { CHARS_PER_PAGE, MAIL_LIMITS, MAX_PAGES, MAX_PIXELS, MIN_IMAGE_EDGE, TEXT_LIMIT } from './limits.js';
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
  if (!bytesMatch(mediaType, bytes)) {
    problem({ code: 'document_type_mismatch', message: `The bytes of document.content are not ${mediaType}.` });
  }
  const facts: FileFacts = { mediaType, byteSize: bytes.byteLength, pages: 1 };
  const kind = kindOf(mediaType);
  if (kind === 'pdf') {
    const pdf = await openPdf(bytes);
    facts.pages = pdf.numPages;
    await pdf.destroy();
  } else if (kind === 'image') {
    Object.assign(facts, checkImage(bytes));
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

function checkImage(bytes: Uint8Array): { width: number; height: number } {
  const size = imageSize(bytes);
  if (!size) problem({ code: 'document_unreadable', message: 'The image cannot be read: its header is damaged.' });
  const { width, height } = size!;
  if (width * height > MAX_PIXELS) {
    problem({ code: 'payload_too_large', message: `The image is ${width}×${height} pixels; at most ${MAX_PIXELS.toLocaleString('en-US')} pixels are read.`, limit: MAX_PIXELS });
  }
  if (Math.min(width, height) < MIN_IMAGE_EDGE) {
    problem({ code: 'document_unreadable', message: `The image is ${width}×${height} pixels: too small to hold legible text (at least ${MIN_IMAGE_EDGE} pixels a side).` });
  }
  return { width, height };
}

/** Reads the text of a file that passed `probeFile`. Throws DocumentProblemError. */
/** `deadline` (epoch ms): a PDF still being read page by page then is given up (`document_unreadable`). */
export async function readFile(bytes: Uint8Array, mediaType: FileMediaType, deadline = Infinity): Promise<FileText> {
  const result = await readAny(bytes, mediaType, deadline, 0);
  if (result.text.trim() === '') problem({ code: 'document_unreadable', message: 'No legible text was found in the file.' });
  checkText(result.text.length);
  return result;
}

async function readAny(bytes: Uint8Array, mediaType: FileMediaType, deadline: number, depth: number): Promise<FileText> {
  const kind = kindOf(mediaType);
  if (kind === 'pdf') return readPdf(bytes, deadline);
  if (kind === 'image') return readImage(bytes);
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
      if (!bytesMatch(type, attachment.bytes)) problem({ code: 'document_type_mismatch', message: `The bytes of ${attachment.filename} are not ${type}.` });
      if (MESSAGE_KINDS.has(kind)) {
        const inner = await readMail(kind === 'eml' ? await emlMessage(attachment.bytes) : msgMessage(attachment.bytes), type, attachment.bytes.byteLength, { ...options, depth: options.depth + 1 }, `${name}/`);
        const start = append(`Attachment: ${name}`, inner.text);
        for (const part of inner.parts!) parts.push({ ...part, start: part.start + start, end: part.end + start });
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
  const read: StructuredRead = { text, pages: Math.max(pages, pageStarts.length), pageStarts, pageReads, method, textLayerPages, ocrPages, parts, skipped, unreadChars };
  if (words.length) read.ocrConfidence = round2(words.reduce((n, p) => n + p.ocrConfidence! * p.ocrPages, 0) / words.reduce((n, p) => n + p.ocrPages, 0));
  return read;
}

async function readImage(bytes: Uint8Array): Promise<FileText> {
  checkImage(bytes);
  let page;
  try {
    page = await ocrImage(bytes);
  } catch {
    return problem({ code: 'document_unreadable', message: 'The image cannot be decoded.' });
  }
  return { text: page.text, pages: 1, pageStarts: [0], pageReads: [{ method: 'ocr', ...(page.confidence !== null ? { confidence: page.confidence, words: page.words } : {}) }], method: 'ocr', textLayerPages: 0, ocrPages: 1, ...(page.confidence !== null ? { ocrConfidence: round2(page.confidence) } : {}) };
}

/** Each page from its text layer; a page without one rendered and read by OCR. Pages are parted by an empty line. */
async function readPdf(bytes: Uint8Array, deadline: number): Promise<FileText> {
  const pdf = await openPdf(bytes);
  try {
    const texts: string[] = [];
    const pageReads: PageRead[] = [];
    let textLayerPages = 0, ocrPages = 0, confidenceSum = 0, words = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      if (Date.now() > deadline) return problem({ code: 'document_unreadable', message: 'The file took too long to read.' });
      const page = await pdf.getPage(n);
      let text = await pageText(page);
      if (text.replace(/\s/g, '').length >= MIN_TEXT_LAYER_CHARS) {
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
        text = ocr.text;
      }
      page.cleanup();
      texts.push(text);
    }
    const pageStarts: number[] = [];
    let offset = 0;
    for (const page of texts) {
      pageStarts.push(offset);
      offset += page.length + 2;
    }
    return {
      text: texts.join('\n\n'),
      pages: pdf.numPages,
      pageStarts,
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
