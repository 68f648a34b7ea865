import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '../../../http/api-error.js';
import { billedTokens, claudeTokensIn } from '../../../metering/heu.js';
import { checkAnswer, type SchemaIssue } from '../../schemas/answer-checker.js';
import type { EngineAnswer, EngineInput, EngineUsage, ExtractionEngine, ExtractionTask, FileFacts, PlanInput, TokenPlan } from '../engine.js';
import { CHARS_PER_PAGE } from '../../../documents/limits.js';
import { SYSTEM_PROMPT, TOOL_NAME, taskText } from './instructions.js';
import { capabilitiesOf, type ModelCapabilities } from './models.js';
import { AnthropicClassifier } from './anthropic-classifier.js';
import type { DocumentClassifier } from '../../../classification/classifier.js';
import { providerFailure, spendLimitAware } from './provider-errors.js';
import { buildRequest, documentBlock, fileBlock, readsNatively, thinkingMayBeOff, type AnswerMode, type ThinkingSettings } from './request.js';
import { foundFromQuotes, splitAnswer, withQuotes } from './quotes.js';
import { reshapeForStructuredOutput, restoreNulls } from './structured-schema.js';

export interface AnthropicSettings extends ThinkingSettings {
  apiKey: string;
  model: string;
  baseUrl: string | undefined;
  /** The whole extraction, retries and repair turn included. */
  timeoutMs: number;
  maxRetries: number;
  /** `max_tokens` of the first call (thinking included). */
  maxTokens: number;
  /** `max_tokens` of the one retry after a `max_tokens` stop, when the reservation covers it. */
  retryMaxTokens: number;
}

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
/** Request framing beyond the texts we count (roles, block types, the tool definition's envelope). */
const OVERHEAD_CHARS = 600;
/** The repair turn's feedback is at most 20 issues. */
const FEEDBACK_CHARS = 2000;
/**
 * Characters of answer with its quotes per character of the document: the data, and for each value the text it was
 * read from (often its whole line, shared by the values of a table row). Through the fake model's quoting of the
 * repository's labelled sets (server/test/claude-evidence.test.ts) the median is 2.8 and the 95th percentile 4.8 (a
 * renewal's sourceQuotes alone make 2.1): a first call sized for 5 rarely stops at `max_tokens`, whose retry would
 * bill the cut-off answer for nothing. Long prose documents answer far less per character; the cap below bounds them.
 */
const ANSWER_CHARS_PER_DOCUMENT_CHAR = 5;
/** Characters of JSON output per token, as the cost estimates count them (3.5): a first call's size, not a bound. */
const ANSWER_CHARS_PER_TOKEN = 3.5;

/**
 * Claude through the Anthropic SDK, with settings taken from the model's row of the capability table (models.ts).
 * Fixed routes answer through structured outputs (their schemas reshaped to fit its limits); custom schemas through a
 * tool the model is told to call (`tool_choice: auto`: forcing it is refused by current models). Every answer is
 * checked against the contract with Ajv; a wrong one gets one repair turn. `max_tokens` gets one larger retry when the
 * budget covers it, else 422 `output_too_large`; a refusal gets no repair. Each call's `max_tokens` is what is left
 * of the item's token budget, so the extraction never bills more than was reserved.
 */
export class AnthropicEngine implements ExtractionEngine {
  readonly name = 'anthropic' as const;
  readonly capabilities: ModelCapabilities;
  /**
   * Thinking is configured off but the model refuses "off" at the configured effort (Haiku 5.5 at xhigh or max), so
   * it stays on: said at start (select-engine.ts describeEngine).
   */
  readonly thinkingStaysOn: boolean;
  /** The effort configured (ANTHROPIC_EFFORT), for the start log; the settings hold the key and stay private. */
  readonly effort: AnthropicSettings['effort'];
  private readonly client: Anthropic;
  private readonly modes = new WeakMap<object, AnswerMode & { unfit: string | null }>();

  constructor(private readonly settings: AnthropicSettings) {
    this.capabilities = capabilitiesOf(settings.model);
    this.effort = settings.effort;
    this.thinkingStaysOn = settings.thinking === 'off' && this.capabilities.thinkingOff !== null && !thinkingMayBeOff(this.capabilities, settings.effort);
    this.client = new Anthropic({
      apiKey: settings.apiKey,
      baseURL: settings.baseUrl,
      maxRetries: settings.maxRetries,
      timeout: settings.timeoutMs,
      fetch: spendLimitAware(),
    });
  }

  /**
   * Reserve the first call and one retry (or repair turn) at the largest, run with at least one small call. The first
   * call's output is sized for the answer and its quotes (firstMaxTokens), so the quotes are counted here.
   */
  plan(input: PlanInput): TokenPlan {
    const prompt = this.promptTokens(input);
    const first = this.firstMaxTokens(documentChars(input));
    const second = Math.max(Math.min(this.settings.retryMaxTokens, this.capabilities.maxOutputTokens), first + claudeTokensIn(FEEDBACK_CHARS) + first);
    return { wanted: prompt + first + prompt + second, least: prompt + MIN_OUTPUT_TOKENS };
  }

  async extract(input: EngineInput): Promise<EngineAnswer> {
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    const signal = AbortSignal.any([input.signal, deadline]);
    try {
      return await this.converse(input, signal);
    } catch (e) {
      if (input.signal.aborted) throw input.signal.reason ?? e;
      if (deadline.aborted || e instanceof Anthropic.APIConnectionTimeoutError) throw new ApiError('upstream_timeout');
      if (e instanceof ApiError) throw e;
      if (e instanceof Anthropic.APIError) throw providerFailure(e, this.settings.model, input.log);
      throw e;
    }
  }

  /**
   * `max_tokens` of the first call: ANTHROPIC_MAX_TOKENS, or more for a long document, whose answer with a quote per
   * value needs more (ANSWER_CHARS_PER_DOCUMENT_CHAR), up to the retry's size: the retry after a `max_tokens` stop
   * would be no larger, so a first call that small would only be paid for twice.
   */
  private firstMaxTokens(documentChars: number): number {
    const forAnswer = Math.min(this.settings.retryMaxTokens, Math.ceil((documentChars * ANSWER_CHARS_PER_DOCUMENT_CHAR) / ANSWER_CHARS_PER_TOKEN));
    return Math.min(Math.max(this.settings.maxTokens, forAnswer), this.capabilities.maxOutputTokens);
  }

  private mode(input: Pick<EngineInput, 'task' | 'schema'>): AnswerMode & { unfit: string | null } {
    let mode = this.modes.get(input.schema);
    if (!mode) {
      const reshaped = input.task.kind !== 'custom' && this.capabilities.structuredOutputs ? reshapeForStructuredOutput(input.schema) : null;
      // Either way the model answers `{data, quotes}` (quotes.ts): the data in the schema's shape, and the quotes.
      mode = reshaped && !reshaped.unfit
        ? { kind: 'structured', schema: withQuotes(reshaped.schema), unfit: null }
        : { kind: 'tool', schema: withQuotes(input.schema), unfit: reshaped?.unfit ?? null };
      this.modes.set(input.schema, mode);
    }
    return mode;
  }

  /** Classification by the same model, client and settings. */
  classifier(): DocumentClassifier {
    return new AnthropicClassifier(this.client, this.settings, this.capabilities);
  }

  /** PDFs and PNG, JPEG and WebP images within the documented limits are sent as they are (request.ts). */
  readsNatively(file: FileFacts): boolean {
    return readsNatively(file);
  }

  private promptTokens(input: PlanInput): number {
    const schemaChars = JSON.stringify(this.mode(input).schema).length;
    // A file the model reads: each page an image and its text, both at their most (the text is not sent again). An
    // image costs up to the model's `imageTokens` (4,784 on Sonnet 5.5: models.ts cites the vision page), a PDF page
    // that as its image plus its text.
    const fileTokens = input.file ? input.file.pages * (this.capabilities.imageTokens + claudeTokensIn(input.file.mediaType === 'application/pdf' ? CHARS_PER_PAGE : 0)) : 0;
    // JSON escaping of the document on the wire does not change its tokens; its characters are counted once.
    return claudeTokensIn(SYSTEM_PROMPT.length + schemaChars + (input.file ? 0 : input.textChars ?? input.text.length) + OVERHEAD_CHARS) + fileTokens;
  }

  private async converse(input: EngineInput, signal: AbortSignal): Promise<EngineAnswer> {
    const mode = this.mode(input);
    const messages: Anthropic.Messages.MessageParam[] = [
      // A file the model reads itself goes as it is; its text (read offline for a renewal's quotes) is not sent twice.
      { role: 'user', content: [input.file ? fileBlock(input.file) : documentBlock(input.text), { type: 'text', text: taskText(TASKS[input.task.kind], mode.kind) }] },
    ];
    const usage: Required<EngineUsage> = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 };
    const prompt = this.promptTokens(input);
    let extraPrompt = 0;
    const first = this.firstMaxTokens(documentChars(input));
    let maxTokens = first;
    let issues: SchemaIssue[] = [];
    let retried = false;
    for (let call = 0; call < 2; call++) {
      const left = input.budgetTokens - billedTokens(usage) - prompt - extraPrompt;
      const allowed = Math.min(maxTokens, left);
      if (allowed < MIN_OUTPUT_TOKENS) {
        if (call === 0 || retried) throw new ApiError('output_too_large');
        break;
      }
      const response = await readable(this.client.messages.create(buildRequest(this.capabilities, this.settings, mode, allowed, messages), { signal }));
      usage.inputTokens += response.usage.input_tokens;
      usage.outputTokens += response.usage.output_tokens;
      usage.cacheReadInputTokens += response.usage.cache_read_input_tokens ?? 0;
      usage.cacheCreationInputTokens += response.usage.cache_creation_input_tokens ?? 0;
      if (response.stop_reason === 'refusal') {
        // A refusal is the model's decision about this document: asking again repeats it, at a price.
        input.log?.warn({ provider: 'anthropic', model: response.model, stopReason: 'refusal' }, 'model refused to extract');
        throw new ApiError('upstream_error', 'The model declined to extract this document.');
      }
      if (response.stop_reason === 'model_context_window_exceeded') {
        // The prompt and the answer filled the model's context window: the answer is cut short, and a repair turn
        // (the same prompt, the cut answer and the feedback) is longer still, so it cannot succeed; it would only be a
        // second paid call (https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons). Not charged.
        input.log?.warn({ provider: 'anthropic', model: response.model, stopReason: response.stop_reason }, 'document and answer exceed the model context window');
        throw new ApiError('output_too_large', "The document and its answer do not fit the model's context window: split the document.");
      }
      if (response.stop_reason === 'max_tokens') {
        // One retry of the same request with a larger limit, if what is left of the budget makes it larger.
        const larger = Math.min(this.settings.retryMaxTokens, this.capabilities.maxOutputTokens, input.budgetTokens - billedTokens(usage) - prompt);
        if (retried || call === 1 || larger <= allowed) throw new ApiError('output_too_large');
        retried = true;
        maxTokens = larger;
        continue;
      }
      const answer = mode.kind === 'structured' ? structuredAnswer(response) : toolAnswer(response);
      const split = answer.ok ? splitAnswer(answer.data) : answer;
      if (split.ok) {
        // The quotes are taken off before the data is checked against the contract; they become the evidence input.
        const data = mode.kind === 'structured' ? restoreNulls(input.schema, split.data) : split.data;
        const check = checkAnswer(input.schema, data);
        if (check.ok) return { data, found: foundFromQuotes(input.task, data, split.quotes), model: response.model, usage };
        issues = check.issues.map((i) => ({ ...i, path: `/data${i.path === '/' ? '' : i.path}` }));
      } else {
        issues = [{ path: '/', message: split.why }];
      }
      if (call === 1) break;
      // One repair turn showing what was wrong (thinking blocks go back unchanged, as the docs require).
      const feedback = `The answer did not match the schema:\n${issues.slice(0, 20).map((i) => `- ${i.path} ${i.message}`).join('\n')}\n${mode.kind === 'tool' ? `Call ${TOOL_NAME} again with every field, corrected.` : 'Answer again with every field, corrected.'}`.slice(0, FEEDBACK_CHARS);
      const callBlock = response.content.find((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use' && b.name === TOOL_NAME);
      messages.push({ role: 'assistant', content: response.content as Anthropic.Messages.ContentBlockParam[] });
      messages.push({ role: 'user', content: callBlock ? [{ type: 'tool_result', tool_use_id: callBlock.id, is_error: true, content: feedback }] : [{ type: 'text', text: feedback }] });
      extraPrompt = response.usage.output_tokens + claudeTokensIn(FEEDBACK_CHARS);
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

type Parsed = { ok: true; data: unknown } | { ok: false; why: string };

/** Structured outputs answer in text blocks (after any thinking blocks): their JSON. */
function structuredAnswer(response: Anthropic.Messages.Message): Parsed {
  const text = response.content.filter((b): b is Anthropic.Messages.TextBlock => b.type === 'text').map((b) => b.text).join('');
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch {
    return { ok: false, why: `the answer is not JSON (stop_reason ${response.stop_reason})` };
  }
}

function toolAnswer(response: Anthropic.Messages.Message): Parsed {
  const call = response.content.find((b): b is Anthropic.Messages.ToolUseBlock => b.type === 'tool_use' && b.name === TOOL_NAME);
  return call ? { ok: true, data: call.input } : { ok: false, why: `no ${TOOL_NAME} call (stop_reason ${response.stop_reason})` };
}

/**
 * The provider's answer, or upstream_error when its body is not a Messages response (not JSON, or the wrong shape):
 * the SDK's own errors (status, connection, abort) pass through to be mapped by `extract`.
 */
async function readable(call: Promise<Anthropic.Messages.Message>): Promise<Anthropic.Messages.Message> {
  let response: Anthropic.Messages.Message;
  try {
    response = await call;
  } catch (e) {
    if (e instanceof Anthropic.AnthropicError || (e instanceof Error && e.name === 'AbortError')) throw e;
    throw new ApiError('upstream_error', 'The model provider answered with a body that could not be read.');
  }
  if (!Array.isArray(response?.content) || typeof response.usage?.input_tokens !== 'number' || typeof response.usage.output_tokens !== 'number') {
    throw new ApiError('upstream_error', 'The model provider answered with a body that could not be read.');
  }
  return response;
}
