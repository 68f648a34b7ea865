// Claude's quotes: the answer Claude is asked for is `{ data, quotes }`, where `quotes` names, for every non-null value
// of `data`, the verbatim text of the document it was read from. The service, not the model, finds each quote in the
// text it read (evidence/locate-quote.ts) and writes the offsets, page and box.
//
// Why quotes in the answer rather than Anthropic's citations: citations are the provider's way of pointing into a
// document (https://platform.claude.com/docs/en/build-with-claude/citations), but a request with citations enabled
// cannot also constrain its answer with structured outputs (the structured outputs page,
// https://platform.claude.com/docs/en/build-with-claude/structured-outputs, lists citations as incompatible: such a
// request is answered 400), and a citation points at a sentence, not at the value of a field. So the quotes are part
// of the structured answer: one list of `{path, quote, derived}`, every member required and every object closed. That
// costs no optional and no union-typed property, so it fits the documented schema limits (24 optional, 16 unions)
// whatever the route.
import type { FoundEvidenceMap } from '../../evidence/found.js';
import { escapeStep, leaves, valueAt } from '../../evidence/pointers.js';
import type { ExtractionTask, JsonSchema } from '../engine.js';

export interface ModelQuote {
  path: string;
  quote: string;
  derived: boolean;
}

/** The model's view of the quotes: a list, so that it costs one required property whatever the schema. */
export const QUOTES_SCHEMA: JsonSchema = {
  type: 'array',
  description: 'One entry for every non-null value in data (see the system prompt), in the order of data.',
  items: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The JSON Pointer of the value in data, such as /total or /lineItems/0/amount.' },
      quote: { type: 'string', description: 'The shortest span of the document, copied character for character, that proves the value.' },
      derived: { type: 'boolean', description: 'true when the value is computed or inferred from the quote rather than written in it.' },
    },
    required: ['path', 'quote', 'derived'],
    additionalProperties: false,
  },
};

/**
 * A `$ref` of the data schema, moved under `/properties/data` with it (`#/$defs/a` becomes
 * `#/properties/data/$defs/a`): a caller's schema may refer to any part of itself.
 */
function moveRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(moveRefs);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `#/properties/data${v.slice(1)}` : moveRefs(v);
  }
  return out;
}

/** The schema the model answers: the data schema (as the model sees it) beside the quotes. */
export function withQuotes(dataSchema: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { data: moveRefs(dataSchema), quotes: QUOTES_SCHEMA },
    required: ['data', 'quotes'],
    additionalProperties: false,
  };
}

export type SplitAnswer = { ok: true; data: unknown; quotes: ModelQuote[] } | { ok: false; why: string };

/**
 * The model's answer taken apart: `data` (checked against the contract afterwards) and the well-formed quotes. A
 * malformed quote is dropped, never a reason to refuse the data: its value simply has no evidence.
 */
export function splitAnswer(answer: unknown): SplitAnswer {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer) || !('data' in answer)) {
    return { ok: false, why: 'the answer must be an object with "data" and "quotes"' };
  }
  const { data, quotes } = answer as { data: unknown; quotes?: unknown };
  const list = Array.isArray(quotes) ? quotes : [];
  const well = list.filter((q): q is ModelQuote => !!q && typeof q === 'object'
    && typeof (q as ModelQuote).path === 'string' && typeof (q as ModelQuote).quote === 'string' && (q as ModelQuote).quote.trim() !== '');
  return { ok: true, data, quotes: well.map((q) => ({ path: q.path, quote: q.quote, derived: q.derived === true })) };
}

/** A pointer as the model may write it: `/a/0/b`, or without its leading slash. */
const pointerOf = (path: string) => (path.startsWith('/') ? path : `/${path}`);

const isLeaf = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * A renewal term is quoted by its own `sourceQuote` (the interface fixes that shape): a flag, or a figure whose digits
 * the quote does not show, was worked out from it rather than copied.
 */
function derivedFromSourceQuote(value: unknown, quote: string): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'number') return !quote.replace(/\D/g, '').includes(String(Math.trunc(Math.abs(value))));
  return false;
}

/**
 * Where each value of the checked data was read, as the service's evidence input: the model's quote for each
 * non-null leaf (its first entry; entries for other paths are ignored), to be found in the text read. On the renewal
 * route a term's `sourceQuote` is its quote, and a quote given for `/term` counts for `/term/value`.
 */
export function foundFromQuotes(task: ExtractionTask, data: unknown, quotes: ModelQuote[]): FoundEvidenceMap {
  const found: FoundEvidenceMap = {};
  const renewal = task.kind === 'renewal';
  if (renewal && data && typeof data === 'object') {
    for (const [name, member] of Object.entries(data as Record<string, unknown>)) {
      if (!member || typeof member !== 'object') continue;
      const { value, sourceQuote } = member as { value?: unknown; sourceQuote?: unknown };
      if (isLeaf(value) && typeof sourceQuote === 'string' && sourceQuote.trim() !== '') {
        found[`/${escapeStep(name)}/value`] = { quote: sourceQuote, derived: derivedFromSourceQuote(value, sourceQuote), signals: { engine: 'anthropic' } };
      }
    }
  }
  const wanted = new Set(leaves(data).map((l) => l.pointer));
  for (const q of quotes) {
    let pointer = pointerOf(q.path);
    if (renewal && !wanted.has(pointer) && wanted.has(`${pointer}/value`)) pointer = `${pointer}/value`;
    if (!wanted.has(pointer) || found[pointer] || !isLeaf(valueAt(data, pointer))) continue;
    // A renewal's values are its terms' `value`s and documentKindGuess; a quote of a quote is no evidence.
    if (renewal && pointer !== '/documentKindGuess' && !pointer.endsWith('/value')) continue;
    found[pointer] = { quote: q.quote, derived: q.derived, signals: { engine: 'anthropic' } };
  }
  return found;
}
