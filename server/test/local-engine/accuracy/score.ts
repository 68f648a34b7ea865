// The one field-level scorer kept in the repository (its comparison lives in server/src/evaluations/scoring.ts, where
// the service's evaluations use it too): the rules of ../shared/corpus/score.mjs (and of
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
import { compare, type Comparison, type Counts } from '../../../src/evaluations/scoring.js';

export { compare, judgeLeaves, tokenF1 } from '../../../src/evaluations/scoring.js';
type Json = unknown;
export type { Comparison, Counts } from '../../../src/evaluations/scoring.js';
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
