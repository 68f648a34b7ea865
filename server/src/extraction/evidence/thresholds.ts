// The confidence under which a value is withheld when a request does not say (`minConfidence`), per engine: chosen
// from the calibration measurements (README, "Evidence and confidence"), where precision on documents the rules were
// not written against reaches its target while most right values are kept.
export const DEFAULT_MIN_CONFIDENCE: Record<'local' | 'anthropic', number> = {
  local: 0.5,
  anthropic: 0.5,
};
