// What the CLI prints of an answer's evidence: each value with its quote, page and confidence (`--evidence`), a
// confidence per field for JSON (`--confidence`), and CSV rows, one per value (`--format csv`).
import type { Evidence, WithheldValue } from './client.js';
import { leaves } from './pointer-leaves.js';

/** The parts of an answer (or of a batch entry) the CLI reads. */
export interface Evidenced {
  data?: unknown;
  evidence?: Record<string, Evidence>;
  withheld?: WithheldValue[];
}

export interface ValueRow {
  field: string;
  value: string;
  confidence: number | null;
  page: number | null;
  quote: string | null;
  withheld: boolean;
}



const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** One row per value: those returned (with their evidence, when they have some), then those withheld. */
export function valueRows(answer: Evidenced): ValueRow[] {
  const rows: ValueRow[] = leaves(answer.data).map(([field, value]) => {
    const e = answer.evidence?.[field];
    return { field, value: text(value), confidence: e?.confidence ?? null, page: e?.page ?? null, quote: e?.quote ?? null, withheld: false };
  });
  for (const w of answer.withheld ?? []) {
    rows.push({ field: w.path, value: text(w.value), confidence: w.confidence, page: w.page ?? null, quote: w.quote ?? null, withheld: true });
  }
  return rows;
}

/** The confidence of each value by JSON Pointer, withheld values included (they are also in `withheld`). */
export function confidenceMap(answer: Evidenced): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of valueRows(answer)) if (r.confidence !== null) out[r.field] = r.confidence;
  return out;
}

/** `text` in lines of at most `width` characters, broken at spaces (a word longer than a line is split). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(' ')) {
    while (word.length > width) {
      if (line) { lines.push(line); line = ''; }
      lines.push(word.slice(0, width));
      word = word.slice(width);
    }
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else { lines.push(line); line = word; }
  }
  lines.push(line);
  return lines;
}

/**
 * A table for people: FIELD, VALUE, CONFIDENCE, PAGE, QUOTE; a withheld value says so, a value without evidence shows
 * `-`. Nothing is cut: within `width` characters (the terminal's), a long value or quote wraps inside its column, and
 * the value column is only as wide as it must be (a short value is not padded out to a long one's width). Runs of
 * spaces and line breaks in values and quotes (a table's columns) are shown as one space.
 */
export function evidenceTable(answer: Evidenced, width = 120): string {
  const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
  const rows = valueRows(answer).map((r) => [
    r.field,
    oneLine(r.value),
    r.confidence === null ? '-' : `${r.confidence.toFixed(2)}${r.withheld ? ' withheld' : ''}`,
    r.page === null ? '-' : String(r.page),
    r.quote === null ? '-' : `"${oneLine(r.quote)}"`,
  ]);
  const header = ['FIELD', 'VALUE', 'CONFIDENCE', 'PAGE', 'QUOTE'];
  const natural = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  // FIELD, CONFIDENCE and PAGE stay whole; VALUE and QUOTE share the rest of the line (at least 40 characters): the
  // value takes up to two fifths of it, the quote what is left.
  const room = Math.max(40, width - (natural[0]! + natural[2]! + natural[3]! + 4 * 2));
  const valueWidth = natural[1]! + natural[4]! <= room ? natural[1]! : Math.min(natural[1]!, Math.max(12, Math.floor(room * 0.4)));
  const quoteWidth = Math.max(12, Math.min(natural[4]!, room - valueWidth));
  const widths = [natural[0]!, valueWidth, natural[2]!, natural[3]!, quoteWidth];
  const lines = (cells: string[]) => {
    const wrapped = cells.map((c, i) => (i === 1 || i === 4 ? wrap(c, widths[i]!) : [c]));
    const height = Math.max(...wrapped.map((w) => w.length));
    return Array.from({ length: height }, (_, k) => wrapped.map((w, i) => (w[k] ?? '').padEnd(widths[i]!)).join('  ').trimEnd());
  };
  return [lines(header), ...rows.flatMap(lines)].join('\n');
}

/** A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break. */
const csvField = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The CSV header: a row per value, its file and field; with `confidence`, its confidence, page, quote and whether it was withheld. */
export function csvHeader(confidence: boolean): string {
  return ['file', 'field', 'value', ...(confidence ? ['confidence', 'withheld', 'page', 'quote'] : [])].join(',');
}

/** The CSV rows of one answer (withheld values only with `confidence`: without it they are simply not there). */
export function csvRows(file: string, answer: Evidenced, confidence: boolean): string[] {
  return valueRows(answer)
    .filter((r) => confidence || !r.withheld)
    .map((r) => [file, r.field, r.value, ...(confidence ? [r.confidence === null ? '' : String(r.confidence), String(r.withheld), r.page === null ? '' : String(r.page), r.quote ?? ''] : [])].map(csvField).join(','));
}

/** The CSV row of a document that failed: its field is `error`, its value the code and message. */
export function csvErrorRow(file: string, code: string, message: string, confidence: boolean): string {
  return [file, 'error', `${code}: ${message}`, ...(confidence ? ['', '', '', ''] : [])].map(csvField).join(',');
}
