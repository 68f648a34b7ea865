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
 * One Messages request (the extraction's system prompt unless another is given, as classification does), built from
 * the model's row of the capability table only:
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
  system: string = SYSTEM_PROMPT,
): Anthropic.Messages.MessageCreateParamsNonStreaming {
  const systemTokens = system === SYSTEM_PROMPT ? SYSTEM_TOKENS_LOWER_BOUND : Math.floor(system.length / 4);
  const cache = mode.kind === 'structured' && caps.cacheMinTokens !== null && systemTokens >= caps.cacheMinTokens;
  const request: Anthropic.Messages.MessageCreateParamsNonStreaming = {
    model: caps.id,
    max_tokens: maxTokens,
    system: [{ type: 'text', text: system, ...(cache ? { cache_control: { type: 'ephemeral' as const } } : {}) }],
    messages,
  };
  const thinkingOff = settings.thinking === 'off' && thinkingMayBeOff(caps, settings.effort) ? caps.thinkingOff : null;
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

/**
 * Whether the model's "thinking off" setting may go with this effort. Haiku 5.5 accepts `thinking: disabled` at effort
 * low to high only (https://platform.claude.com/docs/en/models/haiku-5-5/migration-guide; a 400 above): at xhigh or
 * max the operator's effort is kept and thinking stays on (adaptive), as the start log says.
 */
export function thinkingMayBeOff(caps: ModelCapabilities, effort: ThinkingSettings['effort']): boolean {
  if (caps.thinkingOffMaxEffort === null || !caps.effort) return true;
  return effort !== 'xhigh' && effort !== 'max';
}

/** The document as a plain-text document block: data in its own block, which its content cannot close or leave. */
export function documentBlock(text: string): Anthropic.Messages.DocumentBlockParam {
  return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, title: 'document' };
}

/**
 * Limits of the provider's document and image blocks, as documented:
 * - PDF support (https://platform.claude.com/docs/en/build-with-claude/pdf-support): requests up to 32 MB, at most 100
 *   pages, standard PDFs without passwords or encryption;
 * - vision (https://platform.claude.com/docs/en/build-with-claude/vision): JPEG, PNG, GIF or WebP, at most 5 MB and
 *   8000x8000 px an image; a larger one is scaled down first, to the model's most tokens an image (its
 *   `imageTokens`: about 4,784 on current models, 1,600 on Haiku 4.5).
 * Files within our own limits (10 MB, 50 pages) always fit a PDF's; an image over 5 MB or 8000 px, or a TIFF, is read
 * offline (OCR) and sent as text instead.
 */
export const NATIVE_LIMITS = { pdfPages: 100, requestBytes: 32 * 1024 * 1024, imageBytes: 5 * 1024 * 1024, imageEdge: 8000 } as const;
const NATIVE_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

/** Whether Claude reads this file itself (a document or an image block), within the documented limits. */
export function readsNatively(file: { mediaType: string; byteSize: number; pages: number; width?: number; height?: number }): boolean {
  if (file.mediaType === 'application/pdf') return file.pages <= NATIVE_LIMITS.pdfPages && (file.byteSize * 4) / 3 < NATIVE_LIMITS.requestBytes - 1024 * 1024;
  if (!NATIVE_IMAGE_TYPES.has(file.mediaType)) return false;
  return file.byteSize <= NATIVE_LIMITS.imageBytes && (file.width ?? 0) <= NATIVE_LIMITS.imageEdge && (file.height ?? 0) <= NATIVE_LIMITS.imageEdge;
}

/** The file as the model reads it: a PDF as a base64 document block, an image as a base64 image block. */
export function fileBlock(file: { mediaType: string; bytes: Uint8Array }): Anthropic.Messages.ContentBlockParam {
  const data = Buffer.from(file.bytes).toString('base64');
  if (file.mediaType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data }, title: 'document' };
  return { type: 'image', source: { type: 'base64', media_type: file.mediaType as 'image/png' | 'image/jpeg' | 'image/webp', data } };
}
