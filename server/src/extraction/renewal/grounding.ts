import type { components } from '../../../../generated/openapi.js';
import type { FixedData } from '../engines/engine.js';

type RenewalData = FixedData['renewal'];
export type RenewalStatus = components['schemas']['RenewalStatus'];
type Grounded = { value: unknown; sourceQuote: string | null };

/** Whitespace and case folded, so a quote matches however the document wraps its lines. */
const fold = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();

const MAX_QUOTE = 400;
const PLAIN = new Set(['documentKindGuess']);
/** Members that are renewal terms, as opposed to who and what (vendor, product). */
const IDENTITY = new Set(['vendorName', 'product']);

/**
 * Keeps only what the document proves: a value whose quote cannot be found in the document (whitespace and case
 * folded), or that comes without a quote, is removed with its quote. Then `overall_status` is set by the
 * conventions, `needs_review` when anything had to be removed.
 */
export function groundRenewal(data: RenewalData, text: string): { data: RenewalData; overallStatus: RenewalStatus } {
  const haystack = fold(text);
  const out = { ...data } as Record<string, unknown>;
  let dropped = false;
  for (const [name, member] of Object.entries(data)) {
    if (PLAIN.has(name)) continue;
    const m = member as Grounded;
    const hasValue = m.value !== null && m.value !== undefined;
    const quote = typeof m.sourceQuote === 'string' ? m.sourceQuote : null;
    const grounded = quote !== null && quote.trim() !== '' && quote.length <= MAX_QUOTE && haystack.includes(fold(quote));
    if (hasValue && grounded) out[name] = { value: m.value, sourceQuote: quote };
    else {
      if (hasValue || quote) dropped = true;
      out[name] = { value: null, sourceQuote: null };
    }
  }
  const result = out as RenewalData;
  return { data: result, overallStatus: statusOf(result, dropped) };
}

function found(data: RenewalData, name: keyof RenewalData): boolean {
  const m = data[name] as Grounded;
  return m.value !== null && m.value !== undefined;
}

function statusOf(data: RenewalData, dropped: boolean): RenewalStatus {
  const terms = Object.keys(data).filter((k) => !PLAIN.has(k) && !IDENTITY.has(k)) as (keyof RenewalData)[];
  if (!terms.some((t) => found(data, t))) return 'no_terms_found';
  const core = found(data, 'vendorName')
    && (found(data, 'renewalDate') || found(data, 'contractEndDate'))
    && (found(data, 'noticePeriodDays') || found(data, 'noticePeriodText'));
  return core && !dropped ? 'confirmed' : 'needs_review';
}

/**
 * The status once low-confidence values were withheld: they are there to be reviewed, so the terms need review, as
 * when a quote could not be verified; `no_terms_found` stays what it is.
 */
export const statusAfterWithholding = (before: RenewalStatus): RenewalStatus => (before === 'no_terms_found' ? before : 'needs_review');
