import { openapiDocument } from '../../contract/documents.js';
import type { FixedKind, JsonSchema } from '../engines/engine.js';

/** The component of the compiled contract that is each fixed route's `data`. */
const DATA_COMPONENT: Record<FixedKind, string> = {
  invoice: 'InvoiceData',
  receipt: 'ReceiptData',
  contract: 'ContractData',
  'job-posting': 'JobPostingData',
  'meeting-notes': 'MeetingNotesData',
  renewal: 'RenewalData',
};

export const FIXED_KINDS = Object.keys(DATA_COMPONENT) as FixedKind[];

type Node = JsonSchema;

/**
 * A self-contained JSON Schema for a component: references inlined, TypeSpec's `allOf: [X]` wrappers (a documented
 * reference) merged into X, and objects closed (`additionalProperties: false`) so the model's answer holds exactly
 * the documented fields.
 */
export function inlineComponent(name: string): JsonSchema {
  const components = openapiDocument.components.schemas as Record<string, Node>;
  const seen: string[] = [];
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!node || typeof node !== 'object') return node;
    const n = node as Node;
    if (typeof n.$ref === 'string') {
      const target = n.$ref.replace('#/components/schemas/', '');
      if (seen.includes(target)) throw new Error(`recursive component ${target}`);
      seen.push(target);
      const { $ref: _ref, ...rest } = n;
      const resolved = { ...(visit(components[target]) as Node), ...(visit(rest) as Node) };
      seen.pop();
      return resolved;
    }
    if (Array.isArray(n.allOf) && n.allOf.length === 1 && n.type === undefined) {
      const { allOf, ...rest } = n;
      return { ...(visit(allOf[0]) as Node), ...(visit(rest) as Node) };
    }
    const out: Node = {};
    for (const [k, v] of Object.entries(n)) {
      if (k === 'examples') continue;
      out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Node).map(([p, s]) => [p, visit(s)])) : visit(v);
    }
    if (out.type === 'object' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  };
  return visit(components[name]) as JsonSchema;
}

const cache = new Map<FixedKind, JsonSchema>();

/** The JSON Schema a fixed route's `data` must meet, taken from the compiled contract. */
export function dataSchemaFor(kind: FixedKind): JsonSchema {
  let schema = cache.get(kind);
  if (!schema) {
    schema = inlineComponent(DATA_COMPONENT[kind]);
    cache.set(kind, schema);
  }
  return schema;
}
