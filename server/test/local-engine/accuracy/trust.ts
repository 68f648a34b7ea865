// What the answers of a labelled set say of their own trustworthiness: every value the offline engine found, with its
// evidence and confidence (the service's own pipeline: the engine's task, then evidence/assemble.ts), judged right or
// wrong by the scorer's rules. Used by scripts/calibrate.ts (to fit the confidence model), scripts/score-local.ts and
// accuracy.test.ts (calibration, evidence and precision at the default threshold, with floors in CI).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FixedKind, JsonSchema } from '../../../src/extraction/engines/engine.js';
import { runLocalTask } from '../../../src/extraction/engines/local-pool/local-task.js';
import { assembleEvidence, type ScoredValue } from '../../../src/extraction/evidence/assemble.js';
import type { EngineModel } from '../../../src/extraction/evidence/confidence.js';
import { DEFAULT_MIN_CONFIDENCE } from '../../../src/extraction/evidence/thresholds.js';
import { dataSchemaFor } from '../../../src/extraction/schemas/contract-schemas.js';
import { prepareCustomSchema } from '../../../src/extraction/schemas/custom-schema.js';
import { auroc, ece } from '../../../src/evaluations/scoring.js';
import { findAmounts } from '../../../src/extraction/engines/local/normalise/money.js';
import { findDates } from '../../../src/extraction/engines/local/normalise/dates.js';
import { withhold } from '../../../src/extraction/evidence/withhold.js';
import { compare, judgeLeaves, routeFolders, tokenF1, type Counts } from './score.js';

export interface JudgedValue extends ScoredValue {
  doc: string;
  correct: boolean;
}

export interface DocTrust {
  doc: string;
  route: string;
  text: string;
  label: unknown;
  /** The answer with nothing withheld, and every value in it scored and judged. */
  data: unknown;
  values: JudgedValue[];
}

/** Runs the offline engine and the evidence assembly on every labelled document of a set. */
export function trustOfSet(corpus: string, opts: { route?: string; model?: EngineModel } = {}): DocTrust[] {
  const out: DocTrust[] = [];
  for (const route of routeFolders(corpus).filter((r) => !opts.route || r === opts.route)) {
    for (const file of readdirSync(join(corpus, route)).filter((f) => f.endsWith('.txt')).sort()) {
      const slug = basename(file, '.txt');
      const labelFile = join(corpus, route, `${slug}.json`);
      if (!existsSync(labelFile)) continue;
      const text = readFileSync(join(corpus, route, file), 'utf8');
      const label = JSON.parse(readFileSync(labelFile, 'utf8')) as unknown;
      let task, schema: JsonSchema;
      if (route === 'custom') {
        const schemaFile = join(corpus, route, `${slug}.schema.json`);
        if (!existsSync(schemaFile)) continue;
        const raw = JSON.parse(readFileSync(schemaFile, 'utf8')) as JsonSchema;
        task = { kind: 'custom' as const, schema: raw };
        schema = prepareCustomSchema(raw);
      } else {
        task = { kind: route as FixedKind };
        schema = dataSchemaFor(route as FixedKind);
      }
      const answer = runLocalTask({ task, text, schema });
      if (!answer.ok) continue;
      const assembled = assembleEvidence({ kind: route, engine: 'local', data: answer.data, schema, found: answer.found, text, minConfidence: 0, ...(opts.model ? { model: opts.model } : {}) });
      const judged = judgeLeaves(label, assembled.data);
      const doc = `${route}/${slug}`;
      out.push({ doc, route, text, label, data: assembled.data, values: assembled.scored.map((v) => ({ ...v, doc, correct: judged.get(v.pointer) ?? false })) });
    }
  }
  return out;
}

export { auroc, ece };

/** Whether an evidence quote holds the value as written (a figure, a date, the value's words); null for flags and derived values. */
export function quoteHoldsValue(value: unknown, quote: string, derived: boolean): boolean | null {
  if (derived || typeof value === 'boolean') return null;
  if (typeof value === 'number') return findAmounts(quote, 'us').concat(findAmounts(quote, 'eu')).some((a) => Math.abs(Math.abs(a.value) - Math.abs(value)) < 0.005)
    || new RegExp(`(?<![\\d.,])${value}(?![\\d])`).test(quote.replace(/\s/g, ''));
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const year = Number(value.slice(0, 4));
    return [true, false].some((dayFirst) => findDates(quote, { dayFirst, year }).some((d) => d.iso === value)) || quote.includes(value);
  }
  if (typeof value === 'string') {
    // The value's words are in the quote (a normalised code such as `EUR` from `€` is derived, not here).
    return tokenF1(value, quote) > 0 && value.toLowerCase().split(/\s+/).filter((w) => quote.toLowerCase().includes(w)).length / Math.max(1, value.split(/\s+/).length) >= 0.8;
  }
  return null;
}

export interface TrustScore {
  values: number;
  /** Values with evidence, of all non-null values returned (before withholding). */
  evidenceShare: number;
  /** Evidence whose quote holds the value as written, of the non-derived ones. */
  spanExact: number;
  ece: number;
  auroc: number;
  /** Field counts with the values under the threshold withheld. */
  atThreshold: Counts & { precision: number; recall: number; f1: number };
  threshold: number;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** The trust measurements of a set's answers at `threshold` (the engine's default unless said). */
export function scoreTrust(docs: DocTrust[], threshold = DEFAULT_MIN_CONFIDENCE.local): TrustScore {
  const values = docs.flatMap((d) => d.values);
  const withEvidence = values.filter((v) => v.evidence);
  const exact = withEvidence.map((v) => quoteHoldsValue(v.value, v.evidence!.quote, v.evidence!.derived)).filter((x) => x !== null);
  const counts: Counts = { tp: 0, fp: 0, fn: 0 };
  for (const d of docs) {
    const below = new Set(d.values.filter((v) => v.confidence < threshold).map((v) => v.pointer));
    const kept = withheldData(d.data, below);
    const c = compare(d.label, kept);
    counts.tp += c.tp; counts.fp += c.fp; counts.fn += c.fn;
  }
  const precision = counts.tp / Math.max(1, counts.tp + counts.fp), recall = counts.tp / Math.max(1, counts.tp + counts.fn);
  return {
    values: values.length,
    evidenceShare: round3(withEvidence.length / Math.max(1, values.length)),
    spanExact: round3(exact.filter(Boolean).length / Math.max(1, exact.length)),
    ece: round3(ece(values)),
    auroc: round3(auroc(values)),
    atThreshold: { ...counts, precision: round3(precision), recall: round3(recall), f1: round3(counts.tp ? (2 * counts.tp) / (2 * counts.tp + counts.fp + counts.fn) : 0) },
    threshold,
  };
}

/** The answer with the values at `pointers` taken out, as the service withholds them (evidence/withhold.ts). */
const withheldData = (data: unknown, pointers: Set<string>) => withhold(data, pointers, false).data;
