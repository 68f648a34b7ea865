import { checkAnswer } from '../../schemas/answer-checker.js';
import type { ExtractionTask, JsonSchema } from '../engine.js';
import { extractCustomLocated, extractFixedLocated } from '../local/index.js';
import type { FoundEvidenceMap } from '../../evidence/found.js';

/** What one offline extraction needs: plain data, so it can cross to a worker thread. */
export interface LocalTaskInput {
  task: ExtractionTask;
  text: string;
  schema: JsonSchema;
}

export type LocalTaskOutput = { ok: true; data: unknown; found: FoundEvidenceMap } | { ok: false };

import { MAX_CHARS } from '../local/fields/bounds.js';

/**
 * The longest text value the engine answers: a value is a line or a clause of the document, never the whole of it.
 * The routes' runner already bounds each field by its kind; this is the last guard, for what no field bound covers.
 */
export const MAX_VALUE_CHARS = MAX_CHARS.statement!;

/**
 * The CPU-heavy part of an offline extraction: the rules, the bounds on values, and the check against the schema.
 * `ok: false` is a rules bug (an answer outside the schema), never the caller's fault.
 */
export function runLocalTask({ task, text, schema }: LocalTaskInput): LocalTaskOutput {
  const answer = task.kind === 'custom' ? extractCustomLocated(task.schema, text) : extractFixedLocated(task.kind, text);
  const data = withinSchema(schema, bounded(answer.data));
  return checkAnswer(schema, data).ok ? { ok: true, data, found: answer.found } : { ok: false };
}

/** Every text value longer than MAX_VALUE_CHARS answered as null: a value cut short is not what the document says. */
function bounded(value: unknown): unknown {
  if (typeof value === 'string') return value.length <= MAX_VALUE_CHARS ? value : null;
  if (Array.isArray(value)) return value.map(bounded);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bounded(v)]));
  return value;
}

/**
 * The rules read what the document says, which may break a caller's own constraints (a `pattern`, a `minimum`, a
 * `const`): such a value is not an answer, so it becomes null (every member of an answer schema may be null), as a
 * model would leave a field it cannot fill. A few passes, since nulling a member can reveal its parent's issue.
 */
function withinSchema(schema: JsonSchema, data: unknown): unknown {
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
