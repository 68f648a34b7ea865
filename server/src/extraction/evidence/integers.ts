// Which values of an answer the schema says are whole numbers (counts, days): a negative one is implausible.
import type { JsonSchema } from '../engines/engine.js';
import { escapeStep } from './pointers.js';

function resolve(node: unknown, root: JsonSchema): JsonSchema | null {
  let n = node as JsonSchema | null;
  for (let hops = 0; n && typeof n.$ref === 'string' && hops < 8; hops++) {
    const path = (n.$ref as string).replace(/^#\/?/, '').split('/').filter(Boolean);
    n = path.reduce<unknown>((at, step) => (at && typeof at === 'object' ? (at as JsonSchema)[step] : undefined), root) as JsonSchema | null;
  }
  return n && typeof n === 'object' ? n : null;
}

const types = (n: JsonSchema) => {
  const t = n.type;
  const own = Array.isArray(t) ? t : t ? [t] : [];
  const alternatives = [...((n.anyOf as JsonSchema[]) ?? []), ...((n.oneOf as JsonSchema[]) ?? [])].flatMap((a) => (Array.isArray(a.type) ? a.type : a.type ? [a.type] : []));
  return new Set<string>([...own, ...alternatives] as string[]);
};

/** The pointers of `data` whose schema is `integer`, walking schema and data together. */
export function integerPointers(schema: JsonSchema, data: unknown): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown, value: unknown, pointer: string, depth: number) => {
    const n = resolve(node, schema);
    if (!n || depth > 12 || value === null || value === undefined) return;
    const branch = [n, ...((n.anyOf as JsonSchema[]) ?? []), ...((n.oneOf as JsonSchema[]) ?? [])].map((b) => resolve(b, schema)).filter((b): b is JsonSchema => !!b);
    if (typeof value === 'number' && branch.some((b) => types(b).has('integer'))) out.add(pointer);
    if (Array.isArray(value)) {
      const items = branch.find((b) => b.items)?.items;
      value.forEach((v, i) => walk(items, v, `${pointer}/${i}`, depth + 1));
    } else if (typeof value === 'object') {
      const props = branch.find((b) => b.properties)?.properties as Record<string, unknown> | undefined;
      for (const [k, v] of Object.entries(value as object)) walk(props?.[k], v, `${pointer}/${escapeStep(k)}`, depth + 1);
    }
  };
  walk(schema, data, '', 0);
  return out;
}
