/** A run of text placed on a page: its left edge, baseline or top, width and height, in any one unit. */
export interface PlacedText {
  str: string;
  x: number;
  /** Grows downwards (top of the page first). */
  y: number;
  width: number;
  height: number;
}

/** At most this many empty lines stand for a vertical gap. */
const MAX_BLANK_LINES = 2;

/**
 * Rebuilds the text of a page from the positions of its runs, so that what stood side by side stays on one line and
 * what was aligned in columns stays aligned: runs are grouped into lines by their vertical position, ordered left to
 * right, and each is put at the character column its left edge falls on (at least one space after the run before
 * it, two where the gap is wide, so columns stay apart). A gap between lines taller than a line becomes empty lines.
 * The same for a PDF's text items and for the words OCR returns: both lose their layout when read in stream order
 * (a table's amounts come after all its labels).
 */
export function rebuildLayout(runs: PlacedText[]): string {
  return rebuildPlaced(runs).text;
}

/** Where a run landed in the rebuilt text: `[start, end)` offsets of its characters. */
export interface RunSpan<R extends PlacedText = PlacedText> { run: R; start: number; end: number }

/** The rebuilt text (as `rebuildLayout`), and where each run's characters landed in it. */
export function rebuildPlaced<R extends PlacedText>(runs: R[]): { text: string; spans: RunSpan<R>[] } {
  const items = runs.filter((r) => r.str.trim() !== '' && Number.isFinite(r.x) && Number.isFinite(r.y));
  const spans: RunSpan<R>[] = [];
  if (items.length === 0) return { text: '', spans };
  const charWidth = medianCharWidth(items);
  const minX = Math.min(...items.map((r) => r.x));
  const lines = groupLines(items);
  const pitch = linePitch(lines);
  const out: string[] = [];
  let offset = 0;
  let previous: { y: number; height: number } | null = null;
  for (const line of lines) {
    if (previous) {
      const gap = line.y - previous.y;
      const blanks = Math.min(MAX_BLANK_LINES, Math.max(0, Math.round(gap / (pitch ?? Math.max(previous.height, line.height) * 1.2)) - 1));
      for (let i = 0; i < blanks; i++) { out.push(''); offset += 1; }
    }
    const rendered = renderLine(line.runs as R[], minX, charWidth);
    for (const p of rendered.placed) spans.push({ run: p.run, start: offset + p.start, end: offset + p.end });
    out.push(rendered.text);
    offset += rendered.text.length + 1;
    previous = line;
  }
  return { text: out.join('\n'), spans };
}

interface Line<R extends PlacedText = PlacedText> { y: number; height: number; runs: R[] }

/**
 * The distance from one line to the next in a run of text (single spacing), when the page has enough lines to tell:
 * the smallest gap at least about a line high. Not the median gap: on a page of short paragraphs most gaps hold an
 * empty line, and the median would read every empty line as none.
 */
function linePitch(lines: Line[]): number | null {
  const gaps = lines.slice(1).map((l, i) => l.y - lines[i]!.y).filter((g) => g > 0).sort((a, b) => a - b);
  if (gaps.length < 3) return null;
  const heights = lines.map((l) => l.height).filter((h) => h > 0).sort((a, b) => a - b);
  const height = heights[Math.floor(heights.length / 2)] ?? 0;
  // The smallest gap that recurs (a scan's one odd gap between two close rows is not the spacing).
  const recurs = (g: number) => gaps.filter((x) => x >= 0.85 * g && x <= 1.15 * g).length >= Math.max(2, 0.15 * gaps.length);
  return gaps.find((g) => g >= 0.8 * height && recurs(g)) ?? gaps[Math.floor(gaps.length / 2)]!;
}

function groupLines<R extends PlacedText>(items: R[]): Line<R>[] {
  const sorted = [...items].sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: Line<R>[] = [];
  for (const run of sorted) {
    const line = lines[lines.length - 1];
    // The same line when the baselines are within half a line of each other.
    if (line && Math.abs(run.y - line.y) <= Math.max(2, 0.5 * Math.min(run.height || line.height, line.height || run.height))) {
      line.runs.push(run);
      line.height = Math.max(line.height, run.height);
    } else {
      lines.push({ y: run.y, height: run.height, runs: [run] });
    }
  }
  for (const line of lines) line.runs.sort((a, b) => a.x - b.x);
  return lines;
}

function renderLine<R extends PlacedText>(runs: R[], minX: number, charWidth: number): { text: string; placed: RunSpan<R>[] } {
  let text = '';
  let end = -Infinity;
  const placed: RunSpan<R>[] = [];
  // Appends a run's characters after `lead` (spaces or nothing) and records where they landed.
  const put = (run: R, lead: string, chars: string) => {
    text += lead;
    placed.push({ run, start: text.length, end: text.length + chars.length });
    text += chars;
  };
  for (const run of runs) {
    const str = run.str.replace(/\s+$/, '');
    const gap = run.x - end;
    if (text === '') {
      // An indent counts from about a character's width (a scan's slight rotation moves a margin by a few pixels).
      put(run, ' '.repeat(Math.max(0, Math.round((run.x - minX) / charWidth - 0.4))), str.trimStart());
    } else if (gap < 0.25 * charWidth || (gap < 1.2 * charWidth && splitAmount(text, str))) {
      // Pieces of one word (a PDF writer's kerning, OCR's split word; `$9.` `00` or `$14` `.50`: OCR splits an amount
      // at its point, whose glyph leaves a gap in a monospaced font).
      put(run, '', str);
    } else if (gap < 2.5 * charWidth) {
      // A space between words.
      put(run, ' ', str.trimStart());
    } else {
      // A gap wider than a space: put the run at its column, at least two spaces on, so columns stay apart.
      const column = Math.round((run.x - minX) / charWidth);
      put(run, ' '.repeat(Math.max(column, text.length + 2) - text.length), str.trimStart());
    }
    end = run.x + run.width;
  }
  const trimmed = text.replace(/\s+$/, '');
  return { text: trimmed, placed: placed.map((p) => ({ ...p, end: Math.min(p.end, trimmed.length) })).filter((p) => p.end > p.start) };
}

/** Whether `next` continues an amount that `text` ends with, split at its decimal point. */
const splitAmount = (text: string, next: string) =>
  (/[\d$€£][.,]$/.test(text) && /^\d{2}(?!\d)/.test(next)) || (/[$€£]?\d$/.test(text) && /^[.,]\d{2}(?!\d)/.test(next));

function medianCharWidth(items: PlacedText[]): number {
  const widths = items.filter((r) => r.str.length >= 2 && r.width > 0).map((r) => r.width / r.str.length).sort((a, b) => a - b);
  const median = widths[Math.floor(widths.length / 2)];
  return median && median > 0 ? median : Math.max(1, (items[0]!.height || 10) * 0.5);
}
