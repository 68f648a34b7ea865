// A span of the text read, placed on its page: the page it starts on and the box of its glyphs there.
import type { PlacedRun, TextLayout } from '../../documents/text-layout.js';

export interface Placement {
  page: number;
  box?: { x: number; y: number; width: number; height: number };
  /** The least OCR confidence of the words the span covers, when they were read by OCR. */
  ocrConfidence?: number;
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The index of the page holding `offset` (the last page starting at or before it). */
function pageAt(layout: TextLayout, offset: number): number {
  let lo = 0, hi = layout.pages.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (layout.pages[mid]!.start <= offset) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/**
 * The part of a run a span covers, as a box: the run's box cut in proportion to the characters covered (glyph
 * positions inside a run are not kept; in the monospaced and proportional fonts of documents alike the error is a
 * fraction of a character).
 */
function coveredBox(run: PlacedRun, start: number, end: number) {
  const length = Math.max(1, run.end - run.start);
  const from = Math.max(start, run.start) - run.start;
  const to = Math.min(end, run.end) - run.start;
  const x = run.x + (run.width * from) / length;
  return { x0: x, y0: run.y, x1: run.x + (run.width * to) / length, y1: run.y + run.height };
}

/** Where `[start, end)` stands: its page (from 1), and the box of the runs it covers on that page. */
export function placeSpan(layout: TextLayout | undefined, start: number, end: number): Placement | null {
  if (!layout || layout.pages.length === 0) return null;
  const index = pageAt(layout, start);
  const page = layout.pages[index]!;
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  let ocr = Infinity;
  for (const run of page.runs) {
    if (run.end <= start || run.start >= end) continue;
    const b = coveredBox(run, start, end);
    x0 = Math.min(x0, b.x0); y0 = Math.min(y0, b.y0); x1 = Math.max(x1, b.x1); y1 = Math.max(y1, b.y1);
    if (run.confidence !== undefined) ocr = Math.min(ocr, run.confidence);
  }
  const placement: Placement = { page: page.number ?? index + 1 };
  if (x0 !== Infinity) {
    const clamp = (v: number) => Math.min(1, Math.max(0, v));
    const x = clamp(x0), y = clamp(y0);
    placement.box = { x: round4(x), y: round4(y), width: round4(clamp(x1) - x), height: round4(clamp(y1) - y) };
  }
  if (ocr !== Infinity) placement.ocrConfidence = ocr;
  return placement;
}
