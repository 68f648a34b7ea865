// The ranker's fitted weights (server/models/ranker.json, written by scripts/fit-ranker.ts), read once, and the
// probability it gives a candidate. Inference is a sum of hashed weights: no library, nothing downloaded.
import { existsSync, readFileSync } from 'node:fs';
import { hash32 } from '../../../evidence/context-words.js';

export interface RankerModel {
  /** When and on what it was fitted, for a person reading it. */
  fitted: string;
  /** Buckets the feature strings are hashed into (a power of two). */
  buckets: number;
  /** A candidate is answered when its probability reaches this (chosen on held-out folds). */
  threshold: number;
  /** Each field's own threshold (`invoice:/total`, `custom:date`), chosen the same way; above 1: never answered. */
  thresholds?: Record<string, number>;
  /** Weights by bucket; a bucket not listed weighs 0. */
  weights: Record<string, number>;
}

/** server/models/ from server/src/... and from its build in server/dist/... alike. */
const MODEL_FILE = new URL('../../../../../models/ranker.json', import.meta.url);
let loaded: RankerModel | null | undefined;

/** The fitted ranker, or null where none has been fitted (the finders then answer alone). */
export function rankerModel(): RankerModel | null {
  if (loaded === undefined) loaded = existsSync(MODEL_FILE) ? (JSON.parse(readFileSync(MODEL_FILE, 'utf8')) as RankerModel) : null;
  return loaded;
}

/** The model's probability for a candidate's feature strings. */
export function probability(model: Pick<RankerModel, 'buckets' | 'weights'>, features: readonly string[]): number {
  let z = 0;
  for (const s of features) z += model.weights[hash32(s) & (model.buckets - 1)] ?? 0;
  return 1 / (1 + Math.exp(-z));
}

/** The buckets of feature strings (for fitting). */
export const bucketsOf = (features: readonly string[], buckets: number): number[] => features.map((s) => hash32(s) & (buckets - 1));
