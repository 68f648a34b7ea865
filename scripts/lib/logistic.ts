// What the fitting scripts share: a seeded shuffle, folds by document stratified by language (read from a set's
// MANIFEST.jsonl), and an L2-regularised logistic regression over sparse rows fitted by full-batch Adam from zero,
// so a fit is the same on every run with the same data and seed.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { seeded } from './logistic-fit.js';

/** A seeded shuffle (mulberry32, as the classifier's folds). */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const rand = seeded(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [out[i], out[j]] = [out[j]!, out[i]!]; }
  return out;
}

/** Each document's language by `<dir>:<route>/<slug>`, from the sets' MANIFEST.jsonl files (absent: `unknown`). */
export function languagesOf(dirs: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const d of dirs) {
    const manifest = join(d, 'MANIFEST.jsonl');
    if (!existsSync(manifest)) continue;
    for (const line of readFileSync(manifest, 'utf8').split('\n').filter((l) => l.trim())) {
      const m = JSON.parse(line) as { path: string; language?: string };
      out.set(`${d}:${m.path}`, m.language ?? 'unknown');
    }
  }
  return out;
}

/** Folds by document, stratified by language: each language's documents dealt round the folds in turn. */
export function foldsByLanguage(docs: readonly string[], languageOf: (doc: string) => string, folds: number, seed: number): Map<string, number> {
  const out = new Map<string, number>();
  const byLang = new Map<string, string[]>();
  for (const d of docs) byLang.set(languageOf(d), [...(byLang.get(languageOf(d)) ?? []), d]);
  let next = 0;
  for (const lang of [...byLang.keys()].sort()) for (const d of shuffled([...byLang.get(lang)!].sort(), seed)) out.set(d, next++ % folds);
  return out;
}

export interface SparseRow { idx: number[]; val: number[]; y: number }

export const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

/** The fitted weights of an L2-regularised logistic regression; `penalty(j)` is feature j's L2 weight. */
export function fitLogistic(rows: readonly SparseRow[], dims: number, penalty: (j: number) => number, iterations = 600, rate = 0.05): Float64Array {
  const w = new Float64Array(dims), m = new Float64Array(dims), v = new Float64Array(dims), g = new Float64Array(dims);
  const pen = Float64Array.from({ length: dims }, (_, j) => penalty(j));
  const b1 = 0.9, b2 = 0.999;
  for (let t = 1; t <= iterations; t++) {
    g.fill(0);
    for (const r of rows) {
      let z = 0;
      for (let k = 0; k < r.idx.length; k++) z += w[r.idx[k]!]! * r.val[k]!;
      const err = sigmoid(z) - r.y;
      for (let k = 0; k < r.idx.length; k++) g[r.idx[k]!]! += err * r.val[k]!;
    }
    const c1 = 1 - b1 ** t, c2 = 1 - b2 ** t;
    for (let j = 0; j < dims; j++) {
      const grad = (g[j]! + pen[j]! * w[j]!) / rows.length;
      if (grad === 0 && m[j] === 0) continue;
      m[j] = b1 * m[j]! + (1 - b1) * grad;
      v[j] = b2 * v[j]! + (1 - b2) * grad * grad;
      w[j] = w[j]! - (rate * (m[j]! / c1)) / (Math.sqrt(v[j]! / c2) + 1e-8);
    }
  }
  return w;
}

export const predictRow = (w: Float64Array, r: Pick<SparseRow, 'idx' | 'val'>) => { let z = 0; for (let k = 0; k < r.idx.length; k++) z += w[r.idx[k]!]! * r.val[k]!; return sigmoid(z); };

/** One choice among candidates (or none of them): each candidate's sparse features, and which one is right (-1: none). */
export interface ChoiceQuery { rows: Array<Pick<SparseRow, 'idx' | 'val'>>; answer: number }

/**
 * A conditional logit (softmax over a query's candidates plus "none", whose score is 0), L2-regularised, fitted by
 * full-batch Adam from zero: the probability of the best candidate is the chance it is the field's value.
 */
export function fitChoice(queries: readonly ChoiceQuery[], dims: number, lambda: number, iterations = 300, rate = 0.1): Float64Array {
  const w = new Float64Array(dims), m = new Float64Array(dims), v = new Float64Array(dims), g = new Float64Array(dims);
  const b1 = 0.9, b2 = 0.999;
  for (let t = 1; t <= iterations; t++) {
    g.fill(0);
    for (const q of queries) {
      const s = q.rows.map((r) => { let z = 0; for (let k = 0; k < r.idx.length; k++) z += w[r.idx[k]!]! * r.val[k]!; return z; });
      const top = Math.max(0, ...s);
      const e = s.map((z) => Math.exp(z - top));
      const total = Math.exp(-top) + e.reduce((a, b) => a + b, 0);
      q.rows.forEach((r, i) => {
        const err = e[i]! / total - (i === q.answer ? 1 : 0);
        for (let k = 0; k < r.idx.length; k++) g[r.idx[k]!]! += err * r.val[k]!;
      });
    }
    const c1 = 1 - b1 ** t, c2 = 1 - b2 ** t;
    for (let j = 0; j < dims; j++) {
      const grad = (g[j]! + lambda * w[j]!) / queries.length;
      if (grad === 0 && m[j] === 0) continue;
      m[j] = b1 * m[j]! + (1 - b1) * grad;
      v[j] = b2 * v[j]! + (1 - b2) * grad * grad;
      w[j] = w[j]! - (rate * (m[j]! / c1)) / (Math.sqrt(v[j]! / c2) + 1e-8);
    }
  }
  return w;
}

/** The probability of each candidate of a query under a conditional logit ("none" scores 0). */
export function choiceProbabilities(w: Float64Array, rows: ReadonlyArray<Pick<SparseRow, 'idx' | 'val'>>): number[] {
  const s = rows.map((r) => { let z = 0; for (let k = 0; k < r.idx.length; k++) z += w[r.idx[k]!]! * r.val[k]!; return z; });
  const top = Math.max(0, ...s);
  const e = s.map((z) => Math.exp(z - top));
  const total = Math.exp(-top) + e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / total);
}
