// A worker thread of the offline engine's pool (piscina): runs one extraction at a time, off the event loop that
// answers HTTP.
import { runClassifyTask, type ClassifyOutput, type ClassifyTask } from '../../../classification/classify-task.js';
import { dataSchemaFor } from '../../schemas/contract-schemas.js';
import type { JsonSchema } from '../engine.js';
import { runLocalTask, type LocalTaskInput, type LocalTaskOutput } from './local-task.js';

/** What crosses to the thread: a fixed route's schema is this thread's own copy, so only a custom one is sent. */
export type LocalWorkerInput = Omit<LocalTaskInput, 'schema'> & { schema?: JsonSchema };

/**
 * The answer check compiles a schema once per schema object; every message arrives as a fresh copy, so the same
 * custom schema is mapped back to one object (the last 64 kept) instead of being compiled on every task.
 */
const recent = new Map<string, JsonSchema>();
function schemaOf(input: LocalWorkerInput): JsonSchema {
  if (input.task.kind !== 'custom') return dataSchemaFor(input.task.kind);
  const text = JSON.stringify(input.schema);
  let schema = recent.get(text);
  if (!schema) {
    schema = input.schema!;
    recent.set(text, schema);
    if (recent.size > 64) recent.delete(recent.keys().next().value!);
  }
  return schema;
}

export default function work(input: LocalWorkerInput | ClassifyTask): LocalTaskOutput | ClassifyOutput {
  if ('op' in input) return runClassifyTask(input);
  return runLocalTask({ task: input.task, text: input.text, schema: schemaOf(input) });
}
