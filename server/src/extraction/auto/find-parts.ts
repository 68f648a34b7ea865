import type { components } from '../../../../generated/openapi.js';
import type { Segment } from '../../classification/split-pages.js';
import type { DocumentSource, DocumentText } from '../../documents/documents.js';
import type { FileText, PageRead, SkippedAttachment } from '../../documents/read-file.js';
import type { PageLayout, TextLayout } from '../../documents/text-layout.js';
import { readingHeuFor } from '../../metering/heu.js';

type Schemas = components['schemas'];

/** A document found inside the input, read: its text, where it is, and what reading its pages cost. */
export interface FoundPart {
  source: Schemas['PartSource'];
  text: string;
  /** Its media type (the attachment's, or the file's) and how its text was obtained, as its route's answer says. */
  read: DocumentSource;
  readingHeu: number;
  byteSize: number;
  filename?: string;
  /** Where its text stands on its pages (page numbers as `source.pages` counts them), for its evidence. */
  layout?: TextLayout;
  /**
   * What is classified, when not `text`: an e-mail's message that came with attachments is classified without its
   * subject line, which names what is attached ("Invoice 4471") rather than what the message is (a cover note).
   */
  classifyText?: string;
}

/** A run of pages to split into documents: the file's, or one attachment's. */
export interface PageRun {
  attachment?: string;
  mediaType: string;
  byteSize: number;
  /** Each page's text and how it was read. */
  pages: string[];
  reads: PageRead[];
  /** One document, never split: an e-mail's message, or text sent as text. */
  whole: boolean;
  /** Each page's layout in the file's text (its offsets as the file's), when the file has one. */
  layoutPages?: PageLayout[];
  /** Where each page begins in the file's text. */
  starts?: number[];
  /** An e-mail's message: a part without pages. */
  message?: boolean;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The text of each page of a run of text, from where its pages begin (pages are parted by an empty line). */
export function pagesOf(text: string, starts: readonly number[]): string[] {
  return starts.map((start, i) => text.slice(start, i + 1 < starts.length ? starts[i + 1]! : text.length).replace(/\s+$/, ''));
}

/** The runs of pages of a read file: an e-mail's message and each attachment apart, else the file's pages. */
export function pageRuns(read: FileText, mediaType: string, byteSize: number): PageRun[] {
  const layout = read.layout?.pages;
  if (!read.parts) return [{ mediaType, byteSize, pages: pagesOf(read.text, read.pageStarts), reads: read.pageReads, whole: false, ...(layout ? { layoutPages: layout, starts: read.pageStarts } : {}) }];
  let first = 0;
  return read.parts.map((part) => {
    const pages = first;
    first += part.pageStarts.length;
    return {
    ...(layout ? { layoutPages: layout.slice(pages, pages + part.pageStarts.length), starts: part.pageStarts.map((s) => s + part.start) } : {}),
    ...(part.attachment !== undefined ? { attachment: part.attachment } : {}),
    mediaType: part.mediaType,
    byteSize: part.byteSize,
    pages: pagesOf(read.text.slice(part.start, part.end), part.pageStarts),
    reads: part.pageReads,
    // The message of an e-mail (the top one, or an attached e-mail's) is one document: its cover note or its body.
    whole: part.mediaType === 'message/rfc822' || part.mediaType === 'application/vnd.ms-outlook',
    message: part.mediaType === 'message/rfc822' || part.mediaType === 'application/vnd.ms-outlook',
    };
  });
}

/**
 * The layout of a part made of pages `from` to `to` of a run, its text those pages joined by an empty line: each
 * page's runs moved to where the page's text landed in the part, numbered as the run's pages.
 */
function partLayout(run: PageRun, from: number, to: number): TextLayout | undefined {
  if (!run.layoutPages || !run.starts) return undefined;
  const pages: PageLayout[] = [];
  let offset = 0;
  for (let j = from; j <= to; j++) {
    const page = run.layoutPages[j];
    const length = run.pages[j]!.length;
    if (page) {
      const shift = offset - run.starts[j]!;
      pages.push({ start: offset, end: offset + length, number: j + 1, runs: page.runs.filter((r) => r.start + shift < offset + length).map((r) => ({ ...r, start: r.start + shift, end: Math.min(r.end + shift, offset + length) })) });
    }
    offset += length + 2;
  }
  return { pages };
}

/** How a run of pages was read, as a route's `source` says it, and what reading them costs (README, "Metering"). */
export function readOfPages(run: PageRun, from: number, to: number, fromFile: boolean): { read: DocumentSource; readingHeu: number } {
  const reads = run.reads.slice(from, to + 1);
  const ocr = reads.filter((r) => r.method === 'ocr');
  const textLayerPages = reads.filter((r) => r.method === 'pdf_text').length;
  const method: DocumentSource['method'] = ocr.length ? 'ocr' : textLayerPages ? 'pdf_text' : 'text';
  const read: DocumentSource = { mediaType: run.mediaType, pages: to - from + 1, method };
  const words = ocr.reduce((n, r) => n + (r.words ?? 0), 0);
  if (words > 0) read.ocrConfidence = round2(ocr.reduce((n, r) => n + (r.confidence ?? 0) * (r.words ?? 0), 0) / words);
  return { read, readingHeu: fromFile ? readingHeuFor({ textLayerPages, ocrPages: ocr.length }) : 0 };
}

/** The parts of each run, from its segments (runs of pages that are one document each), in order. */
export function partsOf(runs: PageRun[], segments: Segment[][], fromFile: boolean, filename: string | undefined): FoundPart[] {
  const parts: FoundPart[] = [];
  runs.forEach((run, r) => {
    for (const segment of segments[r]!) {
      const { read, readingHeu } = readOfPages(run, segment.from, segment.to, fromFile);
      const isMessage = run.message === true && run.attachment === undefined;
      const source: Schemas['PartSource'] = {
        ...(run.attachment !== undefined ? { attachment: run.attachment } : {}),
        ...(isMessage ? {} : { pages: { from: segment.from + 1, to: segment.to + 1 } }),
      };
      const name = run.attachment?.split('/').pop() ?? filename;
      const text = run.pages.slice(segment.from, segment.to + 1).join('\n\n');
      const covering = run.whole && runs.slice(r + 1).some((next) => !next.whole && (next.attachment ?? '').startsWith(run.attachment === undefined ? '' : `${run.attachment}/`));
      const layout = partLayout(run, segment.from, segment.to);
      parts.push({ source, text, read, readingHeu, byteSize: run.byteSize, ...(name !== undefined ? { filename: name } : {}), ...(covering ? { classifyText: coverText(text) } : {}), ...(layout ? { layout } : {}) });
    }
  });
  return parts;
}

/** An attachment that was not read, as a part of kind `other` with its error (it charged nothing). */
export function skippedPart(skipped: SkippedAttachment): Schemas['AutoPart'] {
  return { source: { attachment: skipped.attachment }, kind: 'other', confidence: 0, alternatives: [], error: { code: skipped.code, message: skipped.message } };
}

/**
 * The parts of a document read: an e-mail's message and attachments apart, each run of pages split into documents by
 * `split` (the offline splitter); text sent as text is one part.
 */
export async function findParts(read: DocumentText, fromFile: boolean, byteSize: number, filename: string | undefined, split: (pages: string[]) => Promise<Segment[]>): Promise<FoundPart[]> {
  const runs: PageRun[] = read.file
    ? pageRuns(read.file, read.source.mediaType, byteSize)
    : [{ mediaType: read.source.mediaType, byteSize, pages: [read.text], reads: [{ method: 'text' }], whole: true }];
  const segments = await Promise.all(runs.map((run) => (run.whole || run.pages.length === 1 ? [{ from: 0, to: run.pages.length - 1 }] : split(run.pages))));
  return partsOf(runs, segments, fromFile, filename);
}

/**
 * A covering message as it is classified: without its header lines. Its subject names what is attached ("Invoice
 * 4471"), and its sender, recipients and date say nothing of what the message is (a date line and short lines read
 * like a till receipt to the learned classifier).
 */
const coverText = (text: string) => text.replace(/^(?:Subject|From|To|Cc|Date|Sent|Reply-To):.*$/gim, '');
