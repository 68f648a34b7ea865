// Calibrated confidence: a logistic model over the features of a value (features.ts), its weights and the finders'
// measured precision fitted by scripts/calibrate.ts on labelled documents, and shipped as data
// (server/models/calibration.json). Of the values given confidence c, about a fraction c are right.
import { readFileSync } from 'node:fs';
import type { Features } from './features.js';

export interface EngineModel {
  weights: Record<string, number>;
  /** Right and wrong answers of each finder (`route:field:finder`) on the calibration documents. */
  finders: Record<string, [number, number]>;
  /** Right and wrong answers of each field (`route:/pointer`, list indices as `*`). */
  fields: Record<string, [number, number]>;
  /** The share of right answers overall: the prior of a field or finder never seen. */
  base: number;
}

export interface CalibrationModel {
  /** When and on what the model was fitted, for a person reading it. */
  fitted: string;
  engines: Record<'local' | 'anthropic', EngineModel>;
  /**
   * Per engine, the lowest `minConfidence` at which the values kept reach 0.90 precision on held-out folds: what a
   * caller who wants that precision sends (docs/evidence.md). The default stays the contract's 0.5 (thresholds.ts).
   */
  recommended?: Partial<Record<'local' | 'anthropic', number>>;
}

/** server/models/ from server/src/extraction/evidence/ and from its build in server/dist/extraction/evidence/ alike. */
const MODEL_FILE = new URL('../../../models/calibration.json', import.meta.url);
let loaded: CalibrationModel | null = null;

/** The fitted model (server/models/calibration.json, written by scripts/calibrate.ts), read once. */
export const calibration = (): CalibrationModel => (loaded ??= JSON.parse(readFileSync(MODEL_FILE, 'utf8')) as CalibrationModel);

const logit = (p: number) => Math.log(p / (1 - p));
const clampP = (p: number) => Math.min(0.995, Math.max(0.005, p));

/** How many observations a prior is worth, pulling a finder's few answers towards its field's and the field's towards the base. */
const STRENGTH = 8;

/** The logit of what is known of a finder: its own record, shrunk towards its field's, shrunk towards the engine's base. */
export function priorLogit(model: EngineModel, field: string, finder: string | null): number {
  const [fr, fw] = model.fields[field] ?? [0, 0];
  const fieldP = (fr + STRENGTH * model.base) / (fr + fw + STRENGTH);
  if (!finder) return logit(clampP(fieldP));
  const [r, w] = model.finders[finder] ?? [0, 0];
  return logit(clampP((r + STRENGTH * fieldP) / (r + w + STRENGTH)));
}

export function confidenceOf(model: EngineModel, features: Features): number {
  let z = 0;
  for (const [name, x] of Object.entries(features)) z += (model.weights[name] ?? 0) * x;
  const p = 1 / (1 + Math.exp(-z));
  return Math.round(p * 1000) / 1000;
}
