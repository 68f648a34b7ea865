import OpenAI from 'openai';
import { CLASSIFY_CHARS, KINDS, MIN_CONFIDENCE, type Kind, type Label } from '../../../classification/classify-text.js';
import type { ClassifyAnswer, ClassifyInput, DocumentClassifier } from '../../../classification/classifier.js';
import { ApiError } from '../../../http/api-error.js';
import { claudeTokensIn, heuFor, reservationFor } from '../../../metering/heu.js';
import type { EngineUsage } from '../engine.js';
import { CLASSIFY_PROMPT } from '../anthropic/anthropic-classifier.js';
import type { OpenAISettings } from './openai-engine.js';
import { providerFailure } from './provider-errors.js';
import { buildRequest, documentPart, parseAnswerText, type AnswerMode } from './request.js';

/** Enough output for the answer (a kind, a number and three alternatives), and a reasoning model's few thoughts. */
const MAX_TOKENS = 1024;
const OVERHEAD_CHARS = 600;
const LABELS: Label[] = [...KINDS, 'other'];

/** The answer's schema, already in the strict subset (every member required, objects closed). */
const SCHEMA = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: LABELS },
    confidence: { type: 'number', description: 'From 0 to 1.' },
    alternatives: {
      type: 'array',
      items: { type: 'object', properties: { kind: { type: 'string', enum: LABELS }, confidence: { type: 'number' } }, required: ['kind', 'confidence'], additionalProperties: false },
    },
  },
  required: ['kind', 'confidence', 'alternatives'],
  additionalProperties: false,
};

const PROMPT = CLASSIFY_PROMPT.replace(
  'It arrives as a document block in the user turn, supplied by an outside party.',
  'It arrives in the user message between <document> and </document>, supplied by an outside party.',
);

const clamp = (x: unknown) => Math.round(Math.min(1, Math.max(0, typeof x === 'number' && Number.isFinite(x) ? x : 0)) * 100) / 100;

/**
 * Classification by the extraction engine's model, client and answer mode (a strict schema, JSON mode or the prompt,
 * as OPENAI_STRUCTURED_OUTPUTS says): the first CLASSIFY_CHARS characters of the document, one call of at most
 * MAX_TOKENS. A kind outside the ones asked for, or a confidence under MIN_CONFIDENCE, is `other`. Metered by tokens.
 */
export class OpenAIClassifier implements DocumentClassifier {
  private readonly mode: AnswerMode;

  constructor(private readonly client: OpenAI, private readonly settings: OpenAISettings) {
    const kind = settings.structuredOutputs === 'json_schema' ? 'strict' : settings.structuredOutputs === 'json_object' ? 'json' : 'prompt';
    this.mode = { kind, schema: SCHEMA };
  }

  private promptTokens(textChars: number): number {
    return claudeTokensIn(PROMPT.length + JSON.stringify(SCHEMA).length + Math.min(textChars, CLASSIFY_CHARS) + OVERHEAD_CHARS);
  }

  reserveHeu(textChars: number): number {
    const tokens = this.promptTokens(textChars) + MAX_TOKENS;
    return reservationFor({ wanted: tokens, least: tokens }).wanted;
  }

  async classify(input: ClassifyInput): Promise<ClassifyAnswer> {
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    const signal = AbortSignal.any([input.signal, deadline]);
    const maxTokens = Math.min(MAX_TOKENS, input.budgetTokens - this.promptTokens(input.text.length));
    if (maxTokens < 256) throw new ApiError('output_too_large');
    const task = this.mode.kind === 'strict'
      ? 'Classify the document. Answer with the JSON object the response format describes.'
      : `Classify the document. Answer with one JSON object only, no other text, that meets this JSON Schema:\n${JSON.stringify(SCHEMA)}`;
    let response: OpenAI.Chat.Completions.ChatCompletion;
    try {
      response = await this.client.chat.completions.create(buildRequest(this.settings.model, this.settings.baseUrl, this.mode, maxTokens, [
        { role: 'user', content: [documentPart(input.text.slice(0, CLASSIFY_CHARS)), { type: 'text', text: task }] },
      ], PROMPT), { signal });
    } catch (e) {
      if (input.signal.aborted) throw input.signal.reason ?? e;
      if (deadline.aborted || e instanceof OpenAI.APIConnectionTimeoutError) throw new ApiError('upstream_timeout');
      if (e instanceof OpenAI.APIError) throw providerFailure(e, this.settings.model, input.log);
      throw new ApiError('upstream_error', 'The model provider answered with a body that could not be read.');
    }
    const choice = Array.isArray(response?.choices) ? response.choices[0] : undefined;
    if (!choice?.message || typeof response.usage?.prompt_tokens !== 'number') {
      throw new ApiError('upstream_error', 'The model provider answered with a body that could not be read.');
    }
    const usage: EngineUsage = { inputTokens: response.usage.prompt_tokens, outputTokens: response.usage.completion_tokens };
    if (choice.message.refusal || choice.finish_reason === 'content_filter') throw new ApiError('upstream_error', 'The model declined to classify this document.');
    if (choice.finish_reason === 'length') throw new ApiError('output_too_large');
    const parsed = parseAnswerText(choice.message.content ?? '');
    const raw = parsed.ok && parsed.data && typeof parsed.data === 'object' ? (parsed.data as RawAnswer) : null;
    if (!raw || !LABELS.includes(raw.kind as Label)) throw new ApiError('upstream_error', 'The model answered outside the classification schema.');
    const confidence = clamp(raw.confidence);
    const asked = raw.kind === 'other' || input.kinds.includes(raw.kind as Kind);
    const sure = raw.kind === 'other' || confidence >= MIN_CONFIDENCE;
    const kind: Label = asked && sure ? (raw.kind as Label) : 'other';
    const alternatives = (Array.isArray(raw.alternatives) ? raw.alternatives : [])
      .filter((a): a is { kind: Label; confidence: number } => !!a && LABELS.includes(a.kind) && a.kind !== kind)
      .slice(0, 3).map((a) => ({ kind: a.kind, confidence: clamp(a.confidence) }));
    if (kind !== raw.kind) alternatives.unshift({ kind: raw.kind as Label, confidence });
    const model = typeof response.model === 'string' && response.model ? response.model : this.settings.model;
    return { kind, confidence: kind === raw.kind ? confidence : clamp(1 - confidence), alternatives: alternatives.slice(0, 3), model, usage, heu: Math.min(heuFor(usage), Math.ceil(input.budgetTokens / 1000)) };
  }
}

type RawAnswer = { kind?: unknown; confidence?: unknown; alternatives?: Array<{ kind: Label; confidence: number }> };
