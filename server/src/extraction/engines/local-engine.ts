import { LocalClassifier, type DocumentClassifier } from '../../classification/classifier.js';
import { ApiError } from '../../http/api-error.js';
import type { EngineAnswer, EngineInput, ExtractionEngine, PlanInput, TokenPlan } from './engine.js';
import { createLocalRunner, LocalPoolFull, LocalTaskOverBudget, type LocalRunner } from './local-pool/local-pool.js';

export const LOCAL_MODEL = 'local-rules-1';

/** Token counts for the offline engine are estimated as a model would count them: about 4 characters a token. */
const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

/**
 * What the offline engine reads: the document, and on the custom route the caller's schema too (its property names
 * and descriptions are what it matches labels against). A fixed route's schema is the engine's own code, not read.
 */
const charsRead = (input: Pick<PlanInput, 'text' | 'task' | 'textChars'>) => (input.textChars ?? input.text.length) + (input.task.kind === 'custom' ? JSON.stringify(input.task.schema).length : 0);

/** Room for an answer's own JSON (member names, nulls, brackets) besides the document's words it repeats. */
const ANSWER_FRAME_CHARS = 4000;

/** The offline rules engine: deterministic, no network; its answer meets the same schema as Claude's. */
export class LocalEngine implements ExtractionEngine {
  readonly name = 'local' as const;
  private runner: LocalRunner | undefined;
  private local: LocalClassifier | undefined;

  constructor(private readonly options: { threads?: number | undefined; taskBudgetMs: number } = { taskBudgetMs: 60_000 }) {}

  /**
   * The document once as input; as output, its words at most twice (a renewal value and the quote stating it) plus
   * the answer's frame. `extract` is held to it.
   */
  plan(input: Pick<PlanInput, 'text' | 'task' | 'textChars'>): TokenPlan {
    const wanted = tokens(charsRead(input)) + tokens(2 * (input.textChars ?? input.text.length) + ANSWER_FRAME_CHARS);
    return { wanted, least: wanted };
  }

  /** The offline classifier, in this engine's threads. */
  classifier(): DocumentClassifier {
    this.local ??= new LocalClassifier(() => this.runnerOf());
    return this.local;
  }

  // Created on first use, so a process that never extracts offline starts no thread.
  private runnerOf(): LocalRunner {
    this.runner ??= createLocalRunner({ threads: this.options.threads, taskBudgetMs: this.options.taskBudgetMs });
    return this.runner;
  }

  async extract(input: EngineInput): Promise<EngineAnswer> {
    if (input.signal.aborted) throw input.signal.reason;
    let out;
    try {
      out = await this.runnerOf().run({ task: input.task, text: input.text, schema: input.schema }, input.signal);
    } catch (e) {
      if (e instanceof LocalTaskOverBudget) throw new ApiError('upstream_timeout', `The offline engine did not finish this document within ${this.options.taskBudgetMs} ms.`);
      if (e instanceof LocalPoolFull) throw new ApiError('service_unavailable', 'The offline engine is busy; try again shortly.', null, { 'Retry-After': '1' });
      throw e;
    }
    // A rules bug, not the caller's fault: never answer data that breaks the contract.
    if (!out.ok) throw new ApiError('internal_error', 'The offline engine produced an answer outside the schema.');
    const data = out.data;
    const usage = { inputTokens: tokens(charsRead(input)), outputTokens: tokens(JSON.stringify(data).length) };
    // Held to the reservation like a model to its max_tokens: an answer larger than what was reserved is not given.
    if (usage.inputTokens + usage.outputTokens > input.budgetTokens) throw new ApiError('output_too_large');
    return { data, found: out.found, model: LOCAL_MODEL, usage };
  }
}
