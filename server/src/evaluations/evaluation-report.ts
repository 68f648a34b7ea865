// An evaluation's report from what each document contributed: field counts per route and top-level field (the
// corpus scorer's comparison, scoring.ts), and every value found judged right or wrong with its confidence (ECE,
// AUROC, precision and recall at thresholds). Pure: the service stores the contributions, so documents added later
// (`evaluationId`) are reported together with the first ones.
import type { components } from '../../../generated/openapi.js';
import { withhold } from '../extraction/evidence/withhold.js';
import { auroc, compare, ece, judgeLeaves, type Counts } from './scoring.js';

type Schemas = components['schemas'];

/** What one document contributes to a report. */
export interface Contribution {
  route: string;
  /** Counts per top-level field of `data`, at the engine's default threshold (as a caller sees the answer). */
  fields: Record<string, Counts>;
  /** Every value found, with its confidence, and whether the label agrees. */
  values: Array<{ confidence: number; correct: boolean }>;
  /** Values the label states (what recall at a threshold is over). */
  stated: number;
}

export const THRESHOLDS = [0.5, 0.6, 0.7, 0.8, 0.9];

const round = (x: number) => Math.round(x * 1000) / 1000;
const measured = (c: Counts): Schemas['FieldCounts'] => ({
  tp: c.tp, fp: c.fp, fn: c.fn,
  precision: round(c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp)),
  recall: round(c.tp + c.fn === 0 ? 1 : c.tp / (c.tp + c.fn)),
  f1: round(c.tp + c.fp + c.fn === 0 ? 1 : (2 * c.tp) / (2 * c.tp + c.fp + c.fn)),
});
const add = (a: Counts, b: Counts): Counts => ({ tp: a.tp + b.tp, fp: a.fp + b.fp, fn: a.fn + b.fn });
const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });

/**
 * One document's contribution: `full` is the answer with every value found (extracted with `minConfidence: 0`),
 * `confidence` each value's confidence by pointer; the answer a caller would get withholds those under `threshold`.
 */
export function contributionOf(route: string, expected: unknown, full: unknown, confidence: Map<string, number>, threshold: number): Contribution {
  const below = new Set([...confidence].filter(([p, c]) => c < threshold && p !== '/documentKindGuess').map(([p]) => p));
  const returned = withhold(full, below, route === 'renewal').data as Record<string, unknown> | null;
  const want = (expected ?? {}) as Record<string, unknown>;
  const got = returned ?? {};
  const fields: Record<string, Counts> = {};
  for (const k of new Set([...Object.keys(want), ...Object.keys(got)])) {
    const { tp, fp, fn } = compare(want[k] ?? null, got[k], k, k);
    fields[k] = { tp, fp, fn };
  }
  const judged = judgeLeaves(expected, full);
  const values = [...confidence].map(([p, c]) => ({ confidence: c, correct: judged.get(p) ?? false }));
  const all = compare(expected, full);
  return { route, fields, values, stated: all.tp + all.fn };
}

/** The report's scores over every contribution. */
export function reportOf(contributions: Contribution[]): Pick<Schemas['Evaluation'], 'values' | 'routes' | 'overall' | 'ece' | 'auroc' | 'thresholds'> {
  const routes = new Map<string, { documents: number; fields: Map<string, Counts> }>();
  for (const c of contributions) {
    const r = routes.get(c.route) ?? { documents: 0, fields: new Map<string, Counts>() };
    r.documents++;
    for (const [f, counts] of Object.entries(c.fields)) r.fields.set(f, add(r.fields.get(f) ?? zero(), counts));
    routes.set(c.route, r);
  }
  let overall = zero();
  const routeScores: Schemas['RouteScore'][] = [...routes].sort(([a], [b]) => a.localeCompare(b)).map(([route, r]) => {
    const total = [...r.fields.values()].reduce(add, zero());
    overall = add(overall, total);
    return {
      route: route as Schemas['JobRoute'], documents: r.documents, ...measured(total),
      // Fields neither stated nor returned anywhere say nothing.
      fields: [...r.fields].filter(([, c]) => c.tp + c.fp + c.fn > 0).map(([field, counts]) => ({ field, ...measured(counts) })),
    };
  });
  const values = contributions.flatMap((c) => c.values);
  const stated = contributions.reduce((n, c) => n + c.stated, 0);
  const thresholds = values.length === 0 ? [] : THRESHOLDS.map((threshold) => {
    const kept = values.filter((v) => v.confidence >= threshold);
    const right = kept.filter((v) => v.correct).length;
    return { threshold, returned: kept.length, precision: round(kept.length ? right / kept.length : 1), recall: round(stated ? right / stated : 1) };
  });
  return { values: values.length, routes: routeScores, overall: measured(overall), ece: round(ece(values)), auroc: round(auroc(values)), thresholds };
}
