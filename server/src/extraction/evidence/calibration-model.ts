// Written by scripts/calibrate.ts: do not edit by hand. Refit with `npx tsx scripts/calibrate.ts`.
import type { CalibrationModel } from './confidence.js';

export const CALIBRATION: CalibrationModel = {
  fitted: 'placeholder before the first fit: prior only',
  engines: {
    local: { weights: { prior: 1, unplaced: -4, checks_failed: -1, checks_held: 0.3 }, finders: {}, fields: {}, base: 0.85 },
    anthropic: { weights: { prior: 1, unplaced: -4, checks_failed: -1, checks_held: 0.3, how_approximate: -0.8, dissimilar: -3 }, finders: {}, fields: {}, base: 0.9 },
  },
};
