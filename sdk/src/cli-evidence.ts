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

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** A table for people: FIELD, VALUE, CONFIDENCE, PAGE, QUOTE; a withheld value says so, a value without evidence shows `-`. */
export function evidenceTable(answer: Evidenced): string {
  const rows = valueRows(answer).map((r) => [
    r.field,
    cut(r.value.replace(/\s+/g, ' '), 40),
    r.confidence === null ? '-' : `${r.confidence.toFixed(2)}${r.withheld ? ' withheld' : ''}`,
    r.page === null ? '-' : String(r.page),
    r.quote === null ? '-' : cut(JSON.stringify(r.quote), 70),
  ]);
  const header = ['FIELD', 'VALUE', 'CONFIDENCE', 'PAGE', 'QUOTE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
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
