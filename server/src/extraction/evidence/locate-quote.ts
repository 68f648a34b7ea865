// Finding a quote in the text the service read: exactly, then folded (whitespace, case, compatibility forms,
// typographic punctuation), then approximately (OCR slips, a word changed), within bounds that keep it cheap on the
// event loop: candidate places come from a few of the quote's word pieces found with indexOf, and only those are
// compared character by character.
import { foldQuote, foldText, originalSpan, type FoldedText } from './folded-text.js';

export type QuoteMatch = 'exact' | 'folded' | 'approximate';

export interface LocatedQuote {
  start: number;
  end: number;
  how: QuoteMatch;
  /** 1 for an exact or folded match; 1 - edits / length for an approximate one. */
  similarity: number;
}

/** The least similarity an approximate match may have. */
const MIN_SIMILARITY = 0.8;
/** Quotes shorter than this are matched exactly or folded only: a short string matches anything approximately. */
const MIN_APPROXIMATE = 12;
const SEED = 6;
const MAX_SEEDS = 12;
const MAX_CANDIDATES = 8;

/**
 * Where `quote` stands in `text` (offsets in UTF-16 code units, `text.slice(start, end)` being the matched text), or
 * null when it cannot be found. `near`: an offset to prefer when the quote stands more than once.
 */
export function locateQuote(text: string, quote: string, near = 0, folded?: FoldedText): LocatedQuote | null {
  const trimmed = quote.trim();
  if (trimmed === '') return null;
  const exact = nearest(allIndexes(text, trimmed), near);
  if (exact >= 0) return { start: exact, end: exact + trimmed.length, how: 'exact', similarity: 1 };
  const f = folded ?? foldText(text);
  const q = foldQuote(trimmed);
  if (q === '') return null;
  const at = nearest(allIndexes(f.text, q), near, f);
  if (at >= 0) return { ...originalSpan(f, text, at, at + q.length), how: 'folded', similarity: 1 };
  if (q.length < MIN_APPROXIMATE) return null;
  const best = approximate(f.text, q);
  if (!best || best.similarity < MIN_SIMILARITY) return null;
  return { ...originalSpan(f, text, best.from, best.to), how: 'approximate', similarity: best.similarity };
}

function allIndexes(hay: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = hay.indexOf(needle); i >= 0 && out.length < 64; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

function nearest(indexes: number[], near: number, folded?: FoldedText): number {
  if (indexes.length === 0) return -1;
  const pos = (i: number) => (folded ? folded.origin[i]! : i);
  return indexes.reduce((best, i) => (Math.abs(pos(i) - near) < Math.abs(pos(best) - near) ? i : best), indexes[0]!);
}

/**
 * The best approximate place of `q` in `hay`: pieces of the quote vote for where it would start; each of the few
 * most voted places is compared with the quote by edit distance, the match free to start and end anywhere near it
 * (Sellers' algorithm over a window a little longer than the quote).
 */
function approximate(hay: string, q: string): { from: number; to: number; similarity: number } | null {
  const votes = new Map<number, number>();
  const step = Math.max(1, Math.floor((q.length - SEED) / (MAX_SEEDS - 1)));
  for (let k = 0; k + SEED <= q.length && k / step < MAX_SEEDS; k += step) {
    const piece = q.slice(k, k + SEED);
    for (const i of allIndexes(hay, piece)) {
      // Start positions within a few characters vote together.
      const start = Math.max(0, i - k);
      const bucket = start - (start % 4);
      votes.set(bucket, (votes.get(bucket) ?? 0) + 1);
    }
  }
  const candidates = [...votes.entries()].filter(([, n]) => n >= 2).sort((a, b) => b[1] - a[1]).slice(0, MAX_CANDIDATES);
  let best: { from: number; to: number; similarity: number } | null = null;
  const slack = Math.ceil(q.length * 0.25) + 4;
  for (const [start] of candidates) {
    const from = Math.max(0, start - slack);
    const window = hay.slice(from, Math.min(hay.length, start + q.length + slack));
    const m = sellers(window, q);
    const similarity = 1 - m.distance / q.length;
    if (!best || similarity > best.similarity) best = { from: from + m.from, to: from + m.to, similarity };
  }
  return best;
}

/** Approximate substring match: the least edit distance of `q` to any substring of `w`, and that substring. */
function sellers(w: string, q: string): { distance: number; from: number; to: number } {
  const m = q.length;
  // prev[i]: distance of q[0..i) ending at the current column; start[i]: where that match started in w.
  let prev = new Int32Array(m + 1), prevStart = new Int32Array(m + 1);
  for (let i = 0; i <= m; i++) { prev[i] = i; prevStart[i] = 0; }
  let best = { distance: m, from: 0, to: 0 };
  for (let j = 1; j <= w.length; j++) {
    const cur = new Int32Array(m + 1), curStart = new Int32Array(m + 1);
    cur[0] = 0;
    curStart[0] = j;
    for (let i = 1; i <= m; i++) {
      const sub = prev[i - 1]! + (q[i - 1] === w[j - 1] ? 0 : 1);
      const del = prev[i]! + 1;
      const ins = cur[i - 1]! + 1;
      if (sub <= del && sub <= ins) { cur[i] = sub; curStart[i] = prevStart[i - 1]!; }
      else if (del <= ins) { cur[i] = del; curStart[i] = prevStart[i]!; }
      else { cur[i] = ins; curStart[i] = curStart[i - 1]!; }
    }
    if (cur[m]! < best.distance) best = { distance: cur[m]!, from: curStart[m]!, to: j };
    prev = cur;
    prevStart = curStart;
  }
  return best;
}
