// A caller's schema as the ranker sees it: each number, date or identifier property (nested objects too, lists not),
// its JSON Pointer, the kind of candidate it takes, and its words (its name's, then its title's and description's).
import { descriptionWords, nameWords } from '../custom/property-words.js';
import type { CandidateKind } from './candidates.js';

type Schema = Record<string, unknown>;

export interface CustomField { pointer: string; kind: CandidateKind; words: string[] }

const IDENTIFIER = new Set(['number', 'no', 'nr', 'id', 'ref', 'reference', 'code', 'nummer', 'numero', 'número']);

function resolve(node: unknown, root: Schema): Schema | null {
  let n = node;
  for (let hops = 0; n && typeof n === 'object' && typeof (n as Schema).$ref === 'string' && hops < 8; hops++) {
    const ref = (n as Schema).$ref as string;
    n = ref === '#' ? root : ref.slice(2).split('/').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Schema)[k.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), root);
  }
  return n && typeof n === 'object' && !Array.isArray(n) ? (n as Schema) : null;
}

/** The types a property allows, from `type` or its `anyOf`/`oneOf` branches. */
function typesOf(node: Schema, root: Schema): Set<string> {
  const out = new Set<string>();
  const add = (t: unknown) => { if (typeof t === 'string') out.add(t); else if (Array.isArray(t)) t.forEach(add); };
  add(node.type);
  for (const k of ['anyOf', 'oneOf']) if (Array.isArray(node[k])) for (const b of node[k] as unknown[]) { const r = resolve(b, root); if (r) { add(r.type); if (r.format === 'date') out.add('date'); } }
  if (node.format === 'date') out.add('date');
  return out;
}

/**
 * A property's words: its name's, then up to three of its title's. Not its description's: a description guides, and a
 * figure whose label only echoes it (`reduced to £35` for "Reduced amount for early payment") is no evidence.
 */
export function customFieldWords(name: string, node: Schema): string[] {
  return [...new Set([...nameWords(name), ...descriptionWords(node.title).slice(0, 3)])].slice(0, 6);
}

/** A string property that asks for an identifier (`orderNumber`, `booking_ref`, `taxId`). */
export const isIdentifierProperty = (name: string) => nameWords(name).some((w) => IDENTIFIER.has(w));

export function customFieldsOf(schema: Schema, root: Schema = schema, pointer = '', depth = 0): CustomField[] {
  const out: CustomField[] = [];
  const props = schema.properties;
  if (!props || typeof props !== 'object' || depth > 4) return out;
  for (const [name, raw] of Object.entries(props as Record<string, unknown>)) {
    const node = resolve(raw, root);
    if (!node) continue;
    const at = `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const types = typesOf(node, root);
    const words = customFieldWords(name, node);
    if (types.has('object')) out.push(...customFieldsOf(node, root, at, depth + 1));
    else if (types.has('integer')) out.push({ pointer: at, kind: 'count', words });
    else if (types.has('number')) out.push({ pointer: at, kind: 'money', words });
    else if (types.has('date')) out.push({ pointer: at, kind: 'date', words });
    else if (types.has('string') && isIdentifierProperty(name)) out.push({ pointer: at, kind: 'id', words });
    else if (types.has('string') && !Array.isArray(node.enum) && !node.format) out.push({ pointer: at, kind: 'text', words });
  }
  return out;
}
