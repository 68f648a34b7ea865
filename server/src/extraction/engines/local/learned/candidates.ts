// Every place in a document where a value of a kind could stand: each amount, each date, each code with a figure in
// it. The learned ranker (ranker.ts) chooses among them; nothing here decides which one a field is.
import type { Doc } from '../segment/document.js';
import { findAmounts } from '../normalise/money.js';
import { findDates } from '../normalise/dates.js';

export type CandidateKind = 'money' | 'date' | 'id' | 'count';

export interface Candidate {
  kind: CandidateKind;
  value: number | string;
  /** Offsets in `doc.text`, and the line it stands on. */
  start: number;
  end: number;
  line: number;
  /** The words as written. */
  raw: string;
  /** Money written with decimals; a date borrowed its year. */
  decimals?: boolean;
  yearless?: boolean;
}

/** A code: letters, figures and joiners with at least one figure, three characters or more, not a bare amount. */
const CODE = /(?<![\p{L}\p{N}])(?=[\p{L}\p{N}#\-/.]*\d)[\p{L}\p{N}][\p{L}\p{N}\-/._#]{2,39}(?![\p{L}\p{N}])/gu;
/** A whole number standing alone (a seat count, days of notice). */
const WHOLE = /(?<![\p{N}.,])\d{1,6}(?![\p{N}]|[.,]\d)/gu;

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/** The candidates of one kind, in document order, without the e-mail envelope's lines. */
export function candidatesOf(doc: Doc, kind: CandidateKind): Candidate[] {
  const out: Candidate[] = [];
  for (const line of doc.lines) {
    if (doc.envelope.has(line.index)) continue;
    const text = line.raw;
    const base = line.at;
    if (kind === 'money') {
      for (const a of findAmounts(text, doc.reading)) out.push({ kind, value: a.value, start: base + a.index, end: base + a.end, line: line.index, raw: a.raw, decimals: a.decimals });
    } else if (kind === 'date') {
      for (const d of findDates(text, doc.dateOptions)) out.push({ kind, value: d.iso, start: base + d.index, end: base + d.end, line: line.index, raw: text.slice(d.index, d.end), yearless: d.yearless });
    } else if (kind === 'id') {
      const dates = findDates(text, doc.dateOptions).map((d) => ({ start: d.index, end: d.end }));
      for (const m of text.matchAll(CODE)) {
        const span = { start: m.index, end: m.index + m[0].length };
        const raw = m[0].replace(/[.\-/_]+$/, '');
        if (raw.length < 3 || dates.some((d) => overlaps(d, span)) || /^\d{1,3}([.,]\d+)?$/.test(raw)) continue;
        out.push({ kind, value: raw, start: base + span.start, end: base + span.start + raw.length, line: line.index, raw });
      }
    } else {
      for (const m of text.matchAll(WHOLE)) {
        const value = Number(m[0]);
        if (value > 0) out.push({ kind, value, start: base + m.index, end: base + m.index + m[0].length, line: line.index, raw: m[0] });
      }
    }
  }
  return out;
}
