import type { JsonSchema } from '../engines/engine.js';
import type { SchemaIssue } from './answer-checker.js';

/**
 * The dialects a caller's `$schema` may name. Schemas as people write them carry a `$schema` and an `$id` (editors,
 * generators and OpenAPI tooling add them); within the keywords a custom schema may use (custom-schema.ts), drafts 06
 * and 07 and 2019-09 mean what 2020-12 means, except that a tuple is `items: [...]` (then `additionalItems`) where
 * 2020-12 says `prefixItems` (then `items`). Draft-04 and earlier are refused: their `exclusiveMinimum: true` and
 * `id` mean something else, and reading them as 2020-12 would check answers against a different schema.
 */
const DIALECTS: Record<string, 'current' | 'tuple-items'> = {
  'https://json-schema.org/draft/2020-12/schema': 'current',
  'https://json-schema.org/draft/2019-09/schema': 'tuple-items',
  'http://json-schema.org/draft-07/schema': 'tuple-items',
  'http://json-schema.org/draft-06/schema': 'tuple-items',
};
export const ACCEPTED_DIALECTS = Object.keys(DIALECTS);

/** The dialect a `$schema` value names: http or https, with or without the empty fragment. */
function dialectOf(uri: unknown): 'current' | 'tuple-items' | undefined {
  if (typeof uri !== 'string') return undefined;
  const bare = uri.trim().replace(/#$/, '');
  return DIALECTS[bare] ?? DIALECTS[bare.replace(/^https?:/, 'https:')] ?? DIALECTS[bare.replace(/^https?:/, 'http:')];
}

/** Keywords whose value maps names to subschemas (a property may be called `$id`: it is not the keyword there). */
const MAPS = new Set(['properties', '$defs', 'definitions']);
const LISTS = new Set(['prefixItems', 'anyOf', 'oneOf', 'allOf']);
const SINGLE = new Set(['items', 'additionalProperties', 'not', 'additionalItems']);

/**
 * The caller's schema in the 2020-12 form the service compiles: `$schema` checked and removed, `$id` removed (ignored:
 * references resolve from the root, and nothing is registered in the shared validator), and for the older drafts a
 * tuple's `items: [...]` / `additionalItems` rewritten as `prefixItems` / `items`. Issues name a `$schema` that is
 * not an accepted dialect. Everything else is left for the keyword check.
 */
export function toCurrentDialect(schema: JsonSchema): { schema: JsonSchema; issues: SchemaIssue[] } {
  const issues: SchemaIssue[] = [];
  const rewrite = (node: unknown, path: string, dialect: 'current' | 'tuple-items'): unknown => {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
    let own = dialect;
    const source = node as Record<string, unknown>;
    if ('$schema' in source) {
      const named = dialectOf(source.$schema);
      if (named) own = named;
      else issues.push({ path: `${path}/$schema`, message: `names a dialect the service does not read (${JSON.stringify(source.$schema)}); accepted: ${ACCEPTED_DIALECTS.join(', ')}` });
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      const at = `${path}/${key}`;
      if (key === '$schema' || key === '$id') continue;
      if (MAPS.has(key) && value && typeof value === 'object' && !Array.isArray(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, rewrite(sub, `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, own)]));
      } else if (LISTS.has(key) && Array.isArray(value)) {
        out[key] = value.map((sub, i) => rewrite(sub, `${at}/${i}`, own));
      } else if (own === 'tuple-items' && key === 'items' && Array.isArray(value)) {
        out.prefixItems = value.map((sub, i) => rewrite(sub, `${at}/${i}`, own));
      } else if (own === 'tuple-items' && key === 'additionalItems') {
        // Only meaningful after a tuple; on its own it constrains nothing (as in draft-07).
        if (Array.isArray(source.items)) out.items = rewrite(value, at, own);
      } else if (SINGLE.has(key)) {
        out[key] = rewrite(value, at, own);
      } else {
        out[key] = value;
      }
    }
    return out;
  };
  return { schema: rewrite(schema, '', 'current') as JsonSchema, issues };
}
