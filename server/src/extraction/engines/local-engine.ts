import { checkAnswer } from '../schemas/answer-checker.js';
import { ApiError } from '../../http/api-error.js';
import type { EngineAnswer, EngineInput, ExtractionEngine, TokenPlan } from './engine.js';
import { extractCustom, extractFixed } from './local/index.js';

export const LOCAL_MODEL = 'local-rules-1';

/**
 * Token counts for the offline engine are estimated as a model would count them: about 4 characters a token. It reads
 * the document only (a schema's property names are matched, not read as a prompt), so only the text is input.
 */
const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

/** The longest text value it answers: a value is a line or a clause of the document, never the whole of it. */
export const MAX_VALUE_CHARS = 500;
/** Room for an answer's own JSON (member names, nulls, brackets) besides the document's words it repeats. */
const ANSWER_FRAME_CHARS = 4000;

/** The offline rules engine: deterministic, no network; its answer meets the same schema as Claude's. */
export class LocalEngine implements ExtractionEngine {
  readonly name = 'local' as const;

  /**
   * The document once as input; as output, its words at most twice (a renewal value and the quote stating it) plus
   * the answer's frame. `extract` is held to it.
   */
  plan(input: Pick<EngineInput, 'text'>): TokenPlan {
    const wanted = tokens(input.text.length) + tokens(2 * input.text.length + ANSWER_FRAME_CHARS);
    return { wanted, least: wanted };
  }

  async extract(input: EngineInput): Promise<EngineAnswer> {
    if (input.signal.aborted) throw input.signal.reason;
    const found = input.task.kind === 'custom' ? extractCustom(input.task.schema, input.text) : extractFixed(input.task.kind, input.text);
    const data = withinSchema(input.schema, bounded(found));
    const check = checkAnswer(input.schema, data);
    if (!check.ok) {
      // A rules bug, not the caller's fault: never answer data that breaks the contract.
      throw new ApiError('internal_error', 'The offline engine produced an answer outside the schema.');
    }
    const usage = { inputTokens: tokens(input.text.length), outputTokens: tokens(JSON.stringify(data).length) };
    // Held to the reservation like a model to its max_tokens: an answer larger than what was reserved is not given.
    if (usage.inputTokens + usage.outputTokens > input.budgetTokens) throw new ApiError('output_too_large');
    return { data, model: LOCAL_MODEL, usage };
  }
}

/** Every text value cut to MAX_VALUE_CHARS (at a word where one is near), in place of a whole document. */
function bounded(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.length <= MAX_VALUE_CHARS) return value;
    const cut = value.slice(0, MAX_VALUE_CHARS);
    const space = cut.lastIndexOf(' ');
    return (space > MAX_VALUE_CHARS * 0.8 ? cut.slice(0, space) : cut).trim();
  }
  if (Array.isArray(value)) return value.map(bounded);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bounded(v)]));
  return value;
}

/**
 * The rules read what the document says, which may break a caller's own constraints (a `pattern`, a `minimum`, a
 * `const`): such a value is not an answer, so it becomes null (every member of an answer schema may be null), as a
 * model would leave a field it cannot fill. A few passes, since nulling a member can reveal its parent's issue.
 */
function withinSchema(schema: EngineInput['schema'], data: unknown): unknown {
  let current = data;
  for (let pass = 0; pass < 4; pass++) {
    const check = checkAnswer(schema, current);
    if (check.ok) return current;
    const paths = [...new Set(check.issues.map((i) => i.path))].filter((p) => p !== '/' && p !== '');
    if (paths.length === 0) return current;
    current = structuredClone(current);
    for (const path of paths) setNull(current, path);
  }
  return current;
}

/** Sets the member at a JSON Pointer to null (in place). */
function setNull(root: unknown, pointer: string): void {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node = root as Record<string, unknown> | unknown[] | null;
  for (const part of parts.slice(0, -1)) {
    if (node === null || typeof node !== 'object') return;
    node = (node as Record<string, unknown>)[part] as typeof node;
  }
  const last = parts[parts.length - 1]!;
  if (node !== null && typeof node === 'object' && Object.hasOwn(node, last)) (node as Record<string, unknown>)[last] = null;
}
