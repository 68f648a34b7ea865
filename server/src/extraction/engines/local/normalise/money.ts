// Amounts of money in US (1,234.56), European (1.234,56) and Indian (1,23,456.78) notation, with their currency marks.
import { CODE_RE_SOURCE, ISO_CODES, SYMBOL_RE_SOURCE, codeForSymbol } from './currency.js';

export type NumberStyle = 'us' | 'eu';

export interface FoundAmount {
  value: number;
  index: number;
  end: number;
  /** The ISO code its symbol or code names, when it carries one. */
  currency: string | null;
  /** Written with decimals (`12.00`), a strong sign of money rather than a count. */
  decimals: boolean;
  raw: string;
}

/** Reads one written number; `style` decides a lone separator followed by three digits (`2.400`, `1,650`). */
export function parseNumber(raw: string, style: NumberStyle = 'us'): number | null {
  let s = raw.replace(/[\s\u00a0\u202f']/g, '');
  const neg = /^-|^\(.*\)$/.test(s);
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

// Thousands groups by `,` `.` `'` or a narrow/no-break space; a plain space separates table columns instead.
// `1 234,56`: a single plain space groups thousands only when decimals follow, so `2   150.00` stays two columns.
// `6,98,560.00`, `48,00,000`: Indian grouping (lakh, crore), twos above the last three digits; tried first, so its
// `6,98` is not read as a number of its own.
const NUM = String.raw`\(?-?\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?(?![\d,])\)?|\(?-?\d{1,3}(?: \d{3})+[.,]\d{2}(?!\d)\)?|\(?-?\d{1,3}(?:[,.\u202f\u00a0']\d{3})+(?:[.,]\d{1,3})?\)?|\(?-?\d+(?:[.,]\d{1,3})?\)?`;
const AMOUNT_RE = new RegExp(
  String.raw`(?<pre>(?<![A-Za-z])(?:${CODE_RE_SOURCE})(?![A-Za-z])(?:\s?\$)?|(?:${SYMBOL_RE_SOURCE}))?\s?(?<num>${NUM})(?<k>[kK]\b)?(?:\s?(?<post>€|£|(?<![A-Za-z])(?:${CODE_RE_SOURCE})(?![A-Za-z])|EUR|euros?))?`,
  'gu',
);

/** Currencies written with `.` thousands and `,` decimals, and those written the other way round. */
const DOT_GROUPS = new Set(['EUR', 'SEK', 'NOK', 'DKK', 'CHF', 'PLN', 'CZK', 'HUF', 'ISK', 'TRY', 'BRL', 'RON', 'BGN', 'IDR']);
const COMMA_GROUPS = new Set(['USD', 'GBP', 'CAD', 'AUD', 'NZD', 'JPY', 'CNY', 'INR', 'HKD', 'SGD', 'MXN', 'ZAR', 'KRW', 'PHP', 'THB', 'MYR', 'ILS', 'AED', 'SAR']);

/**
 * The reading of one ambiguous figure (`38.000`, `1,650`: one separator, three digits after it): its own
 * currency decides before the document's habit (`38.000 SEK` is thirty-eight thousand in any document).
 */
function styleFor(num: string, currency: string | null, style: NumberStyle): NumberStyle {
  if (!currency || !/^\(?-?\d{1,3}[.,]\d{3}\)?$/.test(num)) return style;
  const sep = /[.,]/.exec(num)![0];
  if (sep === '.' && DOT_GROUPS.has(currency)) return 'eu';
  if (sep === ',' && COMMA_GROUPS.has(currency)) return 'us';
  return style;
}

/** The ISO code a currency mark written beside a figure names: a code (also `CAD $`), a symbol or `euro`. */
function currencyOfMark(mark: string | undefined): string | null {
  if (!mark) return null;
  const code = /^[A-Z]{3}(?=\s?\$?$)/.exec(mark);
  if (code && ISO_CODES.has(code[0])) return code[0];
  return codeForSymbol(mark) ?? (/^eur/i.test(mark) ? 'EUR' : mark.toUpperCase());
}

/** Every number in a line read as an amount, with the currency mark written beside it. */
export function findAmounts(s: string, style: NumberStyle = 'us'): FoundAmount[] {
  const out: FoundAmount[] = [];
  AMOUNT_RE.lastIndex = 0;
  for (let m = AMOUNT_RE.exec(s); m; m = AMOUNT_RE.exec(s)) {
    const g = m.groups ?? {};
    const num = g.num!;
    const start = m.index + (m[0].length - m[0].trimStart().length);
    const before = s[start - 1];
    if (!g.pre && before && /[A-Za-z\d/:#-]/.test(before)) continue; // part of an id, date or code
    // A code on either side names the currency over a symbol (`CAD $12.00`, `$12.00 NZD`).
    const pre = currencyOfMark(g.pre), post = currencyOfMark(g.post);
    const cur0 = pre && post && g.pre === '$' ? post : pre ?? post;
    let value = parseNumber(num, styleFor(num, cur0, style));
    if (value === null) continue;
    if (g.k) value *= 1000;
    const currency = cur0;
    out.push({ value, index: start, end: m.index + m[0].length, currency, decimals: /[.,]\d{2}\)?$/.test(num), raw: m[0].trim(), num } as FoundAmount & { num: string });
  }
  // A range's ends share a currency: `34.000 – 38.000 SEK` reads its first end, and `EUR 1.650 - 1.900` its second, by
  // the currency written at the other end.
  for (let i = 0; i + 1 < out.length; i++) {
    const a = out[i]! as FoundAmount & { num: string }, b = out[i + 1]! as FoundAmount & { num: string };
    if (!a.currency === !b.currency || !/^\s*(?:-|–|—|to|bis)\s*$/i.test(s.slice(a.end, b.index))) continue;
    const [bare, marked] = a.currency ? [b, a] : [a, b];
    const v = parseNumber(bare.num, styleFor(bare.num, marked.currency, style));
    if (v !== null) bare.value = v * (/[kK]$/.test(bare.raw) ? 1000 : 1);
    if (bare === b) b.currency = a.currency;
  }
  for (const a of out) delete (a as Partial<FoundAmount & { num: string }>).num;
  return out;
}

/** Whether a document writes its money European style: `1.234,56` or `12,50 €`. */
export function detectNumberStyle(text: string): NumberStyle {
  const eu = (text.match(/\d\.\d{3},\d{2}\b|(?<![\d.,])\d{1,3},\d{2}(?![\d,.])|(?<![\d.,])\d{1,3}\.\d{3}(?![\d,.])\s?(?:€|EUR)|€\s?\d{1,3}\.\d{3}(?![\d,.])/g) ?? []).length;
  const us = (text.match(/\d,\d{3}\.\d{2}\b|(?<![\d.,])\d+\.\d{2}(?![\d,.])/g) ?? []).length;
  return eu > us ? 'eu' : 'us';
}

/** Rounds to the cent, for amounts computed from quantity and unit price. */
export const cents = (n: number) => Math.round(n * 100) / 100;
