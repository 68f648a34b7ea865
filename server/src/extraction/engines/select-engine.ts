import type { Config } from '../../config/config.js';
import { AnthropicEngine } from './anthropic/anthropic-engine.js';
import type { ExtractionEngine } from './engine.js';
import { LocalEngine } from './local-engine.js';

/** The configured engine: Claude with ANTHROPIC_API_KEY (or EXTRACTION_ENGINE=anthropic), else the offline rules. */
export function selectEngine(config: Config['extraction']): ExtractionEngine {
  if (config.engine === 'anthropic' && config.anthropic.apiKey) {
    return new AnthropicEngine({ ...config.anthropic, apiKey: config.anthropic.apiKey });
  }
  return new LocalEngine(config.local);
}

/**
 * What the start log says about the engine: for Claude, the settings its model gets from the capability table
 * (a warning when the model is not in it: it then gets the most conservative settings).
 */
export function describeEngine(engine: ExtractionEngine): { level: 'info' | 'warn'; fields: Record<string, unknown>; message: string } {
  if (!(engine instanceof AnthropicEngine)) return { level: 'info', fields: { engine: engine.name }, message: 'extraction engine: offline rules' };
  const c = engine.capabilities;
  const fields = {
    engine: engine.name, model: c.id, knownModel: c.known, thinkingOff: c.thinkingOff?.type ?? null, effort: c.effort,
    structuredOutputs: c.structuredOutputs, forcedToolChoice: c.forcedToolChoice, cacheMinTokens: c.cacheMinTokens, maxOutputTokens: c.maxOutputTokens, source: c.source,
  };
  return c.known
    ? { level: 'info', fields, message: `extraction engine: ${c.id}` }
    : { level: 'warn', fields, message: `extraction model ${c.id} is not in the capability table: using the most conservative settings (no structured outputs, thinking or effort parameters, caching)` };
}
