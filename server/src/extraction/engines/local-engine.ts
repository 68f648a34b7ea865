import { checkAnswer } from '../schemas/answer-checker.js';
import { ApiError } from '../../http/api-error.js';
import type { EngineAnswer, EngineInput, ExtractionEngine } from './engine.js';
import { extractCustom, extractFixed } from './local/index.js';

export const LOCAL_MODEL = 'local-rules-1';

/** Token counts for the offline engine are estimated as a model would count them: about 4 characters a token. */
const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

/** The offline rules engine: deterministic, no network; its answer meets the same schema as Claude's. */
export class LocalEngine implements ExtractionEngine {
  readonly name = 'local' as const;

  async extract(input: EngineInput): Promise<EngineAnswer> {
    if (input.signal.aborted) throw input.signal.reason;
    const data = input.task.kind === 'custom' ? extractCustom(input.task.schema, input.text) : extractFixed(input.task.kind, input.text);
    const check = checkAnswer(input.schema, data);
    if (!check.ok) {
      // A rules bug, not the caller's fault: never answer data that breaks the contract.
      throw new ApiError('internal_error', 'The offline engine produced an answer outside the schema.');
    }
    return {
      data,
      model: LOCAL_MODEL,
      usage: { inputTokens: tokens(input.text.length + JSON.stringify(input.schema).length), outputTokens: tokens(JSON.stringify(data).length) },
    };
  }
}
