import type Anthropic from '@anthropic-ai/sdk';
import type { JsonSchema } from '../engine.js';
import { SYSTEM_PROMPT, TOOL_DESCRIPTION, TOOL_NAME } from './instructions.js';
import type { ModelCapabilities } from './models.js';

export type Effort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** How the engine's requests think: `off` turns thinking off (or to its lowest) where the model allows it. */
export interface ThinkingSettings {
  thinking: 'off' | 'model_default';
  effort: Effort | 'model_default';
}

/** Structured outputs (fixed routes) or the tool the model is told, not forced, to call (custom schemas). */
export type AnswerMode = { kind: 'structured'; schema: JsonSchema } | { kind: 'tool'; schema: JsonSchema };

/** The system prompt is cached only above the model's documented minimum; 4 characters a token keeps this low. */
const SYSTEM_TOKENS_LOWER_BOUND = Math.floor(SYSTEM_PROMPT.length / 4);

/**
 * One Messages request, built from the model's row of the capability table only:
 * - never a forced `tool_choice` (refused by the 5.5 family and Fable 5.1), never sampling parameters or a prefill;
 * - `thinking` sent only as the model's documented "off" value, `output_config.effort` only where accepted
 *   (`between_tools` refuses xhigh and max, so those become high there);
 * - the system prompt marked for caching only when nothing request-specific precedes it (no caller's tool schema:
 *   the cache prefix is tools, then system) and it is above the model's cache minimum.
 */
export function buildRequest(
  caps: ModelCapabilities,
  settings: ThinkingSettings,
  mode: AnswerMode,
  maxTokens: number,
  messages: Anthropic.Messages.MessageParam[],
): Anthropic.Messages.MessageCreateParamsNonStreaming {
  const cache = mode.kind === 'structured' && caps.cacheMinTokens !== null && SYSTEM_TOKENS_LOWER_BOUND >= caps.cacheMinTokens;
  const request: Anthropic.Messages.MessageCreateParamsNonStreaming = {
    model: caps.id,
    max_tokens: maxTokens,
    system: [{ type: 'text', text: SYSTEM_PROMPT, ...(cache ? { cache_control: { type: 'ephemeral' as const } } : {}) }],
    messages,
  };
  const thinkingOff = settings.thinking === 'off' ? caps.thinkingOff : null;
  if (thinkingOff) request.thinking = thinkingOff;
  const outputConfig: Anthropic.Messages.OutputConfig = {};
  if (caps.effort && settings.effort !== 'model_default') {
    outputConfig.effort = thinkingOff?.type === 'between_tools' && (settings.effort === 'xhigh' || settings.effort === 'max') ? 'high' : settings.effort;
  }
  if (mode.kind === 'structured') outputConfig.format = { type: 'json_schema', schema: mode.schema };
  if (Object.keys(outputConfig).length) request.output_config = outputConfig;
  if (mode.kind === 'tool') {
    request.tools = [{ name: TOOL_NAME, description: TOOL_DESCRIPTION, input_schema: mode.schema as Anthropic.Messages.Tool.InputSchema }];
    request.tool_choice = { type: 'auto' };
  }
  return request;
}

/** The document as a plain-text document block: data in its own block, which its content cannot close or leave. */
export function documentBlock(text: string): Anthropic.Messages.DocumentBlockParam {
  return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, title: 'document' };
}
