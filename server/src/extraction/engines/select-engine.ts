import type { Config } from '../../config/config.js';
import { AnthropicEngine } from './anthropic/anthropic-engine.js';
import type { ExtractionEngine } from './engine.js';
import { LocalEngine } from './local-engine.js';

/** The configured engine: Claude with ANTHROPIC_API_KEY (or EXTRACTION_ENGINE=anthropic), else the offline rules. */
export function selectEngine(config: Config['extraction']): ExtractionEngine {
  if (config.engine === 'anthropic' && config.anthropic.apiKey) {
    return new AnthropicEngine({ ...config.anthropic, apiKey: config.anthropic.apiKey, maxOutputTokens: 8192 });
  }
  return new LocalEngine();
}
