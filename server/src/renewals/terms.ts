// The latest known terms of a vendor renewal: for each term, the newest document that states it, and the manual
// override kept beside it. Pure: the repository reads the rows, the deadline module derives from the values here.
import type { components } from '../../../generated/openapi.js';

type Schemas = components['schemas'];
export type RenewalTerms = Schemas['RenewalTerms'];
export type TermName = keyof RenewalTerms;

/** The terms a renewal shows and that can be set by hand, in the contract's order. */
export const TERM_NAMES = [
  'billingAmount', 'currency', 'billingFrequency', 'seatCount', 'contractEndDate', 'renewalDate', 'noticePeriodDays', 'noticePeriodText', 'autoRenewal',
] as const satisfies readonly TermName[];

/**
 * Terms read together from one document: a notice period is its day count and its phrase, and a newer document
 * saying "3 months" (no day count) must not be paired with an older one's "30 days".
 */
const TOGETHER: ReadonlyArray<readonly TermName[]> = [['noticePeriodDays', 'noticePeriodText']];

export interface StoredOverride { value: unknown; setAt: string }
export type Overrides = Partial<Record<TermName, StoredOverride>>;

export interface TermDocument { id: string; extraction: unknown }

type Grounded = { value: unknown; sourceQuote: string | null };

function groundedOf(extraction: unknown, term: TermName): Grounded | null {
  const g = (extraction as Record<string, unknown> | null)?.[term] as Grounded | undefined;
  return g && typeof g === 'object' && g.value !== null && g.value !== undefined ? { value: g.value, sourceQuote: typeof g.sourceQuote === 'string' ? g.sourceQuote : null } : null;
}

/** The JSON type each term's value has (a stored value of another type was never written by this service). */
const VALUE_TYPE: Record<TermName, 'number' | 'string' | 'boolean'> = {
  billingAmount: 'number', currency: 'string', billingFrequency: 'string', seatCount: 'number', contractEndDate: 'string',
  renewalDate: 'string', noticePeriodDays: 'number', noticePeriodText: 'string', autoRenewal: 'boolean',
};

/**
 * Reads stored overrides leniently: members that are not terms, not of the stored shape or whose value is not of the
 * term's type are ignored. A value of the right type but out of bounds is kept (shown, and deadline.ts says why it
 * yields no deadline).
 */
export function readOverrides(stored: unknown): Overrides {
  const out: Overrides = {};
  if (!stored || typeof stored !== 'object') return out;
  for (const name of TERM_NAMES) {
    const o = (stored as Record<string, unknown>)[name] as StoredOverride | undefined;
    if (!o || typeof o !== 'object' || !('value' in o) || typeof o.setAt !== 'string') continue;
    if (o.value !== null && typeof o.value !== VALUE_TYPE[name]) continue;
    out[name] = { value: o.value, setAt: o.setAt };
  }
  return out;
}

/** The terms from the documents (newest first) and the overrides. */
export function mergeTerms(documentsNewestFirst: TermDocument[], overrides: Overrides): RenewalTerms {
  const extracted = new Map<TermName, { value: unknown; sourceQuote: string | null; documentId: string }>();
  const grouped = new Set(TOGETHER.flat());
  for (const group of TOGETHER) {
    const doc = documentsNewestFirst.find((d) => group.some((t) => groundedOf(d.extraction, t)));
    if (!doc) continue;
    for (const t of group) {
      const g = groundedOf(doc.extraction, t);
      if (g) extracted.set(t, { ...g, documentId: doc.id });
    }
  }
  for (const name of TERM_NAMES) {
    if (grouped.has(name)) continue;
    for (const doc of documentsNewestFirst) {
      const g = groundedOf(doc.extraction, name);
      if (g) {
        extracted.set(name, { ...g, documentId: doc.id });
        break;
      }
    }
  }
  const terms: Record<string, unknown> = {};
  for (const name of TERM_NAMES) {
    const e = extracted.get(name) ?? { value: null, sourceQuote: null, documentId: null };
    const o = overrides[name] ?? null;
    terms[name] = {
      value: o ? o.value : e.value,
      source: o ? 'override' : e.documentId ? 'extracted' : 'none',
      extracted: e,
      override: o,
    };
  }
  return terms as RenewalTerms;
}
