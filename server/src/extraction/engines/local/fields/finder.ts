// The offline engine's unit of rule: a field, and the ordered finders that may answer it. One runner asks each
// field's finders in order and keeps the first answer that is in the field's bound; a finder answers only with
// evidence in the document (a label, a table column, a grammatical frame), never by elimination.
import { bounded, MAX_QUOTE, type FieldKind } from './bounds.js';

/** One way to find a field, named for the shape of document it reads (its comment shows that example). */
export interface Finder<C, T> {
  readonly name: string;
  readonly find: (context: C) => T | null | undefined;
}

export const finder = <C, T>(name: string, find: (context: C) => T | null | undefined): Finder<C, T> => ({ name, find });

/** A scalar field: its kind (the bound) and its finders, most specific first. */
export interface ScalarRule<C, T> { readonly rule: 'scalar'; readonly kind: FieldKind; readonly finders: readonly Finder<C, T>[] }
/** A list field: a finder's list is kept when it has an item in bound; items out of bound are dropped. */
export interface ListRule<C, T> {
  readonly rule: 'list';
  readonly kind: FieldKind | 'object';
  readonly finders: readonly Finder<C, T[]>[];
  /** For a list of objects: the kind of each text member (`statement` when not named). */
  readonly members?: Readonly<Record<string, FieldKind>>;
}
/** A renewal member `{value, sourceQuote}`: the value is bounded by its kind, the quote by MAX_QUOTE. */
export interface GroundedRule<C, T> { readonly rule: 'grounded'; readonly kind: FieldKind; readonly finders: readonly Finder<C, Grounded<T>>[] }
/** An object field read as its own table (`vendor: {name, address, taxId}`). */
export interface GroupRule<C, T> { readonly rule: 'group'; readonly table: FieldTable<C, T> }

export interface Grounded<T> { value: T | null; sourceQuote: string | null }

export type FieldRule<C, T> =
  | ScalarRule<C, T>
  | (T extends readonly (infer I)[] ? ListRule<C, I> : never)
  | (T extends Grounded<infer V> ? GroundedRule<C, V> : never)
  | GroupRule<C, T>;

/** A route's rules: every member of its answer, in the order they are found (a finder may read earlier answers). */
export type FieldTable<C, Out> = { readonly [K in keyof Out]-?: FieldRule<C, Out[K]> };

export const field = <C, T>(kind: FieldKind, finders: readonly Finder<C, T>[]): ScalarRule<C, T> => ({ rule: 'scalar', kind, finders });
export const list = <C, T>(kind: FieldKind | 'object', finders: readonly Finder<C, T[]>[], members?: Record<string, FieldKind>): ListRule<C, T> =>
  ({ rule: 'list', kind, finders, ...(members ? { members } : {}) });
export const grounded = <C, T>(kind: FieldKind, finders: readonly Finder<C, Grounded<T>>[]): GroundedRule<C, T> => ({ rule: 'grounded', kind, finders });
export const group = <C, T>(table: FieldTable<C, T>): GroupRule<C, T> => ({ rule: 'group', table });

/** Which finder answered each field (dotted paths), for a person reading why a value came out. */
export type Trace = Record<string, string>;

/** A list item that is an object (a line item, a party): each text member bounded by its kind; null when none is left. */
function boundedMembers(item: object, members: Readonly<Record<string, FieldKind>> = {}): object | null {
  const entries = Object.entries(item).map(([k, v]) => [k, typeof v === 'string' ? bounded(members[k] ?? 'statement', v) : v] as const);
  return entries.some(([, v]) => v !== null && !(Array.isArray(v) && v.length === 0)) ? Object.fromEntries(entries) : null;
}

type AnyRule = ScalarRule<unknown, unknown> | ListRule<unknown, unknown> | GroundedRule<unknown, unknown> | GroupRule<unknown, unknown>;

/** Runs one field's rule on its own (the custom route builds its rules from the caller's schema, one property at a time). */
export const runField = <C, T>(rule: ScalarRule<C, T>, context: C, path: string, trace?: Trace): T | null => runRule(rule as AnyRule, context, path, trace) as T | null;

function runRule(rule: AnyRule, context: unknown, path: string, trace?: Trace): unknown {
  switch (rule.rule) {
    case 'group':
      return runTable(rule.table as FieldTable<unknown, Record<string, unknown>>, context, trace, `${path}.`);
    case 'list':
      for (const f of rule.finders) {
        const items = f.find(context);
        if (!Array.isArray(items)) continue;
        const kept = rule.kind === 'object' ? items.filter((i) => i !== null && typeof i === 'object').map((i) => boundedMembers(i as object, rule.members)).filter((i) => i !== null) : items.map((i) => bounded(rule.kind as FieldKind, i)).filter((i) => i !== null);
        if (kept.length === 0) continue;
        if (trace) trace[path] = f.name;
        return kept;
      }
      return [];
    case 'grounded':
      for (const f of rule.finders) {
        const g = f.find(context);
        const value = g ? bounded(rule.kind, g.value) : null;
        const quote = g?.sourceQuote ? bounded('statement', g.sourceQuote) : null;
        if (value === null || typeof quote !== 'string' || quote.length > MAX_QUOTE) continue;
        if (trace) trace[path] = f.name;
        return { value, sourceQuote: quote };
      }
      return { value: null, sourceQuote: null };
    case 'scalar':
      for (const f of rule.finders) {
        const value = bounded(rule.kind, f.find(context));
        if (value === null) continue;
        if (trace) trace[path] = f.name;
        return value;
      }
      return null;
  }
}

/**
 * Runs a table over one document. Fields are found in table order, each written into the answer as soon as it is
 * known, so a later finder may read an earlier answer through `context.found` when the context carries it.
 */
export function runTable<C, Out>(table: FieldTable<C, Out>, context: C, trace?: Trace, prefix = ''): Out {
  const out = {} as Record<string, unknown>;
  const found = (context as { found?: Record<string, unknown> }).found;
  for (const [key, rule] of Object.entries(table) as [string, AnyRule][]) {
    out[key] = runRule(rule, context, `${prefix}${key}`, trace);
    if (found && !prefix) found[key] = out[key];
  }
  return out as Out;
}
