import type { JsonSchema } from '../engine.js';

/**
 * The fixed routes' schemas reshaped for structured outputs (`output_config.format`), and the answer shaped back.
 *
 * The documented limits (https://platform.claude.com/docs/en/build-with-claude/structured-outputs, "Schema complexity
 * limits"): at most 24 optional properties and 16 union-typed properties (`anyOf`, or `type` arrays such as
 * `["string", "null"]`) across the request's strict schemas; no `minimum`/`maximum`, `minLength`/`maxLength`,
 * recursive or external `$ref`; `minItems` only 0 or 1; every object closed. The contract makes every field
 * nullable, which is one union per field (an invoice has 17, a renewal 32), so a nullable field is sent as an
 * optional one (left out means null) and a renewal's `{value, sourceQuote}` pair, whose halves are null together, as
 * one optional object with both halves required. The public contract is untouched: `restoreNulls` turns the answer
 * back into it, and the answer is still checked against the contract.
 */

export const LIMITS = { optional: 24, unions: 16 } as const;

const UNSUPPORTED = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'not', 'oneOf', 'allOf', '$ref', 'prefixItems'];

type Node = JsonSchema;

/** The non-null member of a nullable `anyOf`, or undefined when the node is not exactly "X or null". */
function nullableInner(node: Node): Node | undefined {
  const options = node.anyOf;
  if (!Array.isArray(options) || options.length !== 2) return undefined;
  const [a, b] = options as Node[];
  if (b?.type === 'null') return withDescription(a!, node);
  if (a?.type === 'null') return withDescription(b!, node);
  return undefined;
}

function withDescription(inner: Node, outer: Node): Node {
  return outer.description && !inner.description ? { ...inner, description: outer.description } : inner;
}

/** A renewal member: `{value, sourceQuote}`, both nullable. */
function groundedPair(node: Node): boolean {
  const props = node.properties as Record<string, Node> | undefined;
  return node.type === 'object' && !!props && Object.keys(props).sort().join(',') === 'sourceQuote,value'
    && Object.values(props).every((p) => nullableInner(p) !== undefined);
}

export interface Reshaped {
  schema: JsonSchema;
  optional: number;
  unions: number;
  /** Why it does not fit, when it does not. */
  unfit: string | null;
}

/**
 * The model's view of a contract schema, with its counts. `unfit` names the first reason the schema cannot be sent as
 * a structured output (then the engine uses the tool path with an Ajv check instead).
 */
export function reshapeForStructuredOutput(schema: JsonSchema): Reshaped {
  let optional = 0;
  let unions = 0;
  let unfit: string | null = null;
  // Nullable fields inside array items stay unions while the union budget lasts: an optional member of an array item
  // multiplies the grammar once per element, and the optional budget is the scarcer one at the top level.
  const visit = (node: Node, inArray: boolean): Node => {
    for (const k of UNSUPPORTED) if (k in node) unfit ??= `keyword ${k}`;
    if (node.type === 'array') return { ...node, items: visit(node.items as Node, true) };
    if (node.type !== 'object') return node;
    const props = (node.properties ?? {}) as Record<string, Node>;
    const required: string[] = [];
    const out: Record<string, Node> = {};
    for (const [name, prop] of Object.entries(props)) {
      const inner = nullableInner(prop);
      if (groundedPair(prop)) {
        optional++;
        const pair = prop.properties as Record<string, Node>;
        out[name] = { ...prop, required: ['value', 'sourceQuote'], properties: { value: visit(nullableInner(pair.value!)!, inArray), sourceQuote: visit(nullableInner(pair.sourceQuote!)!, inArray) } };
      } else if (inner && inArray && unions < LIMITS.unions) {
        unions++;
        required.push(name);
        out[name] = { anyOf: [visit(inner, inArray), { type: 'null' }], ...(prop.description ? { description: prop.description } : {}) };
      } else if (inner) {
        optional++;
        out[name] = visit(inner, inArray);
      } else {
        required.push(name);
        out[name] = visit(prop, inArray);
      }
    }
    return { ...node, properties: out, required, additionalProperties: false };
  };
  const reshaped = visit(schema, false);
  if (!unfit && optional > LIMITS.optional) unfit = `${optional} optional properties (limit ${LIMITS.optional})`;
  if (!unfit && unions > LIMITS.unions) unfit = `${unions} union-typed properties (limit ${LIMITS.unions})`;
  return { schema: reshaped, optional, unions, unfit };
}

/** The answer in the contract's shape: every member the model left out (it was null) put back as null. */
export function restoreNulls(contract: JsonSchema, data: unknown): unknown {
  const inner = nullableInner(contract);
  if (inner) return data === undefined || data === null ? null : restoreNulls(inner, data);
  if (contract.type === 'array' && Array.isArray(data)) return data.map((d) => restoreNulls(contract.items as Node, d));
  if (contract.type === 'object' && data !== null && typeof data === 'object' && !Array.isArray(data)) {
    const props = (contract.properties ?? {}) as Record<string, Node>;
    const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
    for (const [name, prop] of Object.entries(props)) {
      const value = out[name];
      if (value === undefined && groundedPair(prop)) out[name] = { value: null, sourceQuote: null };
      else if (value === undefined && nullableInner(prop)) out[name] = null;
      else if (value !== undefined) out[name] = restoreNulls(prop, value);
    }
    return out;
  }
  return data;
}
