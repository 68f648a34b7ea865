// The one field-level scorer kept in the repository: the rules of ../shared/corpus/score.mjs (and of
// ../shared/extraction-conventions.md), run in-process against the offline engine. Used by accuracy.test.ts (the floors
// CI holds) and scripts/score-local.ts (the report a person reads).
//
// Counts, over every leaf field: TP = a stated value returned and equal; FP = a value returned that is wrong or not
// stated in the document; FN = a stated value missed. F1 = 2TP / (2TP + FP + FN). Numbers match to the cent; short
// strings after case and whitespace folding; long text (clauses, addresses, quotes, descriptions) at token F1 >= 0.7;
// list items are paired by best match. Renewal quotes are also checked verbatim against the document (grounding).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { extractCustom, extractFixed } from '../../../src/extraction/engines/local/index.js';
import type { FixedKind, JsonSchema } from '../../../src/extraction/engines/engine.js';
import { escapeStep } from '../../../src/extraction/evidence/pointers.js';

type Json = unknown;
export interface Counts { tp: number; fp: number; fn: number }
export interface Comparison extends Counts { misses: string[] }
export interface RouteScore extends Counts { docs: number; f1: number }
export interface SetScore extends Counts {
  routes: Record<string, RouteScore>;
  f1: number;
  precision: number;
  recall: number;
  /** Share of renewal sourceQuotes found in their document; null when none was returned. */
  groundedQuotes: number | null;
  /** `route/slug field: what went wrong`, for a person reading a failure. */
  misses: string[];
}

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

const squash = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
/** Renewal quotes returned, and how many of them are found in the document. */
export function grounding(data: Json, text: string): { quotes: number; found: number } {
  let quotes = 0, found = 0;
  for (const v of Object.values((data ?? {}) as object)) {
    const q = v && typeof v === 'object' ? (v as { sourceQuote?: unknown }).sourceQuote : undefined;
    if (typeof q === 'string' && q.trim()) { quotes++; if (squash(text).includes(squash(q))) found++; }
  }
  return { quotes, found };
}

const f1 = (c: Counts) => (c.tp ? (2 * c.tp) / (2 * c.tp + c.fp + c.fn) : 0);
const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The route folders of a labelled set: folders directly holding documents (nested sets are scored on their own). */
export function routeFolders(corpus: string): string[] {
  return readdirSync(corpus, { withFileTypes: true })
    .filter((d) => d.isDirectory() && readdirSync(join(corpus, d.name)).some((f) => f.endsWith('.txt')))
    .map((d) => d.name)
    .sort();
}

/**
 * The offline engine's answer for one labelled document (`null` for a custom document without its schema); `trace`
 * collects which finder answered each field of a fixed route, for the report's misses.
 */
export function predictLocal(corpus: string, route: string, slug: string, text: string, trace?: Record<string, string>): Json {
  if (route === 'custom') {
    const schemaFile = join(corpus, route, `${slug}.schema.json`);
    if (!existsSync(schemaFile)) return null;
    return extractCustom(JSON.parse(readFileSync(schemaFile, 'utf8')) as JsonSchema, text);
  }
  return extractFixed(route as FixedKind, text, trace);
}

/** Scores every labelled document of a set (`<corpus>/<route>/<slug>.txt` beside `<slug>.json`). */
export function scoreSet(corpus: string, opts: { route?: string; predict?: typeof predictLocal } = {}): SetScore {
  const predict = opts.predict ?? predictLocal;
  const total: Counts = { tp: 0, fp: 0, fn: 0 };
  const quotes = { quotes: 0, found: 0 };
  const routes: Record<string, RouteScore> = {};
  const misses: string[] = [];
  for (const route of routeFolders(corpus).filter((r) => !opts.route || r === opts.route)) {
    const acc = { tp: 0, fp: 0, fn: 0, docs: 0 };
    for (const file of readdirSync(join(corpus, route)).filter((f) => f.endsWith('.txt')).sort()) {
      const slug = basename(file, '.txt');
      const labelFile = join(corpus, route, `${slug}.json`);
      if (!existsSync(labelFile)) continue;
      const text = readFileSync(join(corpus, route, file), 'utf8');
      const want = JSON.parse(readFileSync(labelFile, 'utf8')) as Json;
      const trace: Record<string, string> = {};
      const got = predict(corpus, route, slug, text, trace);
      const c = compare(want, got ?? {});
      acc.tp += c.tp; acc.fp += c.fp; acc.fn += c.fn; acc.docs++;
      if (route === 'renewal' && got) { const g = grounding(got, text); quotes.quotes += g.quotes; quotes.found += g.found; }
      // `vendor.name: want ..., got ...  [by letterhead]`: a wrong value names the finder that gave it.
      for (const m of c.misses) {
        const by = trace[m.slice(0, m.indexOf(':')).replace(/\[\d+\].*$/, '')];
        misses.push(`${route}/${slug} ${m}${by && / got | extra /.test(m) ? `  [by ${by}]` : ''}`);
      }
    }
    routes[route] = { ...acc, f1: round3(f1(acc)) };
    total.tp += acc.tp; total.fp += acc.fp; total.fn += acc.fn;
  }
  return {
    ...total,
    routes,
    f1: round3(f1(total)),
    precision: round3(total.tp / Math.max(1, total.tp + total.fp)),
    recall: round3(total.tp / Math.max(1, total.tp + total.fn)),
    groundedQuotes: quotes.quotes ? round3(quotes.found / quotes.quotes) : null,
    misses,
  };
}
