// Amounts of money in US (1,234.56) and European (1.234,56) notation, with their currency marks.
import { CODE_RE_SOURCE, SYMBOL_RE_SOURCE, codeForSymbol } from './currency.js';

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
const NUM = String.raw`\(?-?\d{1,3}(?:[,.\u202f\u00a0']\d{3})+(?:[.,]\d{1,3})?\)?|\(?-?\d+(?:[.,]\d{1,3})?\)?`;
const AMOUNT_RE = new RegExp(
  String.raw`(?<pre>(?:${SYMBOL_RE_SOURCE})|(?<![A-Za-z])(?:${CODE_RE_SOURCE})(?![A-Za-z]))?\s?(?<num>${NUM})(?<k>[kK]\b)?(?:\s?(?<post>€|£|(?<![A-Za-z])(?:${CODE_RE_SOURCE})(?![A-Za-z])|EUR|euros?))?`,
  'gu',
);

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
    let value = parseNumber(num, style);
    if (value === null) continue;
    if (g.k) value *= 1000;
    const mark = g.pre ?? g.post ?? null;
    const currency = mark ? codeForSymbol(mark) ?? (/^eur/i.test(mark) ? 'EUR' : mark.toUpperCase()) : null;
    out.push({ value, index: start, end: m.index + m[0].length, currency, decimals: /[.,]\d{2}\)?$/.test(num), raw: m[0].trim() });
  }
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
