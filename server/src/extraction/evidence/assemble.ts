// The one place an answer's evidence is made, whatever the engine: each value's quote placed in the text read (its
// offsets, and its page and box for a file), the checks run, a calibrated confidence given, and the values under the
// request's threshold withheld. Single routes, batch items and jobs all come through here (run-item.ts).
import type { components } from '../../../../generated/openapi.js';
import type { TextLayout } from '../../documents/text-layout.js';
import type { JsonSchema } from '../engines/engine.js';
import { runChecks } from './checks.js';
import { calibration, confidenceOf, priorLogit, type EngineModel } from './confidence.js';
import { featuresOf, type Features } from './features.js';
import { foldText, type FoldedText } from './folded-text.js';
import type { FoundEvidence, FoundEvidenceMap } from './found.js';
import { integerPointers } from './integers.js';
import { locateQuote } from './locate-quote.js';
import { placeSpan } from './placement.js';
import { fieldOf, leaves, type Leaf } from './pointers.js';
import { withhold } from './withhold.js';
import { latinShare, shapeOf } from './shapes.js';
import { wordsBefore } from './context-words.js';

type Schemas = components['schemas'];
export type Evidence = Schemas['Evidence'];
export type WithheldValue = Schemas['WithheldValue'];

export interface AssembleInput {
  /** `invoice`, ..., `renewal` or `custom`. */
  kind: string;
  engine: 'local' | 'anthropic';
  /** The answer's data, as the engine (and the renewal grounding) left it. */
  data: unknown;
  /** The schema `data` meets (for its whole numbers). */
  schema: JsonSchema;
  found: FoundEvidenceMap;
  /** The text read: every offset points into it. */
  text: string;
  layout?: TextLayout;
  /** Values under this confidence are withheld (0: none). */
  minConfidence: number;
  /** Another calibration than the fitted one (the calibration script scores with the model it is fitting). */
  model?: EngineModel;
  /** The account's own map of confidences, fitted on its reviews (reviews/account-calibration.ts), when it has one. */
  recalibrate?: (confidence: number) => number;
}

/** A value with everything known of it: for the answer, and for the calibration script's rows. */
export interface ScoredValue {
  pointer: string;
  value: Leaf['value'];
  /** `route:/pointer` with list indices as `*`, and the finder that answered (offline engine), for calibration. */
  field: string;
  finder: string | null;
  features: Features;
  confidence: number;
  /** The confidence before the account's own map (equal to `confidence` without one). */
  baseConfidence: number;
  evidence: Evidence | null;
}

export interface Assembled {
  data: unknown;
  evidence: Record<string, Evidence>;
  withheld: WithheldValue[];
  scored: ScoredValue[];
}

/**
 * The values that get evidence: every non-null leaf, except on the renewal route, where each grounded member's
 * `value` is the value (its `sourceQuote` is the member's own proof, not a value) and `documentKindGuess` is plain.
 */
function valuesOf(kind: string, data: unknown): Leaf[] {
  const all = leaves(data);
  if (kind !== 'renewal') return all;
  return all.filter((l) => l.pointer === '/documentKindGuess' || /^\/[^/]+\/value$/.test(l.pointer));
}

/** A top-level member is filled when it holds a value (a list: at least one item). */
function coverage(kind: string, data: unknown): number {
  if (!data || typeof data !== 'object') return 0;
  const members = Object.values(data as Record<string, unknown>).map((v) => (kind === 'renewal' && v && typeof v === 'object' && 'value' in v ? (v as { value: unknown }).value : v));
  if (members.length === 0) return 0;
  const filled = members.filter((v) => v !== null && v !== undefined && !(Array.isArray(v) && v.length === 0));
  return filled.length / members.length;
}

interface Placed { start: number; end: number; found: FoundEvidence }

/**
 * Whether a list of billed lines (`lineItems`, `items`) adds up to the answer's subtotal, or to its total when there is
 * no subtotal and no tax; null when there is nothing to add up to.
 */
function listReconciles(data: unknown): boolean | null {
  if (!data || typeof data !== 'object') return null;
  const d = data as Record<string, unknown>;
  const list = (Array.isArray(d.lineItems) ? d.lineItems : Array.isArray(d.items) ? d.items : null) as Record<string, unknown>[] | null;
  if (!list || list.length === 0) return null;
  const target = typeof d.subtotal === 'number' ? d.subtotal : typeof d.total === 'number' && d.tax == null ? d.total : null;
  if (target === null) return null;
  const sum = list.reduce((s, i) => s + (typeof i?.amount === 'number' ? i.amount : 0), 0);
  return Math.abs(sum - target) <= Math.max(0.02, Math.abs(target) * 0.001);
}

/** The span of a value in the text read: the engine's offsets when valid, else its quote located. */
function place(found: FoundEvidence | undefined, text: string, folded: () => FoldedText): Placed | null {
  if (!found) return null;
  const { start, end } = found;
  if (start !== undefined && end !== undefined) {
    return Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start < end && end <= text.length ? { start, end, found } : null;
  }
  if (found.quote === undefined) return null;
  const located = locateQuote(text, found.quote, 0, folded());
  const signals = found.signals.engine === 'anthropic' ? { ...found.signals, how: located?.how ?? 'missing' as const, similarity: located?.similarity ?? 0 } : found.signals;
  const withSignals = { ...found, signals };
  return located ? { start: located.start, end: located.end, found: withSignals } : null;
}

export function assembleEvidence(input: AssembleInput): Assembled {
  const { kind, engine, text } = input;
  const data = input.data;
  const model = calibration().engines[engine];
  let foldedText: FoldedText | null = null;
  const folded = () => (foldedText ??= foldText(text));
  const values = valuesOf(kind, data);
  const placed = new Map<string, Placed>();
  for (const leaf of values) {
    const p = place(input.found[leaf.pointer], text, folded);
    if (p) placed.set(leaf.pointer, p);
  }
  const quotes = new Map([...placed].map(([pointer, p]) => [pointer, text.slice(p.start, p.end)]));
  const checks = runChecks({ kind, data, quotes, integers: integerPointers(input.schema, data) });
  const cover = coverage(kind, data);
  const latin = latinShare(text);
  // The checks a list item's members took part in, shared by every member of the item (its description too).
  const items = new Map<string, { held: number; failed: number }>();
  const itemOf = (pointer: string) => /^(.*\/\d+)\/[^/]+$/.exec(pointer)?.[1];
  for (const [pointer, tally] of checks) {
    const item = itemOf(pointer);
    if (!item) continue;
    const t = items.get(item) ?? { held: 0, failed: 0 };
    items.set(item, { held: Math.max(t.held, tally.held), failed: Math.max(t.failed, tally.failed) });
  }
  const answer = { held: [...checks.values()].reduce((n, t) => n + t.held, 0), failed: [...checks.values()].reduce((n, t) => n + t.failed, 0) };
  const membersOf = new Map<string, number>();
  const smelly = new Set<string>();
  for (const leaf of values) {
    const item = itemOf(leaf.pointer);
    if (!item) continue;
    membersOf.set(item, (membersOf.get(item) ?? 0) + 1);
    const sh = shapeOf(leaf.pointer, leaf.value);
    if (sh.textWithFigures || sh.wordsAsFigures || sh.codeWithoutFigure || sh.headingSwallowed) smelly.add(item);
  }
  const reconciles = listReconciles(data);
  const scored: ScoredValue[] = [];
  for (const leaf of values) {
    const p = placed.get(leaf.pointer);
    const found = p?.found ?? input.found[leaf.pointer];
    const where = p ? placeSpan(input.layout, p.start, p.end) : null;
    const finder = found?.signals.engine === 'local' ? found.signals.finder : null;
    const field = `${kind}:${fieldOf(leaf.pointer)}`;
    const features = featuresOf({
      field, ...(p ? { contextWords: wordsBefore(text, p.start) } : {}),
      value: leaf.value, found, placed: !!p, checks: checks.get(leaf.pointer), coverage: cover, latin, shape: shapeOf(leaf.pointer, leaf.value),
      ...(itemOf(leaf.pointer) && items.has(itemOf(leaf.pointer)!) ? { item: items.get(itemOf(leaf.pointer)!)! } : {}),
      ...(itemOf(leaf.pointer) ? { itemMembers: membersOf.get(itemOf(leaf.pointer)!) ?? 0, itemSmell: smelly.has(itemOf(leaf.pointer)!) } : {}), answer,
      ...(reconciles !== null && /^\/(?:lineItems|items)\/\d+\//.test(leaf.pointer) ? { listReconciles: reconciles } : {}),
      prior: priorLogit(input.model ?? model, field, finder),
      ...(where?.ocrConfidence !== undefined ? { ocrConfidence: where.ocrConfidence } : {}),
    });
    const baseConfidence = confidenceOf(input.model ?? model, features);
    const confidence = input.recalibrate ? input.recalibrate(baseConfidence) : baseConfidence;
    const evidence: Evidence | null = p
      ? { quote: text.slice(p.start, p.end), start: p.start, end: p.end, ...(where ? { page: where.page, ...(where.box ? { box: where.box } : {}) } : {}), confidence, derived: !!found?.derived }
      : null;
    scored.push({ pointer: leaf.pointer, value: leaf.value, field, finder, features, confidence, baseConfidence, evidence });
  }
  // The renewal's kind of document is a classification every answer holds (the contract and the stored record require
  // one): its confidence is reported, never withheld.
  const below = new Set(scored.filter((s) => s.confidence < input.minConfidence && s.pointer !== '/documentKindGuess').map((s) => s.pointer));
  const { data: kept, moved } = withhold(data, below, kind === 'renewal');
  const evidence: Record<string, Evidence> = {};
  const withheld: WithheldValue[] = [];
  for (const s of scored) {
    if (below.has(s.pointer)) {
      const { confidence: _c, ...where } = s.evidence ?? { confidence: s.confidence };
      withheld.push({ path: s.pointer, value: s.value, confidence: s.confidence, ...where });
    } else if (s.evidence) {
      evidence[moved.get(s.pointer) ?? s.pointer] = s.evidence;
    }
  }
  return { data: kept, evidence, withheld, scored };
}
