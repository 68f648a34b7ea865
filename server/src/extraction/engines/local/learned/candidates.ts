// Every place in a document where a value of a kind could stand: each amount, each date, each code with a figure in
// it. The learned ranker (ranker.ts) chooses among them; nothing here decides which one a field is.
import type { Doc } from '../segment/document.js';
import { findAmounts } from '../normalise/money.js';
import { findDates } from '../normalise/dates.js';

export type CandidateKind = 'money' | 'date' | 'id' | 'count' | 'text';

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
  /** A text candidate: the value of a `label: value` pair, a column of a line, or a whole line. */
  from?: 'pair' | 'cell' | 'line';
}

/** A code: letters, figures and joiners with at least one figure, three characters or more, not a bare amount. */
const CODE = /(?<![\p{L}\p{N}])(?=[\p{L}\p{N}#\-/.]*\d)[\p{L}\p{N}][\p{L}\p{N}\-/._#]{2,39}(?![\p{L}\p{N}])/gu;
/** A whole number standing alone (a seat count, days of notice). */
const WHOLE = /(?<![\p{N}.,])\d{1,6}(?![\p{N}]|[.,]\d)/gu;

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

/** Words (letters) on the candidate's own line before it: a label, a frame. */
const LABELLED = /\p{L}/u;

/**
 * The candidates of one kind, in document order, without the e-mail envelope's lines. Only labelled ones: a figure, a
 * date or a code with words before it on its own line, a text that is the value of a `label: value` pair. A value is
 * never chosen by elimination (the only date, the first line), only by what the document says of it.
 */
export function candidatesOf(doc: Doc, kind: CandidateKind): Candidate[] {
  return allCandidatesOf(doc, kind).filter((c) => (c.kind === 'text' ? c.from === 'pair' : LABELLED.test(doc.text.slice(Math.max(doc.lines[c.line]!.at, c.start - 48), c.start))));
}

function allCandidatesOf(doc: Doc, kind: CandidateKind): Candidate[] {
  const out: Candidate[] = [];
  for (const line of doc.lines) {
    if (doc.envelope.has(line.index)) continue;
    const text = line.raw;
    const base = line.at;
    if (kind === 'money') {
      // A figure inside a date (its day, its year) is no amount.
      const dates = findDates(text, doc.dateOptions).map((d) => ({ start: d.index, end: d.end }));
      for (const a of findAmounts(text, doc.reading)) {
        if (dates.some((d) => overlaps(d, { start: a.index, end: a.end }))) continue;
        // `14 days`, `0.05 per user`, `3 seats`: a figure its words measure, not an amount (a currency named after
        // it, `12,00 EUR`, is read by findAmounts as the amount's own).
        if (a.currency === null && /^\s?\p{L}/u.test(text.slice(a.end))) continue;
        if (/^\s*(?:per|\/)\s*\p{L}/iu.test(text.slice(a.end))) continue;
        // `14:32`: a time of day.
        if (/^[:.]\d{2}(?!\d)/.test(text.slice(a.end)) && !a.decimals || /\d:$/.test(text.slice(0, a.index))) continue;
        out.push({ kind, value: a.value, start: base + a.index, end: base + a.end, line: line.index, raw: a.raw, decimals: a.decimals });
      }
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
    } else if (kind === 'text') {
      out.push(...textCandidates(line.index, text, base));
    } else {
      const dates = findDates(text, doc.dateOptions).map((d) => ({ start: d.index, end: d.end }));
      for (const m of text.matchAll(WHOLE)) {
        const value = Number(m[0]);
        if (value > 0 && !dates.some((d) => overlaps(d, { start: m.index, end: m.index + m[0].length }))) out.push({ kind, value, start: base + m.index, end: base + m.index + m[0].length, line: line.index, raw: m[0] });
      }
    }
  }
  return out;
}

/** Longest text candidate: a name, a title, a place, a tender: one line's worth. */
const MAX_TEXT = 120;
const LETTER = /\p{L}/u;

/**
 * The texts of a line a name, title or place could be: the whole line, each column of it (split at runs of spaces or
 * pipes), and the value after a `label:` (in any column). Each needs a letter, and at most MAX_TEXT characters.
 */
function textCandidates(line: number, text: string, base: number): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  const add = (start: number, end: number, from: 'pair' | 'cell' | 'line') => {
    while (start < end && /[\s|:：*•·\-–—]/.test(text[start]!)) start++;
    while (end > start && /[\s|,;:：*•·]/.test(text[end - 1]!)) end--;
    const raw = text.slice(start, end);
    if (!raw || raw.length > MAX_TEXT || !LETTER.test(raw) || seen.has(`${start}:${end}`)) return;
    seen.add(`${start}:${end}`);
    out.push({ kind: 'text', value: raw.replace(/\s+/g, ' '), start: base + start, end: base + end, line, raw, from });
  };
  add(0, text.length, 'line');
  const cells = [...text.matchAll(/[^|\t]+?(?=\s{3,}|\s*\||\t|$)/g)];
  for (const c of cells) {
    if (c[0].trim().length < text.trim().length) add(c.index, c.index + c[0].length, 'cell');
    const colon = /^[^:：]{1,48}[:：]\s*(?!\/\/)/u.exec(c[0]);
    if (colon && colon[0].length < c[0].length) add(c.index + colon[0].length, c.index + c[0].length, 'pair');
  }
  return out;
}
