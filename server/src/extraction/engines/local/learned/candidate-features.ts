// What the ranker knows of a candidate for a field: the words before and after it (hashed with the field, and paired
// with the field's own words so that what is learned for `dueDate` helps a caller's `payment_due` property), where it
// stands, and how it compares with the other candidates of its kind. The same strings are made at fitting time
// (scripts/fit-ranker.ts) and at answer time, then hashed into the model's buckets.
import { wordsBefore } from '../../../evidence/context-words.js';
import type { Doc } from '../segment/document.js';
import type { Candidate } from './candidates.js';

/** The field a candidate is scored for: its key (`invoice:/total`, or `custom` for a caller's property) and its words. */
export interface FieldSpec {
  key: string;
  /** Words of the field's name (and title or description, for a caller's property), lower case. */
  words: readonly string[];
}

/** The first words after a candidate on its line. */
function wordsAfter(text: string, end: number): string[] {
  const lineEnd = text.indexOf('\n', end);
  const rest = text.slice(end, lineEnd < 0 ? text.length : lineEnd).slice(0, 32).normalize('NFKC').toLowerCase();
  return rest.split(/[^\p{L}\p{M}]+/u).filter((w) => [...w].length >= 2).slice(0, 2);
}

/** What is known of a list of candidates as a whole, worked out once per list. */
interface Among { counts: Map<unknown, number>; sorted: unknown[] }
const amongCache = new WeakMap<readonly Candidate[], Among>();
function among(all: readonly Candidate[]): Among {
  let a = amongCache.get(all);
  if (!a) {
    const counts = new Map<unknown, number>();
    for (const o of all) counts.set(o.value, (counts.get(o.value) ?? 0) + 1);
    const values = [...counts.keys()];
    const sorted = typeof values[0] === 'number' ? (values as number[]).sort((x, y) => y - x) : (values as string[]).sort();
    amongCache.set(all, (a = { counts, sorted }));
  }
  return a;
}

/** Facts of a candidate among its kind's others: largest, first, last, written more than once. */
function standing(c: Candidate, all: readonly Candidate[]): string[] {
  const out: string[] = [];
  const { counts, sorted } = among(all);
  if ((counts.get(c.value) ?? 0) > 1) out.push('dup');
  if (all[0] === c) out.push('first');
  if (all[all.length - 1] === c) out.push('last');
  if (c.kind === 'money' || c.kind === 'count') {
    const rank = sorted.indexOf(c.value);
    out.push(`rank${Math.min(rank, 3)}`);
    if (c.decimals) out.push('decimals');
    if ((c.value as number) >= 1900 && (c.value as number) <= 2100 && Number.isInteger(c.value)) out.push('yearlike');
  }
  if (c.kind === 'date') {
    if (sorted[0] === c.value) out.push('earliest');
    if (sorted[sorted.length - 1] === c.value) out.push('latest');
    if (c.yearless) out.push('yearless');
  }
  if (c.kind === 'text') {
    const raw = c.raw;
    out.push(`from_${c.from}`);
    const words = raw.split(/\s+/).length;
    out.push(`words${Math.min(words, 8)}`);
    if (/\d/.test(raw)) out.push('figures');
    if (raw === raw.toUpperCase() && /\p{Lu}/u.test(raw)) out.push('upper');
    if (/[.!?]$/.test(raw)) out.push('sentence');
    if (/[@]|https?:|www\./i.test(raw)) out.push('contact');
    // Its own words, hashed with the field: a tender's `visa`, a law's `england`, a title's `agreement`.
    for (const w of raw.normalize('NFKC').toLowerCase().split(/[^\p{L}\p{M}]+/u).filter((x) => [...x].length >= 2).slice(0, 4)) out.push(`=${w}`);
  }
  if (c.kind === 'id') {
    const raw = c.raw;
    if (/^\d+$/.test(raw)) out.push('digits');
    if (/[A-Z]/.test(raw) && /\d/.test(raw)) out.push('mixed');
    out.push(`len${Math.min(4, Math.floor(raw.length / 4))}`);
  }
  return out;
}

/** Words that only restate the kind of value (a date property's `date`): they say nothing of which one it is. */
const KIND_WORDS: Record<Candidate['kind'], ReadonlySet<string>> = {
  date: new Set(['date', 'day', 'dated', 'on']),
  money: new Set(['amount', 'value', 'sum', 'figure', 'number']),
  count: new Set(['number', 'count', 'amount', 'value']),
  id: new Set(['number', 'no', 'nr', 'id', 'code', 'ref', 'reference', 'identifier']),
  text: new Set(['name', 'text', 'value', 'description']),
};

/** The words of a field that tell it apart from other fields of its kind (all of them, when none does). */
function telling(words: readonly string[], kind: Candidate['kind']): readonly string[] {
  const kept = words.filter((w) => !KIND_WORDS[kind].has(w));
  return kept.length ? kept : words;
}

/** The feature strings of candidate `c` for `field`, before hashing. */
export function candidateFeatureStrings(doc: Doc, c: Candidate, all: readonly Candidate[], field: FieldSpec): string[] {
  const text = doc.text;
  const line = doc.lines[c.line]!;
  const before = wordsBefore(text, c.start);
  const after = wordsAfter(text, c.end);
  const left = text.slice(line.at, c.start);
  const facts = standing(c, all);
  if (/[:：]\s*$/.test(left)) facts.push('colon');
  if (!left.trim()) facts.push('lineStart');
  if (!text.slice(c.end, line.at + line.raw.length).trim()) facts.push('lineEnd');
  facts.push(`pos${Math.min(4, Math.floor((5 * c.line) / Math.max(1, doc.lines.length)))}`);
  facts.push('bias');
  const k = c.kind;
  const out: string[] = [];
  // A caller's property is answered only by what its label says of it (its words paired with the label's): a date is
  // not the delivery date because it is the only date.
  const custom = field.key === 'custom';
  const words = telling(field.words, c.kind);
  const f = custom ? `custom-${k}` : field.key;
  for (const fact of facts) {
    if (custom) for (const p of words) out.push(`${p}|#${fact}`);
    else out.push(`${f}|#${fact}`, `${k}|#${fact}`);
  }
  // A label stands next to its value: the property's words are paired with the three nearest words only.
  before.forEach((w, i) => {
    if (!custom) out.push(`${f}|<${w}`, `${k}|<${w}`);
    if (i >= before.length - 3) for (const p of words) out.push(`${p}|<${w}`);
  });
  for (const w of after) {
    if (!custom) out.push(`${f}|>${w}`);
    for (const p of words) out.push(`${p}|>${w}`);
  }
  return out;
}
