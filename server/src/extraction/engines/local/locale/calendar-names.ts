// Month and weekday names of every locale the engine reads, from ICU (Gregorian calendar): the long and short names, in
// the form they take inside a date (`14 marca`, `14 Μαρτίου`: genitive in Slavic languages and Greek), standing
// alone (`marzec`) and beside a year (`Μάρτιος 2026`). Names holding a figure (`3月`, `tháng 3`) are left to the patterns that read numbered months.
import { LOCALES, languageOf, lazily } from './locales.js';

export interface CalendarNames {
  /** Every month name (lower case, without a final full stop) -> its number, 1-12. */
  months: Map<string, number>;
  /** Names that only ever stand as abbreviations (`janv`, `márc`): never a month's full name in any locale. */
  abbreviations: Set<string>;
  /** Month names by language (`pl` -> its names), for the patterns that depend on a language's habits. */
  monthsByLanguage: Map<string, Set<string>>;
  /** A language's short names that are not also its long ones (`en`: `jan`, `jun`, `sept`, not `may`). */
  shortByLanguage: Map<string, Set<string>>;
  /** Every weekday name (lower case) -> its ISO number, Monday 1 to Sunday 7. */
  weekdays: Map<string, number>;
  /** Languages that write the month before the day (`March 14`, `március 14.`, `Marso 14`). */
  monthFirstLanguages: Set<string>;
  /** Words a date puts between its day and month (`14 de marzo`), and letters joined to the month's name (`14 במרץ`). */
  dayMonthWords: Set<string>;
  dayMonthPrefixes: Set<string>;
  /** Words that name a month by its number (`tháng 3`, `thg 3`). */
  monthNumberWords: Set<string>;
}

const clean = (s: string) => s.toLowerCase().replace(/\.$/, '').replace(/[\u200e\u200f]/g, '').trim();
const usable = (s: string) => s !== '' && !/\d/.test(s);

const MONTH_DATES = Array.from({ length: 12 }, (_, m) => new Date(Date.UTC(2026, m, 14)));
/** 2026-03-16 is a Monday. */
const WEEK_DATES = Array.from({ length: 7 }, (_, d) => new Date(Date.UTC(2026, 2, 16 + d)));

export const calendarNames = lazily((): CalendarNames => {
  const months = new Map<string, number>();
  const long = new Set<string>(), short = new Set<string>();
  const monthsByLanguage = new Map<string, Set<string>>();
  const longByLanguage = new Map<string, Set<string>>(), shortByLanguage = new Map<string, Set<string>>();
  const weekdays = new Map<string, number>();
  const monthFirstLanguages = new Set<string>(), dayMonthWords = new Set<string>(), dayMonthPrefixes = new Set<string>(), monthNumberWords = new Set<string>();
  for (const locale of LOCALES) {
    const language = languageOf(locale);
    const own = monthsByLanguage.get(language) ?? new Set<string>();
    monthsByLanguage.set(language, own);
    const ownLong = longByLanguage.get(language) ?? longByLanguage.set(language, new Set()).get(language)!;
    const ownShort = shortByLanguage.get(language) ?? shortByLanguage.set(language, new Set()).get(language)!;
    for (const width of ['long', 'short'] as const) {
      // In a date (`14 marca`, `14 Μαρτίου`), alone (`marzec`), and with its year (`Μάρτιος 2026`: Greek's nominative).
      for (const context of [{ day: 'numeric' }, {}, { year: 'numeric' }] as const) {
        const format = new Intl.DateTimeFormat(locale, { calendar: 'gregory', timeZone: 'UTC', month: width, ...context });
        MONTH_DATES.forEach((date, m) => {
          const parts = format.formatToParts(date);
          const name = clean(parts.find((p) => p.type === 'month')?.value ?? '');
          if ('day' in context) readOrder(parts, language);
          const numbered = /^(\p{L}+)\s*\d+$/u.exec(name);
          if (numbered) monthNumberWords.add(numbered[1]!);
          if (!usable(name)) return;
          if (!months.has(name)) months.set(name, m + 1);
          own.add(name);
          (width === 'long' ? long : short).add(name);
          (width === 'long' ? ownLong : ownShort).add(name);
        });
      }
      const weekday = new Intl.DateTimeFormat(locale, { weekday: width, timeZone: 'UTC' });
      WEEK_DATES.forEach((date, d) => {
        const name = clean(weekday.format(date));
        if (usable(name) && !weekdays.has(name)) weekdays.set(name, d + 1);
      });
    }
  }
  /** What stands between a date's day and its month, and which comes first. */
  function readOrder(parts: Intl.DateTimeFormatPart[], language: string) {
    const d = parts.findIndex((p) => p.type === 'day'), m = parts.findIndex((p) => p.type === 'month');
    if (d < 0 || m < 0 || /\d/.test(parts[m]!.value)) return;
    if (m < d) monthFirstLanguages.add(language);
    const between = parts.slice(Math.min(d, m) + 1, Math.max(d, m)).map((p) => p.value).join('').toLowerCase();
    const attached = /(\p{L}+)$/u.exec(between);
    if (attached && m > d) dayMonthPrefixes.add(attached[1]!);
    for (const word of between.match(/\p{L}+(?=\s)/gu) ?? []) dayMonthWords.add(word);
  }
  const abbreviations = new Set([...short].filter((n) => !long.has(n)));
  for (const [language, names] of shortByLanguage) for (const n of longByLanguage.get(language)!) names.delete(n);
  return { months, abbreviations, monthsByLanguage, shortByLanguage, weekdays, monthFirstLanguages, dayMonthWords, dayMonthPrefixes, monthNumberWords };
});

export interface OtherCalendarMonth { calendar: 'islamic-umalqura' | 'persian'; month: number }

/**
 * The month names of the Hijri (Umm al-Qura) and Persian calendars, as ICU writes them in Arabic, Persian and English
 * (`رمضان`, `Ramadan`, `اسفند`, `Esfand`): a date written with one is read through calendars.ts.
 */
export const otherCalendarMonths = lazily((): Map<string, OtherCalendarMonth> => {
  const out = new Map<string, OtherCalendarMonth>();
  for (const [calendar, locales] of [['islamic-umalqura', ['ar', 'en']], ['persian', ['fa', 'en']]] as const) {
    for (const locale of locales) {
      const named = new Intl.DateTimeFormat(`${locale}-u-ca-${calendar}-nu-latn`, { timeZone: 'UTC', day: 'numeric', month: 'long' });
      const numbered = new Intl.DateTimeFormat(`en-u-ca-${calendar}-nu-latn`, { timeZone: 'UTC', month: 'numeric' });
      // A year of days, two weeks apart, meets every month.
      for (let d = 0; d < 380; d += 14) {
        const date = new Date(Date.UTC(2026, 0, 1 + d));
        const name = clean(named.formatToParts(date).find((p) => p.type === 'month')?.value ?? '');
        const month = Number(numbered.formatToParts(date).find((p) => p.type === 'month')?.value);
        if (usable(name) && month >= 1 && month <= 12 && !out.has(name)) out.set(name, { calendar, month });
      }
    }
  }
  return out;
});
