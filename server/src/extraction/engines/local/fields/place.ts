// Placing a finder's value where the finder says it read it: within its lines (as its surface words, or by finding
// the value's own written form there: a figure that reads as the amount, a date that reads as the date, the words of
// a name), or at its span of the text. The place comes back as offsets in the document as sent.
import type { Doc } from '../segment/document.js';
import { findAmounts } from '../normalise/money.js';
import { findDates } from '../normalise/dates.js';
import { parseTime } from '../normalise/times.js';
import { COUNT_SOURCE, parseCount } from '../normalise/counts.js';
import { findMarks } from '../normalise/currency.js';
import type { FieldKind } from './bounds.js';
import type { Located } from './located.js';
import type { FinderMatch } from '../../../evidence/found.js';

export interface Place {
  /** Offsets in the document as sent. */
  start: number;
  end: number;
  how: FinderMatch;
  /** The value is not written as such there (a currency read from its symbol). */
  derived?: boolean;
}

/** The text of some lines joined by `\n`, with where each line starts in the join and in `doc.text`. */
interface Joined { text: string; parts: { from: number; to: number; at: number }[] }

function join(doc: Doc, lines: readonly number[]): Joined {
  const parts: Joined['parts'] = [];
  let text = '';
  for (const i of lines) {
    const line = doc.lines[i];
    if (!line) continue;
    if (text) text += '\n';
    parts.push({ from: text.length, to: text.length + line.raw.length, at: line.at });
    text += line.raw;
  }
  return { text, parts };
}

/** A span of the join as offsets in the document as sent (it may run over several lines). */
function fromJoined(doc: Doc, j: Joined, from: number, to: number): { start: number; end: number } | null {
  const startPart = j.parts.find((p) => from >= p.from && from < p.to);
  const endPart = j.parts.find((p) => to > p.from && to <= p.to);
  if (!startPart || !endPart) return null;
  const start = doc.toSource(startPart.at + (from - startPart.from));
  const end = doc.toSource(endPart.at + (to - endPart.from) - 1) + 1;
  return end > start ? { start, end } : null;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The words of `phrase` in `text`, however the document spaces or breaks them (a comma of a joined address may stand
 * for a line break): case as written first, then any case.
 */
function findWords(text: string, phrase: string): [number, number] | null {
  const words = phrase.trim().split(/[\s,;·•|]+/).filter(Boolean);
  if (words.length === 0) return null;
  const source = words.map(escape).join('[\\s,;·•|]+');
  for (const flags of ['u', 'iu']) {
    const m = new RegExp(source, flags).exec(text);
    if (m) return [m.index, m.index + m[0].length];
  }
  return null;
}

/** The written form of `value` in `text`, by what kind of value it is. */
function findValue(doc: Doc, text: string, value: unknown, kind: FieldKind): [number, number] | null {
  switch (kind) {
    case 'money':
    case 'count': {
      if (typeof value !== 'number') return null;
      // A count as written: `sixty (60)`, `45`, `three`.
      if (kind === 'count') {
        const re = new RegExp(`(?<![\\p{L}\\d])${COUNT_SOURCE}(?![\\p{L}\\d])`, 'giu');
        for (let m = re.exec(text); m; m = re.exec(text)) if (m[0].trim() && parseCount(m[0]) === value) return [m.index, m.index + m[0].length];
      }
      const hit = findAmounts(text, doc.reading).find((a) => Math.abs(Math.abs(a.value) - Math.abs(value)) < 0.005);
      return hit ? [hit.index, hit.end] : null;
    }
    case 'date': {
      const hit = findDates(text, doc.dateOptions).find((d) => d.iso === value);
      return hit ? [hit.index, hit.end] : null;
    }
    case 'time': {
      const re = /\b([01]?\d|2[0-3])[:.h]([0-5]\d)(?::[0-5]\d)?\s*(?:a\.?m\.?|p\.?m\.?)?/giu;
      for (let m = re.exec(text); m; m = re.exec(text)) if (parseTime(m[0]) === value) return [m.index, m.index + m[0].trimEnd().length];
      return null;
    }
    case 'currency': {
      if (typeof value !== 'string') return null;
      // Its code, else a mark or word that names it here (`$` for the document's own dollar, `zł`, `euros`).
      const marks = findMarks(text, doc.reading.marks).filter((m) => m.code === value);
      const hit = marks.find((m) => m.kind === 'code') ?? marks[0];
      return hit ? [hit.index, hit.end] : null;
    }
    case 'flag':
    case 'choice':
      return null;
    default:
      return typeof value === 'string' ? findWords(text, value) : null;
  }
}

/** The lines' text trimmed: where a derived value's quote stands when the finder gave no words. */
function wholeLines(j: Joined): [number, number] | null {
  const from = j.text.search(/\S/);
  if (from < 0) return null;
  return [from, j.text.trimEnd().length];
}

/** Where a located value stands in the document as sent, or null when it is not where its finder says. */
export function placeValue(doc: Doc, found: Located<unknown>, value: unknown, kind: FieldKind): Place | null {
  if (found.span) {
    const [s, e] = found.span;
    let from = s, to = e;
    while (from < to && /\s/.test(doc.text[from]!)) from++;
    while (to > from && /\s/.test(doc.text[to - 1]!)) to--;
    if (to <= from) return null;
    return { start: doc.toSource(from), end: doc.toSource(to - 1) + 1, how: found.how ?? 'surface' };
  }
  if (!found.lines || found.lines.length === 0) return null;
  const j = join(doc, found.lines);
  let hit: [number, number] | null = null;
  let how: FinderMatch = 'surface';
  // A currency is the mark that names it, wherever the finder's words stand: derived when the mark is a symbol.
  if (kind === 'currency') {
    hit = findValue(doc, j.text, value, kind);
    const span = hit ? fromJoined(doc, j, hit[0], hit[1]) : null;
    return span ? { ...span, how: 'value', derived: j.text.slice(hit![0], hit![1]) !== value } : null;
  }
  if (found.surface) hit = findWords(j.text, found.surface);
  if (!hit) { hit = findValue(doc, j.text, value, kind); how = 'value'; }
  if (!hit && found.derived) { hit = wholeLines(j); how = 'surface'; }
  if (!hit) return null;
  const span = fromJoined(doc, j, hit[0], hit[1]);
  return span ? { ...span, how } : null;
}

/**
 * The value's own written form inside a quote already placed (a renewal term's sentence): the narrower span when the
 * value is written there as such, else null.
 */
export function placeWithin(doc: Doc, quote: { start: number; end: number }, value: unknown, kind: FieldKind): { start: number; end: number } | null {
  if (kind === 'flag' || kind === 'choice' || kind === 'statement') return null;
  // The quote's lines, cut to the quote: offsets of the document as sent map back through the lines' places.
  const lines = doc.lines.filter((l) => l.raw && doc.toSource(l.at) < quote.end && doc.toSource(l.at + l.raw.length - 1) + 1 > quote.start);
  for (const l of lines) {
    const hit = findValue(doc, l.raw, value, kind);
    if (!hit) continue;
    const start = doc.toSource(l.at + hit[0]), end = doc.toSource(l.at + hit[1] - 1) + 1;
    if (start >= quote.start && end <= quote.end) return { start, end };
  }
  return null;
}
