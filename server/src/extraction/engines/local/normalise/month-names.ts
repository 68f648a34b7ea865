// The names of the months in the languages the engine reads, from ICU (locale/calendar-names.ts): every locale's long
// and short names, in a date and alone. A name that is also an everyday word somewhere (`mar` is the sea in Spanish,
// `out` October's abbreviation in Portuguese, `maja` a first name) counts as a month only with a year beside it.
import { calendarNames } from '../locale/calendar-names.js';
import { lazily } from '../locale/locales.js';

/** A name folded for lookup: accents and case gone, Turkish dotless i and Greek final sigma as their plain letters. */
const folded = new Map<string, string>();
export const foldName = (s: string): string => {
  let f = folded.get(s);
  if (f === undefined) {
    f = s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ı/g, 'i').replace(/ς/g, 'σ').replace(/ł/g, 'l');
    if (folded.size > 5_000) folded.clear();
    folded.set(s, f);
  }
  return f;
};

/**
 * Spellings documents use that ICU does not give: German written without its umlaut or as its common abbreviation
 * (`Maerz`, `Mrz`), Austria's `Feber`, and Egypt's `يونية` / `يولية`.
 */
const VARIANTS: Record<string, number> = { feber: 2, maerz: 3, mrz: 3, 'يونية': 6, 'يولية': 7 };
/** Full month names that are everyday words too (Turkish `ocak` a stove, `ekim` sowing; `maj`, `mei`, `mac`, `maja`). */
const EVERYDAY = ['mar', 'mac', 'maj', 'maja', 'mei', 'mart', 'ekim', 'luty', 'ocak', 'ogos'];
/**
 * Languages whose writers sometimes put the month before the day though ICU's dates do not (`Mai 14`, `marzo 14`);
 * those ICU writes month first (`March 14`, `március 14.`, `Marso 14`) are added to them.
 */
const ALSO_MONTH_FIRST = ['de', 'fr', 'es', 'it'];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const alternation = (names: Iterable<string>) => [...new Set(names)].sort((a, b) => b.length - a.length).map(escape).join('|');

export interface MonthNames {
  /** Every name (as written, and folded) with its month number. */
  numbers: Map<string, number>;
  /** Names (folded) read as a month only when a year is written with them: abbreviations outside English, and everyday words. */
  yearNeeded: Set<string>;
  /** Every month name, longest first, as an alternation. */
  source: string;
  /** Names that come before the day, in the languages that write so (a short list: tried at every word of a document). */
  firstSource: string;
  /** Names of the months in languages other than English: a document that uses one writes its dates day first. */
  foreignSource: string;
  /** Words between a day and its month (`de`), letters joined before a month's name (`ב`), words before a month's number (`tháng`). */
  dayMonthWords: string;
  dayMonthPrefixes: string;
  monthNumberWords: string;
}

export const monthNames = lazily((): MonthNames => {
  const { months, abbreviations, monthsByLanguage, monthFirstLanguages, dayMonthWords, dayMonthPrefixes, monthNumberWords } = calendarNames();
  const numbers = new Map<string, number>();
  for (const [name, month] of [...months, ...Object.entries(VARIANTS)]) { numbers.set(name, month); numbers.set(foldName(name), month); }
  const english = new Set([...monthsByLanguage.get('en') ?? []].map(foldName));
  const yearNeeded = new Set([...[...abbreviations, ...Object.keys(VARIANTS).filter((v) => v.length <= 3)].map(foldName).filter((n) => !english.has(n)), ...EVERYDAY]);
  const first = new Set([...ALSO_MONTH_FIRST, ...monthFirstLanguages].flatMap((l) => [...monthsByLanguage.get(l) ?? []]).map(foldName));
  const keys = [...numbers.keys()];
  return {
    numbers,
    yearNeeded,
    source: alternation(keys),
    firstSource: alternation(keys.filter((n) => first.has(foldName(n)) || /^(?:maerz|mrz)$/.test(n))),
    foreignSource: alternation(keys.filter((n) => !english.has(foldName(n)) && n.length >= 4 && !yearNeeded.has(foldName(n)))),
    dayMonthWords: alternation(dayMonthWords),
    dayMonthPrefixes: alternation(dayMonthPrefixes),
    monthNumberWords: alternation(monthNumberWords),
  };
});

/** The month a written name stands for. */
export const monthOf = (name: string): number | undefined => monthNames().numbers.get(name.toLowerCase()) ?? monthNames().numbers.get(foldName(name));
/** Whether a name is read as a month only beside a year. */
export const needsYear = (name: string): boolean => monthNames().yearNeeded.has(foldName(name));
