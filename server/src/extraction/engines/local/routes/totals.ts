// Summary lines of invoices and receipts: subtotal, tax, tip and total, by their labels.
import type { Doc } from '../segment/document.js';
import { labelledLines } from '../segment/lookup.js';
import { labelHas, labelIs } from '../segment/text.js';
import { findAmounts } from '../normalise/money.js';
import { DOLLAR_CODES, ISO_CODES } from '../normalise/currency.js';

const SUBTOTAL = ['subtotal', 'sub total', 'net amount', 'net total', 'net', 'amount before tax', 'total before tax', 'total excl vat', 'total excluding vat', 'total excl tax', 'total net', 'nettobetrag', 'zwischensumme', 'summe netto', 'merchandise total', 'items total', 'total ht', 'base imponible', 'subtotal excl vat', 'zwischensumme netto', 'nettosumme', 'subtotale', 'imponibile', 'sous total', 'importe neto'];
const TAX = ['tax', 'sales tax', 'vat', 'hst', 'gst', 'pst', 'qst', 'mwst', 'ust', 'iva', 'tva', 'tax total', 'total tax', 'vat amount', 'tax amount', 'gst hst', 'state tax', 'mehrwertsteuer', 'umsatzsteuer', 'taxes', 'vat total', 'total taxes', 'total tax amount', 'taxes total'];
const TOTAL_STRONG = ['grand total', 'total due', 'total amount', 'invoice total', 'total payable', 'amount payable', 'total to pay', 'gesamtbetrag', 'total incl vat', 'total including vat', 'total inc vat', 'total incl tax', 'total brutto', 'total ttc', 'rechnungsbetrag', 'total amount due', 'totale complessivo', 'importo totale', 'totale da pagare', 'importe total', 'total a pagar', 'montant total', 'total a payer', 'net a payer'];
const TOTAL = ['total', 'amount due', 'balance due', 'gesamt', 'summe', 'totale', 'total eur', 'total usd', 'total gbp'];
const TIP = ['tip', 'tips', 'gratuity', 'tip amount', 'mancia', 'propina', 'pourboire', 'trinkgeld'];
const NOT_TAX = ['id', 'no', 'number', 'reg', 'registration', 'nr', 'idnr', 'exempt', 'rate', 'code', 'invoice'];

export type SummaryKind = 'subtotal' | 'tax' | 'total' | 'totalStrong' | 'tip';

export function summaryKind(labelKey: string): SummaryKind | null {
  // A currency code after the label (`Grand Total USD`, `Totale complessivo EUR`) names the currency, not the line.
  const key = labelKey.replace(/ ([a-z]{3})$/, (m, code: string) => (ISO_CODES.has(code.toUpperCase()) ? '' : m));
  if (labelIs(key, SUBTOTAL)) return 'subtotal';
  if (labelIs(key, TIP)) return 'tip';
  if (labelIs(key, TOTAL_STRONG)) return 'totalStrong';
  if (labelIs(key, TOTAL) || /^total (?:[a-z]{3}|due|amount)$/.test(key)) return 'total';
  if (labelIs(key, TAX) || (labelHas(key, ['tax', 'vat', 'gst', 'hst', 'mwst', 'ust', 'tva', 'iva', 'btw', 'moms', 'mva']) && !key.split(' ').some((w) => NOT_TAX.includes(w)) && key.split(' ').length <= 3)) return 'tax';
  return null;
}

export const isSummaryLabel = (key: string) => summaryKind(key) !== null;

export interface Totals {
  subtotal: number | null;
  tax: number | null;
  tip: number | null;
  total: number | null;
  /** The first summary line, where billed lines end. */
  firstLine: number | null;
  /** The currency a summary line names (`Total (CAD)`). */
  currency: string | null;
}

export function extractTotals(doc: Doc, from = 0): Totals {
  const out: Totals = { subtotal: null, tax: null, tip: null, total: null, firstLine: null, currency: null };
  let strong: number | null = null;
  let taxSum = 0, taxLines = 0;
  for (const l of labelledLines(doc)) {
    if (l.line < from) continue;
    const kind = summaryKind(l.key);
    if (!kind) continue;
    const amounts = findAmounts(l.rest, doc.numberStyle).filter((a) => !/^\d+(?:[.,]\d+)?\s*%/.test(l.rest.slice(a.index)));
    const last = amounts[amounts.length - 1];
    // Summary figures are money: decimals or a currency mark (`VAT No. GB 123 4567 89` is not a tax line).
    if (!last || !(last.decimals || last.currency)) continue;
    out.firstLine ??= l.line;
    // A bare `$` is the document's own dollar when it names one (`All amounts are in Canadian dollars`).
    const dollar = last.currency === 'USD' && /^\$/.test(last.raw) && doc.currency && DOLLAR_CODES.has(doc.currency) ? doc.currency : last.currency;
    const code = /\(([A-Z]{3})\)/.exec(l.label)?.[1] ?? dollar;
    if (kind === 'subtotal') out.subtotal ??= last.value;
    else if (kind === 'tip') out.tip ??= last.value;
    else if (kind === 'tax') { taxSum += last.value; taxLines++; }
    else if (kind === 'totalStrong') { strong ??= last.value; if (code) out.currency = code; }
    else { out.total = out.total ?? last.value; if (code) out.currency ??= code; }
  }
  // Several tax lines (GST + PST) add up; one line is itself.
  if (taxLines > 0) out.tax = Math.round(taxSum * 100) / 100;
  if (strong !== null) out.total = strong;
  return out;
}
