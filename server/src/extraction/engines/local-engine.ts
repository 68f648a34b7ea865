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
    const found = input.task.kind === 'custom' ? extractCustom(input.task.schema, input.text) : extractFixed(input.task.kind, input.text);
    const data = withinSchema(input.schema, found);
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
