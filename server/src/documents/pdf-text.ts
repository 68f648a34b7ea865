import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { rebuildPlaced, type PlacedText } from './layout.js';
import type { PlacedRun } from './text-layout.js';
import { MAX_PAGES } from './limits.js';
import { problem } from './problems.js';

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const STANDARD_FONTS = join(pdfjsRoot, 'standard_fonts') + '/';

/**
 * Opens a PDF, or says why it cannot be: encrypted (a password is needed), corrupt, or over the page limit. No
 * script runs (`isEvalSupported: false`) and no font is loaded into the process (`disableFontFace`).
 */
export async function openPdf(bytes: Uint8Array): Promise<PDFDocumentProxy> {
  let pdf: PDFDocumentProxy;
  try {
    // pdf.js takes the buffer over (transfers it): give it a copy.
    pdf = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, standardFontDataUrl: STANDARD_FONTS, verbosity: 0, stopAtErrors: false }).promise;
  } catch (e) {
    const name = (e as { name?: string }).name;
    if (name === 'PasswordException') return problem({ code: 'document_encrypted', message: 'The PDF is encrypted: send it without a password.' });
    return problem({ code: 'document_unreadable', message: 'The PDF cannot be read: it is damaged or not a PDF.' });
  }
  if (pdf.numPages > MAX_PAGES) {
    await pdf.destroy();
    return problem({ code: 'payload_too_large', message: `The PDF has ${pdf.numPages} pages; at most ${MAX_PAGES} are read.`, limit: MAX_PAGES });
  }
  return pdf;
}

/** A page's text and where each run of it stands, as fractions of the page (offsets relative to the page's text). */
export interface PageText {
  text: string;
  runs: PlacedRun[];
}

/** The share of a text item's height above its baseline (the em box: ascent 0.8, descent 0.2). */
const ASCENT = 0.8;

/** The text layer of one page, its lines and columns rebuilt from the items' positions; '' when it has none. */
export async function pageText(page: PDFPageProxy): Promise<PageText> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const runs: PlacedText[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str === '') continue;
    const [a, b, , , e, f] = item.transform as number[];
    // Horizontal text only: rotated runs (a stamp, a margin note) would scatter over the lines.
    if (Math.abs(b!) > Math.abs(a!) * 0.1) continue;
    const [x, y] = viewport.convertToViewportPoint(e!, f!) as [number, number];
    runs.push({ str: item.str, x, y, width: item.width * viewport.scale, height: (item.height || Math.abs(a!)) * viewport.scale });
  }
  const { text, spans } = rebuildPlaced(runs);
  const W = viewport.width, H = viewport.height;
  return {
    text,
    runs: spans.map(({ run, start, end }) => ({ start, end, x: run.x / W, y: (run.y - ASCENT * run.height) / H, width: run.width / W, height: run.height / H })),
  };
}
