import type { JsonSchema } from '../engine.js';

/**
 * A schema reshaped to the strict subset of OpenAI's Structured Outputs, and the answer shaped back.
 *
 * The documented subset (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): the root is an
 * object (not `anyOf`); every property is listed in `required` (an optional field is written as nullable instead);
 * `additionalProperties: false` on every object; types string, number, integer, boolean, object, array, enum, `anyOf`
 * and local `$ref`s; for strings `pattern` and `format` (date-time, time, date, duration, email, hostname, ipv4, ipv6,
 * uuid), for numbers `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `multipleOf`, for arrays `minItems`
 * and `maxItems`; at most 5,000 properties, 10 levels of nesting and 1,000 enum values. `allOf`, `not`, `oneOf`,
 * `if`/`then`/`else`, `patternProperties` and open objects are not supported: a schema needing them is `unfit` (the
 * engine then asks in JSON mode with the schema in the prompt, and Ajv checks the answer as it always does).
 *
 * Any other keyword (`minLength`, `maxLength`, `uniqueItems`, `title`, `examples`, ...) is moved into the node's
 * description, so the model still reads it; the answer is checked against the original schema with Ajv afterwards,
 * with one repair turn, so nothing the subset cannot enforce goes unchecked. Local `$ref`s are inlined (the service
 * refuses recursive ones), so the schema works where it is nested under `{data, quotes}`.
 */

export const STRICT_LIMITS = { properties: 5000, depth: 10, enumValues: 1000 } as const;

/** Keywords the strict subset keeps as they are. */
const KEPT = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'description',
  'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minItems', 'maxItems',
]);
const FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
/** Keywords that cannot be expressed in the subset at all. */
const UNFIT = ['allOf', 'oneOf', 'not', 'prefixItems', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas', 'dependentRequired', 'contains', 'propertyNames', 'unevaluatedProperties', 'unevaluatedItems'];
/** Bookkeeping keywords dropped without a word. */
const DROPPED = new Set(['$defs', 'definitions', '$schema', '$id', '$comment']);

export interface StrictSchema {
  schema: JsonSchema;
  /** Why the schema cannot be sent strict, or null. */
  unfit: string | null;
}

type Node = JsonSchema;

const isNullable = (node: Node): boolean =>
  node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null')) || (Array.isArray(node.anyOf) && (node.anyOf as Node[]).some((n) => n && isNullable(n)));

function resolveRef(root: Node, ref: string): Node | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  const found = ref.slice(2).split('/').reduce<unknown>((node, part) => {
    const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
    return node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }, root);
  return found && typeof found === 'object' ? (found as Node) : undefined;
}

/** The schema as the model sees it under `strict: true`, or why it cannot be. */
export function toStrictSchema(schema: JsonSchema): StrictSchema {
  let unfit: string | null = null;
  let properties = 0;
  let enumValues = 0;
  const visit = (input: Node, depth: number, seen: readonly string[]): Node => {
    let node = input;
    // A local reference is inlined (recursive ones were refused with the caller's schema).
    while (typeof node.$ref === 'string') {
      const ref = node.$ref;
      const target = seen.includes(ref) ? undefined : resolveRef(schema, ref);
      if (!target) {
        unfit ??= `$ref ${ref} cannot be inlined`;
        return {};
      }
      const { $ref: _drop, ...rest } = node;
      node = { ...target, ...rest };
      seen = [...seen, ref];
    }
    if (depth > STRICT_LIMITS.depth) unfit ??= `more than ${STRICT_LIMITS.depth} levels of nesting`;
    for (const k of UNFIT) if (k in node) unfit ??= `keyword ${k}`;
    const out: Node = {};
    const notes: string[] = [];
    for (const [k, v] of Object.entries(node)) {
      if (DROPPED.has(k) || k === '$ref') continue;
      if (k === 'format' && !FORMATS.has(String(v))) notes.push(`format: ${String(v)}`);
      else if (KEPT.has(k)) out[k] = v;
      else if (!UNFIT.includes(k)) notes.push(`${k}: ${JSON.stringify(v)}`);
    }
    if (Array.isArray(node.enum)) enumValues += node.enum.length;
    if (notes.length) out.description = [typeof node.description === 'string' ? node.description : '', `(${notes.join('; ')})`].filter(Boolean).join(' ');
    if (Array.isArray(node.anyOf)) out.anyOf = (node.anyOf as Node[]).map((n) => visit(n, depth, seen));
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.includes('array')) {
      if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) out.items = visit(node.items as Node, depth + 1, seen);
      else unfit ??= 'an array without one items schema';
    }
    if (types.includes('object')) {
      const props = (node.properties ?? {}) as Record<string, Node>;
      if (!Object.keys(props).length) unfit ??= 'an object without properties (an open map)';
      if (node.additionalProperties && typeof node.additionalProperties === 'object') unfit ??= 'additionalProperties with a schema';
      const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
      // Entries, not assignments: a property named `__proto__` stays a property.
      const shaped: Array<[string, Node]> = Object.entries(props).map(([name, prop]) => {
        properties++;
        const inner = visit(prop && typeof prop === 'object' ? prop : {}, depth + 1, seen);
        // An optional property is required and nullable (left out = null), as the subset asks.
        return [name, required.has(name) || isNullable(inner) ? inner : { anyOf: [inner, { type: 'null' }] }];
      });
      out.properties = Object.fromEntries(shaped);
      out.required = shaped.map(([name]) => name);
      out.additionalProperties = false;
    }
    if (node.type === undefined && !Array.isArray(node.anyOf) && node.enum === undefined && node.const === undefined) unfit ??= 'a subschema without a type';
    return out;
  };
  const root = visit(schema, 1, []);
  if (schema.type !== 'object') unfit ??= 'the root is not an object';
  if (!unfit && properties > STRICT_LIMITS.properties) unfit = `${properties} properties (limit ${STRICT_LIMITS.properties})`;
  if (!unfit && enumValues > STRICT_LIMITS.enumValues) unfit = `${enumValues} enum values (limit ${STRICT_LIMITS.enumValues})`;
  return { schema: root, unfit };
}

/**
 * The answer in the original schema's shape: a property the original made optional (and not nullable), which the
 * strict schema made nullable, is left out again when the model answered null for it.
 */
export function fromStrictAnswer(original: JsonSchema, data: unknown, root: JsonSchema = original, seen: readonly string[] = []): unknown {
  let node = original;
  while (typeof node.$ref === 'string' && !seen.includes(node.$ref)) {
    const target = resolveRef(root, node.$ref);
    if (!target) return data;
    seen = [...seen, node.$ref];
    node = target;
  }
  if (Array.isArray(node.anyOf)) {
    // The member whose type the value has (the contract's nullable fields are `anyOf: [X, null]`).
    const member = (node.anyOf as Node[]).find((n) => n && (n.type === 'object' || n.properties) && data && typeof data === 'object' && !Array.isArray(data))
      ?? (node.anyOf as Node[]).find((n) => n && n.type === 'array' && Array.isArray(data));
    return member ? fromStrictAnswer(member, data, root, seen) : data;
  }
  if (Array.isArray(data) && node.items && typeof node.items === 'object') return data.map((d) => fromStrictAnswer(node.items as Node, d, root, seen));
  if (data && typeof data === 'object' && !Array.isArray(data) && node.properties) {
    const props = node.properties as Record<string, Node>;
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const entries: Array<[string, unknown]> = [];
    for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
      const prop = Object.hasOwn(props, name) ? props[name] : undefined;
      if (!prop) entries.push([name, value]);
      else if (!(value === null && !required.has(name) && !isNullable(prop))) entries.push([name, fromStrictAnswer(prop, value, root, seen)]);
    }
    return Object.fromEntries(entries);
  }
  return data;
}
