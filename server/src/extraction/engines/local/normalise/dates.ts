// Calendar dates as YYYY-MM-DD from the ways documents write them, in the languages and calendars the engine reads:
// month names in some twenty languages (month-names.ts), `2026年3月14日`, `2026년 3월 14일`, Japan's and Taiwan's eras,
// Thailand's Buddhist era, `14.III.2026`, `ngày 14 tháng 3 năm 2026`, `2026. március 14.`, ISO week dates, in any
// script's digits.
import { foldDigits } from './digits.js';
import { otherCalendarMonths } from '../locale/calendar-names.js';
import { japaneseEras, rocEras, toGregorian, yearOffset } from '../locale/calendars.js';
import { lazily } from '../locale/locales.js';
import { monthNames, monthOf, needsYear } from './month-names.js';

export interface DateOptions {
  /**
   * Read an ambiguous `03/04/2026` as day-first (true) or month-first (false), from the document's own evidence;
   * undefined when it has none, and then such a date is not read at all (a wrong date is worse than none).
   */
  dayFirst?: boolean | undefined;
  /** The year for dates written without one (the document's own date), or undefined to refuse them. */
  year?: number | null;
  /** Years are counted in the Buddhist era (a Thai document: 2569 is 2026). */
  buddhist?: boolean;
}

export interface FoundDate {
  iso: string;
  index: number;
  end: number;
  /** True when the written form carried no year and one was borrowed. */
  yearless: boolean;
}

/** A month's number from its written name (any language the engine reads). */
const month = (name: string) => monthOf(name)!;
/** A name that is also an everyday word (`mar`, `out`, `maja`) is a month only beside a year. */
const yearNeeded = (name: string, year: unknown) => (year === null || year === undefined || Number.isNaN(year)) && needsYear(name);

/** Ordinal day words: `first` .. `thirty-first`. */
const ORDINALS: Record<string, number> = {};
const UNITS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth'];
const TEENS = ['tenth', 'eleventh', 'twelfth', 'thirteenth', 'fourteenth', 'fifteenth', 'sixteenth', 'seventeenth', 'eighteenth', 'nineteenth'];
UNITS.forEach((w, i) => { ORDINALS[w] = i + 1; ORDINALS[`twenty-${w}`] = 21 + i; ORDINALS[`twenty ${w}`] = 21 + i; ORDINALS[`twenty${w}`] = 21 + i; });
TEENS.forEach((w, i) => { ORDINALS[w] = 10 + i; });
ORDINALS.twentieth = 20; ORDINALS.thirtieth = 30; ORDINALS['thirty-first'] = 31; ORDINALS['thirty first'] = 31;
const ORDINAL_RE = Object.keys(ORDINALS).sort((a, b) => b.length - a.length).join('|');
const ordinal = (w: string) => ORDINALS[w.toLowerCase().replace(/\s+/g, ' ')]!;

const pad = (n: number) => String(n).padStart(2, '0');

function iso(y: number, m: number, d: number, o: DateOptions = {}): string | null {
  // The Buddhist era runs ahead of the Gregorian years (ICU's offset, 543): a Thai document's 2569 is 2026.
  if (o.buddhist && y >= 2400 && y <= 2800) y -= yearOffset('buddhist');
  if (m < 1 || m > 12 || d < 1 || y < 1900 || y > 2200) return null;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d > days ? null : `${y}-${pad(m)}-${pad(d)}`;
}

const fullYear = (y: string) => (y.length === 2 ? 2000 + Number(y) : Number(y));

/** An ISO week date (`2026-W11-6`): the day of that week, Monday being 1. */
function weekDate(year: number, week: number, day: number): [number, number, number] | null {
  if (week < 1 || week > 53 || day < 1 || day > 7) return null;
  // Week 1 holds the year's first Thursday; its Monday is the Monday on or before 4 January.
  const jan4 = new Date(Date.UTC(year, 0, 4));
  const monday = new Date(jan4.getTime() - ((jan4.getUTCDay() + 6) % 7) * 86_400_000);
  const d = new Date(monday.getTime() + ((week - 1) * 7 + day - 1) * 86_400_000);
  return d.getUTCFullYear() === year || week < 53 ? [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()] : null;
}

/**
 * Japan's and Taiwan's eras written in Han characters (from ICU, locale/calendars.ts), each with the Gregorian year
 * before its first: `令和8年` is 2026, `民國115年` 2026; `元年` is an era's first year.
 */
const eras = lazily(() => new Map([...japaneseEras(), ...rocEras()].filter(([name]) => /^\p{Script=Han}+$/u.test(name))));
const eraYear = (era: string, y: string) => eras().get(era)! + (y === '元' ? 1 : Number(y));

const ROMAN: Record<string, number> = { I: 1, II: 2, III: 3, IV: 4, V: 5, VI: 6, VII: 7, VIII: 8, IX: 9, X: 10, XI: 11, XII: 12 };

type Parts = [number | null, number, number];
const yearOrNull = (y: string | undefined): number | null => (y ? Number(y) : null);

/** A date written with a month's name: null when the name is an everyday word and no year stands beside it. */
const named = (y: number | null, name: string, d: number): Parts | null => (yearNeeded(name, y) ? null : [y, month(name), d]);

interface DatePattern { re: RegExp; read: (m: RegExpExecArray, o: DateOptions) => Parts | null; needs?: RegExp }

// Order matters: the most explicit forms first, so `2026-03-01` is never read as a numeric d-m-y. Built on first use,
// from the month names and eras ICU gives.
/** Each way of writing a date; `needs`, when given, is a cheap test a text must pass for the pattern to be tried at all. */
const patterns = lazily((): DatePattern[] => {
  const { source: MONTH_RE, firstSource: MONTH_FIRST_SOURCE, dayMonthWords: JOIN, dayMonthPrefixes: PREFIX, monthNumberWords: NUMBERED } = monthNames();
  const ERA_RE = [...eras().keys()].sort((a, b) => b.length - a.length).join('|');
  const OTHER_MONTHS = otherCalendarMonths();
  const OTHER_RE = [...OTHER_MONTHS.keys()].sort((a, b) => b.length - a.length).map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  /** A Hijri or Persian date as its Gregorian parts, or null when that calendar has no such day. */
  const otherCalendar = (name: string, y: string, d: string): Parts | null => {
    const { calendar, month } = OTHER_MONTHS.get(name.toLowerCase())!;
    const gregorian = toGregorian(calendar, Number(y), month, Number(d));
    return gregorian ? (gregorian.split('-').map(Number) as Parts) : null;
  };
  return [
  // `2026-W11-6`, `2026W116`.
  { re: /\b(\d{4})-?W(\d{2})-?([1-7])\b/gu, read: (m) => weekDate(Number(m[1]), Number(m[2]), Number(m[3])), needs: /\dW\d|-W\d/ },
  {
    // `2026年3月14日`, `2026년 3월 14일`, `令和8年3月14日`, `民國115年3月14日`, and without the year `3月14日`.
    re: new RegExp(String.raw`(?:(${ERA_RE})\s*(\d{1,3}|元)|(?<![\d])(\d{4}))\s*[年년]\s*(\d{1,2})\s*[月월]\s*(\d{1,2})\s*[日号號일]|(?<![\d年년]\s*)(\d{1,2})\s*([月월])\s*(\d{1,2})\s*[日号號일]`, 'gu'),
    read: (m) => (m[6] ? [null, Number(m[6]), Number(m[8])] : [m[1] ? eraYear(m[1], m[2]!) : Number(m[3]), Number(m[4]), Number(m[5])]),
    needs: /[月월]/,
  },
  // `2026-03-14`, `2026/3/14`, `2026.03.14.`, Hungary's and Korea's `2026. 03. 14.`
  { re: /\b(\d{4})(?:[-/.]|\.\s)(\d{1,2})(?:[-/.]|\.\s)(\d{1,2})\b/gu, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  {
    // `1-8-19 Ginza, Chuo-ku` is a street address (block numbers), not 1 August 2019.
    // `14. 3. 2026`: Czech and Slovak space their dotted dates.
    re: /\b(\d{1,2})([./-]|\.\s)(\d{1,2})\2(\d{4}|\d{2}(?!\s+\p{Lu}\p{L}+,))\b(?![.:/-]\d)/giu,
    read: (m, o) => {
      const a = Number(m[1]), b = Number(m[3]);
      // A dotted date is European; otherwise a part above 12 decides, then the document's habit.
      const dayFirst = a > 12 ? true : b > 12 ? false : m[2]!.startsWith('.') ? true : a === b ? true : o.dayFirst;
      if (dayFirst === undefined) return null;
      return dayFirst ? [fullYear(m[4]!), b, a] : [fullYear(m[4]!), a, b];
    },
  },
  // `14.III.2026`, `14 III 2026`: the month in Roman numerals (Poland, Czechia, Hungary, Italy).
  { re: /\b(\d{1,2})(\.\s?|\s|\/)(XII|XI|X|IX|VIII|VII|VI|V|IV|III|II|I)(?:\.\s?|\s|\/)(\d{4})\b/gu, read: (m) => [Number(m[4]), ROMAN[m[3]!]!, Number(m[1])], needs: /\d[.\s/]\s?[IVX]/ },
  // `2026. március 14.`: Hungary writes the year first.
  { re: new RegExp(`\\b(\\d{4})\\.?\\s+(${MONTH_RE})(?![\\p{L}])\\.?\\s+(\\d{1,2})\\b\\.?`, 'giu'), read: (m) => named(Number(m[1]), m[2]!, Number(m[3])) },
  // `ngày 14 tháng 3 năm 2026`, `14 tháng 3, 2026`: Vietnamese names the month by its number.
  {
    re: new RegExp(String.raw`\b(\d{1,2})\s+(?:${NUMBERED})\s+(\d{1,2})\b(?:\s+năm\s+(\d{4})|,\s*(\d{4}))?`, 'giu'),
    read: (m) => [yearOrNull(m[3] ?? m[4]), Number(m[2]), Number(m[1])],
    needs: new RegExp(NUMBERED, 'i'),
  },
  {
    // `the third of March 2026`, `first day of June, 2026`
    re: new RegExp(`\\b(${ORDINAL_RE})\\s+(?:day\\s+)?of\\s+(${MONTH_RE})(?![\\p{L}])\\.?(?:,?\\s+(\\d{4})\\b)?`, 'giu'),
    read: (m) => named(yearOrNull(m[3]), m[2]!, ordinal(m[1]!)),
  },
  {
    // `March the third, 2026`
    re: new RegExp(`\\b(${MONTH_FIRST_SOURCE})\\.?\\s+(?:the\\s+)?(${ORDINAL_RE})\\b(?:,?\\s+(\\d{4})\\b)?`, 'giu'),
    read: (m) => named(yearOrNull(m[3]), m[1]!, ordinal(m[2]!)),
  },
  {
    // `March 14, 2026`, `Mar. 14th 2026`, `március 14.`
    re: new RegExp(`\\b(${MONTH_FIRST_SOURCE})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\b(?:,?\\s*(\\d{4})\\b)?`, 'giu'),
    read: (m) => named(yearOrNull(m[3]), m[1]!, Number(m[2])),
  },
  {
    // `14MAR26`, `02FEB2026`: airline and banking dates, day, month and year run together in capitals.
    re: /\b(\d{2})(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(\d{2}|\d{4})\b/gu,
    read: (m) => [fullYear(m[3]!), month(m[2]!), Number(m[1])],
  },
  {
    // `25 رمضان 1447 هـ`, `23 اسفند 1404`, `Ramadan 25, 1447 AH`: Hijri and Persian dates, read as the Gregorian day they are.
    re: new RegExp(`(?<![\\p{L}\\d])(\\d{1,2})\\s+(${OTHER_RE})(?![\\p{L}])[\\s,]+(1[34]\\d\\d)(?!\\d)|(?<![\\p{L}])(${OTHER_RE})\\s+(\\d{1,2}),?\\s+(1[34]\\d\\d)(?!\\d)`, 'giu'),
    read: (m) => (m[2] ? otherCalendar(m[2], m[3]!, m[1]!) : otherCalendar(m[4]!, m[6]!, m[5]!)),
    needs: /1[34]\d\d/,
  },
  {
    // `14 March 2026`, `14. März`, `1er mars 2026`, `14 de marzo de 2026`, `14 marca 2026 r.`, `14 Μαρτίου 2026`, `14 มีนาคม 2569`.
    re: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th|er|º|ª|°)?\\.?(?:\\s+(?:of|${JOIN}|del|di))?[\\s-]+(?:${PREFIX})?(${MONTH_RE})(?![\\p{L}])\\.?(?:(?:[\\s,-]+|\\s+(?:de|del|di)\\s+)(\\d{4})\\b)?`, 'giu'),
    read: (m) => named(yearOrNull(m[3]), m[2]!, Number(m[1])),
  },
  ];
});

/** Every written date holds a figure or an ordinal word: text with neither is skipped without running the patterns. */
const MAY_HOLD_DATE = /\d|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|teenth|tieth/i;

/** Every date written in `text`, in order of position; overlapping readings keep the earliest, most explicit one. */
export function findDates(text: string, o: DateOptions = {}): FoundDate[] {
  const found: FoundDate[] = [];
  // Other scripts' digits read as ASCII, at the same offsets (`١٤ مارس ٢٠٢٦`, `２０２６年３月１４日`).
  const s = foldDigits(text);
  if (!MAY_HOLD_DATE.test(s)) return found;
  for (const { re, read, needs } of patterns()) {
    if (needs && !needs.test(s)) continue;
    re.lastIndex = 0;
    for (let m = re.exec(s); m; m = re.exec(s)) {
      const start = m.index, end = m.index + m[0].length;
      if (found.some((f) => start < f.end && end > f.index)) continue;
      const parts = read(m, o);
      if (!parts) continue;
      let [y, mo, d] = parts as [number | null, number, number];
      // `1200 Harbor` style numbers are not days; a year-less date needs the document's year.
      const yearless = y === null;
      if (yearless) {
        if (!o.year) continue;
        y = o.year;
      }
      const out = iso(y as number, mo, d, yearless ? {} : o);
      if (out) found.push({ iso: out, index: start, end, yearless });
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** The first date written in `s`, or null. */
export function parseDate(s: string, o: DateOptions = {}): string | null {
  return findDates(s, o)[0]?.iso ?? null;
}

/**
 * The date a phrase introduces (`effective as of 1 April 2026`, `no later than the fourth of June 2026`): only the
 * phrase's own object counts, so `begins on the Effective Date and ends on 31 March` names no date.
 */
export function dateAfterPhrase(text: string, phrase: RegExp, o: DateOptions = {}): string | null {
  return dateAfterPhraseAt(text, phrase, o)?.iso ?? null;
}

/** `dateAfterPhrase`, with where the date stands in `text`. */
export function dateAfterPhraseAt(text: string, phrase: RegExp, o: DateOptions = {}): FoundDate | null {
  const m = phrase.exec(text);
  if (!m) return null;
  const from = m.index + m[0].length;
  const object = text.slice(from, from + 40).split(/\s(?:and|or|but|until|through|to|ends?|expires?)\s|[;(]/)[0]!;
  const d = findDates(object, o)[0];
  return d ? { ...d, index: from + d.index, end: from + d.end } : null;
}

/**
 * Whether a document writes ambiguous numeric dates day-first: its own unambiguous dates, a dd/mm hint, or its
 * currency (the dollar months first, others days first); undefined when nothing says.
 */
export function detectDayFirst(text: string, currency: string | null): boolean | undefined {
  // `dd/mm/yyyy`, and its French, German, Italian and Dutch spellings (`jj/mm/aaaa`, `TT.MM.JJJJ`, `gg/mm/aaaa`).
  if (/\b(?:dd|jj|tt|gg)[/.-]mm\b/i.test(text)) return true;
  if (/\bmm[/.-]dd\b/i.test(text)) return false;
  const re = /\b(\d{1,2})[/-](\d{1,2})[/-](\d{2,4})\b/g;
  let votes = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (Number(m[1]) > 12) votes++;
    else if (Number(m[2]) > 12) votes--;
  }
  if (votes !== 0) return votes > 0;
  // A month named in another language than English: every such language writes the day first.
  if (foreignMonth().test(text)) return true;
  return currency === null ? undefined : currency !== 'USD';
}

const foreignMonth = lazily(() => new RegExp(`\\d\\.?\\s+(?:de\\s+)?(?:${monthNames().foreignSource})(?![\\p{L}])`, 'iu'));

/** Whether a document counts years in the Buddhist era: written in Thai, or saying `พ.ศ.` or `B.E.` before a year. */
export function detectBuddhistEra(text: string): boolean {
  return /\p{Script=Thai}/u.test(text) || /(?:พ\.ศ\.|\bB\.\s?E\.)\s*25\d\d\b/u.test(foldDigits(text));
}

/** Adds whole days to an ISO date. */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
