import { htmlToText } from './html-text.js';
import { imageFacts } from './image-decode.js';
import { TEXT_LIMIT } from './limits.js';
import { markdownToText } from './markdown-text.js';
import { kindOf, type FileMediaType } from './media-types.js';
import { ocrImage } from './ocr.js';
import { openPdf, pageText } from './pdf-text.js';
import { DocumentProblemError, problem } from './problems.js';
import { renderPage } from './render-page.js';
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
}

/** The text read from a file, and how. */
export interface FileText {
  text: string;
  pages: number;
  method: 'text' | 'pdf_text' | 'ocr';
  /** Pages read from a PDF's text layer, and pages (or images) read by OCR: what reading costs. */
  textLayerPages: number;
  ocrPages: number;
  /** Mean OCR confidence of the words read, 0 to 1, when OCR read any. */
  ocrConfidence?: number;
  /** For a PDF or an image: the offset in `text` where each page starts (page 1 at 0). */
  pageStarts?: number[];
  /** For a PDF or an image: where the text stands on its pages. */
  layout?: TextLayout;
}

/** A page with fewer characters than this in its text layer has none worth the name (a scan with a page number). */
const MIN_TEXT_LAYER_CHARS = 16;

/**
 * Checks a file without reading its text: its bytes are of its media type, a PDF opens (not encrypted, not corrupt)
 * and has at most the page limit, an image has a readable size within the limits (as its decoder reads it).
 * Throws DocumentProblemError. Runs in a reader process (reader-task.ts), as `readFile` does.
 */
export async function probeFile(bytes: Uint8Array, mediaType: FileMediaType): Promise<FileFacts> {
  const kind = kindOf(mediaType);
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
  }
  return facts;
}

/** Reads the text of a file that passed `probeFile`. Throws DocumentProblemError. */
/** `deadline` (epoch ms): a PDF still being read page by page then is given up (`document_unreadable`). */
export async function readFile(bytes: Uint8Array, mediaType: FileMediaType, deadline = Infinity): Promise<FileText> {
  const kind = kindOf(mediaType);
  let result: FileText;
  if (kind === 'pdf') result = await readPdf(bytes, deadline);
  else if (kind === 'image') result = await readImage(bytes, mediaType);
  else {
    const raw = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    const text = kind === 'html' ? htmlToText(raw) : kind === 'markdown' ? markdownToText(raw) : raw;
    result = { text, pages: 1, method: 'text', textLayerPages: 0, ocrPages: 0 };
  }
  if (result.text.trim() === '') problem({ code: 'document_unreadable', message: 'No legible text was found in the file.' });
  if (result.text.length > TEXT_LIMIT) {
    problem({ code: 'payload_too_large', message: `The file holds ${result.text.length.toLocaleString('en-US')} characters of text; at most ${TEXT_LIMIT.toLocaleString('en-US')} are read.`, limit: TEXT_LIMIT });
  }
  return result;
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
  return { text: page.text, pages: 1, method: 'ocr', textLayerPages: 0, ocrPages: 1, pageStarts: [0], layout, ...(page.confidence !== null ? { ocrConfidence: round2(page.confidence) } : {}) };
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
    let textLayerPages = 0, ocrPages = 0, confidenceSum = 0, words = 0;
    for (let n = 1; n <= pdf.numPages; n++) {
      if (Date.now() > deadline) return problem({ code: 'document_unreadable', message: 'The file took too long to read.' });
      const page = await pdf.getPage(n);
      let read = await pageText(page);
      if (read.text.replace(/\s/g, '').length >= MIN_TEXT_LAYER_CHARS) {
        textLayerPages++;
      } else {
        const ocr = await ocrImage(await renderPage(pdf, page));
        ocrPages++;
        if (ocr.confidence !== null) {
          confidenceSum += ocr.confidence * ocr.words;
          words += ocr.words;
        }
        read = ocr;
      }
      page.cleanup();
      texts.push(read);
    }
    return {
      ...joinPages(texts),
      pages: pdf.numPages,
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
