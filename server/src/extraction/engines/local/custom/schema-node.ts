// Reading a caller's JSON Schema node: its effective type after nullable unions and local references.
import type { JsonSchema } from '../engine-types.js';

export type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'unknown';

export function resolve(node: unknown, root: JsonSchema, depth = 0): JsonSchema {
  if (!node || typeof node !== 'object') return {};
  let n = node as JsonSchema;
  if (typeof n.$ref === 'string' && n.$ref.startsWith('#') && depth < 8) {
    const target = n.$ref.slice(1).split('/').filter(Boolean).reduce<unknown>((acc, part) => (acc && typeof acc === 'object' ? (acc as JsonSchema)[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), root);
    const { $ref: _r, ...rest } = n;
    n = { ...resolve(target, root, depth + 1), ...rest };
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = n[key];
    if (Array.isArray(options)) {
      const pick = options.map((o) => resolve(o, root, depth + 1)).find((o) => o.type !== 'null');
      if (pick) { const { [key]: _o, ...rest } = n; n = { ...pick, ...rest }; }
    }
  }
  if (Array.isArray(n.allOf)) {
    const merged = n.allOf.map((o) => resolve(o, root, depth + 1)).reduce((a, b) => ({ ...a, ...b }), {});
    const { allOf: _a, ...rest } = n;
    n = { ...merged, ...rest };
  }
  return n;
}

export function kindOf(n: JsonSchema): Kind {
  const t = Array.isArray(n.type) ? (n.type as unknown[]).find((x) => x !== 'null') : n.type;
  if (typeof t === 'string' && ['string', 'number', 'integer', 'boolean', 'array', 'object'].includes(t)) return t as Kind;
  if (n.properties) return 'object';
  if (n.items) return 'array';
  if (Array.isArray(n.enum)) return 'string';
  return 'unknown';
}

/** A string property that holds a calendar date, a time of day, a currency code or an e-mail, by name or description. */
export function stringFlavour(name: string, n: JsonSchema): 'date' | 'time' | 'currency' | 'datetime' | 'plain' {
  const d = typeof n.description === 'string' ? n.description : '';
  if (n.format === 'date' || /YYYY-MM-DD|\bdate\b/i.test(d) && !/time/i.test(name) || /date$|^date|Date$|birthday|deadline|dob$/.test(name) || /(?:From|Until|On|By)$/.test(name) && /avail|valid|due|expir|start|end/i.test(name)) return 'date';
  if (n.format === 'date-time') return 'datetime';
  if (n.format === 'time' || /HH:MM/i.test(d) || /time$|Time$/.test(name)) return 'time';
  if (/currency/i.test(name) || /ISO 4217/i.test(d)) return 'currency';
  return 'plain';
}
