// What the learned classifier reads of a document: hashed character n-grams of its words (1 to 4, with the word's
// edges), its words and word pairs, the words of its first lines (where titles stand), and facts of its shape (short
// lines ending in amounts are a till roll; numbered clauses a contract; times and bullets minutes). Text is NFKC-folded and lower-cased, digits read as `0`, so label words in
// any language and script are features without a list of them. Pure functions: the fitting script and the service
// compute the same vector.

/** How many hashed features there are (a power of two): collisions cost little at this size, and the model stays small. */
export const FEATURE_BITS = 17;
const SIZE = 1 << FEATURE_BITS;
const MASK = SIZE - 1;
/** What is read of a document: its head, where titles and labels are. */
export const FEATURE_CHARS = 12_000;
/** Lines that may hold a title. */
const TITLE_LINES = 6;

export interface SparseVector {
  index: Int32Array;
  value: Float32Array;
  /** The length of the counts before scaling. */
  norm?: number;
}

/**
 * The least length a vector is scaled by: a document's vector has unit length, a short text's (a cover note, `Thanks!`)
 * less, in proportion, so a few words cannot make the model sure of a kind.
 */
export const MIN_NORM = 55;

// FNV-1a over UTF-16 units, seeded per kind of feature so `w:` words and n-grams do not share buckets by design.
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const mix = (h: number, c: number) => Math.imul(h ^ c, FNV_PRIME) >>> 0;
function hashString(seed: number, s: string): number {
  let h = mix(FNV_OFFSET, seed);
  for (let i = 0; i < s.length; i++) h = mix(h, s.charCodeAt(i));
  return h;
}

const SEED = { char: 1, word: 2, pair: 3, title: 4, titleChar: 5, shape: 7 } as const;

/**
 * Adds one occurrence of hashed feature `h`, keyed by its bucket (the low FEATURE_BITS bits) and its sign (the next
 * bit): features that share a bucket with opposite signs cancel rather than add up.
 */
function add(counts: Counts, h: number): void {
  const key = h & (2 * SIZE - 1);
  counts.n[key] = counts.n[key]! + 1;
  if (counts.n[key] === 1) counts.touched.push(key);
}

/** Occurrences by key, in a table reused from document to document (a Map is several times slower here). */
interface Counts { n: Uint32Array; touched: number[] }
let scratch: Uint32Array | undefined;

/** Character n-grams (1..4) of `<word>`, hashed without building their strings. */
function addCharGrams(counts: Counts, word: string, seed: number): void {
  // A run of Han, Kana or Thai text is one "word" here: its n-grams are what its words are made of.
  const w = `<${word}>`;
  for (let i = 0; i < w.length; i++) {
    let h = mix(FNV_OFFSET, seed);
    for (let n = 1; n <= 4 && i + n <= w.length; n++) {
      h = mix(h, w.charCodeAt(i + n - 1));
      add(counts, mix(h, n));
    }
  }
}

/** The text as features are read from it: NFKC (full-width letters as ASCII), lower case, every digit `0`. */
export function normaliseForFeatures(text: string): string {
  return text.slice(0, FEATURE_CHARS).normalize('NFKC').toLowerCase().replace(/\p{Nd}/gu, '0');
}

const WORD = /[\p{L}\p{M}\p{Nd}]+/gu;
const bucket = (x: number, edges: number[]) => edges.findIndex((e) => x <= e);

/** A document's feature vector: sub-linear counts (1 + ln n), scaled to unit length (a short text's shorter: MIN_NORM). */
export function featureVector(text: string): SparseVector {
  scratch ??= new Uint32Array(2 * SIZE);
  const counts: Counts = { n: scratch, touched: [] };
  const s = normaliseForFeatures(text);
  const words = s.match(WORD) ?? [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    addCharGrams(counts, w, SEED.char);
    add(counts, hashString(SEED.word, w));
    if (i + 1 < words.length) add(counts, hashString(SEED.pair, `${w} ${words[i + 1]}`));
  }
  const lines = s.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  for (const line of lines.slice(0, TITLE_LINES)) {
    for (const w of line.match(WORD) ?? []) {
      add(counts, hashString(SEED.title, w));
      addCharGrams(counts, w, SEED.titleChar);
    }
  }
  return toVector(counts, shapeFeatures(lines));
}

/**
 * How much a shape feature weighs against one word's (1): shapes carry across languages and scripts, where a
 * language the corpus has few documents of has few words the model knows.
 */
const SHAPE_WEIGHT = 6;
const SHAPES: Array<[string, RegExp, 'lines' | 'count']> = [
  ['amount-end', /0[.,]00\s*\S{0,4}$/, 'lines'], ['amount', /0[.,]00(?!0)/, 'lines'], ['label', /^[^:：]{1,32}[:：]/, 'lines'],
  ['bullet', /^(?:[-•*·▪–]|\(?[0a-z][.)])\s/, 'lines'], ['clause', /^0{1,2}(?:\.0{1,2})+\.?\s/, 'lines'], ['long', /^.{90,}$/, 'lines'],
  ['date', /\b0{1,4}[./-]0{1,2}[./-]0{2,4}\b|0{4}年|0{1,2}月/g, 'count'], ['time', /\b0{1,2}[:h]0{2}\b/g, 'count'],
  ['percent', /%/g, 'count'], ['money-sign', /[$€£¥₹₩₫฿₪₺₽]/g, 'count'], ['email', /@/g, 'count'], ['question', /[?？]/g, 'count'],
];

/** The page's shape, as bucketed facts: how long its lines are, how many end in an amount, hold a label, a bullet, a clause number. */
function shapeFeatures(lines: string[]): Map<number, number> {
  const out = new Map<number, number>();
  const put = (name: string, b: number) => { const h = hashString(SEED.shape, `${name}:${b}`); out.set(h & MASK, (out.get(h & MASK) ?? 0) + (h & SIZE ? -1 : 1) * SHAPE_WEIGHT); };
  if (lines.length === 0) return out;
  const lengths = lines.map((l) => l.length).sort((a, b) => a - b);
  put('median', bucket(lengths[Math.floor(lengths.length / 2)]!, [15, 25, 35, 50, 70, 100, Infinity]));
  put('lines', bucket(lines.length, [5, 10, 20, 40, 80, Infinity]));
  const text = lines.join('\n');
  for (const [name, re, how] of SHAPES) {
    if (how === 'lines') put(name, bucket(lines.filter((l) => re.test(l)).length / lines.length, [0, 0.05, 0.15, 0.3, 0.5, Infinity]));
    else put(name, bucket((text.match(re) ?? []).length, [0, 1, 3, 8, 20, Infinity]));
  }
  return out;
}

let merged: Float64Array | undefined;
function toVector(counts: Counts, fixed: Map<number, number>): SparseVector {
  merged ??= new Float64Array(SIZE);
  const indexes: number[] = [];
  const put = (index: number, v: number) => { if (merged![index] === 0 && v !== 0) indexes.push(index); merged![index] = merged![index]! + v; };
  for (const [index, v] of fixed) put(index, v);
  for (const key of counts.touched) {
    put(key & MASK, (key & SIZE ? -1 : 1) * (1 + Math.log(counts.n[key]!)));
    counts.n[key] = 0;
  }
  const used = [...new Set(indexes)].sort((a, b) => a - b);
  let norm = 0;
  for (const i of used) norm += merged[i]! * merged[i]!;
  const length = Math.sqrt(norm);
  norm = Math.max(length, MIN_NORM);
  const index = new Int32Array(used.length), value = new Float32Array(used.length);
  used.forEach((i, k) => { index[k] = i; value[k] = merged![i]! / norm; merged![i] = 0; });
  return { index, value, norm: length };
}

export const FEATURE_SIZE = SIZE;
