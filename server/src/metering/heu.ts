import type { JsonSchema } from '../extraction/engines/engine.js';

/** HEU for reported usage: one per started 1,000 tokens, at least one. */
export function heuFor(usage: { inputTokens: number; outputTokens: number }): number {
  return Math.max(1, Math.ceil((usage.inputTokens + usage.outputTokens) / 1000));
}

/** Output tokens allowed for in an estimate: enough for a filled-in answer of this schema. */
const OUTPUT_ALLOWANCE_MIN = 1000;

/**
 * The HEU reserved before an engine runs: the text at about 4 characters a token, the schema (sent as the tool
 * definition), and an output allowance that grows with the schema.
 */
export function estimateHeu(textLength: number, schema: JsonSchema): number {
  const schemaTokens = schemaTokensOf(schema);
  const inputTokens = Math.ceil(textLength / 4) + schemaTokens;
  const outputTokens = Math.max(OUTPUT_ALLOWANCE_MIN, schemaTokens);
  return heuFor({ inputTokens, outputTokens });
}

/** The fixed routes' schemas are the same objects on every request: serialise each once. */
const schemaTokenCache = new WeakMap<JsonSchema, number>();
function schemaTokensOf(schema: JsonSchema): number {
  let tokens = schemaTokenCache.get(schema);
  if (tokens === undefined) {
    tokens = Math.ceil(JSON.stringify(schema).length / 4);
    schemaTokenCache.set(schema, tokens);
  }
  return tokens;
}
