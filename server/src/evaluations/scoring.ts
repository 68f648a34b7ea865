// The field-level comparison of an answer with its label, and the measures of confidence (ECE, AUROC): the rules of
// ../shared/corpus/score.mjs and ../shared/extraction-conventions.md. One copy, used by the service's evaluations
// (POST /v1/evaluations), the SDK's `docextract eval` (through its own build), and the accuracy scripts and tests
// (server/test/local-engine/accuracy re-exports it).
//
// Counts, over every leaf field: TP = a stated value returned and equal; FP = a value returned that is wrong or not
// stated in the document; FN = a stated value missed. Numbers match to the cent; short strings after case and
// whitespace folding; long text (clauses, addresses, quotes, descriptions) at token F1 >= 0.7; list items are paired
// by best match.
import { escapeStep } from '../extraction/evidence/pointers.js';

type Json = unknown;
export interface Counts { tp: number; fp: number; fn: number }
export interface Comparison extends Counts { misses: string[] }

const LONG_TEXT = new Set(['noticePeriodText', 'autoRenewalLanguage', 'priceEscalationText', 'address', 'task', 'description']);

const norm = (s: Json) => String(s).toLowerCase().normalize('NFKC').replace(/[\s\u00a0]+/g, ' ').replace(/^[\s.,;:'"-]+|[\s.,;:'"-]+$/g, '').trim();
const tokens = (s: Json) => norm(s).split(/[^\p{L}\p{N}$€£%.]+/u).filter(Boolean);

export function tokenF1(a: Json, b: Json): number {
  const ta = tokens(a), tb = tokens(b);
  if (!ta.length || !tb.length) return ta.length === tb.length ? 1 : 0;
  const pool = new Map<string, number>();
  for (const t of tb) pool.set(t, (pool.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of ta) if ((pool.get(t) ?? 0) > 0) { common++; pool.set(t, pool.get(t)! - 1); }
  return common === 0 ? 0 : (2 * common) / (ta.length + tb.length);
}

function sameScalar(key: string, want: Json, got: Json): boolean {
  if (typeof want === 'number') return typeof got === 'number' && Math.abs(want - got) < 0.005 + 1e-9 * Math.abs(want);
  if (typeof want === 'boolean') return got === want;
  if (typeof got !== 'string' && typeof got !== 'number') return false;
  if (LONG_TEXT.has(key) || norm(want).length > 40) return tokenF1(want, got) >= 0.7;
  return norm(want) === norm(got);
}

const isEmpty = (v: Json) => v === null || v === undefined || (Array.isArray(v) && v.length === 0);
const unwrap = (v: Json): Json =>
  v && typeof v === 'object' && !Array.isArray(v) && 'value' in v && 'sourceQuote' in v ? (v as { value: Json }).value : v;

function leaves(v: Json): number {
  if (isEmpty(v)) return 0;
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + leaves(x), 0);
  if (typeof v === 'object') return Object.values(v as object).reduce((n: number, x) => n + leaves(unwrap(x)), 0);
  return 1;
}

function similarity(key: string, want: Json, got: Json): number {
  if (typeof want !== 'object' || want === null) {
    if (sameScalar(key, want, got)) return 1;
    return typeof want === 'string' && typeof got === 'string' ? tokenF1(want, got) : 0;
  }
  if (typeof got !== 'object' || got === null) return 0;
  const c = compare(want, got);
  return c.tp / Math.max(1, c.tp + c.fp + c.fn);
}

/** Compares one labelled value with an answer, by the scorer's rules. */
export function compare(want: Json, gotRaw: Json, key = '', path = ''): Comparison {
  const r: Comparison = { tp: 0, fp: 0, fn: 0, misses: [] };
  const add = (o: Comparison) => { r.tp += o.tp; r.fp += o.fp; r.fn += o.fn; r.misses.push(...o.misses); };
  const got = unwrap(gotRaw);
  if (isEmpty(want)) {
    const n = leaves(got);
    if (n) r.misses.push(`${path}: expected nothing, got ${JSON.stringify(got).slice(0, 80)}`);
    r.fp += n;
    return r;
  }
  if (Array.isArray(want)) {
    const pool: Json[] = Array.isArray(got) ? [...got] : [];
    if (!Array.isArray(got) && !isEmpty(got)) r.fp += leaves(got);
    want.forEach((w: Json, i) => {
      let best = -1, bestScore = 0;
      pool.forEach((g, j) => { const s = similarity(key, w, g); if (s > bestScore) { bestScore = s; best = j; } });
      const threshold = typeof w === 'object' ? 0.34 : 0.7;
      if (best >= 0 && bestScore >= threshold) add(compare(w, pool.splice(best, 1)[0], key, `${path}[${i}]`));
      else { r.fn += leaves(w); r.misses.push(`${path}[${i}]: missed ${JSON.stringify(w).slice(0, 80)}`); }
    });
    for (const g of pool) { r.fp += leaves(g); r.misses.push(`${path}: extra ${JSON.stringify(g).slice(0, 80)}`); }
    return r;
  }
  if (typeof want === 'object') {
    const g = (got && typeof got === 'object' && !Array.isArray(got) ? got : {}) as Record<string, Json>;
    for (const k of Object.keys(want as object)) add(compare((want as Record<string, Json>)[k], g[k], k, path ? `${path}.${k}` : k));
    return r;
  }
  if (isEmpty(got)) { r.fn += 1; r.misses.push(`${path}: missed ${JSON.stringify(want)}`); }
  else if (sameScalar(key, want, got)) r.tp += 1;
  else { r.fn += 1; r.fp += 1; r.misses.push(`${path}: want ${JSON.stringify(want)}, got ${JSON.stringify(got).slice(0, 80)}`); }
  return r;
}

/**
 * Each non-null value of an answer judged right or wrong by the same rules as `compare` (list items paired by best
 * match), by its JSON Pointer in the answer (a renewal member's value at `/member/value`): what confidence is scored
 * against.
 */
export function judgeLeaves(want: Json, gotRaw: Json, key = '', pointer = '', out = new Map<string, boolean>()): Map<string, boolean> {
  const wrapped = gotRaw && typeof gotRaw === 'object' && !Array.isArray(gotRaw) && 'value' in gotRaw && 'sourceQuote' in gotRaw;
  const at = wrapped ? `${pointer}/value` : pointer;
  const got = unwrap(gotRaw);
  const allWrong = (v: Json, p: string) => {
    if (v === null || v === undefined) return;
    if (Array.isArray(v)) v.forEach((x, i) => allWrong(x, `${p}/${i}`));
    else if (typeof v === 'object') for (const [k, x] of Object.entries(v as object)) allWrong(unwrapAt(x, `${p}/${escapeStep(k)}`).v, unwrapAt(x, `${p}/${escapeStep(k)}`).p);
    else out.set(p, false);
  };
  if (isEmpty(want)) { allWrong(got, at); return out; }
  if (Array.isArray(want)) {
    const pool = (Array.isArray(got) ? got : []).map((g, j) => ({ g, j }));
    if (!Array.isArray(got)) allWrong(got, at);
    want.forEach((w: Json) => {
      let best = -1, bestScore = 0;
      pool.forEach(({ g }, k) => { const sc = similarity(key, w, g); if (sc > bestScore) { bestScore = sc; best = k; } });
      const threshold = typeof w === 'object' ? 0.34 : 0.7;
      if (best >= 0 && bestScore >= threshold) { const { g, j } = pool.splice(best, 1)[0]!; judgeLeaves(w, g, key, `${at}/${j}`, out); }
    });
    for (const { g, j } of pool) allWrong(g, `${at}/${j}`);
    return out;
  }
  if (typeof want === 'object') {
    const g = (got && typeof got === 'object' && !Array.isArray(got) ? got : {}) as Record<string, Json>;
    for (const k of Object.keys(g)) if (!(k in (want as object))) allWrong(g[k], `${at}/${escapeStep(k)}`);
    for (const k of Object.keys(want as object)) judgeLeaves((want as Record<string, Json>)[k], g[k], k, `${at}/${escapeStep(k)}`, out);
    return out;
  }
  if (!isEmpty(got)) out.set(at, sameScalar(key, want, got));
  return out;
}

const unwrapAt = (v: Json, p: string) => (v && typeof v === 'object' && !Array.isArray(v) && 'value' in v && 'sourceQuote' in v ? { v: (v as { value: Json }).value, p: `${p}/value` } : { v, p });

/** Expected calibration error over 10 equal-width bins: the weighted gap between confidence and the share right. */
export function ece(values: { confidence: number; correct: boolean }[], bins = 10): number {
  if (values.length === 0) return 0;
  let sum = 0;
  for (let b = 0; b < bins; b++) {
    const inBin = values.filter((v) => Math.min(bins - 1, Math.floor(v.confidence * bins)) === b);
    if (inBin.length === 0) continue;
    const conf = inBin.reduce((s, v) => s + v.confidence, 0) / inBin.length;
    const acc = inBin.filter((v) => v.correct).length / inBin.length;
    sum += (inBin.length / values.length) * Math.abs(conf - acc);
  }
  return sum;
}

/** Area under the ROC curve of confidence against correctness (the chance a right value outranks a wrong one). */
export function auroc(values: { confidence: number; correct: boolean }[]): number {
  const right = values.filter((v) => v.correct).map((v) => v.confidence);
  const wrong = values.filter((v) => !v.correct).map((v) => v.confidence);
  if (right.length === 0 || wrong.length === 0) return 1;
  const all = [...right.map((c) => ({ c, r: 1 })), ...wrong.map((c) => ({ c, r: 0 }))].sort((a, b) => a.c - b.c);
  // Mann-Whitney U with average ranks for ties.
  let rankSum = 0;
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && all[j]!.c === all[i]!.c) j++;
    const avg = (i + j + 1) / 2;
    for (let k = i; k < j; k++) if (all[k]!.r === 1) rankSum += avg;
    i = j;
  }
  return (rankSum - (right.length * (right.length + 1)) / 2) / (right.length * wrong.length);
}

