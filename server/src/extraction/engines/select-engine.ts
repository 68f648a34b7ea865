import type { Config } from '../../config/config.js';
import { AnthropicEngine } from './anthropic/anthropic-engine.js';
import type { ExtractionEngine } from './engine.js';
import { LOCAL_MODEL, LocalEngine } from './local-engine.js';
import { ModelChoice } from './model-choice.js';
import { CascadeEngine } from './cascade/cascade-engine.js';
import { OpenAIEngine } from './openai/openai-engine.js';

/**
 * The configured engine: Claude with ANTHROPIC_API_KEY (or EXTRACTION_ENGINE=anthropic), OPENAI_MODEL on an
 * OpenAI-compatible server with EXTRACTION_ENGINE=openai, the cascade of the offline rules and either, else the
 * offline rules.
 */
export function selectEngine(config: Config['extraction']): ModelChoice {
  const { apiKey, routeModels, model } = config.anthropic;
  if (config.engine === 'cascade') {
    // One offline engine (one pool of threads) in front of each model a request or route may choose.
    const offline = new LocalEngine(config.local);
    const models = cascadeModels(config);
    const cascades = new Map([...models.engines].map(([id, engine]) => [id, new CascadeEngine(offline, engine, config.cascade.keep)]));
    return new ModelChoice(cascades, models.defaultModel, models.routeModels);
  }
  if (config.engine === 'openai' && config.openai.model) return new ModelChoice(openaiEngines(config), config.openai.model);
  if (config.engine === 'anthropic' && apiKey) return new ModelChoice(anthropicEngines(config), model, routeModels);
  return new ModelChoice(new Map([[LOCAL_MODEL, new LocalEngine(config.local)]]), LOCAL_MODEL);
}

/** One Claude engine per model a request or route may choose, each built from its own row of the capability table. */
function anthropicEngines(config: Config['extraction']): Map<string, ExtractionEngine> {
  const { apiKey, allowedModels } = config.anthropic;
  if (!apiKey) throw new Error('the Claude engine needs ANTHROPIC_API_KEY');
  return new Map(allowedModels.map((id) => [id, new AnthropicEngine({ ...config.anthropic, apiKey, model: id })]));
}

/** The cascade's model engines (CASCADE_MODEL_ENGINE), with their default and per-route models. */
function cascadeModels(config: Config['extraction']): { engines: Map<string, ExtractionEngine>; defaultModel: string; routeModels: Record<string, string> } {
  switch (config.cascade.modelEngine) {
    case 'anthropic':
      return { engines: anthropicEngines(config), defaultModel: config.anthropic.model, routeModels: config.anthropic.routeModels };
    case 'openai':
      return { engines: openaiEngines(config), defaultModel: openaiModel(config), routeModels: {} };
  }
}

/** The one model an OpenAI-compatible server is asked for (OPENAI_MODEL). */
function openaiModel(config: Config['extraction']): string {
  if (!config.openai.model) throw new Error('the OpenAI-compatible engine needs OPENAI_MODEL');
  return config.openai.model;
}

function openaiEngines(config: Config['extraction']): Map<string, ExtractionEngine> {
  const model = openaiModel(config);
  return new Map([[model, new OpenAIEngine({ ...config.openai, model })]]);
}

/**
 * What the start log says about the engine: for Claude, the settings its model gets from the capability table
 * (a warning when the model is not in it: it then gets the most conservative settings).
 */
export function describeEngine(engine: ExtractionEngine): { level: 'info' | 'warn'; fields: Record<string, unknown>; message: string }[] {
  if (engine instanceof ModelChoice) return engine.models.map((id) => describeOne(engine.engineFor('', id)));
  return [describeOne(engine)];
}

function describeOne(engine: ExtractionEngine): { level: 'info' | 'warn'; fields: Record<string, unknown>; message: string } {
  if (engine instanceof CascadeEngine) {
    const model = describeOne(engine.model);
    return { ...model, fields: { ...model.fields, cascade: true, keep: engine.keep }, message: `cascade: offline rules first, values at confidence ${engine.keep} or more kept; ${model.message}` };
  }
  if (engine instanceof OpenAIEngine) {
    const { model, baseUrl, structuredOutputs, vision } = engine.settings;
    const price = engine.price;
    const fields = { engine: engine.name, model, server: new URL(baseUrl).host, structuredOutputs, vision, priceInput: price.input, priceOutput: price.output, priced: price.known };
    return { level: 'info', fields, message: `extraction engine: ${model} on ${new URL(baseUrl).host} (OpenAI-compatible; ${price.known ? `$${price.input}/$${price.output} per million tokens in/out` : 'no price known: counted at 0'})` };
  }
  if (!(engine instanceof AnthropicEngine)) return { level: 'info', fields: { engine: engine.name }, message: 'extraction engine: offline rules' };
  const c = engine.capabilities;
  const fields = {
    engine: engine.name, model: c.id, knownModel: c.known, thinkingOff: c.thinkingOff?.type ?? null, effort: c.effort,
    structuredOutputs: c.structuredOutputs, forcedToolChoice: c.forcedToolChoice, cacheMinTokens: c.cacheMinTokens, maxOutputTokens: c.maxOutputTokens, source: c.source,
  };
  if (engine.thinkingStaysOn) {
    return { level: 'warn', fields, message: `extraction engine: ${c.id}, whose thinking cannot be turned off at effort ${engine.effort} (only at low to high): it stays on (adaptive); set ANTHROPIC_EFFORT=high or lower to turn it off` };
  }
  return c.known
    ? { level: 'info', fields, message: `extraction engine: ${c.id}` }
    : { level: 'warn', fields, message: `extraction model ${c.id} is not in the capability table: using the most conservative settings (no structured outputs, thinking or effort parameters, caching)` };
}
