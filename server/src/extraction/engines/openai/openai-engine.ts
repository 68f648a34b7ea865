import OpenAI from 'openai';
import type { OpenAIConfig } from '../../../config/config.js';
import { priceOf, type ModelPrice } from '../../../config/model-prices.js';
import { CHARS_PER_PAGE } from '../../../documents/limits.js';
import { ApiError } from '../../../http/api-error.js';
import { billedTokens, claudeTokensIn } from '../../../metering/heu.js';
import { checkAnswer, type SchemaIssue } from '../../schemas/answer-checker.js';
import type { EngineAnswer, EngineInput, EngineUsage, ExtractionEngine, ExtractionTask, FileFacts, PlanInput, TokenPlan } from '../engine.js';
import type { DocumentClassifier } from '../../../classification/classifier.js';
import { foundFromQuotes, splitAnswer, withQuotes } from '../anthropic/quotes.js';
import { OpenAIClassifier } from './openai-classifier.js';
import { providerFailure, quotaAware } from './provider-errors.js';
import { buildRequest, documentPart, imagePart, OPENAI_SYSTEM_PROMPT, parseAnswerText, taskText, type AnswerMode } from './request.js';
import { fromStrictAnswer, toStrictSchema } from './strict-schema.js';

export type OpenAISettings = Omit<OpenAIConfig, 'model' | 'prices'> & { model: string; prices: OpenAIConfig['prices'] };

const TASKS: Record<ExtractionTask['kind'], string> = {
  invoice: 'Extract the invoice.',
  receipt: 'Extract the receipt.',
  contract: 'Extract the contract.',
  'job-posting': 'Extract the job posting.',
  'meeting-notes': 'Extract the meeting notes.',
  renewal: 'Extract the SaaS subscription renewal terms, each value with its verbatim source quote.',
  custom: 'Extract the fields the schema describes.',
};

/** Fewer output tokens than this cannot hold an answer: do not make the call. */
const MIN_OUTPUT_TOKENS = 512;
/** Request framing beyond the texts counted (roles, the response format's envelope, the document's tags). */
const OVERHEAD_CHARS = 600;
/** The repair turn's feedback is at most 20 issues. */
const FEEDBACK_CHARS = 2000;
/** Answer with quotes per character of the document, and characters of JSON a token, as for Claude (anthropic-engine.ts). */
const ANSWER_CHARS_PER_DOCUMENT_CHAR = 5;
const ANSWER_CHARS_PER_TOKEN = 3.5;
/**
 * Input tokens reserved for one image. OpenAI bills a high-detail image by its 512 px tiles (85 + 170 a tile, at most
 * 2048 px, the short side 768: up to 1,445) or, on patch-based models, up to 1,536 patches times the model's
 * multiplier (https://platform.openai.com/docs/guides/images-vision, "Calculating costs"); self-hosted vision models
 * differ. 5,000 covers them; what is charged is what the server reports.
 */
const IMAGE_TOKENS = 5000;
/** Images the vision API takes (PNG, JPEG, WebP, non-animated GIF; up to 50 MB a request), within our own file limit. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

/**
 * Tokens in text, for reservations: the same high estimate as for Claude (2.5 characters a token). A self-hosted
 * model's tokenizer is unknown; a reservation too large is settled down to what the server reports.
 */
const tokensIn = claudeTokensIn;

/**
 * Any model behind an OpenAI-compatible Chat Completions API (OpenAI, vLLM, Ollama, llama.cpp, LM Studio), through the
 * official SDK. Fixed routes answer through a strict JSON schema (the contract's reshaped, strict-schema.ts), custom
 * schemas too where they fit the strict subset, else JSON mode with the schema in the prompt (OPENAI_STRUCTURED_OUTPUTS
 * says what the server has). The answer is `{data, quotes}` as for Claude; it is checked against the contract with Ajv,
 * a wrong one gets one repair turn. `finish_reason: "length"` gets one larger retry when the budget covers it, else
 * 422 `output_too_large`; a refusal is 502 `upstream_error`, with no repair. Each call's output limit is what is left
 * of the item's token budget, so the extraction never bills more than was reserved.
 */
export class OpenAIEngine implements ExtractionEngine {
  readonly name = 'openai' as const;
  readonly price: ModelPrice & { known: boolean };
  private readonly client: OpenAI;
  private readonly modes = new WeakMap<object, AnswerMode & { unfit: string | null }>();

  constructor(readonly settings: OpenAISettings) {
    this.price = priceOf(settings.prices, settings.model);
    this.client = new OpenAI({
      // A local server needs no key: the SDK insists on one, so a placeholder is given and the header left out.
      apiKey: settings.apiKey ?? 'none',
      ...(settings.apiKey ? {} : { defaultHeaders: { Authorization: null } }),
      baseURL: settings.baseUrl,
      organization: null,
      project: null,
      maxRetries: settings.maxRetries,
      timeout: settings.timeoutMs,
      fetch: quotaAware(),
    });
  }

  get model(): string {
    return this.settings.model;
  }

  plan(input: PlanInput): TokenPlan {
    const prompt = this.promptTokens(input);
    const first = this.firstMaxTokens(documentChars(input));
    const second = Math.max(this.settings.retryMaxTokens, first + tokensIn(FEEDBACK_CHARS) + first);
    return { wanted: prompt + first + prompt + second, least: prompt + MIN_OUTPUT_TOKENS };
  }

  /** Images, when the model reads them (OPENAI_VISION=true); PDFs and Office files are always read by the service. */
  readsNatively(file: FileFacts): boolean {
    return this.settings.vision && IMAGE_TYPES.has(file.mediaType);
  }

  classifier(): DocumentClassifier {
    return new OpenAIClassifier(this.client, this.settings);
  }

  async extract(input: EngineInput): Promise<EngineAnswer> {
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    const signal = AbortSignal.any([input.signal, deadline]);
    try {
      return await this.converse(input, signal);
    } catch (e) {
      if (input.signal.aborted) throw input.signal.reason ?? e;
      if (deadline.aborted || e instanceof OpenAI.APIConnectionTimeoutError) throw new ApiError('upstream_timeout');
      if (e instanceof ApiError) throw e;
      if (e instanceof OpenAI.APIError) throw providerFailure(e, this.settings.model, input.log);
      if (e instanceof OpenAI.OpenAIError) throw new ApiError('upstream_error', 'The model provider answered with a body that could not be read.');
      throw e;
    }
  }

  /** How this schema is asked for (cached per schema object, as the contract's schemas are shared). */
  mode(input: Pick<EngineInput, 'task' | 'schema'>): AnswerMode & { unfit: string | null } {
    let mode = this.modes.get(input.schema);
    if (!mode) {
      const strict = this.settings.structuredOutputs === 'json_schema' ? toStrictSchema(input.schema) : null;
      const chosen: AnswerMode & { unfit: string | null } = strict && !strict.unfit
        ? { kind: 'strict', schema: withQuotes(strict.schema), unfit: null }
        : { kind: this.settings.structuredOutputs === 'none' ? 'prompt' : 'json', schema: withQuotes(input.schema), unfit: strict?.unfit ?? null };
      this.modes.set(input.schema, chosen);
      mode = chosen;
    }
    return mode;
  }

  private firstMaxTokens(documentChars: number): number {
    const forAnswer = Math.min(this.settings.retryMaxTokens, Math.ceil((documentChars * ANSWER_CHARS_PER_DOCUMENT_CHAR) / ANSWER_CHARS_PER_TOKEN));
    return Math.max(this.settings.maxTokens, forAnswer);
  }

  private promptTokens(input: PlanInput): number {
    const mode = this.mode(input);
    // The schema is sent once: in the response format (strict) or in the prompt (the other modes).
    const schemaChars = JSON.stringify(mode.schema).length;
    const fileTokens = input.file ? input.file.pages * IMAGE_TOKENS : 0;
    return tokensIn(OPENAI_SYSTEM_PROMPT.length + schemaChars + (input.file ? 0 : input.textChars ?? input.text.length) + OVERHEAD_CHARS) + fileTokens;
  }

  private async converse(input: EngineInput, signal: AbortSignal): Promise<EngineAnswer> {
    const mode = this.mode(input);
    if (mode.unfit) input.log?.warn({ provider: 'openai', model: this.settings.model, unfit: mode.unfit }, 'schema outside the strict subset: asking in JSON mode with the schema in the prompt');
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: 'user', content: [input.file ? imagePart(input.file) : documentPart(input.text), { type: 'text', text: taskText(TASKS[input.task.kind], mode) }] },
    ];
    const usage: EngineUsage = { inputTokens: 0, outputTokens: 0 };
    const prompt = this.promptTokens(input);
    let extraPrompt = 0;
    const first = this.firstMaxTokens(documentChars(input));
    let maxTokens = first;
    let issues: SchemaIssue[] = [];
    let retried = false;
    let model = this.settings.model;
    for (let call = 0; call < 2; call++) {
      const left = input.budgetTokens - billedTokens(usage) - prompt - extraPrompt;
      const allowed = Math.min(maxTokens, left);
      if (allowed < MIN_OUTPUT_TOKENS) {
        if (call === 0 || retried) throw new ApiError('output_too_large');
        break;
      }
      const request = buildRequest(this.settings.model, this.settings.baseUrl, mode, allowed, messages);
      const response = await readable(this.client.chat.completions.create(request, { signal }));
      const choice = response.choices[0]!;
      model = typeof response.model === 'string' && response.model ? response.model : model;
      const reported = usageOf(response, prompt + extraPrompt, choice.message.content ?? '');
      usage.inputTokens += reported.inputTokens;
      usage.outputTokens += reported.outputTokens;
      if (choice.message.refusal || choice.finish_reason === 'content_filter') {
        // The model's decision about this document (https://platform.openai.com/docs/guides/structured-outputs#refusals):
        // asking again repeats it, at a price.
        input.log?.warn({ provider: 'openai', model, finishReason: choice.finish_reason }, 'model refused to extract');
        throw new ApiError('upstream_error', 'The model declined to extract this document.');
      }
      if (choice.finish_reason === 'length') {
        // Cut off at the output limit: one retry of the same request with a larger limit, if the budget makes it larger.
        const larger = Math.min(this.settings.retryMaxTokens, input.budgetTokens - billedTokens(usage) - prompt);
        if (retried || call === 1 || larger <= allowed) throw new ApiError('output_too_large');
        retried = true;
        maxTokens = larger;
        continue;
      }
      const text = choice.message.content ?? '';
      const parsed = parseAnswerText(text);
      const split = parsed.ok ? splitAnswer(parsed.data) : { ok: false as const, why: `the answer is not JSON (finish_reason ${choice.finish_reason})` };
      if (split.ok) {
        // The quotes are taken off before the data is checked against the contract; they become the evidence input.
        const data = mode.kind === 'strict' ? fromStrictAnswer(input.schema, split.data) : split.data;
        const check = checkAnswer(input.schema, data);
        if (check.ok) return { data, found: foundFromQuotes(input.task, data, split.quotes), model, usage };
        issues = check.issues.map((i) => ({ ...i, path: `/data${i.path === '/' ? '' : i.path}` }));
      } else {
        issues = [{ path: '/', message: split.why }];
      }
      if (call === 1) break;
      // One repair turn showing what was wrong.
      const feedback = `The answer did not match the schema:\n${issues.slice(0, 20).map((i) => `- ${i.path} ${i.message}`).join('\n')}\nAnswer again with the whole JSON object, every field, corrected.`.slice(0, FEEDBACK_CHARS);
      messages.push({ role: 'assistant', content: text });
      messages.push({ role: 'user', content: feedback });
      extraPrompt = reported.outputTokens + tokensIn(FEEDBACK_CHARS);
      maxTokens = first;
    }
    throw new ApiError('upstream_error', 'The model kept answering outside the schema.');
  }
}

/** The characters of the document: its text, or for a file not read yet, or read by the model, its pages at their most. */
function documentChars(input: Pick<PlanInput, 'text' | 'textChars' | 'file'>): number {
  if (input.file) return input.file.pages * CHARS_PER_PAGE;
  return input.textChars ?? input.text.length;
}

/**
 * The usage the server reports (`usage.prompt_tokens`, `usage.completion_tokens`). A server that reports none is
 * charged our estimate: the prompt as reserved, the answer's characters as tokens.
 */
function usageOf(response: OpenAI.Chat.Completions.ChatCompletion, promptEstimate: number, answer: string): EngineUsage {
  const u = response.usage;
  if (u && Number.isFinite(u.prompt_tokens) && Number.isFinite(u.completion_tokens)) return { inputTokens: u.prompt_tokens, outputTokens: u.completion_tokens };
  return { inputTokens: promptEstimate, outputTokens: tokensIn(answer.length) };
}

/**
 * The server's answer, or upstream_error when its body is not a chat completion (not JSON, or the wrong shape): the
 * SDK's own errors (status, connection, abort) pass through to be mapped by `extract`.
 */
async function readable(call: Promise<OpenAI.Chat.Completions.ChatCompletion>): Promise<OpenAI.Chat.Completions.ChatCompletion> {
  let response: OpenAI.Chat.Completions.ChatCompletion;
  try {
    response = await call;
  } catch (e) {
    if (e instanceof OpenAI.OpenAIError || (e instanceof Error && e.name === 'AbortError')) throw e;
    throw new ApiError('upstream_error', 'The model provider answered with a body that could not be read.');
  }
  const message = Array.isArray(response?.choices) ? response.choices[0]?.message : undefined;
  if (!message || typeof message !== 'object' || (message.content !== null && message.content !== undefined && typeof message.content !== 'string')) {
    throw new ApiError('upstream_error', 'The model provider answered with a body that could not be read.');
  }
  return response;
}
