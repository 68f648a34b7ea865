// Amounts of money in US (1,234.56), European (1.234,56), Swiss (1'234.50), Indian (1,23,456.78) and space-grouped
// (34 900,00) notation, in any script's digits, with the currency mark written beside them.
import { CODE_RE_SOURCE, DEFAULT_MARKS, POST_MARK_SOURCE, PRE_MARK_SOURCE, ZERO_DECIMAL, MARK_START_CLASS, codeForMark, standsApart, type MarkContext } from './currency.js';
import { foldDigits } from './digits.js';

export type NumberStyle = 'us' | 'eu';

/**
 * How a document writes its figures: its habit for a lone separator (`style`), which currency each shared mark
 * stands for (`$`, `kr`, `¥`), and whether it groups thousands with single spaces (`5 000`, `34 900,00`).
 */
export interface Reading { style: NumberStyle; marks?: MarkContext; spaceGroups?: boolean }

const readingOf = (r: NumberStyle | Reading | undefined): Reading => (typeof r === 'object' ? r : { style: r ?? 'us' });

export interface FoundAmount {
  value: number;
  index: number;
  end: number;
  /** The ISO code its symbol or code names, when it carries one. */
  currency: string | null;
  /** Written with decimals (`12.00`, `25,-`), a strong sign of money rather than a count. */
  decimals: boolean;
  raw: string;
}

/** Reads one written number; `style` decides a lone separator followed by three digits (`2.400`, `1,650`). */
export function parseNumber(raw: string, style: NumberStyle = 'us'): number | null {
  let s = foldDigits(raw).replace(/[\s\u00a0\u202f'’ʼ]/g, '')
    // `25,-`, `936.000,-`, `Fr. 12.-`: whole units, the decimals written as a dash.
    .replace(/([.,])[-–—=]{1,2}(?=\)?$)/, '$100');
  // Brackets mean a negative amount only around money (`(1,250.00)`); `six (6)` is an aside.
  const neg = /^-/.test(s) || /^\(.*\)$/.test(s) && /[.,]\d{2}\)$|\d[.,'’]\d{3}/.test(s);
  s = s.replace(/[()+-]/g, '');
  if (!/^\d[\d.,]*$/.test(s)) return null;
  const lastDot = s.lastIndexOf('.'), lastComma = s.lastIndexOf(',');
  let decimalSep: string | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimalSep = lastDot > lastComma ? '.' : ',';
  else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const groups = s.split(sep);
    const tail = groups[groups.length - 1]!;
    if (groups.length > 2) decimalSep = null; // 1.234.567 or 1,234,567
    else if (tail.length !== 3) decimalSep = sep;
    else decimalSep = (sep === ',') === (style === 'eu') ? sep : null;
  }
  const thousands = decimalSep === '.' ? ',' : decimalSep === ',' ? '.' : /[.,]/.exec(s)?.[0] ?? '';
  if (thousands) s = s.split(thousands).join('');
  if (decimalSep === ',') s = s.replace(',', '.');
  const n = Number(s);
  if (!Number.isFinite(n)) return null;
  return neg ? -n : n;
}

// Thousands groups by `,` `.` `'` `’` or a narrow/no-break space; a plain space separates table columns instead.
// `1 234,56`: a single plain space groups thousands only when decimals follow, so `2   150.00` stays two columns (more
// in `mergeSpaceGroups`). `6,98,560.00`, `48,00,000`: Indian grouping (lakh, crore), twos above the last three digits;
// tried first, so its `6,98` is not read as a number of its own. `25,-`: whole units with a dash for decimals.
const DASH_DECIMALS = String.raw`[.,][\-–—](?![\d\-–—])`;
const NUM = String.raw`\(?-?\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?(?![\d,])\)?|\(?-?\d{1,3}(?: \d{3})+(?:[.,]\d{2}|,-)(?!\d)\)?|\(?-?\d{1,3}(?:[,.\u202f\u00a0'’]\d{3})+(?:[.,]\d{1,3}|${DASH_DECIMALS})?\)?|\(?-?\d+(?:[.,]\d{1,3}|${DASH_DECIMALS})?\)?`;
const CODE = String.raw`(?:${CODE_RE_SOURCE})(?![A-Za-z])`;
const AMOUNT_RE = new RegExp(
  String.raw`(?<pre>(?=${MARK_START_CLASS})(?:${CODE}(?:\s?\$)?|${PRE_MARK_SOURCE}))?\s?(?<num>${NUM})(?<k>[kK]\b|[万萬만](?=\s?(?:[円元원]|JPY|CNY|KRW)))?(?:\s?(?<post>${CODE}|${POST_MARK_SOURCE}|euros?\b))?`,
  'gu',
);

/** Currencies written with `.` thousands and `,` decimals, and those written the other way round. */
const DOT_GROUPS = new Set(['EUR', 'SEK', 'NOK', 'DKK', 'CHF', 'PLN', 'CZK', 'HUF', 'ISK', 'TRY', 'BRL', 'RON', 'BGN', 'IDR', 'RSD', 'ARS', 'CLP', 'COP', 'VND', 'UYU', 'PYG']);
const COMMA_GROUPS = new Set(['USD', 'GBP', 'CAD', 'AUD', 'NZD', 'JPY', 'CNY', 'INR', 'HKD', 'SGD', 'MXN', 'ZAR', 'KRW', 'PHP', 'THB', 'MYR', 'ILS', 'AED', 'SAR',
  'NGN', 'GHS', 'KES', 'UGX', 'TZS', 'EGP', 'PKR', 'LKR', 'BDT', 'NPR', 'TWD', 'QAR', 'KWD', 'BHD', 'OMR', 'JOD', 'DOP', 'GTQ', 'PEN']);

/**
 * The reading of one ambiguous figure (`38.000`, `1,650`: one separator, three digits after it): its own
 * currency decides before the document's habit (`38.000 SEK` is thirty-eight thousand in any document), and a
 * currency without minor units groups thousands whichever separator it uses (`¥316,000`, `₫316.000`).
 */
function styleFor(num: string, currency: string | null, style: NumberStyle): NumberStyle {
  if (!currency || !/^\(?-?\d{1,3}[.,]\d{3}\)?$/.test(num)) return style;
  const sep = /[.,]/.exec(num)![0];
  if (ZERO_DECIMAL.has(currency)) return sep === '.' ? 'eu' : 'us';
  if (sep === '.' && DOT_GROUPS.has(currency)) return 'eu';
  if (sep === ',' && COMMA_GROUPS.has(currency)) return 'us';
  return style;
}

/** The ISO code a currency mark written beside a figure names: a code (also `CAD $`), a mark or `euro`. */
function currencyOfMark(mark: string | undefined, marks: MarkContext): string | null {
  if (!mark) return null;
  const code = /^([A-Z]{3})\s?\$$/.exec(mark.trim());
  return codeForMark(code ? code[1]! : mark, marks);
}

/** A mark several currencies share (`$`, `kr`, `¥`): a specific mark or code on the figure's other side names it better. */
const SHARED = /^(?:\$|kr\.?|Kr\.?|¥|£|Rs\.?|₨|﷼)$/;

/** The words between the two ends of a range, in the languages the engine reads. */
const RANGE = /^\s*(?:-|–|—|to|bis|à|a|al|até|tot|till|til|do|až|ile|до)\s*$/i;

interface Raw extends FoundAmount { num: string; pre: string | undefined; post: string | undefined; k: boolean }

/** A character before a figure that makes it part of a word, id, date or code (`INV-2026`, `A4`, `12/2026`). */
const JOINED = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\d/:#-]/u;

/** Every number in a line read as an amount, with the currency mark written beside it. */
export function findAmounts(text: string, how: NumberStyle | Reading = 'us'): FoundAmount[] {
  const { style, marks = DEFAULT_MARKS, spaceGroups = false } = readingOf(how);
  const s = foldDigits(text);
  const out: Raw[] = [];
  AMOUNT_RE.lastIndex = 0;
  for (let m = AMOUNT_RE.exec(s); m; m = AMOUNT_RE.exec(s)) {
    const g = { ...m.groups } as Record<string, string | undefined>;
    const num = g.num!;
    let start = m.index + (m[0].length - m[0].trimStart().length);
    // A mark of letters that is the end of a word (`AR 200`, `XUSD 12`) is no mark: the figure stands alone.
    if (g.pre && !standsApart(s, start, g.pre)) { g.pre = undefined; start = s.indexOf(num, m.index); }
    const before = s[start - 1];
    if (!g.pre && before && JOINED.test(before)) continue; // part of an id, date or code
    const pre = currencyOfMark(g.pre, marks), post = currencyOfMark(g.post, marks);
    // A code on either side names the currency over a mark (`CAD $12.00`, `$12.00 NZD`), and a specific mark over a
    // shared one (`$86,400.00 M.N.` is in Mexican pesos).
    const currency = pre && post && (SHARED.test(g.pre!.trim()) || /^[A-Z]{3}$/.test(g.post!.trim()) && !/^[A-Z]{3}/.test(g.pre!.trim())) ? post : pre ?? post;
    let value = parseNumber(num, styleFor(num, currency, style));
    if (value === null) continue;
    if (g.k) value *= /[kK]/.test(g.k) ? 1000 : 10000;
    out.push({ value, index: start, end: m.index + m[0].length, currency, decimals: /[.,](?:\d{2}|[-–—])\)?$/.test(num), raw: text.slice(start, m.index + m[0].length).trim(), num, pre: g.pre, post: g.post, k: !!g.k });
  }
  mergeSpaceGroups(out, s, text, style, spaceGroups);
  // A range's ends share a currency: `34.000 – 38.000 SEK` reads its first end, and `EUR 1.650 - 1.900` its second, by
  // the currency written at the other end.
  for (let i = 0; i + 1 < out.length; i++) {
    const a = out[i]!, b = out[i + 1]!;
    if (!a.currency === !b.currency || !RANGE.test(s.slice(a.end, b.index))) continue;
    const [bare, marked] = a.currency ? [b, a] : [a, b];
    const v = parseNumber(bare.num, styleFor(bare.num, marked.currency, style));
    if (v !== null) bare.value = v * (bare.k ? 1000 : 1);
    if (bare === b) b.currency = a.currency;
  }
  return out.map(({ value, index, end, currency, decimals, raw }) => ({ value, index, end, currency, decimals, raw }));
}

/**
 * `5 000 zł`, `R 1 234 567`, and in a document that groups thousands with spaces a figure standing alone (`Kwota:
 * 5 000`): runs of three digits after one space continue the figure before them. Without a currency mark or that
 * habit, or beside other figures on the line, single spaces stay apart (`2 150` may be a quantity and a price).
 */
function mergeSpaceGroups(out: Raw[], s: string, text: string, style: NumberStyle, spaceGroups: boolean): void {
  const single = (i: number) => /^[ \u00a0\u202f]$/.test(s.slice(out[i]!.end, out[i + 1]!.index));
  // Twice: first the figures a mark stands beside, then the other end of a range one of them ends (`od 8 000 do 12 000 zł`).
  for (const pass of [1, 2]) {
    for (let i = 0; i + 1 < out.length; i++) {
      const a = out[i]!, b = out[i + 1]!;
      if (!single(i) || a.post || a.k || b.pre) continue;
      if (!/^-?\d{1,3}(?:[ \u00a0\u202f]\d{3})*$/.test(a.num) || !/^\d{3}(?:[.,](?:\d{1,2}|[-–—]))?$/.test(b.num)) continue;
      let last = i + 1;
      while (last + 1 < out.length && single(last) && /^\d{3}/.test(out[last + 1]!.num) && !out[last]!.post) last++;
      const alone = out.length === last - i + 1;
      const next = out[last + 1];
      const rangeTo = pass === 2 && !!next?.currency && RANGE.test(s.slice(out[last]!.end, next.index));
      if (!(a.pre || b.post || spaceGroups && alone || rangeTo)) continue;
      const num = `${a.num} ${b.num}`;
      const currency = a.currency ?? b.currency;
      const value = parseNumber(num.replace(/ /g, ''), styleFor(num.replace(/ /g, ''), currency ?? next?.currency ?? null, style));
      if (value === null) continue;
      out.splice(i, 2, { ...a, num, value, currency, end: b.end, post: b.post, decimals: b.decimals, raw: text.slice(a.index, b.end).trim() });
      i--;
    }
  }
}

/** Whether a document writes its money European style: `1.234,56` or `12,50 €`. */
export function detectNumberStyle(text: string): NumberStyle {
  const t = foldDigits(text);
  const eu = (t.match(/\d\.\d{3},\d{2}\b|(?<![\d.,])\d{1,3},\d{2}(?![\d,.])|(?<![\d.,])\d{1,3}\.\d{3}(?![\d,.])\s?(?:€|EUR)|€\s?\d{1,3}\.\d{3}(?![\d,.])/g) ?? []).length;
  const us = (t.match(/\d,\d{3}\.\d{2}\b|(?<![\d.,])\d+\.\d{2}(?![\d,.])/g) ?? []).length;
  return eu > us ? 'eu' : 'us';
}

/** Whether a document groups thousands with single spaces: `34 900,00`, `1 234.50`, `5 000 zł`. */
export function detectSpaceGroups(text: string): boolean {
  const t = foldDigits(text);
  return /(?<![\d.,])\d{1,3}(?:[ \u00a0\u202f]\d{3})+[.,]\d{2}(?!\d)/.test(t) || new RegExp(String.raw`(?<![\d.,])\d{1,3}(?: \d{3})+\s?(?:${POST_MARK_SOURCE})`, 'u').test(t);
}

/** Rounds to the cent, for amounts computed from quantity and unit price. */
export const cents = (n: number) => Math.round(n * 100) / 100;
