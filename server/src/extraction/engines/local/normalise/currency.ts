// Currencies: ISO 4217 codes, the marks written for them (symbols, abbreviations, words), and the document evidence
// that decides a mark several currencies share (`$`, `kr`, `¥`, `£`, `Rs`, `﷼`).
import { currencySymbols, engineCurrencyNames } from '../locale/currencies.js';
import { lazily } from '../locale/locales.js';

/** Codes read wherever they stand as a word of capitals (`Total (CAD)`, `EUR 12,00`). */
const CODES = [
  'USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'CHF', 'JPY', 'CNY', 'INR', 'SEK', 'NOK', 'DKK', 'ISK', 'PLN', 'CZK', 'HUF',
  'BGN', 'RSD', 'ZAR', 'NGN', 'GHS', 'KES', 'UGX', 'TZS', 'EGP', 'TND', 'AED', 'SAR', 'QAR', 'KWD', 'BHD',
  'JOD', 'ILS', 'RUB', 'UAH', 'KZT', 'BYN', 'SGD', 'HKD', 'TWD', 'MYR', 'THB', 'VND', 'IDR', 'KRW', 'PKR', 'LKR',
  'BDT', 'MXN', 'BRL', 'ARS', 'CLP', 'COP', 'UYU', 'PYG', 'DOP', 'GTQ', 'XOF', 'XAF', 'LBP', 'RMB',
];
/** Codes that are also words (`TRY again`, `PEN name`, `MAD`): read only beside a figure or in brackets. */
const WORD_CODES = ['TRY', 'PEN', 'BOB', 'MAD', 'GEL', 'PHP', 'RON', 'NPR', 'CRC', 'OMR'];

/** Every ISO code the engine reads (`RMB`, a common name of the yuan, is read as CNY). */
export const ISO_CODES = new Set([...CODES.filter((c) => c !== 'RMB'), ...WORD_CODES]);
const CODE_ALIASES: Record<string, string> = { RMB: 'CNY' };
export const codeOf = (written: string) => CODE_ALIASES[written] ?? written;

/** Currencies whose amounts carry no minor unit in practice: a lone separator before three digits groups thousands (`¥316,000`, `₫316.000`). */
export const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'VND', 'CLP', 'HUF', 'IDR', 'ISK', 'UGX', 'PYG', 'XOF', 'XAF', 'TZS']);

/** Marks several currencies share; the document's other evidence says which one it is. */
export type MarkGroup = 'dollar' | 'krone' | 'yen' | 'pound' | 'rupee' | 'rial';
export type MarkContext = Readonly<Record<MarkGroup, string | null>>;
/** Without other evidence: `$` is USD, `¥` JPY, `£` GBP, `Rs` INR, `﷼` SAR; `kr` is nothing (three kroner and a króna share it). */
export const DEFAULT_MARKS: MarkContext = { dollar: 'USD', krone: null, yen: 'JPY', pound: 'GBP', rupee: 'INR', rial: 'SAR' };

/**
 * A mark written for a currency. `figure` says where it must stand to count: `before` a figure (`R 34 900,00`,
 * `Rp 15.000`, `S/ 120`), `beside` one on either side (`5 000 zł`, `TL 250`), or anywhere (unique symbols, `€`).
 */
interface Mark { mark: string; code?: string; group?: MarkGroup; figure?: 'before' | 'beside'; money?: true }

/**
 * Marks ICU does not give (or gives for several currencies), as documents write them: dollars and pesos with their
 * country (`US$`, `S$`, `COL$`), Mexico's `M.N.`, the CJK and Cyrillic unit signs, East Africa's `KShs`, the Gulf's
 * Latin abbreviations, and the shared marks, whose currency the document's other evidence decides.
 */
const OWN_MARKS: Mark[] = [
  { mark: 'US$', code: 'USD' }, { mark: 'U$S', code: 'USD' }, { mark: 'CAD$', code: 'CAD' }, { mark: 'C$', code: 'CAD' }, { mark: 'AU$', code: 'AUD' },
  { mark: 'SG$', code: 'SGD' }, { mark: 'S$', code: 'SGD' }, { mark: 'Mex$', code: 'MXN' }, { mark: 'AR$', code: 'ARS' }, { mark: 'CLP$', code: 'CLP' },
  { mark: 'CL$', code: 'CLP' }, { mark: 'COL$', code: 'COP' }, { mark: 'COP$', code: 'COP' }, { mark: '$U', code: 'UYU' },
  // `$86,400.00 M.N.`: Mexico's moneda nacional.
  { mark: 'M.N.', code: 'MXN', figure: 'beside' },
  { mark: 'JP¥', code: 'JPY' }, { mark: 'GH¢', code: 'GHS' }, { mark: '₵', code: 'GHS' },
  { mark: '元', code: 'CNY', figure: 'beside' }, { mark: '人民币', code: 'CNY' }, { mark: '円', code: 'JPY', figure: 'beside' }, { mark: '원', code: 'KRW', figure: 'beside' },
  { mark: 'лв', code: 'BGN', figure: 'beside' }, { mark: 'руб', code: 'RUB', figure: 'beside' }, { mark: 'грн', code: 'UAH', figure: 'beside' },
  { mark: 'TL', code: 'TRY', figure: 'beside' }, { mark: 'đ', code: 'VND', figure: 'beside' }, { mark: 'VNĐ', code: 'VND', figure: 'beside' },
  { mark: 'KShs', code: 'KES', figure: 'before' }, { mark: 'KSh', code: 'KES', figure: 'before' },
  // Short letters that are also abbreviations (`Fr. 12.06.` is a Friday in German) name money only before money's shape.
  { mark: 'SFr.', code: 'CHF' }, { mark: 'Fr.', code: 'CHF', figure: 'before', money: true }, { mark: 'S/.', code: 'PEN', figure: 'before', money: true },
  { mark: 'Dhs.', code: 'AED', figure: 'beside' }, { mark: 'Dhs', code: 'AED', figure: 'beside' }, { mark: 'د.إ', code: 'AED' }, { mark: 'ر.س', code: 'SAR' },
  { mark: 'ر.ق', code: 'QAR' }, { mark: 'ج.م', code: 'EGP' }, { mark: 'SR', code: 'SAR', figure: 'before', money: true }, { mark: 'QR', code: 'QAR', figure: 'before', money: true },
  { mark: 'kr.', group: 'krone', figure: 'beside' }, { mark: 'kr', group: 'krone', figure: 'beside' }, { mark: 'Kr.', group: 'krone', figure: 'beside' }, { mark: 'Kr', group: 'krone', figure: 'beside' },
  { mark: 'Rs.', group: 'rupee', figure: 'beside' }, { mark: 'Rs', group: 'rupee', figure: 'beside' }, { mark: '₨', group: 'rupee' },
  { mark: '﷼', group: 'rial' }, { mark: '£', group: 'pound' }, { mark: '¥', group: 'yen' }, { mark: '$', group: 'dollar' },
];

/**
 * Where marks of letters that ICU gives must stand. Any other mark of Latin letters alone ICU gives stands beside a
 * figure, and one of one or two letters (`Q`, `Bs`, `DT`) only beside money's shape; symbols (`€`, `₫`, `R$`, `A$`)
 * and marks of other scripts' letters (`د.ك.`) stand anywhere a mark does.
 */
const PLACEMENT: Array<Pick<Mark, 'mark' | 'figure' | 'money'>> = [
  { mark: 'zł', figure: 'beside' }, { mark: 'Kč', figure: 'beside' }, { mark: 'Ft', figure: 'beside' }, { mark: 'lei', figure: 'beside' },
  { mark: 'RM', figure: 'beside' }, { mark: 'Rp', figure: 'before' }, { mark: 'Ksh', figure: 'before' }, { mark: 'USh', figure: 'before' },
  { mark: 'TSh', figure: 'before' }, { mark: 'S/', figure: 'before', money: true },
  // South Africa's rand: a capital R directly before a figure (`R 34 900,00`, `R1,250.00`), never a word's letter.
  { mark: 'R', figure: 'before', money: true },
];

function placementOf(mark: string): Pick<Mark, 'figure' | 'money'> {
  const rule = PLACEMENT.find((p) => p.mark === mark);
  if (rule) return { ...(rule.figure ? { figure: rule.figure } : {}), ...(rule.money ? { money: true } : {}) };
  // A symbol (`R$`, `A$`, `₾`) or a mark in another script's letters (`د.ك.`) is no word of a Latin text.
  if (!/^[\p{Script=Latin}. ]+$/u.test(mark)) return {};
  return (mark.match(/\p{L}/gu) ?? []).length <= 2 ? { figure: 'beside', money: true } : { figure: 'beside' };
}

/**
 * Every mark read: ICU's symbols of the locales' own currencies and of every code read (locale/currencies.ts), each
 * that names one currency, also without a final full stop (`د.ك.`, `د.ك`), then the marks ICU does not give.
 */
const MARKS: Mark[] = (() => {
  const marks = new Map(OWN_MARKS.map((m) => [m.mark, m]));
  for (const [symbol, codes] of currencySymbols([...CODES, ...WORD_CODES])) {
    const code = [...codes][0]!;
    if (codes.size !== 1 || !ISO_CODES.has(code)) continue;
    for (const mark of symbol.length > 2 && symbol.endsWith('.') ? [symbol, symbol.slice(0, -1)] : [symbol]) {
      if (!marks.has(mark)) marks.set(mark, { mark, code, ...placementOf(mark) });
    }
  }
  return [...marks.values()];
})();

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * A mark as a pattern: its letters, and after a final letter no other (`Ft`, not `Fte`). Whether a mark that starts
 * with a letter stands apart from the word before it (`R 200`, not `AR 200`) is checked by `standsApart`: a pattern
 * that starts with a look-behind would be tried at every position of a document.
 */
function markSource(m: Mark): string {
  return `${markLetters(m.mark)}${/\p{L}$/u.test(m.mark) ? '(?![\\p{L}])' : ''}`;
}

/** A mark's letters as a pattern, a space in it matching any (`F CFA` is written with a no-break space). */
const markLetters = (mark: string) => escape(mark).replace(/ /g, '\\s');
/** A mark as found, its spaces as plain ones: the key it is looked up by. */
const markKey = (found: string) => found.trim().replace(/\s+/g, ' ');

/** Whether `written` (a mark or code found at `index` of `s`) starts a word of its own (`R 200`, not `AR 200` or `5R`). */
export function standsApart(s: string, index: number, written: string): boolean {
  return !/^[\p{L}\p{N}]/u.test(written) || index === 0 || !/[\p{L}\p{N}]/u.test(s[index - 1]!);
}

/** A mark of letters written straight after its figure (`100zł`, `316,000원`) stands apart from other words too. */
const standsAfterFigure = (s: string, index: number, m: Mark) => m.figure !== 'before' && /\d/.test(s[index - 1] ?? '');

/** A figure shaped like money: decimals (or `,-`), or thousands grouped (`R 34 900`, `S/ 1,250`), not a date (`12.06.`). */
export const MONEY_SHAPE_AFTER = String.raw`(?=\s?(?:\d{1,3}(?:[ ,.'’\u00a0\u202f]\d{3})+(?:[.,](?:\d{2}|-))?|\d+[.,](?:\d{2}|-))(?![.\d]))`;
const BY_LENGTH = [...MARKS].sort((a, b) => b.mark.length - a.mark.length);
/** Every mark as written, alone (a table cell or token that is just `zł`, `R`, `kr.`), as one alternation. */
export const LONE_MARK_SOURCE = BY_LENGTH.map((m) => markLetters(m.mark)).join('|');
/** Marks that may stand before a figure, as one alternation (longest first); short letters only before money's shape. */
export const PRE_MARK_SOURCE = BY_LENGTH.map((m) => `${markSource(m)}${m.money ? MONEY_SHAPE_AFTER : ''}`).join('|');
/** The first characters of every mark and code, as a class: a position no mark can start at is passed over at once. */
export const MARK_START_CLASS = `[A-Z${[...new Set(BY_LENGTH.map((m) => m.mark[0]!))].filter((c) => !/[A-Z]/.test(c)).map((c) => escape(c).replace(/[-^\]]/g, '\\$&')).join('')}]`;
/** Marks written after the figure in their own countries (`12,50 €`, `5 000 zł`, `316,000円`, `$86,400.00 M.N.`). */
const WRITTEN_AFTER = new Set(['€', 'zł', 'Kč', 'Ft', 'kr', 'kr.', 'Kr', 'Kr.', 'lei', 'лв', 'руб', 'грн', '₽', '₴', 'đ', '₫', 'VNĐ', '원', '円', '元',
  'TL', '₺', 'M.N.', 'Dhs', 'Dhs.', 'د.إ', 'ر.س', 'ر.ق', 'ج.م', '﷼', '₪', '฿', '₸', '£']);
/**
 * Marks that may stand after a figure. One usually written before its figure (`$`, `₦`, `R$`) belongs to the figure
 * after it when there is one (`2 $5.00` is a count and five dollars).
 */
export const POST_MARK_SOURCE = BY_LENGTH.filter((m) => m.figure !== 'before')
  .map((m) => `${markSource(m)}${WRITTEN_AFTER.has(m.mark) ? '' : String.raw`(?!\s?\(?-?\d)`}`).join('|');
/** Codes as a word of capitals (risky ones too: callers place them beside a figure). */
export const CODE_RE_SOURCE = [...CODES, ...WORD_CODES].join('|');
/** Codes that stand anywhere on their own. */
const SAFE_CODE_SOURCE = CODES.join('|');

/** The currency one written mark names (a mark or a code), shared marks resolved by `ctx`. */
export function codeForMark(mark: string, ctx: MarkContext = DEFAULT_MARKS): string | null {
  const t = markKey(mark);
  if (/^[A-Z]{3}$/.test(t)) return ISO_CODES.has(codeOf(t)) ? codeOf(t) : null;
  const m = MARKS.find((x) => x.mark === t);
  if (!m) return /^eur/i.test(t) ? 'EUR' : null;
  return m.code ?? ctx[m.group!] ?? null;
}

// ---- Words ---------------------------------------------------------------------------------------------------------

/**
 * A currency named in words. `strong`: the words name the country as well, as sure as its code. `key`: lower-case
 * letters every match holds, so a document without them is not searched.
 */
interface Word { key: string[]; re: RegExp; code: string; strong?: boolean }

/**
 * Currency names written without their country, which ICU gives only inside a full name (`złotych polskich`,
 * `shekels` in `new Israeli shekels`) or not at all (`moneda nacional`, `ש״ח`): each names one currency. Every
 * currency's full name, in every locale the engine reads, comes from ICU (`currencyWords` below).
 */
const UNIT_WORDS: Word[] = [
  { key: ['moneda'], re: /\bmoneda nacional\b/i, code: 'MXN', strong: true },
  { key: ['naira'], re: /\bnaira\b/i, code: 'NGN', strong: true }, { key: ['cedi'], re: /\bcedis?\b/i, code: 'GHS', strong: true },
  { key: ['shilling'], re: /\bkenya shillings?\b/i, code: 'KES', strong: true },
  { key: ['جنيه'], re: /جنيه/i, code: 'EGP', strong: true }, { key: ['dirham', 'درهم'], re: /\bemirati dirhams?\b|درهم/i, code: 'AED', strong: true },
  { key: ['shekel', 'שקל', 'ש״ח', 'ש"ח'], re: /\bshekels?\b|שקל|ש״ח|ש"ח/i, code: 'ILS', strong: true },
  { key: ['złot', 'zlot'], re: /\bz(?:łotych|łote?|lotys?|łoty)(?!\p{L})/iu, code: 'PLN', strong: true },
  { key: ['korun'], re: /\bkorun[ay]?\b/i, code: 'CZK', strong: true }, { key: ['forint'], re: /\bforint\b/i, code: 'HUF', strong: true },
  { key: ['kronor'], re: /\bkronor\b/i, code: 'SEK', strong: true }, { key: ['krónur'], re: /\bkrónur(?!\p{L})/iu, code: 'ISK', strong: true },
  { key: ['rupiah'], re: /\brupiah\b/i, code: 'IDR', strong: true }, { key: ['ringgit'], re: /\bringgit\b/i, code: 'MYR', strong: true },
  { key: ['baht', 'บาท'], re: /\bbaht\b|บาท/i, code: 'THB', strong: true },
  { key: ['đồng', 'dong'], re: /đồng(?!\p{L})|\bviet dong\b/iu, code: 'VND', strong: true },
  { key: ['won'], re: /\bkorean won\b/i, code: 'KRW', strong: true },
  { key: ['yuan', 'renminbi'], re: /\byuan\b|\brenminbi\b/i, code: 'CNY', strong: true },
  { key: ['ruble', 'rouble', 'рубл'], re: /\brubles?\b|\broubles?\b|рубл/i, code: 'RUB', strong: true }, { key: ['hryvnia', 'гривн'], re: /\bhryvnias?\b|гривн/i, code: 'UAH', strong: true },
  { key: ['lira'], re: /\blirası(?!\p{L})/iu, code: 'TRY', strong: true },
  { key: ['reais'], re: /\breais\b/i, code: 'BRL', strong: true },
  { key: ['soles'], re: /\bsoles\b/i, code: 'PEN', strong: true },
  { key: ['(rm)'], re: /\(RM\)/, code: 'MYR' },
  // Words several currencies share, read as the usual one and only as weak evidence.
  { key: ['euro'], re: /\beuros?\b/i, code: 'EUR' }, { key: ['dollar'], re: /\b(?:us )?dollars?\b/i, code: 'USD' },
  { key: ['sterling'], re: /\bpounds? sterling\b|\bsterling\b/i, code: 'GBP' },
  { key: ['franc', 'franken'], re: /\bfrancs?\b|\bfranken\b/i, code: 'CHF' }, { key: ['rupee'], re: /\brupees?\b/i, code: 'INR' }, { key: ['kroner'], re: /\bkroner\b/i, code: 'NOK' },
];

const LETTER = /[\p{L}\p{M}]/u;
const WORD_RUN = /[\p{L}\p{M}]+/gu;
/** Scripts written without spaces between words: a name may start and end anywhere in a run of their letters. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

interface Name { name: string; code: string }
/**
 * Every currency's name in words, from ICU (locale/currencies.ts), indexed by its first two letters (lower case) so a
 * document is searched only at its word starts: each a strong mark, as sure as the code (`dollars canadiens`, `Schweizer
 * Franken`, `Türk lirası`, `đồng Việt Nam`). A name of one word (`euro`, `quetzales`) is weak evidence, as the unit words are.
 */
const currencyWords = lazily(() => {
  const index = new Map<string, Name[]>();
  for (const [name, code] of engineCurrencyNames().names) {
    // Short Latin names (`sol`, `won`) are words too; names in unspaced scripts are short (`港元`, `日本円`).
    if (!ISO_CODES.has(code) || name.length < (UNSPACED.test(name) ? 2 : 4)) continue;
    const key = name.slice(0, 2);
    (index.get(key) ?? index.set(key, []).get(key)!).push({ name, code });
  }
  for (const names of index.values()) names.sort((a, b) => b.name.length - a.name.length);
  return index;
});


/** ICU's currency names in `s`, where each stands as words of its own (a plural `s` after it allowed: `South African rands`). */
function findCurrencyNames(s: string): Array<{ index: number; end: number; code: string; text: string; strong: boolean }> {
  const index = currencyWords();
  const out: Array<{ index: number; end: number; code: string; text: string; strong: boolean }> = [];
  /** The name starting at `i`, if one does. */
  const at = (i: number, unspaced: boolean): number => {
    const names = index.get(s.slice(i, i + 2).toLowerCase());
    if (!names) return -1;
    for (const { name, code } of names) {
      if (s.slice(i, i + name.length).toLowerCase() !== name) continue;
      let end = i + name.length;
      if (!unspaced && s[end] === 's') end++;
      if (!unspaced && LETTER.test(s[end] ?? '')) continue;
      out.push({ index: i, end, code, text: s.slice(i, end), strong: /[\s-]/.test(name) || unspaced });
      return end;
    }
    return -1;
  };
  // Each run of letters: a word, where a name may start; in an unspaced script, at any of its letters.
  WORD_RUN.lastIndex = 0;
  for (let m = WORD_RUN.exec(s); m; m = WORD_RUN.exec(s)) {
    if (!UNSPACED.test(m[0])) {
      const end = at(m.index, false);
      if (end > m.index + m[0].length) WORD_RUN.lastIndex = end;
      continue;
    }
    for (let i = m.index; i < m.index + m[0].length; i++) { const end = at(i, true); if (end > 0) i = end - 1; }
  }
  return out;
}

/** Codes a bare `$` may stand for (the dollars and pesos), and the group each other shared mark belongs to. */
export const DOLLAR_CODES = new Set(['CAD', 'AUD', 'NZD', 'SGD', 'HKD', 'TWD', 'MXN', 'ARS', 'CLP', 'COP', 'UYU', 'DOP']);
const GROUP_CODES: Record<MarkGroup, Set<string>> = {
  dollar: DOLLAR_CODES,
  krone: new Set(['SEK', 'NOK', 'DKK', 'ISK']),
  yen: new Set(['CNY']),
  pound: new Set(['EGP']),
  rupee: new Set(['PKR', 'LKR', 'NPR']),
  rial: new Set(['QAR', 'OMR']),
};

// ---- Finding marks -------------------------------------------------------------------------------------------------

const GLOBAL_WORDS = UNIT_WORDS.map((w) => ({ ...w, re: new RegExp(w.re.source, `${w.re.flags}g`) }));

export interface FoundMark { index: number; end: number; code: string; text: string; kind: 'code' | 'mark' | 'word'; strong?: boolean; group?: MarkGroup }

/** Every mark, longest first: found by its letters, then judged where it stands (`markStands`). */
const MARK_SCAN = new RegExp(BY_LENGTH.map(markSource).join('|'), 'gu');
const MARK_BY_TEXT = new Map(BY_LENGTH.map((m) => [m.mark, m]));
const FIGURE_AFTER = /^\s?\(?-?\d/;
const MONEY_AFTER = new RegExp(`^${MONEY_SHAPE_AFTER}`, 'u');
const FIGURE_BEFORE = /\d[.,]?\s?$/;
/** Money's shape just before a mark written after its figure (`12 345,500 DT`, `1,250.00 Q`). */
const MONEY_BEFORE = /(?:\d{1,3}(?:[ ,.'’\u00a0\u202f]\d{3})+(?:[.,](?:\d{2,3}|-))?|\d+[.,](?:\d{2,3}|-))\s?$/;

/** Whether a mark found at `index` names a currency there: apart from other words, and beside a figure if it must be. */
function markStands(s: string, index: number, m: Mark): boolean {
  if (!standsApart(s, index, m.mark) && !standsAfterFigure(s, index, m)) return false;
  if (!m.figure) return true;
  const after = s.slice(index + m.mark.length, index + m.mark.length + 24);
  if (m.money) return MONEY_AFTER.test(after) || m.figure === 'beside' && MONEY_BEFORE.test(s.slice(Math.max(0, index - 24), index));
  if (FIGURE_AFTER.test(after)) return true;
  return m.figure === 'beside' && FIGURE_BEFORE.test(s.slice(Math.max(0, index - 3), index));
}

const CODE_SCAN = /[A-Z]{3}/g;
const SAFE_CODES = new Set(CODES);
const WORD_CODE_SET = new Set(WORD_CODES);

/** Whether a code found at `index` names a currency there: a word of its own, and (a code that is also a word) beside a figure or in brackets. */
function codeStands(s: string, index: number, code: string): boolean {
  if (/[A-Za-z]/.test(s[index - 1] ?? '') || /[A-Za-z]/.test(s[index + 3] ?? '')) return false;
  if (SAFE_CODES.has(code)) return true;
  if (!WORD_CODE_SET.has(code)) return false;
  return /^\s?\(?-?\d|^\)/.test(s.slice(index + 3, index + 8)) || /(?:\d[.,]?\s?|\()$/.test(s.slice(Math.max(0, index - 3), index));
}

/** Every code, mark and word in `s`, shared marks not yet resolved (their `group` says which they are). */
function scan(s: string): FoundMark[] {
  const out: FoundMark[] = [];
  const free = (index: number, end: number) => !out.some((o) => index < o.end && end > o.index);
  CODE_SCAN.lastIndex = 0;
  for (let m = CODE_SCAN.exec(s); m; m = CODE_SCAN.exec(s)) {
    if (codeStands(s, m.index, m[0])) out.push({ index: m.index, end: m.index + 3, code: codeOf(m[0]), text: m[0], kind: 'code' });
  }
  MARK_SCAN.lastIndex = 0;
  for (let m = MARK_SCAN.exec(s); m; m = MARK_SCAN.exec(s)) {
    const mark = MARK_BY_TEXT.get(markKey(m[0]))!;
    if (!markStands(s, m.index, mark) || !free(m.index, m.index + m[0].length)) continue;
    out.push({ index: m.index, end: m.index + m[0].length, code: mark.code ?? '', text: m[0], kind: 'mark', ...(mark.group ? { group: mark.group } : {}) });
  }
  for (const w of findCurrencyNames(s)) {
    if (!free(w.index, w.end)) continue;
    out.push({ index: w.index, end: w.end, code: w.code, text: w.text, kind: 'word', ...(w.strong ? { strong: true } : {}) });
  }
  const lower = s.toLowerCase();
  for (const w of GLOBAL_WORDS) {
    if (!w.key.some((k) => lower.includes(k))) continue;
    w.re.lastIndex = 0;
    for (let m = w.re.exec(s); m; m = w.re.exec(s)) {
      if (!standsApart(s, m.index, m[0]) || !free(m.index, m.index + m[0].length)) continue;
      out.push({ index: m.index, end: m.index + m[0].length, code: w.code, text: m[0], kind: 'word', ...(w.strong ? { strong: true } : {}) });
    }
  }
  return out.sort((a, b) => a.index - b.index);
}

/** Shared marks as the currency `ctx` says they are; one it cannot say (`kr` with no other evidence) names nothing. */
const resolve = (found: FoundMark[], ctx: MarkContext): FoundMark[] =>
  found.flatMap((m) => (!m.group ? [m] : ctx[m.group] ? [{ ...m, code: ctx[m.group]! }] : []));

/** Every code, mark and word in `s` that names a currency where it stands, in order. */
export function findMarks(s: string, ctx: MarkContext = DEFAULT_MARKS): FoundMark[] {
  return resolve(scan(s), ctx);
}

/**
 * The currency a span names by code, mark or word, or null. Codes win over marks (`$` in a CAD quote), a country's
 * mark over a shared one (`$86,400.00 M.N.`), marks over words.
 */
export function currencyIn(s: string, ctx: MarkContext = DEFAULT_MARKS): string | null {
  const marks = findMarks(s, ctx);
  return (marks.find((m) => m.kind === 'code') ?? marks.find((m) => m.kind === 'mark' && !m.group) ?? marks.find((m) => m.kind === 'mark')
    ?? marks.find((m) => m.kind === 'word'))?.code ?? null;
}

// ---- The document's evidence ---------------------------------------------------------------------------------------

/** Scandinavian languages by their own letters and words: which krone `kr` is. */
function kroneByLanguage(text: string): string | null {
  const t = text.toLowerCase();
  const count = (re: RegExp) => (t.match(re) ?? []).length;
  const sv = count(/[äö]/g) + 3 * count(/\b(?:moms|att betala|förfallodatum|summa|kronor|och|för|inkl\.? moms|org\.?\s?nr)\b/g);
  const no = 3 * count(/\b(?:mva|å betale|forfallsdato|beløp|kroner|ikke|og|for)\b/g) - count(/[äö]/g);
  const da = 3 * count(/\b(?:moms|at betale|forfaldsdato|beløb|i alt|kroner|ikke|og|cvr)\b/g) + 2 * count(/\bkr\.\s?\d|\d\s?kr\./g) - count(/[äö]/g);
  const best = Math.max(sv, no, da);
  if (best < 3) return null;
  const winners = [['SEK', sv], ['NOK', no], ['DKK', da]].filter(([, n]) => n === best);
  return winners.length === 1 ? (winners[0]![0] as string) : null;
}

/** Which of its currencies each shared mark stands for in a document, from the codes, marks and words found in it. */
function contextOf(text: string, found: FoundMark[]): MarkContext {
  const named = new Map<string, number>();
  // A code, a currency named with its country, or a mark naming its country (`NT$`, `MX$`, `M.N.`) says which dollar
  // (krone, ...) the bare mark is.
  for (const m of found) if (m.kind === 'code' || m.strong || m.kind === 'mark' && !m.group && DOLLAR_CODES.has(m.code)) named.set(m.code, (named.get(m.code) ?? 0) + 1);
  const pick = (group: MarkGroup): string | null => {
    let best: string | null = null, n = 0;
    for (const c of GROUP_CODES[group]) if ((named.get(c) ?? 0) > n) { best = c; n = named.get(c)!; }
    return best;
  };
  const usd = named.has('USD') || found.some((m) => m.text === 'US$');
  const krone = pick('krone') ?? (found.some((m) => m.group === 'krone') ? kroneByLanguage(text) : null);
  // `¥` is the yuan in a Chinese document (Han script without Japanese kana), else the yen.
  const chinese = found.some((m) => m.group === 'yen') && /\p{Script=Han}/u.test(text) && !/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text);
  return {
    dollar: usd ? 'USD' : pick('dollar') ?? 'USD',
    krone,
    yen: named.has('JPY') ? 'JPY' : named.has('CNY') || chinese ? 'CNY' : 'JPY',
    pound: named.has('GBP') ? 'GBP' : pick('pound') ?? 'GBP',
    rupee: named.has('INR') ? 'INR' : pick('rupee') ?? 'INR',
    rial: named.has('SAR') ? 'SAR' : pick('rial') ?? 'SAR',
  };
}

/** Which of its currencies each shared mark stands for in this document. */
export const markContext = (text: string): MarkContext => contextOf(text, scan(text));

/**
 * The document's currency: an explicit ISO code is the strongest evidence (a `Total (CAD)` beside `$` amounts), then
 * the most used mark (shared marks read by the document's evidence; `$` alone is USD), then a currency's name.
 */
function vote(marks: FoundMark[]): string | null {
  const votes = new Map<string, number>();
  const add = (iso: string, n: number) => votes.set(iso, (votes.get(iso) ?? 0) + n);
  for (const m of marks) {
    if (m.kind === 'code') add(m.code, 3);
    else if (m.kind === 'mark') add(m.code, m.text === '$' ? 1 : 2);
    else if (m.strong) add(m.code, 3);
  }
  if (votes.size === 0) for (const w of marks) add(w.code, 1);
  let best: string | null = null, bestN = 0;
  for (const [iso, n] of votes) if (n > bestN) { best = iso; bestN = n; }
  return best;
}

export const detectCurrency = (text: string, ctx: MarkContext = markContext(text)): string | null => vote(findMarks(text, ctx));

/** A document's marks read once: which currency each shared mark is, and the document's own currency. */
export function readCurrencies(text: string): { marks: MarkContext; currency: string | null } {
  const found = scan(text);
  const marks = contextOf(text, found);
  return { marks, currency: vote(resolve(found, marks)) };
}
