// How a model quotes, for the fake Messages server: for every non-null value of an answer, the span of the document a
// model would copy to prove it (the value as written there, its label beside it), and on request the slips a model
// makes when it copies (other whitespace or case, a changed letter, a quote of text that is not in the document). It
// reads values the way the documents write them (grouped and European numbers, written dates in a few languages,
// currency symbols), never by looking at what the service will do with the quote.

export type Slip = 'none' | 'whitespace' | 'case' | 'letter' | 'absent';

export interface QuoteEntry {
  path: string;
  quote: string;
  derived: boolean;
}

/** A quote as sent, with what the fake knows of it: the clean span it was taken from and the slip applied. */
export interface SentQuote extends QuoteEntry {
  slip: Slip;
  /** Where the clean quote stands in the document. */
  start: number;
  end: number;
}

type Leaf = { pointer: string; key: string; value: string | number | boolean; parent: Record<string, unknown> | null; inList: boolean };

const escapeStep = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function leavesOf(value: unknown, pointer = '', key = '', parent: Record<string, unknown> | null = null, inList = false): Leaf[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [{ pointer, key, value, parent, inList }];
  if (Array.isArray(value)) return value.flatMap((v, i) => leavesOf(v, `${pointer}/${i}`, key, parent, true));
  if (typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return Object.entries(o).flatMap(([k, v]) => leavesOf(v, `${pointer}/${escapeStep(k)}`, k, o, inList));
  }
  return [];
}

interface Line { start: number; end: number; text: string }

function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  for (const part of text.split('\n')) {
    out.push({ start, end: start + part.length, text: part });
    start += part.length + 1;
  }
  return out;
}

const MONTHS: string[][] = [
  ['january', 'jan', 'januar', 'janvier', 'enero', 'janeiro', 'gennaio', 'januari', 'stycznia', 'styczeń'],
  ['february', 'feb', 'februar', 'février', 'febrero', 'fevereiro', 'febbraio', 'februari', 'lutego', 'luty'],
  ['march', 'mar', 'märz', 'mars', 'marzo', 'março', 'maart', 'marca', 'marzec'],
  ['april', 'apr', 'avril', 'abril', 'aprile', 'kwietnia', 'kwiecień'],
  ['may', 'mai', 'mayo', 'maio', 'maggio', 'mei', 'maja', 'maj'],
  ['june', 'jun', 'juni', 'juin', 'junio', 'junho', 'giugno', 'czerwca', 'czerwiec'],
  ['july', 'jul', 'juli', 'juillet', 'julio', 'julho', 'luglio', 'lipca', 'lipiec'],
  ['august', 'aug', 'août', 'agosto', 'augustus', 'sierpnia', 'sierpień'],
  ['september', 'sep', 'sept', 'septembre', 'septiembre', 'setembro', 'settembre', 'września', 'wrzesień'],
  ['october', 'oct', 'oktober', 'octobre', 'octubre', 'outubro', 'ottobre', 'października', 'październik'],
  ['november', 'nov', 'novembre', 'noviembre', 'novembro', 'listopada', 'listopad'],
  ['december', 'dec', 'dezember', 'décembre', 'diciembre', 'dezembro', 'dicembre', 'grudnia', 'grudzień'],
];

/** How documents write a calendar date, most specific first. */
function datePatterns(iso: string): RegExp[] {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const mm = String(m).padStart(2, '0'), dd = String(d).padStart(2, '0'), yy = String(y).slice(2);
  const M = `0?${m}`, D = `0?${d}`, Y = `(?:${y}|${yy})`;
  const names = `(?:${MONTHS[m - 1]!.map(escapeRe).join('|')})\\.?`;
  const ord = '(?:st|nd|rd|th|er|\\.)?';
  return [
    new RegExp(`${y}-${mm}-${dd}`),
    new RegExp(`(?<!\\d)(?:${M}[/.-]${D}[/.-]${Y}|${D}[/.-]${M}[/.-]${Y})(?!\\d)`),
    new RegExp(`(?<![\\p{L}\\d])${D}${ord}\\s*(?:of\\s+|de\\s+)?${names}(?:\\s+de)?,?\\s+${y}`, 'iu'),
    new RegExp(`(?<![\\p{L}])${names}\\s+${D}${ord},?\\s+${y}`, 'iu'),
    new RegExp(`${y}\\s*[年년.]\\s*${M}\\s*[月월.]\\s*${D}\\s*[日일.]?`, 'u'),
    new RegExp(`${y}[/.]${M}[/.]${D}(?!\\d)`),
    // A date written without its year takes the document's.
    new RegExp(`(?<![\\p{L}\\d])${D}${ord}\\s*(?:of\\s+)?${names}(?![\\p{L}])`, 'iu'),
    new RegExp(`(?<![\\p{L}])${names}\\s+${D}${ord}(?!\\d)`, 'iu'),
  ];
}

/** How documents write a figure: grouped or not, with a decimal point or comma, its cents written or not. */
function numberPattern(n: number): RegExp {
  const [int, frac = ''] = Math.abs(n).toString().split('.');
  const sep = "[,.'’ \\u00a0\\u202f]?";
  const digits = int!.split('').map(escapeRe).join(sep);
  const cents = frac ? `[.,]${frac}0*` : `(?:[.,]0{1,3}|,-)?`;
  return new RegExp(`(?<![\\d.,])${n < 0 ? '-?\\s?' : ''}${digits}${cents}(?![\\d]|[.,]\\d)`, 'u');
}

/** How documents write a time of day (`20:15` as `8:15 PM` too). */
function timePattern(hhmm: string): RegExp {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  const mm = String(m).padStart(2, '0');
  const twelve = h % 12 === 0 ? 12 : h % 12;
  return new RegExp(`(?<!\\d)(?:0?${h}[:.h]${mm}(?::\\d\\d)?(?!\\d)|0?${twelve}[:.]${mm}(?::\\d\\d)?\\s*(?:${h < 12 ? 'a' : 'p'})\\.?m\\.?)`, 'i');
}

const CURRENCY_SIGNS: Record<string, string[]> = {
  USD: ['US$', '$'], EUR: ['€', 'EUR'], GBP: ['£'], JPY: ['¥', '円'], CNY: ['¥', '元', 'RMB'], INR: ['₹', 'Rs.', 'Rs'], CAD: ['CA$', 'C$', '$'],
  AUD: ['A$', 'AU$', '$'], NZD: ['NZ$', '$'], SGD: ['S$', '$'], HKD: ['HK$', '$'], MXN: ['$', 'M.N.'], BRL: ['R$'], ZAR: ['R'], NGN: ['₦', 'N'],
  KRW: ['₩', '원'], PLN: ['zł', 'zl'], CHF: ['Fr.', 'SFr.'], SEK: ['kr'], NOK: ['kr'], DKK: ['kr.', 'kr'], MYR: ['RM'], AED: ['د.إ', 'Dhs', 'Dh'],
  THB: ['฿'], PHP: ['₱'], ILS: ['₪'], TRY: ['₺'], RUB: ['₽'], VND: ['₫'], IDR: ['Rp'], CZK: ['Kč'], HUF: ['Ft'], KES: ['KSh'], EGP: ['E£'], SAR: ['SR'],
};

/** Words that name a field in documents, beside the words of its own name. */
const FIELD_WORDS: Record<string, string[]> = {
  total: ['total', 'amount due', 'balance due', 'grand', 'summe', 'gesamt', 'totaal', 'razem', 'importe', 'montant', '合計', '합계', 'المجموع', 'pay'],
  subtotal: ['subtotal', 'sub-total', 'sub total', 'net', 'zwischensumme', 'netto', 'subtotaal'],
  tax: ['tax', 'vat', 'gst', 'hst', 'pst', 'mwst', 'ust', 'iva', 'tva', 'btw', 'ptu', 'sst', '税', '세', 'ضريبة'],
  tip: ['tip', 'gratuity', 'service'],
  issueDate: ['date', 'issued', 'datum', 'fecha', 'data', 'dated'],
  dueDate: ['due', 'payable', 'fällig', 'vencimiento', 'pay by', 'terms', 'net'],
  date: ['date', 'datum', 'fecha', 'data'],
  remote: ['remote', 'on-site', 'onsite', 'on site', 'hybrid', 'office', 'in-person', 'home'],
  autoRenewal: ['renew', 'automatic', 'auto-renew', 'evergreen'],
  employmentType: ['full-time', 'full time', 'part-time', 'part time', 'contract', 'temporary', 'intern', 'permanent', 'freelance', 'fixed-term', 'type'],
  period: ['hour', 'year', 'annum', 'annual', 'month', 'day', 'week', '/hr', '/yr', 'p.a.', 'salary', 'pay'],
  billingFrequency: ['month', 'annual', 'year', 'quarter', 'week', 'one-time', 'per'],
  documentKindGuess: ['order', 'renewal', 'quote', 'invoice', 'agreement', 'subscription', 'notice', 'terms'],
  paymentMethod: ['visa', 'mastercard', 'cash', 'card', 'debit', 'credit', 'amex', 'pay', 'tender'],
  currency: ['total', 'amount', 'price', 'fee', 'salary'],
  noticePeriodDays: ['notice', 'days', 'prior'],
  seatCount: ['seat', 'user', 'licen'],
  paymentTermsDays: ['net', 'days', 'payment', 'terms'],
  quantity: ['qty', 'quantity'],
};

const wordsOfKey = (key: string) => key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/\s+/).filter((w) => w.length > 2);
const keywordsOf = (key: string) => [...(FIELD_WORDS[key] ?? []), ...wordsOfKey(key)];

interface Span { start: number; end: number; derived: boolean }

function searchIn(text: string, re: RegExp, from = 0, to = text.length): Span | null {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  g.lastIndex = from;
  const m = g.exec(text);
  if (!m || m.index >= to || m[0].length === 0) return null;
  return { start: m.index, end: m.index + m[0].length, derived: false };
}

/** Lines holding one of the words, in document order. */
const linesWith = (lines: Line[], words: string[]) => lines.filter((l) => words.some((w) => l.text.toLowerCase().includes(w.toLowerCase())));

/** The lines where an item of a list stands: the line of its first text member, and the two after it. */
function itemLines(text: string, lines: Line[], leaf: Leaf): Line[] {
  if (!leaf.inList || !leaf.parent) return [];
  const anchor = Object.entries(leaf.parent).find(([k, v]) => k !== leaf.key && typeof v === 'string' && v.length >= 3)?.[1] as string | undefined;
  if (!anchor) return [];
  const at = stringSpan(text, anchor);
  if (!at) return [];
  const i = lines.findIndex((l) => l.start <= at.start && at.start <= l.end);
  return i < 0 ? [] : lines.slice(i, i + 3);
}

/** A text value in the document: as written, then case- and spacing-blind, then word by word over any separators. */
function stringSpan(text: string, value: string): Span | null {
  const at = text.indexOf(value);
  if (at >= 0) return { start: at, end: at + value.length, derived: false };
  const words = value.match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return null;
  const loose = searchIn(text, new RegExp(escapeRe(value.trim()).replace(/\s+/g, '\\s+'), 'iu'));
  if (loose) return loose;
  // Words kept in order, anything between them (bullets removed, lines joined, an address's line breaks).
  if (words.length <= 60) {
    const spread = searchIn(text, new RegExp(words.map(escapeRe).join('[^\\p{L}\\p{N}]{1,12}'), 'iu'));
    if (spread) return spread;
  }
  return null;
}

/** The line sharing the most words with the value, when it shares at least half of them. */
function bestLine(lines: Line[], value: string): Span | null {
  const words = new Set((value.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []));
  if (words.size === 0) return null;
  let best: Line | null = null, bestShare = 0;
  for (const l of lines) {
    const lw = new Set(l.text.toLowerCase().match(/[\p{L}\p{N}]{2,}/gu) ?? []);
    let common = 0;
    for (const w of words) if (lw.has(w)) common++;
    const share = common / words.size;
    if (share > bestShare) { bestShare = share; best = l; }
  }
  return best && bestShare >= 0.5 ? { start: best.start, end: best.end, derived: bestShare < 1 } : null;
}

function firstIn(text: string, re: RegExp, where: Line[]): Span | null {
  for (const l of where) {
    const s = searchIn(text, re, l.start, l.end + 1);
    if (s && s.end <= l.end) return s;
  }
  return null;
}

/** Where a model finds a value: the span it would quote from, or null when the document does not show it. */
function spanOf(text: string, lines: Line[], leaf: Leaf): Span | null {
  const { key, value } = leaf;
  const keyLines = linesWith(lines, keywordsOf(key));
  const near = [...itemLines(text, lines, leaf), ...keyLines];
  if (typeof value === 'boolean') {
    const l = keyLines[0];
    return l ? { start: l.start, end: l.end, derived: true } : null;
  }
  if (typeof value === 'number') {
    const re = numberPattern(value);
    const found = firstIn(text, re, near) ?? searchIn(text, re);
    if (found) return found;
    // Computed (a line amount, a sum, days from months): the line it was worked out from.
    const l = near[0];
    return l ? { start: l.start, end: l.end, derived: true } : null;
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    for (const re of datePatterns(value)) {
      const found = firstIn(text, re, near) ?? searchIn(text, re);
      if (found) return found;
    }
    const l = near[0];
    return l ? { start: l.start, end: l.end, derived: true } : null;
  }
  if (/^\d{2}:\d{2}$/.test(value)) return searchIn(text, timePattern(value));
  if (key === 'currency' || /^[A-Z]{3}$/.test(value)) {
    const code = searchIn(text, new RegExp(`(?<![A-Za-z])${value}(?![A-Za-z])`));
    if (code) return code;
    for (const sign of CURRENCY_SIGNS[value] ?? []) {
      const re = new RegExp(`${escapeRe(sign)}\\s?\\d|\\d\\s?${escapeRe(sign)}`, 'u');
      const found = firstIn(text, re, linesWith(lines, FIELD_WORDS.total!)) ?? searchIn(text, re);
      if (found) return { ...found, derived: true };
    }
    return null;
  }
  const direct = stringSpan(text, value);
  if (direct) return direct;
  // A category written otherwise (`full_time`, `order_form`, `year`): the line that says it.
  if (/^[a-z_]+$/.test(value)) {
    const words = value.split('_');
    const l = linesWith(lines, words.filter((w) => w.length > 2))[0] ?? keyLines[0];
    return l ? { start: l.start, end: l.end, derived: true } : null;
  }
  return bestLine(lines, value);
}

/** The quote around a span: its whole line when the line is short (label and value), else the span itself. */
function quoteAround(text: string, lines: Line[], span: Span): { start: number; end: number } {
  const line = lines.find((l) => l.start <= span.start && span.start <= l.end);
  let { start, end } = span;
  if (line && span.end <= line.end && line.end - line.start <= 100) ({ start, end } = line);
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}

/** The quote as a model might miscopy it. Null when the slip cannot apply to this quote (no space, no letter). */
export function slipped(quote: string, slip: Slip, key: string, value: unknown): string | null {
  switch (slip) {
    case 'none': return quote;
    case 'whitespace': {
      const collapsed = quote.replace(/\s+/g, ' ');
      if (collapsed !== quote) return collapsed;
      const i = quote.indexOf(' ');
      return i > 0 ? `${quote.slice(0, i)}  \n${quote.slice(i + 1)}` : null;
    }
    case 'case': {
      const upper = quote.toUpperCase(), lower = quote.toLowerCase();
      return upper !== quote ? upper : lower !== quote ? lower : null;
    }
    case 'letter': {
      const letters = [...quote.matchAll(/\p{L}/gu)].map((m) => m.index!);
      if (letters.length === 0) return null;
      const i = letters[Math.floor(letters.length / 2)]!;
      const c = quote[i]!;
      return `${quote.slice(0, i)}${c.toLowerCase() === 'e' ? 'a' : 'e'}${quote.slice(i + 1)}`;
    }
    case 'absent':
      return `As the summary on the back page says, the ${wordsOfKey(key).join(' ') || 'value'} comes to ${String(value)} in all.`;
  }
}

export interface QuoteOptions {
  /** The slip made in copying each value (default none). */
  slipOf?: (path: string) => Slip;
  /** Renewal answers carry each term's quote in its own `sourceQuote`: list only documentKindGuess. */
  renewal?: boolean;
}

/**
 * The quotes a model gives for an answer's values, read from the document: one per value it can point at, in the
 * order of the answer; a value the document does not show gets none.
 */
export function quoteAnswer(text: string, data: unknown, opts: QuoteOptions = {}): SentQuote[] {
  const lines = linesOf(text);
  const out: SentQuote[] = [];
  for (const leaf of leavesOf(data)) {
    if (opts.renewal && leaf.pointer !== '/documentKindGuess') continue;
    const span = spanOf(text, lines, leaf);
    if (!span) continue;
    const { start, end } = quoteAround(text, lines, span);
    const clean = text.slice(start, end);
    const wanted = opts.slipOf?.(leaf.pointer) ?? 'none';
    const sent = slipped(clean, wanted, leaf.key, leaf.value);
    out.push({ path: leaf.pointer, quote: sent ?? clean, derived: span.derived, slip: sent === null ? 'none' : wanted, start, end });
  }
  return out;
}

/** A renewal's plain values as the model answers them: each term `{value, sourceQuote}`, its quote read the same way. */
export function renewalAnswer(text: string, plain: Record<string, unknown>, slipOf?: (path: string) => Slip): { data: Record<string, unknown>; quotes: SentQuote[] } {
  const lines = linesOf(text);
  const data: Record<string, unknown> = {};
  const quotes: SentQuote[] = [];
  for (const [name, value] of Object.entries(plain)) {
    if (name === 'documentKindGuess') { data[name] = value; continue; }
    if (value === null || value === undefined) { data[name] = { value: null, sourceQuote: null }; continue; }
    const leaf: Leaf = { pointer: `/${name}/value`, key: name, value: value as string | number | boolean, parent: null, inList: false };
    const span = spanOf(text, lines, leaf);
    if (!span) { data[name] = { value, sourceQuote: null }; continue; }
    const { start, end } = quoteAround(text, lines, span);
    const clean = text.slice(start, end);
    const wanted = slipOf?.(leaf.pointer) ?? 'none';
    const sent = slipped(clean, wanted, name, value) ?? clean;
    data[name] = { value, sourceQuote: sent };
    quotes.push({ path: leaf.pointer, quote: sent, derived: span.derived, slip: sent === clean ? 'none' : wanted, start, end });
  }
  quotes.push(...quoteAnswer(text, data, { renewal: true, ...(slipOf ? { slipOf } : {}) }));
  return { data, quotes };
}
