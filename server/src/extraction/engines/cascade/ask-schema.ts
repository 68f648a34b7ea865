// What the model is asked when the offline engine vouched for part of a document: only the members it did not vouch
// for, each with the offline engine's value, when it had one, as a hint the model may overrule. The hints travel in
// the schema's descriptions, which every model engine sends with the schema (Claude's structured output or tool,
// an OpenAI-compatible server's `json_schema`, or the schema in the prompt): the cascade needs nothing of a model
// engine but the ExtractionEngine interface.
import type { JsonSchema } from '../engine.js';
import { WHOLE } from './members.js';

/** A hint is a reminder, not a second document: long values are cut. */
const HINT_CHARS = 400;

/** Before each hint, in its member's description; what a hint is, the schema's description says once (ASK_NOTE). */
export const HINT_PREFIX = 'Offline hint:';

export const ASK_NOTE = 'Only the fields an offline rules engine could not vouch for are asked; the others are known. A description ending in "Offline hint: <JSON>" gives that engine\'s reading of the field: a hint, possibly wrong, never the answer. Read the document and overrule the hint, null included, whenever the document says otherwise.';

const hintOf = (value: unknown) => {
  const json = JSON.stringify(value);
  return json.length > HINT_CHARS ? `${json.slice(0, HINT_CHARS)}...` : json;
};

/** Whether the offline value is worth a hint: something was found. */
const found = (value: unknown) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0);

function withHint(prop: unknown, value: unknown): unknown {
  if (!found(value) || !prop || typeof prop !== 'object') return prop;
  const p = prop as JsonSchema;
  const before = typeof p.description === 'string' && p.description ? `${p.description} ` : '';
  return { ...p, description: `${before}${HINT_PREFIX} ${hintOf(value)}` };
}

/**
 * The schema of the model's call: the answer's schema with only `asked` among its properties (their `required` kept),
 * each with its hint; `$defs` and every other keyword as they were. For a schema without properties (`asked` is the
 * whole answer) the hint goes on the root.
 */
export function askSchema(schema: JsonSchema, asked: string[], offline: unknown): JsonSchema {
  if (asked.length === 1 && asked[0] === WHOLE) {
    const hinted = withHint(schema, offline) as JsonSchema;
    return { ...hinted, description: `${ASK_NOTE}${typeof hinted.description === 'string' ? ` ${hinted.description}` : ''}` };
  }
  const props = schema.properties as Record<string, unknown>;
  const data = (offline && typeof offline === 'object' ? offline : {}) as Record<string, unknown>;
  const properties = Object.fromEntries(asked.map((name) => [name, withHint(props[name], data[name])]));
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((r) => asked.includes(r)) : undefined;
  const description = `${ASK_NOTE}${typeof schema.description === 'string' ? ` ${schema.description}` : ''}`;
  return { ...schema, description, properties, ...(required ? { required } : {}) };
}
