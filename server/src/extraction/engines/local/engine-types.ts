// The engine's output types, re-exported from the contract so route modules import one place.
export type { FixedData, FixedKind, JsonSchema } from '../engine.js';
