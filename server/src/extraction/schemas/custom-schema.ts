import type { ErrorObject } from 'ajv';
import { compileLinear, UnsupportedPattern } from './linear-regexp.js';
import { ApiError } from '../../http/api-error.js';
import type { JsonSchema } from '../engines/engine.js';
import { compileAnswerSchema, toIssues, type SchemaIssue } from './answer-checker.js';
import { toCurrentDialect } from './schema-dialect.js';

export const CUSTOM_SCHEMA_LIMITS = { bytes: 32 * 1024, depth: 6, properties: 100, patternLength: 200 };

/** Keywords whose value is one subschema (or a boolean schema). */
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'not']);
/** Keywords whose value is an array of subschemas. */
const SUBSCHEMA_LIST = new Set(['prefixItems', 'anyOf', 'oneOf', 'allOf']);
/** Keywords whose value maps names to subschemas. */
const SUBSCHEMA_MAP = new Set(['properties', '$defs', 'definitions']);
/** Keywords that hold plain values (checked by Ajv's meta-schema). */
const VALUE_KEYWORDS = new Set([
  'type', 'required', 'enum', 'const', 'description', 'title', 'examples', 'default', '$comment', 'deprecated', 'readOnly', 'writeOnly',
  'minLength', 'maxLength', 'pattern', 'format',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems',
  'minProperties', 'maxProperties',
  '$ref',
]);
/**
 * Every keyword a custom schema may use (docs/extraction.md, "Custom schemas: accepted keywords"), besides `$schema` and
 * `$id`, which schema-dialect.ts reads and removes first. Anything else is refused, notably `$anchor`, `$dynamicRef`,
 * `$dynamicAnchor` (they change how references resolve), `if`/`then`/`else`, `dependentSchemas`, `contains`,
 * `patternProperties`, `propertyNames` and `unevaluated*` (subschemas the extraction does not fill in and that
 * hid references and patterns from these checks).
 */
export const ACCEPTED_KEYWORDS = [...SUBSCHEMA_MAP, ...SUBSCHEMA, ...SUBSCHEMA_LIST, ...VALUE_KEYWORDS, '$schema', '$id'].sort();

/** Property names an answer object cannot hold as plain data: `__proto__` and Object.prototype's members. */
const RESERVED_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Sizes above these cannot describe an answer extracted from a document of at most 200,000 characters. */
const SIZE_LIMITS: Record<string, number> = {
  minLength: 200_000, maxLength: 200_000, minItems: 1_000, maxItems: 1_000_000, minProperties: 100, maxProperties: 1_000_000,
};

function invalid(issues: SchemaIssue[]): ApiError {
  const first = issues[0];
  return new ApiError('invalid_schema', first ? `The schema cannot be used: ${first.path} ${first.message}` : undefined, { errors: issues });
}

/**
 * A pattern is matched with RE2 (linear-regexp.ts), in time linear in the text whatever its form, so the only patterns
 * refused are the ones RE2 cannot express (backreferences, lookarounds), and over-long ones.
 */
function patternProblem(p: string): string | null {
  if (p.length > CUSTOM_SCHEMA_LIMITS.patternLength) return `is longer than ${CUSTOM_SCHEMA_LIMITS.patternLength} characters`;
  try {
    new RegExp(p, 'u'); // JSON Schema patterns are ECMA-262 expressions: first, is it one at all
  } catch {
    return 'is not a valid regular expression';
  }
  try {
    compileLinear(p, 'u');
  } catch (e) {
    if (e instanceof UnsupportedPattern) return e.message;
    throw e;
  }
  return null;
}

const escapePointer = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/** Resolves a local reference (`#/$defs/a`) in the schema, or undefined. */
function resolveRef(root: JsonSchema, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  return ref.slice(2).split('/').reduce<unknown>((node, part) => {
    let key = part;
    try {
      key = decodeURIComponent(part);
    } catch {
      // kept as written
    }
    key = key.replace(/~1/g, '/').replace(/~0/g, '~');
    return node && typeof node === 'object' && Object.prototype.hasOwnProperty.call(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }, root);
}

/** Walks every subschema: keywords on the allow-list, depth, property count, references, sizes and patterns. */
function checkLimits(schema: JsonSchema): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  let properties = 0;
  const refs: Array<{ from: string; ref: string }> = [];
  const walk = (node: unknown, path: string, depth: number) => {
    if (typeof node === 'boolean') return;
    if (!node || typeof node !== 'object' || Array.isArray(node)) {
      issues.push({ path: path || '/', message: 'must be a schema (an object or a boolean)' });
      return;
    }
    if (depth > CUSTOM_SCHEMA_LIMITS.depth) {
      issues.push({ path, message: `nests deeper than ${CUSTOM_SCHEMA_LIMITS.depth} levels` });
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}/${key}`;
      if (SUBSCHEMA_MAP.has(key)) {
        if (!value || typeof value !== 'object' || Array.isArray(value)) {
          issues.push({ path: at, message: 'must be an object of schemas' });
          continue;
        }
        for (const [name, sub] of Object.entries(value)) {
          if (key === 'properties') properties++;
          // The answer is built as a plain object, where `__proto__` is not a property name and `constructor`,
          // `toString`... are inherited (the offline engine then answered 500): refuse them clearly.
          if (key === 'properties' && RESERVED_NAMES.has(name)) issues.push({ path: `${at}/${name}`, message: 'is a reserved name; choose another property name' });
          walk(sub, `${at}/${escapePointer(name)}`, depth + 1);
        }
      } else if (SUBSCHEMA_LIST.has(key)) {
        if (!Array.isArray(value)) issues.push({ path: at, message: 'must be an array of schemas' });
        else value.forEach((sub, i) => walk(sub, `${at}/${i}`, depth + 1));
      } else if (SUBSCHEMA.has(key)) {
        walk(value, at, depth + 1);
      } else if (!VALUE_KEYWORDS.has(key)) {
        issues.push({ path: at, message: `is not an accepted keyword (accepted: ${ACCEPTED_KEYWORDS.join(', ')})` });
      } else if (key === '$ref') {
        if (typeof value !== 'string' || (value !== '#' && !value.startsWith('#/'))) issues.push({ path: at, message: 'may only point inside the schema (#/...)' });
        else refs.push({ from: path, ref: value });
      } else if (key === 'pattern' && typeof value === 'string') {
        const problem = patternProblem(value);
        if (problem) issues.push({ path: at, message: problem });
      } else if (key in SIZE_LIMITS && typeof value === 'number' && value > SIZE_LIMITS[key]!) {
        issues.push({ path: at, message: `is ${value}; at most ${SIZE_LIMITS[key]}` });
      }
    }
  };
  walk(schema, '', 0);
  if (properties > CUSTOM_SCHEMA_LIMITS.properties) issues.push({ path: '/', message: `has ${properties} properties; at most ${CUSTOM_SCHEMA_LIMITS.properties}` });
  if (issues.length) return issues;
  // References must resolve inside the schema and never lead back to where they start (a recursive schema has no
  // finite answer to extract, and the extraction's walk over it would not end).
  for (const { from, ref } of refs) {
    if (resolveRef(schema, ref) === undefined) issues.push({ path: `${from}/$ref`, message: `points to nothing (${ref})` });
  }
  if (issues.length) return issues;
  // Reference R leads to reference S when S is written inside R's target; a cycle in that graph is a recursive
  // schema, which has no finite answer to extract (and the extraction's walk over it would not end).
  const within = (path: string, ref: string) => {
    let target = ref === '#' ? '' : ref.slice(1);
    try {
      target = decodeURIComponent(target);
    } catch {
      // kept as written
    }
    return target === '' || path === target || path.startsWith(`${target}/`);
  };
  const state = new Map<number, 'open' | 'done'>();
  const cyclic = (i: number): boolean => {
    if (state.get(i) === 'open') return true;
    if (state.get(i) === 'done') return false;
    state.set(i, 'open');
    const found = refs.some((r, j) => within(r.from, refs[i]!.ref) && cyclic(j));
    state.set(i, 'done');
    return found;
  };
  refs.forEach((r, i) => {
    if (!issues.length && cyclic(i)) issues.push({ path: `${r.from}/$ref`, message: `is recursive (${r.ref}); recursive schemas are not accepted` });
  });
  return issues;
}

/**
 * Every property of the answer is present, `null` when the document does not state it: each property (at every
 * level of nested objects) also accepts `null`, and is required.
 */
export function widenForAnswers(schema: JsonSchema): JsonSchema {
  const widen = (node: JsonSchema): JsonSchema => {
    const out: JsonSchema = { ...node };
    if (node.properties && typeof node.properties === 'object') {
      // Built with fromEntries so a property named `__proto__` stays a property (an assignment would set the
      // object's prototype instead and silently drop it).
      const props: Record<string, JsonSchema> = Object.fromEntries(Object.entries(node.properties as Record<string, JsonSchema>).map(([name, sub]) => {
        const inner = sub && typeof sub === 'object' ? widen(sub) : sub;
        const description = sub && typeof sub === 'object' && typeof sub.description === 'string' ? { description: sub.description } : {};
        return [name, { anyOf: [inner, { type: 'null' }], ...description }];
      }));
      out.properties = props;
      out.required = Object.keys(props);
    }
    if (node.items && typeof node.items === 'object' && !Array.isArray(node.items)) out.items = widen(node.items as JsonSchema);
    for (const key of ['$defs', 'definitions']) {
      if (node[key] && typeof node[key] === 'object') {
        out[key] = Object.fromEntries(Object.entries(node[key] as Record<string, JsonSchema>).map(([k, v]) => [k, widen(v)]));
      }
    }
    return out;
  };
  return widen(schema);
}

/**
 * A caller's schema, checked against the limits and compiled with Ajv: the answer schema, or 400 invalid_schema
 * with Ajv's messages.
 */
export function prepareCustomSchema(schema: unknown): JsonSchema {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) throw invalid([{ path: '/', message: 'must be a JSON Schema object' }]);
  const s = schema as JsonSchema;
  if (s.type !== 'object') throw invalid([{ path: '/type', message: 'must be "object"' }]);
  const bytes = Buffer.byteLength(JSON.stringify(s));
  if (bytes > CUSTOM_SCHEMA_LIMITS.bytes) throw invalid([{ path: '/', message: `is ${bytes} bytes; at most ${CUSTOM_SCHEMA_LIMITS.bytes}` }]);
  const dialect = toCurrentDialect(s);
  if (dialect.issues.length) throw invalid(dialect.issues);
  const limits = checkLimits(dialect.schema);
  if (limits.length) throw invalid(limits);
  const answerSchema = widenForAnswers(dialect.schema);
  try {
    // Compiled once here; the answer check reuses it.
    compileAnswerSchema(answerSchema);
  } catch (e) {
    const errors = (e as { errors?: ErrorObject[] }).errors;
    throw invalid(errors ? toIssues(errors) : [{ path: '/', message: (e as Error).message.replace(/^strict mode: /, '') }]);
  }
  return answerSchema;
}
