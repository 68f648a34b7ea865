// Renders text as the files users send: a PDF with a text layer (pdf-lib, Courier 10 pt, so columns stay aligned),
// a scanned-looking page image (@napi-rs/canvas: grey paper, a slight rotation, noise), a PDF holding only that image
// (no text layer), an encrypted PDF. Used by the tests and by scripts/score-documents.ts and bench-documents.ts;
// deterministic (fixed dates, seeded noise), so a rendering is the same bytes every time.
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, PDFHexString, PDFName, StandardFonts } from 'pdf-lib';

const FIXED_DATE = new Date('2026-01-01T00:00:00Z');
const PAGE = { width: 612, height: 792, margin: 40, size: 10, leading: 12 };

/**
 * Courier encodes only WinAnsi (Latin-1 and the typographer's characters of 0x80-0x9f: bullets, dashes, curly
 * quotes, €): other characters become `?` (CJK would need an embedded font).
 */
const winAnsi = (line: string) => line.replace(/[^\x20-\x7e\xa0-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/g, '?');

async function newPdf(): Promise<PDFDocument> {
  const pdf = await PDFDocument.create();
  pdf.setCreationDate(FIXED_DATE);
  pdf.setModificationDate(FIXED_DATE);
  pdf.setProducer('docextract test renderer');
  pdf.setCreator('docextract test renderer');
  return pdf;
}

/**
 * A line longer than `width` characters broken at spaces, as a word processor wraps a paragraph: the following lines
 * keep its indent. A PDF writer never draws past the page's edge (pdf.js leaves text beyond it out of the layer).
 */
export function wrap(line: string, width: number): string[] {
  if (line.length <= width) return [line];
  const indent = /^\s*/.exec(line)![0];
  const out: string[] = [];
  let current = '';
  for (const word of line.trim().split(/\s+/)) {
    const next = current ? `${current} ${word}` : `${indent}${word}`;
    if (next.length > width && current) { out.push(current); current = `${indent}${word}`; } else current = next;
  }
  if (current) out.push(current);
  return out;
}

/** Courier 10 pt is 6 pt a character: a Letter page between its margins holds 88, a half page's column 42. */
const CHARS_PER_COLUMN = Math.floor((PAGE.width / 2 - PAGE.margin - 10) / 6);

/** How a document is set: its type size in points (line pitch 1.2 times it), and a `Page k of n` footer on each page. */
export interface Setting {
  size?: number;
  footer?: boolean;
}

/**
 * The lines of each page a text is set on, as `textPdf` and `scanPages` set it: lines wrapped at the page's width,
 * as many lines a page as its type size allows (10 pt on 12: 59 lines of 88 characters; 16 pt: 37 of 55).
 */
export function pageLines(text: string, setting: Setting = {}): string[][] {
  const size = setting.size ?? PAGE.size;
  const width = Math.floor((PAGE.width - 2 * PAGE.margin) / (size * 0.6));
  const leading = size === PAGE.size ? PAGE.leading : size * 1.2;
  const lines = text.replace(/\r\n?/g, '\n').split('\n').flatMap((line) => wrap(line, width));
  const perPage = Math.floor((PAGE.height - 2 * PAGE.margin) / leading) - (setting.footer ? 2 : 0);
  const pages: string[][] = [];
  for (let start = 0; start < Math.max(1, lines.length); start += perPage) pages.push(lines.slice(start, start + perPage));
  // A page of blank lines only (a document ending in empty lines) is not printed.
  while (pages.length > 1 && pages[pages.length - 1]!.every((l) => l.trim() === '')) pages.pop();
  return pages;
}

const footerOf = (n: number, of: number) => `Page ${n} of ${of}`;

/** A PDF with a text layer: one text run per line, Courier 10 pt on 12 (or the setting's size), as many Letter pages as it takes. */
export async function textPdf(text: string, options: { columns?: 2 } & Setting = {}): Promise<Uint8Array> {
  const pdf = await newPdf();
  const font = await pdf.embedFont(StandardFonts.Courier);
  if (options.columns === 2) {
    // Two columns side by side: the first half of the lines on the left, the second half on the right.
    const lines = text.replace(/\r\n?/g, '\n').split('\n').flatMap((line) => wrap(line, CHARS_PER_COLUMN));
    const half = Math.ceil(lines.length / 2);
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    lines.forEach((line, i) => {
      const x = i < half ? PAGE.margin : PAGE.width / 2 + 10;
      const y = PAGE.height - PAGE.margin - (i % half) * PAGE.leading;
      if (line.trim()) page.drawText(winAnsi(line), { x, y, size: PAGE.size, font });
    });
    return pdf.save({ useObjectStreams: false });
  }
  const size = options.size ?? PAGE.size;
  const leading = size === PAGE.size ? PAGE.leading : size * 1.2;
  const pages = pageLines(text, options);
  pages.forEach((lines, n) => {
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    lines.forEach((line, i) => {
      if (line.trim()) page.drawText(winAnsi(line), { x: PAGE.margin, y: PAGE.height - PAGE.margin - i * leading, size, font });
    });
    if (options.footer) page.drawText(footerOf(n + 1, pages.length), { x: PAGE.width / 2 - 30, y: PAGE.margin / 2, size: 9, font });
  });
  return pdf.save({ useObjectStreams: false });
}

/** The text of each page as `textPdf` sets it (its footer included), for scans of the same pages. */
export function pageTexts(text: string, setting: Setting = {}): string[] {
  const pages = pageLines(text, setting);
  return pages.map((lines, n) => (setting.footer ? [...lines, '', footerOf(n + 1, pages.length)] : lines).join('\n'));
}

/** A small deterministic random source (mulberry32), for noise that is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One page of text as a scan: Letter paper at `dpi`, Liberation Mono 10 pt, rotated by `rotateDeg`, greyish paper with
 * specks. PNG bytes.
 */
export async function scanPng(text: string, options: { dpi?: number; rotateDeg?: number; seed?: number; size?: number } = {}): Promise<Uint8Array> {
  const dpi = options.dpi ?? 200;
  const width = Math.round(8.5 * dpi), height = Math.round(11 * dpi);
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#f4f2ee';
  g.fillRect(0, 0, width, height);
  const rand = random(options.seed ?? 7);
  g.fillStyle = 'rgba(80, 80, 80, 0.5)';
  for (let i = 0; i < (width * height) / 4000; i++) g.fillRect(rand() * width, rand() * height, 1 + rand() * 2, 1 + rand() * 2);
  g.translate(width / 2, height / 2);
  g.rotate(((options.rotateDeg ?? 0.5) * Math.PI) / 180);
  g.translate(-width / 2, -height / 2);
  g.fillStyle = '#1a1a1a';
  const size = options.size ?? 10;
  g.font = `${Math.round((size / 72) * dpi)}px "Liberation Mono", "DejaVu Sans Mono", monospace`;
  const margin = 0.6 * dpi, leading = ((size === 10 ? 12 : size * 1.2) / 72) * dpi;
  text.replace(/\r\n?/g, '\n').split('\n').forEach((line, i) => g.fillText(line, margin, margin + (i + 1) * leading));
  return canvas.encode('png');
}

/** A PDF whose one page is a scan image: no text layer, so only OCR reads it. */
export async function scanPdf(text: string, options: { dpi?: number } = {}): Promise<Uint8Array> {
  const pdf = await newPdf();
  const image = await pdf.embedPng(await scanPng(text, { dpi: options.dpi ?? 150 }));
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  page.drawImage(image, { x: 0, y: 0, width: PAGE.width, height: PAGE.height });
  return pdf.save({ useObjectStreams: false });
}

/** A scanned PDF of several pages, each page's text set at `size` and scanned at `dpi` (no text layer: OCR reads it). */
export async function scanPagesPdf(pages: string[], options: { dpi?: number; size?: number; seed?: number } = {}): Promise<Uint8Array> {
  const pdf = await newPdf();
  for (const [n, text] of pages.entries()) {
    const image = await pdf.embedPng(await scanPng(text, { dpi: options.dpi ?? 200, size: options.size ?? 10, seed: (options.seed ?? 7) + n, rotateDeg: n % 2 ? -0.4 : 0.5 }));
    const page = pdf.addPage([PAGE.width, PAGE.height]);
    page.drawImage(image, { x: 0, y: 0, width: PAGE.width, height: PAGE.height });
  }
  return pdf.save({ useObjectStreams: false });
}

/** A PDF encrypted with a user password (the standard security handler): it cannot be opened without it. */
export async function encryptedPdf(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(await textPdf(text));
  const hex = (byte: number) => PDFHexString.of(byte.toString(16).padStart(2, '0').repeat(32));
  const encrypt = pdf.context.obj({ Filter: 'Standard', V: 1, R: 2, O: hex(0xab), U: hex(0xcd), P: -44 });
  pdf.context.trailerInfo.Encrypt = pdf.context.register(encrypt);
  pdf.context.trailerInfo.ID = pdf.context.obj([hex(0x11), hex(0x11)]);
  void PDFName;
  return pdf.save({ useObjectStreams: false });
}
