// The confidence under which a value is withheld when a request does not say (`minConfidence`), per engine: chosen by
// scripts/calibrate.ts on held-out folds (the lowest threshold at which the kept values reach the precision target)
// and written with the model; 0.5 where the model names none.
import { calibration } from './confidence.js';

export const DEFAULT_MIN_CONFIDENCE: Record<'local' | 'anthropic', number> = {
  local: calibration().thresholds?.local ?? 0.5,
  anthropic: calibration().thresholds?.anthropic ?? 0.5,
};
