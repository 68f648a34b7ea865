import type OpenAI from 'openai';
import { SYSTEM_PROMPT } from '../anthropic/instructions.js';
import type { JsonSchema } from '../engine.js';

/**
 * How the answer's shape is asked for:
 * - `strict`: `response_format: {type: "json_schema", json_schema: {name, schema, strict: true}}` (the schema reshaped
 *   to the strict subset, strict-schema.ts);
 * - `json`: JSON mode, `response_format: {type: "json_object"}`, with the schema in the prompt (OpenAI requires the
 *   word JSON in the messages for it: https://platform.openai.com/docs/guides/structured-outputs#json-mode);
 * - `prompt`: no `response_format` (a server that has neither), the schema in the prompt and the JSON read from the text.
 */
export type AnswerMode = { kind: 'strict'; schema: JsonSchema } | { kind: 'json'; schema: JsonSchema } | { kind: 'prompt'; schema: JsonSchema };

/** The name of the strict schema (`^[a-zA-Z0-9_-]{1,64}$`). */
export const SCHEMA_NAME = 'extraction';

/**
 * The extraction's system prompt: the conventions shared with the Claude engine (instructions.ts), with the document's
 * place said as this engine sends it (a tagged text part of the user message, not a document block).
 */
export const OPENAI_SYSTEM_PROMPT = SYSTEM_PROMPT.replace(
  'It arrives as a document block in the user turn, supplied by an outside party.',
  'It arrives in the user message between <document> and </document>, supplied by an outside party.',
);
if (OPENAI_SYSTEM_PROMPT === SYSTEM_PROMPT) throw new Error('the system prompt no longer says where the document is: update openai/request.ts');

/** The document as a text part, tagged; a closing tag inside it is broken so the text cannot leave its tags. */
export function documentPart(text: string): OpenAI.Chat.Completions.ChatCompletionContentPartText {
  return { type: 'text', text: `<document>\n${text.replace(/<\/(document)/gi, '<\\/$1')}\n</document>` };
}

/** An image the model reads itself, as a base64 data URL (https://platform.openai.com/docs/guides/images-vision). */
export function imagePart(file: { mediaType: string; bytes: Uint8Array }): OpenAI.Chat.Completions.ChatCompletionContentPartImage {
  return { type: 'image_url', image_url: { url: `data:${file.mediaType};base64,${Buffer.from(file.bytes).toString('base64')}`, detail: 'high' } };
}

/** What to do, after the document: in strict mode the output format says the shape; otherwise the prompt does. */
export function taskText(task: string, mode: AnswerMode): string {
  if (mode.kind === 'strict') return `${task} Answer with the JSON object the response format describes: the data, and a quote for each of its values.`;
  return `${task} Answer with one JSON object only, no other text, that meets this JSON Schema (the data, and a quote for each of its values):\n${JSON.stringify(mode.schema)}`;
}

/**
 * The output limit's parameter: OpenAI's own API takes `max_completion_tokens` (`max_tokens` is deprecated there and
 * refused by its reasoning models: https://platform.openai.com/docs/api-reference/chat/create); the self-hosted
 * servers document `max_tokens` (vLLM, Ollama, llama.cpp, LM Studio: docs/models.md), so any other server gets that.
 */
export function outputLimit(baseUrl: string, tokens: number): { max_completion_tokens: number } | { max_tokens: number } {
  return new URL(baseUrl).hostname === 'api.openai.com' ? { max_completion_tokens: tokens } : { max_tokens: tokens };
}

/** One Chat Completions request. No sampling parameters: reasoning models refuse any but their defaults. */
export function buildRequest(
  model: string,
  baseUrl: string,
  mode: AnswerMode,
  maxTokens: number,
  messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[],
  system: string = OPENAI_SYSTEM_PROMPT,
): OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming {
  const request: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: [{ role: 'system', content: system }, ...messages],
    ...outputLimit(baseUrl, maxTokens),
  };
  if (mode.kind === 'strict') request.response_format = { type: 'json_schema', json_schema: { name: SCHEMA_NAME, schema: mode.schema, strict: true } };
  if (mode.kind === 'json') request.response_format = { type: 'json_object' };
  return request;
}

/**
 * The JSON of an answer's text: as it is, or (a server without JSON mode) the first `{` to the last `}`, a Markdown
 * code fence around it removed.
 */
export function parseAnswerText(text: string): { ok: true; data: unknown } | { ok: false } {
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch {
    const start = text.indexOf('{');
    const end = text.lastIndexOf('}');
    if (start < 0 || end <= start) return { ok: false };
    try {
      return { ok: true, data: JSON.parse(text.slice(start, end + 1)) };
    } catch {
      return { ok: false };
    }
  }
}
