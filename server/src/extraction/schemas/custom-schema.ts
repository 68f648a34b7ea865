import type { ErrorObject } from 'ajv';
import safeRegex from 'safe-regex2';
import { ApiError } from '../../http/api-error.js';
import type { JsonSchema } from '../engines/engine.js';
import { compileAnswerSchema, toIssues, type SchemaIssue } from './answer-checker.js';

export const CUSTOM_SCHEMA_LIMITS = { bytes: 32 * 1024, depth: 6, properties: 100, patternLength: 200 };


function invalid(issues: SchemaIssue[]): ApiError {
  const first = issues[0];
  return new ApiError('invalid_schema', first ? `The schema cannot be used: ${first.path} ${first.message}` : undefined, { errors: issues });
}

/** Walks the schema: depth, property count, references and regular expressions within the limits. */
function checkLimits(schema: JsonSchema): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  let properties = 0;
  const walk = (node: unknown, path: string, depth: number) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${path}/${i}`, depth));
    if (!node || typeof node !== 'object') return;
    const n = node as JsonSchema;
    if (depth > CUSTOM_SCHEMA_LIMITS.depth) {
      issues.push({ path, message: `nests deeper than ${CUSTOM_SCHEMA_LIMITS.depth} levels` });
      return;
    }
    if (typeof n.$ref === 'string' && !n.$ref.startsWith('#/') && n.$ref !== '#') issues.push({ path: `${path}/$ref`, message: 'may only point inside the schema (#/...)' });
    for (const key of ['$id', '$dynamicRef', '$dynamicAnchor', '$anchor']) if (key in n) issues.push({ path: `${path}/${key}`, message: 'is not supported' });
    if (typeof n.pattern === 'string' && n.pattern.length > CUSTOM_SCHEMA_LIMITS.patternLength) issues.push({ path: `${path}/pattern`, message: `is longer than ${CUSTOM_SCHEMA_LIMITS.patternLength} characters` });
    // Answers are checked against the caller's patterns with JavaScript's backtracking engine: refuse the ones whose
    // nested repetition can take exponential time (ReDoS).
    const patterns = [n.pattern, ...Object.keys((n.patternProperties ?? {}) as object)].filter((x): x is string => typeof x === 'string');
    for (const p of patterns) if (!safeRegex(p)) issues.push({ path: `${path}/pattern`, message: 'may take exponential time to match (nested repetition); simplify it' });
    for (const [key, value] of Object.entries(n)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [name, sub] of Object.entries(value)) {
          properties++;
          walk(sub, `${path}/properties/${name}`, depth + 1);
        }
      } else if (key === 'items' || key === 'prefixItems' || key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === '$defs' || key === 'definitions' || key === 'additionalProperties' || key === 'not') {
        if (key === '$defs' || key === 'definitions') for (const [name, sub] of Object.entries((value ?? {}) as object)) walk(sub, `${path}/${key}/${name}`, depth + 1);
        else walk(value, `${path}/${key}`, depth + 1);
      }
    }
  };
  walk(schema, '', 0);
  if (properties > CUSTOM_SCHEMA_LIMITS.properties) issues.push({ path: '/', message: `has ${properties} properties; at most ${CUSTOM_SCHEMA_LIMITS.properties}` });
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
  const limits = checkLimits(s);
  if (limits.length) throw invalid(limits);
  const answerSchema = widenForAnswers(s);
  try {
    // Compiled once here; the answer check reuses it.
    compileAnswerSchema(answerSchema);
  } catch (e) {
    const errors = (e as { errors?: ErrorObject[] }).errors;
    throw invalid(errors ? toIssues(errors) : [{ path: '/', message: (e as Error).message.replace(/^strict mode: /, '') }]);
  }
  return answerSchema;
}
