// The confidence under which a value is withheld when a request does not say (`minConfidence`), per engine: the
// contract's default, 0.5. The threshold the calibration recommends for 0.90 precision on unseen documents is written
// with the model (calibration.json `recommended`) and given in docs/evidence.md for callers who want it.
export const DEFAULT_MIN_CONFIDENCE: Record<'local' | 'anthropic', number> = {
  local: 0.5,
  anthropic: 0.5,
};

/**
 * The calibration an engine's evidence is scored with: the offline finders', or a model's quotes (located by the
 * service; Claude's fit, the only model fitted so far, serves any model's quotes: the same features).
 */
export const calibrationFamily = (engine: 'local' | 'anthropic' | 'openai'): 'local' | 'anthropic' => (engine === 'local' ? 'local' : 'anthropic');
