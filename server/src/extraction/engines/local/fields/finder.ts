// The offline engine's unit of rule: a field, and the ordered finders that may answer it. One runner asks each
// field's finders in order and keeps the first answer that is in the field's bound and stands where its finder says
// it read it; a finder answers only with evidence in the document (a label, a table column, a grammatical frame),
// never by elimination, and points at that evidence (located.ts): what it cannot point at is no answer.
import type { FoundEvidenceMap } from '../../../evidence/found.js';
import { escapeStep, fieldOf } from '../../../evidence/pointers.js';
import type { Doc } from '../segment/document.js';
import { bounded, MAX_QUOTE, type FieldKind } from './bounds.js';
import { isLocated, valueOf, type Located } from './located.js';
import { placeValue, placeWithin, type Place } from './place.js';
import { claim, rulesFirst } from './claims.js';

/** One way to find a field, named for the shape of document it reads (its comment shows that example). */
export interface Finder<C, T> {
  readonly name: string;
  readonly find: (context: C) => Answer<T>;
}

/**
 * What a finder answers: its value where it read it, nothing, or (a list) items each where it read them. A scalar
 * answered without its place is no answer.
 */
export type Answer<T> = Located<T> | T | null | undefined | (T extends readonly (infer I)[] ? (I | Located<I>)[] : never);

export const finder = <C, T>(name: string, find: (context: C) => Answer<T>): Finder<C, T> => ({ name, find });

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

/** What a run records besides the answer: which finder answered (`trace`), and where each value was read (`found`). */
export interface Recorder {
  /** The route, as evidence names a finder (`invoice:/total:total line`). */
  route: string;
  trace?: Trace;
  /** Filled with the evidence of every value answered, by JSON Pointer. */
  found?: FoundEvidenceMap;
}

type AnyRule = ScalarRule<unknown, unknown> | ListRule<unknown, unknown> | GroundedRule<unknown, unknown> | GroupRule<unknown, unknown>;

/** Member kinds of a list of objects: each text member bounded by its kind (`statement` when not named). */
type Members = Readonly<Record<string, FieldKind>>;

/** The kind of a list item's member: named, else a figure (money), a date or a statement, by its value. */
function memberKind(members: Members | undefined, name: string, value: unknown): FieldKind {
  const named = members?.[name];
  if (named) return named;
  if (typeof value === 'number') return 'money';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return 'date';
  return 'statement';
}

/** Where the run stands: the document, the route, what to record, and the pointer of the rule being run. */
interface Run { doc: Doc; rec: Recorder; path: string; pointer: string }

const child = (run: Run, key: string | number, dotted = true): Run => ({
  ...run,
  path: dotted ? (run.path ? `${run.path}.${key}` : String(key)) : run.path,
  pointer: `${run.pointer}/${escapeStep(key)}`,
});

function record(run: Run, finderName: string, rank: number, place: Place, derived: boolean, agree = 0, conflict = 0): void {
  claim(run.doc, place.start, place.end);
  if (!run.rec.found) return;
  run.rec.found[run.pointer] = {
    start: place.start, end: place.end, derived: derived || !!place.derived,
    signals: { engine: 'local', finder: `${run.rec.route}:${fieldOf(run.pointer)}:${finderName}`, rank, agree, conflict, how: place.how },
  };
}

const same = (a: unknown, b: unknown) => a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) < 0.005);

/** A scalar answer placed: its bounded value and where it stands, or null. */
function placedScalar(run: Run, kind: FieldKind, answer: unknown): { value: unknown; place: Place; derived: boolean } | null {
  if (!isLocated(answer)) return null;
  const value = bounded(kind, answer.value);
  if (value === null) return null;
  const place = placeValue(run.doc, answer, value, kind);
  return place ? { value, place, derived: answer.derived || !!place.derived } : null;
}

/** A list of objects' item placed: each member within the item's lines, or (computed from them) the lines themselves. */
function placeItem(run: Run, finderName: string, rank: number, item: unknown, members: Members | undefined, index: number): object | null {
  const located = isLocated(item) ? item : null;
  const raw = valueOf(item);
  if (raw === null || typeof raw !== 'object') return null;
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [name, v] of Object.entries(raw)) {
    const member = isLocated(v) ? v : null;
    const value = valueOf(v);
    const kind = memberKind(members, name, value);
    const b = typeof value === 'string' ? bounded(kind, value) : value;
    if (b === null || b === undefined) { out[name] = null; continue; }
    const where = member ?? located;
    if (!where) { out[name] = null; continue; }
    const at = child(child(run, index, false), name, false);
    let place = placeValue(run.doc, where, b, kind);
    let derived = where.derived;
    // A member computed from its line (a quantity of 1, a unit price from amount and quantity) points at the line.
    if (!place && located && !member) {
      place = placeValue(run.doc, { ...located, derived: true, surface: undefined } as Located<unknown>, b, 'flag');
      derived = true;
    }
    if (!place) { out[name] = null; continue; }
    out[name] = b;
    any = true;
    record(at, finderName, rank, place, derived);
  }
  return any ? out : null;
}

function runRule(rule: AnyRule, context: unknown, run: Run): unknown {
  const { rec } = run;
  switch (rule.rule) {
    case 'group':
      return runTableAt(rule.table as FieldTable<unknown, Record<string, unknown>>, context, run);
    case 'list':
      for (const [rank, f] of rule.finders.entries()) {
        const answer = f.find(context);
        const whole = isLocated(answer) ? answer : null;
        const items = valueOf(answer as unknown);
        if (!Array.isArray(items)) continue;
        const kept: unknown[] = [];
        const found: FoundEvidenceMap = {};
        const sub: Run = { ...run, rec: { ...rec, found } };
        for (const item of items) {
          if (rule.kind === 'object') {
            const placedItem = placeItem(sub, f.name, rank, whole && !isLocated(item) ? { ...whole, value: item } : item, rule.members, kept.length);
            if (placedItem) kept.push(placedItem);
            continue;
          }
          const where = isLocated(item) ? item : whole ? { ...whole, value: item } : null;
          const p = where ? placedScalar(sub, rule.kind as FieldKind, where) : null;
          if (!p) continue;
          record(child(sub, kept.length, false), f.name, rank, p.place, p.derived);
          kept.push(p.value);
        }
        if (kept.length === 0) continue;
        if (rec.trace) rec.trace[run.path] = f.name;
        if (rec.found) Object.assign(rec.found, found);
        return kept;
      }
      return [];
    case 'grounded':
      for (const [rank, f] of rule.finders.entries()) {
        const g = f.find(context);
        if (!isLocated(g)) continue;
        const grounded = g.value as Grounded<unknown> | null;
        const value = grounded ? bounded(rule.kind, grounded.value) : null;
        const quote = grounded?.sourceQuote ? bounded('statement', grounded.sourceQuote) : null;
        if (value === null || typeof quote !== 'string' || quote.length > MAX_QUOTE) continue;
        // The quote is the value's evidence: found where the finder read it, narrowed to the value's own words there.
        const place = placeValue(run.doc, { ...g, surface: g.surface ?? quote }, quote, 'statement');
        if (!place) continue;
        if (rec.trace) rec.trace[run.path] = f.name;
        const narrow = g.derived ? null : placeWithin(run.doc, place, value, rule.kind);
        // A currency read from its symbol is derived from it.
        const fromSymbol = rule.kind === 'currency' && narrow !== null && run.doc.source.slice(narrow.start, narrow.end) !== value;
        record(child(run, 'value', false), f.name, rank, narrow ? { ...place, ...narrow } : place, g.derived || fromSymbol);
        return { value, sourceQuote: quote };
      }
      return { value: null, sourceQuote: null };
    case 'scalar':
      for (const [rank, f] of rule.finders.entries()) {
        const p = placedScalar(run, rule.kind, f.find(context));
        if (!p) continue;
        if (rec.trace) rec.trace[run.path] = f.name;
        claim(run.doc, p.place.start, p.place.end);
        if (rec.found) {
          // What the field's other finders say: the same value makes it surer, another one less sure.
          let agree = 0, conflict = 0;
          for (const other of rule.finders.slice(rank + 1)) {
            const v = bounded(rule.kind, valueOf(other.find(context) as unknown));
            if (v === null) continue;
            if (same(v, p.value)) agree++; else conflict++;
          }
          record(run, f.name, rank, p.place, p.derived, agree, conflict);
        }
        return p.value;
      }
      return null;
  }
}

function runTableAt<C, Out>(table: FieldTable<C, Out>, context: C, run: Run): Out {
  const out = {} as Record<string, unknown>;
  const found = (context as { found?: Record<string, unknown> }).found;
  for (const [key, rule] of Object.entries(table) as [string, AnyRule][]) {
    out[key] = runRule(rule, context, child(run, key));
    if (found && run.pointer === '') found[key] = out[key];
  }
  return out as Out;
}

/**
 * Runs one field's rule on its own, its values recorded at `pointer` (the custom route builds its rules from the
 * caller's schema, one property at a time).
 */
export function runField<T>(rule: ScalarRule<unknown, T>, doc: Doc, rec: Recorder, pointer: string): T | null;
export function runField<T>(rule: ListRule<unknown, T>, doc: Doc, rec: Recorder, pointer: string): T[];
export function runField(rule: ScalarRule<unknown, unknown> | ListRule<unknown, unknown>, doc: Doc, rec: Recorder, pointer: string): unknown {
  return runRule(rule as AnyRule, null, { doc, rec, path: pointer.slice(1).replace(/\//g, '.'), pointer });
}

/**
 * Runs a table over one document. Fields are found in table order, each written into the answer as soon as it is
 * known, so a later finder may read an earlier answer through `context.found` when the context carries it.
 */
export function runTable<C extends { doc: Doc }, Out>(table: FieldTable<C, Out>, context: C, rec: Recorder): Out {
  const found = (context as { found?: Record<string, unknown> }).found;
  return rulesFirst(context.doc, () => {
    // Each pass reads the answers found so far in its own pass only.
    if (found) for (const k of Object.keys(found)) delete found[k];
    return runTableAt(table, context, { doc: context.doc, rec: freshRecorder(rec), path: '', pointer: '' });
  });
}

/** The recorder of one pass: the caller's, emptied, so the rules' first pass leaves no trace or evidence of its own. */
function freshRecorder(rec: Recorder): Recorder {
  if (rec.trace) for (const k of Object.keys(rec.trace)) delete rec.trace[k];
  if (rec.found) for (const k of Object.keys(rec.found)) delete rec.found[k];
  return rec;
}
