// Currency symbols and ISO 4217 codes.

export const ISO_CODES = new Set([
  'USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'CHF', 'JPY', 'CNY', 'INR', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF',
  'ZAR', 'SGD', 'HKD', 'MXN', 'BRL', 'AED', 'SAR', 'ILS', 'KRW', 'TRY', 'RON', 'BGN', 'ISK', 'THB', 'PHP', 'IDR', 'MYR',
]);

/** Symbols (longest first when matching) and the code each stands for. `$` alone is USD by convention. */
export const SYMBOLS: [string, string][] = [
  ['US$', 'USD'], ['CA$', 'CAD'], ['C$', 'CAD'], ['AU$', 'AUD'], ['A$', 'AUD'], ['NZ$', 'NZD'], ['HK$', 'HKD'],
  ['S$', 'SGD'], ['R$', 'BRL'], ['€', 'EUR'], ['£', 'GBP'], ['¥', 'JPY'], ['₹', 'INR'], ['₩', 'KRW'], ['₺', 'TRY'],
  ['zł', 'PLN'], ['Fr.', 'CHF'], ['$', 'USD'],
];

export const SYMBOL_RE_SOURCE = SYMBOLS.map(([s]) => s.replace(/[$.]/g, (c) => `\\${c}`)).join('|');
export const CODE_RE_SOURCE = [...ISO_CODES].join('|');

const WORDS: [RegExp, string][] = [
  [/\beuros?\b/i, 'EUR'], [/\b(?:us )?dollars?\b/i, 'USD'], [/\bpounds? sterling\b|\bsterling\b/i, 'GBP'],
  [/\bcanadian dollars?\b/i, 'CAD'], [/\baustralian dollars?\b/i, 'AUD'], [/\bnew zealand dollars?\b/i, 'NZD'],
  [/\bsingapore dollars?\b/i, 'SGD'], [/\bhong kong dollars?\b/i, 'HKD'], [/\bswiss francs?\b/i, 'CHF'],
  // Malaysia's `RM` is a symbol written like a word: only before a figure or in parentheses (`RM 9.00`, `AMT(RM)`).
  [/(?<![A-Za-z])RM(?=\s?\d)|\(RM\)|\bringgit\b/i, 'MYR'],
];

/** Dollars other than the US one: a bare `$` in a document that names one of them is that one. */
export const DOLLAR_CODES = new Set(['CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'MXN']);

export function codeForSymbol(symbol: string): string | null {
  return SYMBOLS.find(([s]) => s.toLowerCase() === symbol.toLowerCase())?.[1] ?? null;
}

/** The currency a span names by code, symbol or word, or null. Codes win over symbols (`$` in a CAD document). */
export function currencyIn(s: string): string | null {
  const code = new RegExp(`(?<![A-Za-z])(${CODE_RE_SOURCE})(?![A-Za-z])`).exec(s);
  if (code) return code[1]!;
  for (const [sym, iso] of SYMBOLS) if (s.includes(sym)) return iso;
  for (const [re, iso] of WORDS) if (re.test(s)) return iso;
  return null;
}

/**
 * The document's currency: an explicit ISO code is the strongest evidence (a `Total (CAD)` beside `$` amounts),
 * then the most used symbol; `$` alone counts as USD.
 */
export function detectCurrency(text: string): string | null {
  const votes = new Map<string, number>();
  const add = (iso: string, n: number) => votes.set(iso, (votes.get(iso) ?? 0) + n);
  const codeRe = new RegExp(`(?<![A-Za-z])(${CODE_RE_SOURCE})(?![A-Za-z])`, 'g');
  for (let m = codeRe.exec(text); m; m = codeRe.exec(text)) add(m[1]!, 3);
  let rest = text;
  for (const [sym, iso] of SYMBOLS) {
    const parts = rest.split(sym);
    if (parts.length > 1) add(iso, (parts.length - 1) * (sym === '$' ? 1 : 2));
    rest = parts.join(' ');
  }
  // `All amounts are in Canadian dollars`: a named dollar is as sure as its code; plain `dollars` or `euros` only
  // decides when nothing else does.
  for (const [re, iso] of WORDS) if (re.test(text) && DOLLAR_CODES.has(iso)) add(iso, 3);
  if (votes.size === 0) for (const [re, iso] of WORDS) if (re.test(text)) add(iso, 1);
  // A lone `$` defers to a dollar code the document names (CAD, AUD, ...).
  const usd = votes.get('USD') ?? 0;
  const dollarCode = [...DOLLAR_CODES].find((c) => (votes.get(c) ?? 0) > 0);
  if (dollarCode && !/\bUSD\b|US\$/.test(text)) { votes.set(dollarCode, (votes.get(dollarCode) ?? 0) + usd); votes.delete('USD'); }
  let best: string | null = null, bestN = 0;
  for (const [iso, n] of votes) if (n > bestN) { best = iso; bestN = n; }
  return best;
}
