// What the confidence of a value is computed from: the engine's account of how it found the value, the checks it
// took part in, how well its quote was read, and what kind of value it is. The same features are written by the
// service at answer time and by the calibration script (scripts/calibrate.ts) when it fits the weights.
import type { CheckTally } from './checks.js';
import type { FoundEvidence } from './found.js';
import type { Shape } from './shapes.js';
import { contextFeatures } from './context-words.js';

export type Features = Record<string, number>;

/** What kind of value a leaf is, for its prior: figures, dates, short and long text, flags. */
export function valueKind(value: unknown): 'number' | 'date' | 'short' | 'long' | 'flag' {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'flag';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return 'date';
  return typeof value === 'string' && value.length > 40 ? 'long' : 'short';
}

const log1p = Math.log1p;

export interface FeatureInput {
  value: unknown;
  found: FoundEvidence | undefined;
  /** Whether the quote was placed in the text read (a value without a place has no evidence). */
  placed: boolean;
  checks: CheckTally | undefined;
  /** The least OCR confidence of the words under the quote, when read by OCR. */
  ocrConfidence?: number;
  /** The logit of the prior of the finder (offline) or of the engine (Claude). */
  prior: number;
  /** Share of the route's fields the answer filled (a document the rules barely read is an unfamiliar one). */
  coverage: number;
  /** The value's own shape (shapes.ts). */
  shape: Shape;
  /** Share of the document's letters in Latin script. */
  latin: number;
  /** The value is a member of a list item, and the item's checks (amounts that multiply out) failed or held. */
  item?: CheckTally;
  /** Members of its list item that hold a value, and items in its list (for list members). */
  itemMembers?: number;
  /** A member of its list item has a shape that says it was misread (a description holding the row's figures). */
  itemSmell?: boolean;
  /** For a member of a list of billed lines: whether the lines' amounts add up to the subtotal (or total). */
  listReconciles?: boolean;
  /** Checks over the whole answer that held and failed: a document whose figures reconcile was read well. */
  answer: CheckTally;
  /** `route:/pointer` (list indices as `*`), and the words just before the value (context-words.ts). */
  field?: string;
  contextWords?: readonly string[];
}

export function featuresOf(input: FeatureInput): Features {
  const { found, checks } = input;
  const f: Features = { bias: 1, prior: input.prior, unplaced: input.placed ? 0 : 1, derived: found?.derived ? 1 : 0 };
  const kind = valueKind(input.value);
  f[`kind_${kind}`] = 1;
  const s = found?.signals;
  if (s?.engine === 'local') {
    f.rank = Math.min(s.rank, 4);
    f.agree = log1p(s.agree);
    f.conflict = log1p(s.conflict);
    if (s.how !== 'surface') f[`how_${s.how}`] = 1;
  } else if (s?.engine === 'anthropic') {
    if (s.how && s.how !== 'exact') f[`how_${s.how}`] = 1;
    f.dissimilar = 1 - (s.similarity ?? 1);
  }
  f.checks_held = Math.min(2, checks?.held ?? 0);
  f.checks_failed = Math.min(2, checks?.failed ?? 0);
  f.ocr_doubt = input.ocrConfidence === undefined ? 0 : 1 - input.ocrConfidence;
  f.coverage = input.coverage;
  f.non_latin = 1 - input.latin;
  const sh = input.shape;
  if (sh.codeWithoutFigure) f.code_without_figure = 1;
  if (sh.wordsAsFigures) f.words_as_figures = 1;
  if (sh.textWithFigures) f.text_with_figures = 1;
  if (sh.headingSwallowed) f.heading_swallowed = 1;
  if (input.item) { f.item_held = Math.min(2, input.item.held); f.item_failed = Math.min(2, input.item.failed); }
  if (input.itemMembers !== undefined) f.sparse_item = input.itemMembers <= 1 ? 1 : 0;
  if (input.itemSmell) f.item_smell = 1;
  if (input.listReconciles !== undefined) f[input.listReconciles ? 'list_reconciles' : 'list_unreconciled'] = 1;
  f.answer_held = input.answer.held > 0 ? 1 : 0;
  f.answer_failed = input.answer.failed > 0 ? 1 : 0;
  if (input.contextWords?.length) {
    // A fixed route's field names its own words; a custom property's name is the caller's, so its words are learned
    // with the kind of value they introduce, as every field's are.
    if (input.field && !input.field.startsWith('custom:')) Object.assign(f, contextFeatures(input.field, input.contextWords));
    Object.assign(f, contextFeatures(`any:${kind}`, input.contextWords));
  }
  return f;
}
