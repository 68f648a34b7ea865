// Small text shapes shared by the segmenter and the route mappers.

/** Trimmed, inner whitespace collapsed: the normal form of every text field. */
export const clean = (s: string) => s.replace(/[\s\u00a0]+/g, ' ').trim();

/** A bullet or list number at the start of a line: `-`, `*`, `•`, `1.`, `2)`, `a)`, `3.1`, `[ ]`. */
// `TOP 3` (German minutes' `Tagesordnungspunkt`) numbers an agenda item like `3.`.
export const BULLET_RE = /^\s*(?:[-*•·▪◦‣–—+>]|\(?\d{1,2}(?:\.\d{1,2})*[.)]?(?=\s)|\(?[a-zA-Z][.)](?=\s)|\(?[ivx]{1,4}[.)](?=\s)|\[[ xX]?\]|TOP\s?\d{1,2}[.:]?(?=\s))\s+/u;

/** The text of a list line without its bullet, or null when the line is not a list item. */
export function stripBullet(line: string): string | null {
  const m = BULLET_RE.exec(line);
  if (!m) return null;
  // A bare number followed by text is an item only when it ends with `.`/`)` or is dotted (3.1): `12 Oak St` is not.
  const marker = m[0].trim();
  if (/^\d{1,2}$/.test(marker)) return null;
  return clean(line.slice(m[0].length));
}

/** Removes trailing punctuation that closes a label or a list item. */
export const trimPunct = (s: string) => s.replace(/^[\s,;:.\-–—]+|[\s,;:\-–—]+$/g, '');

/** Removes parenthesised asides: `Helen Okafor (CMO)` -> `Helen Okafor`. */
export const dropParens = (s: string) => clean(s.replace(/\s*\([^)]*\)/g, ''));

/** Words of a label, lower-case, OCR look-alike digits read as letters (`Tota1` -> `total`). */
export function labelKey(label: string): string {
  // `小計 Subtotal`, `Σύνολο Total`: beside Latin words, words in another script are the same label in another language.
  label = label.normalize('NFC');
  const latin = /\p{Script=Latin}/u.test(label) && /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u.test(label)
    ? label.replace(/[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]+/gu, ' ') : label;
  return latin
    .toLowerCase()
    .replace(/\([^)]*\)/g, ' ')
    .replace(/\b[\d.,]+\s*%/g, ' ')
    .replace(/(?<=[a-z])[01](?=[a-z]|\b)|(?<=\b)[01](?=[a-z])/g, (d) => (d === '0' ? 'o' : 'l'))
    .replace(/\s+\/\s+/g, '\u0001')
    // Marks stay: Thai, Devanagari and Arabic write vowels as marks (`รวมทั้งสิ้น`).
    .replace(/[^\p{L}\p{M}\p{N}#\u0001]+/gu, ' ')
    .trim()
    .replace(/\s*\u0001\s*/g, ' / ');
}

/**
 * OCR look-alike digits inside words read as letters, keeping every position (`Tota1` -> `Total`,
 * `Subt0tal` -> `Subtotal`); codes such as `E10` or `A2` are left alone.
 */
export function ocrLetters(s: string): string {
  if (!/\p{L}[01]|[01]\p{L}/u.test(s)) return s;
  return s.replace(/(?<![\p{L}\p{N}])(?:\p{L}{2,}[01]|\p{L}+[01]\p{L}+|[01]\p{L}{3,})(?![\p{L}\p{N}])/gu, (w) => w.replace(/0/g, 'o').replace(/1/g, 'l'));
}

/** Optimal-string-alignment (Damerau-Levenshtein) distance, giving up above `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      // An adjacent swap (`Invocie`) is one slip, not two.
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Whether a short word (3-4 letters) differs from the synonym's by one dropped, added or swapped letter (`Dute` for `Due`). */
function shortSlip(a: string, b: string): boolean {
  if (a.length < 3 || b.length < 3 || !/^\p{L}+$/u.test(a)) return false;
  if (a.length === b.length) {
    // A swap of two neighbours only: a changed letter turns one short word into another (`rate`, `date`).
    const diff = [...a].map((c, i) => (c === b[i] ? -1 : i)).filter((i) => i >= 0);
    return diff.length === 2 && diff[1] === diff[0]! + 1 && a[diff[0]!] === b[diff[1]!] && a[diff[1]!] === b[diff[0]!];
  }
  return editDistance(a, b, 1) <= 1;
}

/**
 * Label keys of other languages than English (`EXACT_ONLY`) and of English (`FUZZY_OK`), filled by the lexicon
 * (lexicon/words.ts): a word of another language one slip of a letter from an English label of something else (`poste`
 * and `posted`, `data` and `date`) matches only as written; others keep the tolerance for OCR slips (`TOTA1 COMPLESSIVO`).
 */
export const EXACT_ONLY = new Set<string>();
export const FUZZY_OK = new Set<string>();

/**
 * Label equality that tolerates OCR slips (`Invoce Date`, `Subtotai`, `Dute Date`): word by word, so
 * `invoice no` never passes for `invoice to`. A word of five letters or more may carry one slip; a short word
 * may lose, gain or swap one letter when the label has other words that match exactly.
 */
function sameLabelUncached(key: string, synonym: string): boolean {
  if (key === synonym) return true;
  if (exactOnly(synonym)) return false;
  return oneSlipApart(key, synonym);
}

/** Whether a label of another language is one slip of a letter from an English label (`poste`, `posted`): then it matches only as written. */
const exactCache = new Map<string, boolean>();
function exactOnly(synonym: string): boolean {
  if (!EXACT_ONLY.has(synonym) || FUZZY_OK.has(synonym)) return false;
  let v = exactCache.get(synonym);
  if (v === undefined) {
    const words = synonym.split(' ').length;
    v = [-2, -1, 0, 1, 2].some((d) => (englishByShape().get(`${words}:${synonym.length + d}`) ?? []).some((en) => oneSlipApart(synonym, en)));
    exactCache.set(synonym, v);
  }
  return v;
}

/** English label keys by word count and length, built once the lexicon is loaded. */
let englishIndex: Map<string, string[]> | null = null;
function englishByShape(): Map<string, string[]> {
  if (englishIndex && englishIndex.size > 0) return englishIndex;
  englishIndex = new Map();
  for (const en of FUZZY_OK) { const k = `${en.split(' ').length}:${en.length}`; englishIndex.set(k, [...(englishIndex.get(k) ?? []), en]); }
  return englishIndex;
}

function oneSlipApart(key: string, synonym: string): boolean {
  // At most two slips of one letter each: a label much longer or shorter is another label.
  if (Math.abs(key.length - synonym.length) > 2) return false;
  const a = key.split(' '), b = synonym.split(' ');
  if (a.length !== b.length) return false;
  let slips = 0, exact = 0, short = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] === b[i]) { exact++; continue; }
    const w = b[i]!;
    if (w.length >= 5) { if (editDistance(a[i]!, w, 1) > 1) return false; }
    else if (b.length > 1 && shortSlip(a[i]!, w)) short++;
    else return false;
    slips++;
  }
  if (slips > (synonym.length >= 12 ? 2 : 1)) return false;
  return short === 0 || exact > 0;
}

export const sameLabel = sameLabelUncached;

/** A synonym list compiled once: exact set, the synonyms by word count (a slip never changes it), and the answers already given per key. */
interface Matcher { exact: Set<string>; list: readonly string[]; byWords: Map<number, string[]>; seen: Map<string, boolean> }
const matchers = new WeakMap<readonly string[], Matcher>();
const matchersByText = new Map<string, Matcher>();

function matcherFor(synonyms: readonly string[]): Matcher {
  let m = matchers.get(synonyms);
  if (m) return m;
  // Lists written inline at a call site are new arrays each time: find them by their text instead.
  const text = synonyms.join('\u0001');
  m = matchersByText.get(text);
  if (!m) {
    const byWords = new Map<number, string[]>();
    for (const syn of synonyms) { const n = syn.split(' ').length; byWords.set(n, [...(byWords.get(n) ?? []), syn]); }
    m = { exact: new Set(synonyms), list: synonyms, byWords, seen: new Map() };
    if (matchersByText.size > 2_000) matchersByText.clear();
    matchersByText.set(text, m);
  }
  matchers.set(synonyms, m);
  return m;
}

function isOf(key: string, m: Matcher): boolean {
  if (m.exact.has(key)) return true;
  let v = m.seen.get(key);
  if (v === undefined) {
    const len = key.length;
    v = (m.byWords.get(key.split(' ').length) ?? []).some((s) => Math.abs(s.length - len) <= 2 && sameLabelUncached(key, s));
    if (m.seen.size > 5_000) m.seen.clear();
    m.seen.set(key, v);
  }
  return v;
}

/**
 * Whether a label key matches any synonym exactly (with OCR tolerance). A label naming alternatives
 * (`Ship To / Bill To`) matches when one of them does.
 */
export function labelIs(key: string, synonyms: readonly string[]): boolean {
  const m = matcherFor(synonyms);
  if (isOf(key, m)) return true;
  return key.includes(' / ') && key.split(' / ').some((part) => isOf(part.trim(), m));
}

/** Whether a label key starts or ends with a synonym as whole words. */
export function labelHas(key: string, synonyms: readonly string[]): boolean {
  const m = matcherFor(synonyms);
  const cacheKey = `\u0002${key}`;
  const hit = m.seen.get(cacheKey);
  if (hit !== undefined) return hit;
  const words = key.replace(/ \/ /g, ' ').split(' ');
  const v = synonyms.some((syn) => {
    const n = syn.split(' ').length;
    if (n > words.length) return false;
    return sameLabel(words.slice(0, n).join(' '), syn) || sameLabel(words.slice(-n).join(' '), syn);
  });
  m.seen.set(cacheKey, v);
  return v;
}
