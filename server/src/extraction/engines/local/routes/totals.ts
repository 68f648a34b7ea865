// Summary lines of invoices and receipts: subtotal, tax, tip and total, by their labels.
import type { Doc } from '../segment/document.js';
import { labelledLines } from '../segment/lookup.js';
import { labelHas, labelIs } from '../segment/text.js';
import { findAmounts, type FoundAmount } from '../normalise/money.js';
import { DOLLAR_CODES, ISO_CODES, ZERO_DECIMAL } from '../normalise/currency.js';
import { SUBTOTAL_LABELS, TAX_LABELS, TAX_WORDS, TIP_LABELS, TOTAL_LABELS, TOTAL_STRONG_LABELS } from '../lexicon.js';

const NOT_TAX = ['id', 'no', 'number', 'reg', 'registration', 'nr', 'idnr', 'exempt', 'rate', 'code', 'invoice'];
/** `TOTAL QTY: 7`, `Total items 3`: a count of what was bought, never an amount. */
const COUNT_WORDS = /\b(?:qty|quantity|quantities|items?|pieces|pcs|units|articles|count|lines|savings?|saved|discounts?|points)\b/;
/** A total's own words in brackets say which total it is: `TOTAL SALES (EXCLUDING GST)`, `(INCLUSIVE OF GST)`. */
const BEFORE_TAX = /\b(?:excl(?:uding|usive|\.)?|before|net\s+of|w\/o)\b/i;
const AFTER_TAX = /\b(?:incl(?:uding|usive|\.)?|inc\.?|after|with)\b/i;

/**
 * A figure in thousands (`9,000`, `14.500`) in a document whose currency has no minor units (won, yen, dong, rupiah):
 * money, though it carries no decimals.
 */
export const wholeUnitsMoney = (a: FoundAmount, doc: Doc) => !!doc.currency && ZERO_DECIMAL.has(doc.currency) && /\d[,.'’\s\u00a0\u202f]\d{3}(?!\d)/.test(a.raw);

export type SummaryKind = 'subtotal' | 'tax' | 'total' | 'totalStrong' | 'tip';

export function summaryKind(labelKey: string, label = labelKey): SummaryKind | null {
  // A currency code after the label (`Grand Total USD`, `Totale complessivo EUR`) names the currency, not the line.
  const key = labelKey.replace(/ ([a-z]{3})$/, (m, code: string) => (ISO_CODES.has(code.toUpperCase()) ? '' : m)).replace(/ rm$/, '')
    // `VALOR TOTAL R$`: Brazil's real written after the label.
    .replace(/ r$/, (m) => (/R\$\s*$/.test(label) ? '' : m));
  if (/^(?:total|sub ?total)\b/.test(key) && COUNT_WORDS.test(key)) return null;
  // `TOTAL GST : 3.08`: the total of a tax is the tax (not a total in another currency's code).
  if (/^total [a-z]+$/.test(key) && TAX_WORDS.includes(key.slice(6))) return 'tax';
  if (/^total\b/.test(key) && /\b(?:tax|vat|gst|sales|amount)\b/i.test(label)) {
    if (BEFORE_TAX.test(label)) return 'subtotal';
    if (AFTER_TAX.test(label) && !/^total (?:tax|vat|gst)$/.test(key)) return 'totalStrong';
  }
  if (labelIs(key, SUBTOTAL_LABELS)) return 'subtotal';
  if (labelIs(key, TIP_LABELS)) return 'tip';
  if (labelIs(key, TOTAL_STRONG_LABELS)) return 'totalStrong';
  if (labelIs(key, TOTAL_LABELS) || /^total (?:[a-z]{3}|due|amount)$/.test(key)) return 'total';
  if (labelIs(key, TAX_LABELS) || (labelHas(key, TAX_WORDS) && !key.split(' ').some((w) => NOT_TAX.includes(w)) && key.split(' ').length <= 3)) return 'tax';
  return null;
}

export const isSummaryLabel = (key: string) => summaryKind(key) !== null;

/** Where a summary figure was read: its line, and the figure as written there. */
export interface FigureAt { line: number; raw: string }

export interface Totals {
  subtotal: number | null;
  tax: number | null;
  tip: number | null;
  total: number | null;
  /** The first summary line, where billed lines end. */
  firstLine: number | null;
  /** The currency a summary line names (`Total (CAD)`). */
  currency: string | null;
  /** Where each figure was read (a tax summed from several lines: each of them), and the currency's line. */
  at: { subtotal?: FigureAt; tax?: FigureAt[]; tip?: FigureAt; total?: FigureAt; currency?: FigureAt };
}

/** `Total Tax`, `Tax total`, `TOTAL GST`: the line that totals the tax lines above it (`IGST @ 18%`, `GST 6%`). */
const TAXES_TOTAL = new RegExp(String.raw`^(?:total (?:${TAX_WORDS.join('|')}|taxes)(?: amount)?|(?:${TAX_WORDS.join('|')}|taxes) total)$`);

export function extractTotals(doc: Doc, from = 0): Totals {
  const out: Totals = { subtotal: null, tax: null, tip: null, total: null, firstLine: null, currency: null, at: {} };
  let strong: number | null = null;
  let strongAt: FigureAt | undefined;
  let taxSum = 0, taxLines = 0;
  const taxAt: FigureAt[] = [];
  let taxesTotal: number | null = null;
  let taxesTotalAt: FigureAt | undefined;
  let tipAfterTotal = false;
  for (const l of labelledLines(doc)) {
    if (l.line < from) continue;
    const kind = summaryKind(l.key, l.label);
    if (!kind) continue;
    const amounts = findAmounts(l.rest, doc.reading).filter((a) => !/^\d+(?:[.,]\d+)?\s*%/.test(l.rest.slice(a.index)));
    const last = amounts[amounts.length - 1];
    // Summary figures are money: decimals or a currency mark (`VAT No. GB 123 4567 89` is not a tax line).
    if (!last || !(last.decimals || last.currency || wholeUnitsMoney(last, doc))) continue;
    out.firstLine ??= l.line;
    // A bare `$` is the document's own dollar when it names one (`All amounts are in Canadian dollars`).
    const dollar = last.currency === 'USD' && /^\$/.test(last.raw) && doc.currency && DOLLAR_CODES.has(doc.currency) ? doc.currency : last.currency;
    const code = /\(([A-Z]{3})\)/.exec(l.label)?.[1] ?? dollar;
    const here: FigureAt = { line: l.line, raw: last.raw };
    const currencyHere = () => { if (code && !out.at.currency) out.at.currency = { line: l.line, raw: /\(([A-Z]{3})\)/.exec(l.label)?.[0] ?? last.raw }; };
    if (kind === 'subtotal') { if (out.subtotal === null) { out.subtotal = last.value; out.at.subtotal = here; } }
    else if (kind === 'tip') { if (out.tip === null) { out.tip = last.value; out.at.tip = here; } if (out.total !== null) tipAfterTotal = true; }
    else if (kind === 'tax' && TAXES_TOTAL.test(l.key)) { if (taxesTotal === null) { taxesTotal = last.value; taxesTotalAt = here; } }
    else if (kind === 'tax') { taxSum += last.value; taxLines++; taxAt.push(here); }
    else if (kind === 'totalStrong') { if (strong === null) { strong = last.value; strongAt = here; } if (code) { out.currency = code; out.at.currency = { line: l.line, raw: /\(([A-Z]{3})\)/.exec(l.label)?.[0] ?? last.raw }; } }
    // `Total 60.93` / `Tip: 11.00` / `Total: 71.93`: a total after the tip is what was paid.
    else if (tipAfterTotal) { out.total = last.value; out.at.total = here; tipAfterTotal = false; if (code && !out.currency) { out.currency = code; currencyHere(); } }
    else { if (out.total === null) { out.total = last.value; out.at.total = here; } if (code && !out.currency) { out.currency = code; currencyHere(); } }
  }
  // Several tax lines (GST + PST) add up; one line is itself; a line totalling them (`Total Tax`) is the tax.
  if (taxesTotal !== null) { out.tax = taxesTotal; out.at.tax = [taxesTotalAt!]; }
  else if (taxLines > 0) { out.tax = Math.round(taxSum * 100) / 100; out.at.tax = taxAt; }
  if (strong !== null) { out.total = strong; out.at.total = strongAt; }
  return out;
}
