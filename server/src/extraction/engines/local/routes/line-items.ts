// Billed lines of invoices and receipts: aligned or `|` tables with a header row, or free lines
// ending in figures (`2  Flat White  @ $4.50  $9.00`, `Workshop ..... 1 x 3,500.00 = 3,500.00`).
import type { Doc } from '../segment/document.js';
import { clean, labelKey, labelIs } from '../segment/text.js';
import { cents, findAmounts, type FoundAmount } from '../normalise/money.js';
import { CODE_RE_SOURCE, LONE_MARK_SOURCE } from '../normalise/currency.js';
import { LINE_HEADERS, MEASURE_WORDS } from '../lexicon.js';
import { wholeUnitsMoney } from './totals.js';
import { at, inText, type Located } from '../fields/located.js';
import { isSummaryLabel } from './totals.js';

export interface LineItem {
  description: string | null;
  quantity: number | null;
  unitPrice: number | null;
  amount: number | null;
}

/** Where a figure of a line was read: a span of `doc.text`, and whether it was computed from what stands there. */
export interface CellAt { span: [number, number]; derived: boolean }

/**
 * A billed line and the lines of the document it was read from (its own, and the one above that names it); `cells`:
 * where each of its figures was read (the cell it stands in, or the cells it was computed from), when the row's
 * figures could be told apart.
 */
export interface ReadLineItem { item: LineItem; lines: number[]; cells?: Partial<Record<'quantity' | 'unitPrice' | 'amount', CellAt>> }

/** What a column holds: a quantity, a unit price, an amount, a position, a tax rate or tax amount, a unit of measure. */
type Role = 'qty' | 'unit' | 'amount' | 'pos' | 'rate' | 'tax' | 'measure' | 'other';

const HEADER_WORDS: [Role | 'desc', readonly string[]][] = [
  ['desc', LINE_HEADERS.desc], ['qty', LINE_HEADERS.qty], ['unit', LINE_HEADERS.unit], ['amount', LINE_HEADERS.amount], ['pos', LINE_HEADERS.pos],
  ['rate', LINE_HEADERS.rate], ['tax', LINE_HEADERS.tax], ['measure', LINE_HEADERS.measure],
];
/** Columns whose cells hold no figure of the line's own (a rate is `23%`, a measure `szt.`). */
const NO_FIGURE: readonly Role[] = ['rate', 'measure'];

interface Header { line: number; cells: { role: Role | 'desc'; start: number; end: number }[]; piped: boolean }

function roleOf(cell: string): Role | 'desc' | null {
  const key = labelKey(cell);
  // Exact words first, so `Unit` is the price column and not an OCR slip of `Units`; either half of `Prijs / Unit`.
  const halves = key.split(' / ');
  for (const [role, words] of HEADER_WORDS) if (words.includes(key) || halves.some((h) => words.includes(h))) return role;
  for (const [role, words] of HEADER_WORDS) if (labelIs(key, words)) return role;
  return null;
}

function splitCells(raw: string): { text: string; start: number; end: number }[] {
  const piped = raw.includes('|');
  const re = piped ? /[^|]+/g : /\S+(?: \S+)*/g;
  const out: { text: string; start: number; end: number }[] = [];
  for (let m = re.exec(raw); m; m = re.exec(raw)) if (m[0].trim()) out.push({ text: m[0].trim(), start: m.index, end: m.index + m[0].length });
  return out;
}

/** A header row: at least a description column and one figure column, every cell a known column word. */
function findHeader(doc: Doc, from: number, to: number): Header | null {
  for (let i = from; i < to; i++) {
    const raw = doc.lines[i]!.raw;
    const cells = splitCells(raw.replace(/\s{2,}/g, (s) => s)).map((c) => ({ ...c, role: roleOf(c.text) }));
    if (cells.length < 2 || cells.some((c) => c.role === null)) continue;
    if (!cells.some((c) => c.role === 'desc') || !cells.some((c) => c.role === 'amount' || c.role === 'unit' || c.role === 'qty')) continue;
    return { line: i, cells: cells as Header['cells'], piped: raw.includes('|') };
  }
  return null;
}

/** A token of a row's figures: a figure with its marks (`€12,50`, `1.890,00zł`, `25,-`), a mark alone, `@`, `x`, `=`. */
const TAIL_TOKEN = new RegExp(String.raw`^(?:\(?(?:${LONE_MARK_SOURCE})?-?\d[\d.,'’]*(?:[.,][-–])?\)?(?:${LONE_MARK_SOURCE})?(?:\/[A-Za-z]{1,5})?|${LONE_MARK_SOURCE}|${CODE_RE_SOURCE}|@|[x×*]|=|\||\d+(?:[.,]\d+)?%|%)$`, 'u');
/** A unit of measure between a row's figures (`2 szt. 1 890,00`, `3 Std. 95,00`). */
const MEASURE_TOKEN = new RegExp(`^(?:${MEASURE_WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\.?$`, 'iu');
const FIGURE_TOKEN = /^\(?[^\s\d]{0,4}-?\d[\d.,'’]*\)?\S{0,4}$/;
/** A row's figures, without its rates (`23%`, `10 %`): those are columns of their own. */
const withoutRates = (tail: string, nums: FoundAmount[]) => nums.filter((n) => !/^\s?%/.test(tail.slice(n.end)));
const UNIT_WORDS = /^(gallons?|gal|litres?|liters?|ltr|kg|lbs?|units?|hours?|hrs?)$/i;
const MEASURE = String.raw`(?:l|ltr|litres?|liters?|gal|gallons?|kg|g|lbs?|m|m2|m²|m3|h|hrs?|hours?|pcs|pc|units?)`;
/** `38,42 l x 1,789 EUR/l`: the measure after a quantity and the per-measure mark after a price go, the figures stay. */
const MEASURE_BEFORE_TIMES = new RegExp(String.raw`(\d)\s*${MEASURE}\.?(?=\s*[x×@*]\s)`, 'giu');
const PER_MEASURE = new RegExp(String.raw`(\d|[€$£]|\b[A-Z]{3})\s*\/\s*${MEASURE}\b`, 'giu');
const dropMeasures = (line: string) => (/\d/.test(line) ? line.replace(MEASURE_BEFORE_TIMES, '$1').replace(PER_MEASURE, '$1') : line);

const ARTICLE_CODE = /^(?:\d{5,}|0\d{2,})\s+(?=\S*\p{L})/u;
const QTY_TIMES_PRICE = /\d\s*[x×@*]\s*\S*\d/;

interface Parsed { desc: string; leadQty: number | null; tail: string; nums: FoundAmount[] }

function splitLine(raw: string, doc: Doc): Parsed | null {
  let base = raw.replace(/\s*\.{3,}\s*/g, '   ').replace(/\|/g, '  ').trim()
    // `051141 2x4x8 STUD KD`: a long article number before the name is a code, not a count.
    .replace(ARTICLE_CODE, '')
    // `2,80 A`: a tax-class letter after the line's amount; `à 1,40` is the unit price, as `@ 1,40`.
    .replace(/(\d[.,]\d{2})\s+[A-Z]\*?$/, '$1')
    .replace(/\s+à\s+(?=[$€£]?\d)/g, ' @ ');
  // `Waiting staff (4 x 6 hours @ £18.50)   £444.00`: a parenthesised note followed by figures belongs to the
  // description; only what follows it is read as the line's figures.
  const close = base.lastIndexOf(')');
  const open = close > 0 ? base.lastIndexOf('(', close) : -1;
  const note = open >= 0 && /\d/.test(base.slice(close + 1)) && /\p{L}/u.test(base.slice(0, open)) ? close + 1 : 0;
  base = note ? base.slice(0, open) + base.slice(open, note).replace(/\s/g, '\u0000') + dropMeasures(base.slice(note)) : dropMeasures(base);
  const line = base.replace(/^(\d+)\s*[x×]\s+(?=\p{L})/u, '$1 ')
    // `1 234,56`: keep a space-grouped figure whole before the line is cut at its spaces.
    .replace(/(?<=(?:^|[^\d.,])\d{1,3}(?: \d{3})*) (?=\d{3}[.,]\d{2}(?!\d))/g, "'");
  const tokens = line.split(/\s+/);
  let k = tokens.length;
  // The row's figures from its end: amounts, marks, rates, and a unit of measure standing between figures.
  while (k > 0 && (TAIL_TOKEN.test(tokens[k - 1]!) || k < tokens.length && k >= 2 && MEASURE_TOKEN.test(tokens[k - 1]!) && FIGURE_TOKEN.test(tokens[k - 2]!))) k--;
  let head = tokens.slice(0, k);
  // Two spaces between figures: a single space inside a figure groups its thousands (`1 234,56`).
  const tail = tokens.slice(k).join('  ');
  let leadQty: number | null = null;
  // A leading count (`2  Flat White`) or position number.
  const lead = /^(\d+(?:[.,]\d+)?)$/.exec(head[0] ?? '');
  if (lead && head.length > 1 && /\p{L}/u.test(head[1]!)) {
    leadQty = Number(lead[1]!.replace(',', '.'));
    head = head.slice(1);
  }
  // `Free range eggs x6` keeps its pack size: a count after the name is part of the product.
  const desc = clean(head.join(' ').replace(/\u0000/g, ' ').replace(/[\s:]+$/, ''));
  // A line of figures alone (`6 @ $4.28   $25.68`) prices the product named on the line above.
  if (!/\p{L}{2}/u.test(desc)) return QTY_TIMES_PRICE.test(tail) && !/\p{L}/u.test(desc) ? { desc: '', leadQty, tail, nums: withoutRates(tail, findAmounts(tail, doc.reading)) } : null;
  return { desc, leadQty, tail, nums: withoutRates(tail, findAmounts(tail, doc.reading)) };
}

/**
 * Where each figure of an item came from: the index of the row's figure (`p.nums`) it was read from, `lead` (the count
 * before the description), or the figures it was computed from.
 */
type Source = number | 'lead' | { from: Source[] };
interface Sourced { item: LineItem; from: Partial<Record<'quantity' | 'unitPrice' | 'amount', Source>> }

function fromFigures(p: Parsed, roles: Role[] | null): Sourced | null {
  const nums = p.nums.map((n) => n.value);
  if (nums.length === 0) return null;
  let qty: number | null = null, unit: number | null = null, amount: number | null = null;
  let qtyAt: Source | null = null, unitAt: Source | null = null, amountAt: Source | null = null;
  const at = p.tail.indexOf('@');
  const times = /\d\s*[x×*]\s*[$€£]?\d/.test(p.tail);
  const timesAt = times ? p.tail.search(/\s[x×*]\s|\d[x×*]\s?[$€£]?\d/) + 1 : -1;
  const lead = () => { qty = p.leadQty; qtyAt = p.leadQty !== null ? 'lead' : null; };
  if (at >= 0 || timesAt > 0 && nums.length >= 2) {
    // `qty @ price [amount]` / `qty x price [amount]`: the figures either side of the mark.
    const mark = at >= 0 ? at : timesAt;
    const before = p.nums.map((n, k) => k).filter((k) => p.nums[k]!.index < mark), after = p.nums.map((n, k) => k).filter((k) => p.nums[k]!.index > mark);
    const q = before[before.length - 1];
    if (q !== undefined) { qty = nums[q]!; qtyAt = q; } else lead();
    if (after[0] !== undefined) { unit = nums[after[0]]!; unitAt = after[0]; }
    if (after[1] !== undefined) { amount = nums[after[1]]!; amountAt = after[1]; }
  } else if (roles && roles.length > 0) {
    // Map the figures to the header's figure columns from the right: the amount column is never left blank.
    const cols = roles.slice(-nums.length);
    const amounts: number[] = [];
    cols.forEach((role, i) => {
      const k = nums.length - cols.length + i;
      if (role === 'qty') { qty = nums[k]!; qtyAt = k; }
      else if (role === 'unit') { unit = nums[k]!; unitAt = k; }
      else if (role === 'amount') amounts.push(k);
    });
    const made = lineAmount(qty, unit, amounts.map((k) => nums[k]!));
    if (made !== null) { amount = nums[amounts[made]!]!; amountAt = amounts[made]!; }
    if (qty === null && p.leadQty !== null && !roles.includes('pos')) lead();
  } else if (nums.length >= 3) {
    const k = nums.length - 3;
    [qty, unit, amount] = nums.slice(-3) as [number, number, number];
    [qtyAt, unitAt, amountAt] = [k, k + 1, k + 2];
  } else if (nums.length === 2) {
    const [a, b] = p.nums as [FoundAmount, FoundAmount];
    if (!a.decimals && !a.currency && Number.isInteger(a.value) && p.leadQty === null) { [qty, amount] = [a.value, b.value]; [qtyAt, amountAt] = [0, 1]; }
    else { [unit, amount] = [a.value, b.value]; [unitAt, amountAt] = [0, 1]; }
    if (p.leadQty !== null) lead();
  } else {
    amount = nums[0]!;
    amountAt = 0;
    lead();
  }
  const q0 = qty as number | null, u0 = unit as number | null, a0 = amount as number | null;
  if (a0 === null && q0 !== null && u0 !== null) { amount = cents(q0 * u0); amountAt = { from: [qtyAt!, unitAt!] }; }
  // A line that shows one amount and no quantity: one of it (derived from the line as a whole), at that price (the
  // amount's cell, as written).
  if (qty === null && amount !== null && unit === null) { qty = 1; unit = amount; qtyAt = null; unitAt = amountAt; }
  if (qty === null && unit !== null && amount !== null && unit !== 0) {
    const ratio = (amount as number) / (unit as number);
    if (Math.abs(ratio - Math.round(ratio)) < 1e-6) { qty = Math.round(ratio); qtyAt = { from: [unitAt!, amountAt!] }; }
  }
  if (unit === null && qty !== null && amount !== null && qty !== 0) { unit = cents((amount as number) / (qty as number)); unitAt = { from: [qtyAt!, amountAt!] }; }
  // Figures that do not multiply out were misread as quantity and price: the amount alone is sure.
  if (qty !== null && unit !== null && amount !== null && Math.abs((qty as number) * (unit as number) - (amount as number)) > Math.max(0.02, Math.abs(amount as number) * 0.005)) { qty = null; unit = null; }
  const from: Sourced['from'] = {};
  if (qty !== null && qtyAt !== null) from.quantity = qtyAt;
  if (unit !== null && unitAt !== null) from.unitPrice = unitAt;
  if (amount !== null && amountAt !== null) from.amount = amountAt;
  return { item: { description: p.desc, quantity: qty, unitPrice: unit, amount }, from };
}

/**
 * Where the row's figures stand on its line (`raw`, at `lineAt` in `doc.text`): each figure of `p.nums` matched, from
 * the right, to the written figures of the line with its value (so two cells holding the same number keep their own
 * places), and the leading count to the line's first figure of its value. Null when a figure cannot be matched.
 */
function figureSpans(doc: Doc, raw: string, lineAt: number, p: Parsed): { nums: [number, number][]; lead: [number, number] | null } | null {
  const written = findAmounts(raw, doc.reading).filter((a) => !/^\s?%/.test(raw.slice(a.end)));
  const same = (a: number, b: number) => Math.abs(Math.abs(a) - Math.abs(b)) < 0.005;
  const nums: [number, number][] = new Array(p.nums.length);
  let k = written.length;
  for (let i = p.nums.length - 1; i >= 0; i--) {
    while (k > 0 && !same(written[k - 1]!.value, p.nums[i]!.value)) k--;
    if (k === 0) return null;
    k--;
    nums[i] = [lineAt + written[k]!.index, lineAt + written[k]!.end];
  }
  let lead: [number, number] | null = null;
  if (p.leadQty !== null) {
    const first = written.slice(0, k).find((a) => same(a.value, p.leadQty!));
    if (first) lead = [lineAt + first.index, lineAt + first.end];
  }
  return { nums, lead };
}

/** The place of a figure from its source: its cell, or (computed) the cells it was computed from, end to end. */
function cellOf(source: Source, spans: { nums: [number, number][]; lead: [number, number] | null }): CellAt | null {
  if (source === 'lead') return spans.lead ? { span: spans.lead, derived: false } : null;
  if (typeof source === 'number') return spans.nums[source] ? { span: spans.nums[source]!, derived: false } : null;
  const parts = source.from.map((s) => cellOf(s, spans));
  if (parts.length === 0 || parts.some((c) => c === null)) return null;
  const cells = parts as CellAt[];
  return { span: [Math.min(...cells.map((c) => c.span[0])), Math.max(...cells.map((c) => c.span[1]))], derived: true };
}

/**
 * A row of an aligned table cut at the header's columns: the description is what stands under the description column
 * (`Renovatie sporthal fase 2`, its own figures kept), the figures what stands under the figure columns. Null when the
 * row does not keep to the columns (then its words and figures are told apart by their shapes).
 */
function byColumns(header: Header, raw: string, doc: Doc): Parsed | null {
  if (header.piped) return null;
  const desc = header.cells.find((c) => c.role === 'desc')!;
  const firstFigure = header.cells.filter((c) => c.start > desc.start && c.role !== 'desc').sort((a, b) => a.start - b.start)[0];
  if (!firstFigure) return null;
  const cells = splitCells(raw);
  if (cells.length < 2) return null;
  const cut = cells.findIndex((c) => c.start >= firstFigure.start - 2);
  if (cut <= 0) return null;
  const lead = cells.slice(0, cut).filter((c) => c.end <= desc.start - 1);
  // Cells of figures alone at the end of the description's part belong to the figures (columns drift where wide
  // characters, CJK, are written one space apart).
  let end = cut;
  while (end > lead.length + 1 && !/\p{L}/u.test(cells[end - 1]!.text)) end--;
  const words = cells.slice(lead.length, end);
  if (words.length === 0 || !/\p{L}{2}/u.test(words.map((c) => c.text).join(' '))) return null;
  const figures = splitLine(`Row ${raw.slice(cells[end]!.start)}`, doc);
  if (!figures || figures.desc !== 'Row') return null;
  const before = header.cells.filter((c) => c.end <= desc.start);
  const leadQty = lead.length === 1 && before.some((c) => c.role === 'qty') && /^\d+(?:[.,]\d+)?$/.test(lead[0]!.text) ? Number(lead[0]!.text.replace(',', '.')) : null;
  return { desc: clean(words.map((c) => c.text).join(' ').replace(/[\s:]+$/, '')), leadQty, tail: figures.tail, nums: figures.nums };
}

/**
 * Of a row's amount columns (net and gross, `Wartość netto` and `Wartość brutto`), the one its quantity and price make,
 * else the last: its index in `amounts`.
 */
function lineAmount(qty: number | null, unit: number | null, amounts: number[]): number | null {
  if (amounts.length === 0) return null;
  if (qty !== null && unit !== null) { const made = amounts.findIndex((a) => Math.abs(qty * unit - a) <= Math.max(0.02, Math.abs(a) * 0.005)); if (made >= 0) return made; }
  return amounts.length - 1;
}

/** Whether a line's figures look like money: decimals or a currency mark (so `Suite 400` is not a price). */
const moneyLike = (p: Parsed, doc: Doc) => p.nums.some((n) => n.decimals || n.currency !== null || wholeUnitsMoney(n, doc));

/**
 * Billed lines between `from` and `to` (exclusive), skipping `skip` lines (party blocks, key: value pairs).
 * With a header row, rows follow the header's columns; without one, every line ending in money counts.
 */
export function extractLineItems(doc: Doc, from: number, to: number, skip: Set<number>): ReadLineItem[] {
  const header = findHeader(doc, from, to);
  const roles: Role[] | null = header
    ? header.cells.filter((c, i) => c.role !== 'desc' && !NO_FIGURE.includes(c.role as Role) && i > header.cells.findIndex((h) => h.role === 'desc')).map((c) => c.role as Role)
    : null;
  const items: ReadLineItem[] = [];
  let blankRun = 0;
  for (let i = header ? header.line + 1 : from; i < to; i++) {
    const line = doc.lines[i]!;
    if (!line.text) { blankRun++; if (header && items.length > 0 && blankRun > 1) break; continue; }
    blankRun = 0;
    if (skip.has(i) || /^[-=_*~\s]+$/.test(line.text)) continue;
    const p = (header && byColumns(header, line.raw, doc)) || splitLine(line.raw, doc);
    if (!p) continue;
    if (isSummaryLabel(labelKey(p.desc))) { if (header && items.length > 0) break; continue; }
    if (/\btotal\b/i.test(p.desc) && items.length > 0) continue; // a section total restates lines above
    if (/\b(?:card|change|cash|visa|mastercard|amex|tendered|paid|balance)\b/i.test(p.desc) && !header) continue;
    if (!moneyLike(p, doc) && !(header && p.nums.length > 0)) continue;
    if (header?.piped && roles?.includes('pos') === false && p.leadQty !== null) p.leadQty = null;
    const sourced = fromFigures(p, roles);
    if (!sourced) continue;
    const { item } = sourced;
    const lines = [i];
    if (!item.description) {
      const above = doc.lines[i - 1];
      if (!above?.text || skip.has(i - 1) || !/\p{L}{2}/u.test(above.text) || findAmounts(above.text, doc.reading).some((n) => n.decimals || n.currency)) continue;
      item.description = clean(above.text.replace(ARTICLE_CODE, ''));
      lines.unshift(i - 1);
    }
    // `Super E10` then, indented below it, `Pump 5   38,42 l x 1,789 EUR/l   68,73 €`: the quantity line belongs to
    // the product named above it when its own words only name a pump, a measure or nothing.
    const above = doc.lines[i - 1];
    if (item.description && above?.text && !skip.has(i - 1) && line.indent > above.indent && /\d\s*[x×@*]\s*\S*\d/.test(p.tail)
      && (/^\p{L}+\.?\s*#?\d+$/u.test(item.description) || item.description.split(' ').length === 1)
      && !findAmounts(above.text, doc.reading).some((n) => n.decimals || n.currency) && /\p{L}{2}/u.test(above.text)) {
      item.description = above.text;
      if (!lines.includes(i - 1)) lines.unshift(i - 1);
    }
    // A unit word (`GALLONS 11.250 @ $3.299`) names the measure, not the product: the product is on the line above.
    if (item.description && UNIT_WORDS.test(item.description)) {
      const above = doc.lines[i - 1]?.text.match(/([A-Za-z][A-Za-z ]*)$/)?.[1]?.trim();
      if (above && !findAmounts(doc.lines[i - 1]!.text).some((n) => n.decimals)) {
        item.description = above.split(' ').pop() ?? item.description;
        if (!lines.includes(i - 1)) lines.unshift(i - 1);
      }
    }
    const spans = figureSpans(doc, line.raw, line.at, p);
    const cells: ReadLineItem['cells'] = {};
    for (const [name, source] of Object.entries(sourced.from) as [keyof NonNullable<ReadLineItem['cells']>, Source][]) {
      const cell = spans ? cellOf(source, spans) : null;
      if (cell) cells[name] = cell;
    }
    items.push({ item, lines, cells });
  }
  return items;
}

/**
 * A billed line as a finder's answer: at its lines, each figure at the cell it was read from (or, computed, at the
 * cells it was computed from), so its evidence is that cell and not another cell of the row holding the same number.
 */
export function locatedItem(l: ReadLineItem): Located<LineItem> {
  const value: Record<string, unknown> = { ...l.item };
  for (const [name, cell] of Object.entries(l.cells ?? {}) as [keyof LineItem, CellAt][]) {
    // A figure copied from its cell is matched as a value there (as the confidence model was fitted); one computed
    // from cells quotes them as a finder's words.
    const located = inText(l.item[name], cell.span[0], cell.span[1], cell.derived);
    value[name] = cell.derived ? located : { ...located, how: 'value' as const };
  }
  return at(value as unknown as LineItem, l.lines);
}
