import { parse } from 'csv-parse/sync';
import { problem } from './problems.js';
import { textTable } from './text-table.js';

/** The separators a CSV file is written with: comma, semicolon (European spreadsheets), tab, pipe. */
const DELIMITERS = [',', ';', '\t', '|'] as const;

/** CSV as text: UTF-8 (a BOM allowed); a file that is not UTF-8 is Windows-1252, as spreadsheets on Windows save it. */
export function decodeCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * The separator of a CSV file: the candidate that splits the first lines (outside quotes) into the same number of
 * fields, most often, with more than one field.
 */
export function sniffDelimiter(text: string): (typeof DELIMITERS)[number] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '').slice(0, 20);
  let best: (typeof DELIMITERS)[number] = ',';
  let bestScore = -1;
  for (const d of DELIMITERS) {
    const counts = lines.map((l) => l.replace(/"[^"]*"/g, '').split(d).length - 1);
    const common = mode(counts);
    if (common === 0) continue;
    const score = counts.filter((c) => c === common).length * 10 + common;
    if (score > bestScore) { best = d; bestScore = score; }
  }
  return best;
}

function mode(values: number[]): number {
  const seen = new Map<number, number>();
  for (const v of values) seen.set(v, (seen.get(v) ?? 0) + 1);
  let best = 0, count = 0;
  for (const [v, c] of seen) if (c > count || (c === count && v > best)) { best = v; count = c; }
  return best;
}

/**
 * Reads a CSV file with csv-parse (RFC 4180 quoting; rows of uneven length and stray quotes tolerated) and prints it
 * as a text table, so the engines read it as a table in a document.
 */
export function csvText(bytes: Uint8Array): string {
  const text = decodeCsv(bytes);
  let rows: string[][];
  try {
    rows = parse(text, { delimiter: sniffDelimiter(text), relax_column_count: true, relax_quotes: true, skip_empty_lines: false, bom: true }) as string[][];
  } catch {
    return problem({ code: 'document_unreadable', message: 'The CSV file cannot be read: its quoting is damaged.' });
  }
  return textTable(rows);
}
