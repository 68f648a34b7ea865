// TEMPORARY placeholder (to be replaced by the rules engine): answers "nothing found" in the route's shape.
import { dataSchemaFor } from '../../schemas/contract-schemas.js';
import { widenForAnswers } from '../../schemas/custom-schema.js';
import type { FixedData, FixedKind, JsonSchema } from '../engine.js';

function empty(schema: JsonSchema): unknown {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).some((o) => o.type === 'null') ? null : empty((schema.anyOf as JsonSchema[])[0]!);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === 'object') return Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>).map(([k, v]) => [k, empty(v)]));
  if (schema.type === 'array') return [];
  return null;
}

export function extractFixed<K extends FixedKind>(kind: K, _text: string): FixedData[K] {
  const data = empty(dataSchemaFor(kind)) as FixedData[K];
  if (kind === 'renewal') (data as FixedData['renewal']).overall_status = 'no_terms_found';
  return data;
}

export function extractCustom(schema: JsonSchema, _text: string): Record<string, unknown> {
  return empty(widenForAnswers(schema)) as Record<string, unknown>;
}
