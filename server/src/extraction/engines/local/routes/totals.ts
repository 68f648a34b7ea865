// Summary lines of invoices and receipts: subtotal, tax, tip and total, by their labels.
import type { Doc } from '../segment/document.js';
import { labelledLines } from '../segment/lookup.js';
import { labelHas, labelIs, labelKey } from '../segment/text.js';
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

/** Where a summary figure was read: its line, and the figure as written there (and its span of `doc.text`, when known). */
export interface FigureAt { line: number; raw: string; span?: [number, number] }

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
  // Whole figures alone after a summary label (`Total   126`, a spreadsheet's number cell): money only when they add up.
  const loose: Loose = {};
  for (const l of labelledLines(doc)) {
    if (l.line < from) continue;
    const kind = summaryKind(l.key, l.label);
    if (!kind) continue;
    const amounts = findAmounts(l.rest, doc.reading).filter((a) => !/^\d+(?:[.,]\d+)?\s*%/.test(l.rest.slice(a.index)));
    const last = amounts[amounts.length - 1];
    if (last && amounts.length === 1 && last.raw === l.rest.trim() && !(last.decimals || last.currency)) keepLoose(loose, kind, l.key, last.value, { line: l.line, raw: last.raw });
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
  for (const cell of headedFigures(doc, from)) {
    const slot = cell.kind === 'totalStrong' ? 'total' : cell.kind;
    if (slot === 'tip' || out[slot] !== null) continue;
    if (cell.money) { out[slot] = cell.value; if (slot === 'tax') out.at.tax = [cell.at]; else out.at[slot] = cell.at; out.firstLine = Math.min(out.firstLine ?? cell.at.line, cell.at.line); }
    else loose[slot] ??= { value: cell.value, at: cell.at };
  }
  addUp(out, loose);
  return out;
}

type Slot = 'subtotal' | 'tax' | 'total';
type Loose = Partial<Record<Slot, { value: number; at: FigureAt }>>;

function keepLoose(loose: Loose, kind: SummaryKind, key: string, value: number, at: FigureAt): void {
  if (kind === 'tip' || kind === 'tax' && TAXES_TOTAL.test(key)) return;
  const slot: Slot = kind === 'totalStrong' ? 'total' : kind;
  loose[slot] ??= { value, at };
}

/**
 * Whole figures under summary labels taken as money when the three add up (subtotal + tax = total, each read with
 * decimals or whole): `Subtotal 105 / Tax 21 / Total 126` in a spreadsheet's number cells. A lone whole figure that
 * nothing corroborates (`Tax: 123456789`, a tax number) stays out.
 */
function addUp(out: Totals, loose: Loose): void {
  const slots: Slot[] = ['subtotal', 'tax', 'total'];
  if (!slots.some((k) => out[k] === null && loose[k])) return;
  const pick = (k: Slot) => out[k] ?? loose[k]?.value ?? null;
  const [s, t, total] = slots.map(pick);
  if (s === null || t === null || total === null || s === undefined || t === undefined || total === undefined) return;
  if (Math.abs(s + t - total) >= 0.005 || total <= 0) return;
  for (const k of slots) {
    const l = loose[k];
    if (out[k] !== null || !l) continue;
    out[k] = l.value;
    if (k === 'tax') out.at.tax = [l.at]; else out.at[k] = l.at;
    out.firstLine = Math.min(out.firstLine ?? l.at.line, l.at.line);
  }
}

/** A header cell of a row and where it stands on its line. */
interface Chunk { text: string; start: number; end: number }
const chunksOf = (raw: string): Chunk[] => [...raw.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ text: m[0], start: m.index!, end: m.index! + m[0].length }));

/**
 * Summary figures under their column headers (`Subtotal   Tax   Total` over `105.00   21.00   126.00`, a sheet's
 * header row over its row of values): a line with at least two kinds of summary header, and directly below it one
 * line of figures alone (no words but currency codes), followed by nothing or an empty line; each figure read under
 * the header whose column it stands in, at its own span.
 */
function headedFigures(doc: Doc, from: number): { kind: SummaryKind; value: number; money: boolean; at: FigureAt }[] {
  const out: { kind: SummaryKind; value: number; money: boolean; at: FigureAt }[] = [];
  for (let i = Math.max(from, 0); i + 1 < doc.lines.length; i++) {
    const head = doc.lines[i]!, row = doc.lines[i + 1]!;
    if (!head.text || !row.text || doc.envelope.has(i)) continue;
    const after = doc.lines[i + 2];
    if (after?.text) continue;
    const headers = chunksOf(head.raw).map((c) => ({ ...c, kind: summaryKind(labelKey(c.text), c.text) }));
    const kinds = new Set(headers.map((h) => h.kind).filter((k) => k !== null));
    if (kinds.size < 2 || headers.some((h) => !/\p{L}/u.test(h.text))) continue;
    const cells = chunksOf(row.raw);
    if (cells.some((c) => /\p{L}/u.test(c.text) && !/^[A-Z]{3}$/.test(c.text) && !findAmounts(c.text, doc.reading).some((a) => a.currency))) continue;
    headers.forEach((h, k) => {
      if (!h.kind) return;
      const right = headers[k + 1]?.start ?? Infinity, left = k > 0 ? headers[k - 1]!.end : -Infinity;
      const under = cells.filter((c) => c.start < right && c.end > left && c.start < h.end + 2 && c.end > h.start - 2);
      if (under.length !== 1) return;
      const amounts = findAmounts(under[0]!.text, doc.reading);
      if (amounts.length !== 1 || amounts[0]!.raw !== under[0]!.text) return;
      const a = amounts[0]!;
      const start = row.at + under[0]!.start;
      out.push({ kind: h.kind, value: a.value, money: !!(a.decimals || a.currency || wholeUnitsMoney(a, doc)), at: { line: i + 1, raw: a.raw, span: [start, start + a.raw.length] } });
    });
  }
  return out;
}

/**
 * The summary field the line holding offset `at` of `doc.text` is labelled as (`Subtotal   105` is a subtotal), when
 * its labels name one field only; else null.
 */
export function summaryFieldAt(doc: Doc, at: number): 'subtotal' | 'tax' | 'total' | 'tip' | null {
  const line = doc.lines.find((l) => l.text && at >= l.at && at < l.at + l.raw.length);
  if (!line) return null;
  const slots = new Set(labelledLines(doc).filter((l) => l.line === line.index).map((l) => summaryKind(l.key, l.label)).filter((k) => k !== null).map((k) => (k === 'totalStrong' ? 'total' : k)));
  return slots.size === 1 ? [...slots][0]! : null;
}
