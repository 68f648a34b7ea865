// Dates of other calendars as Gregorian ones, found by asking ICU (Intl.DateTimeFormat with a `calendar`) rather than
// by written offsets: the Buddhist era's and the Republic of China's year offsets, Japan's eras, and the day-exact
// Persian and Hijri (Umm al-Qura) calendars.
import { lazily } from './locales.js';

export type Calendar = 'buddhist' | 'roc' | 'japanese' | 'persian' | 'islamic-umalqura' | 'islamic-civil';

const DAY = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(calendar: string, locale = 'en'): Intl.DateTimeFormat {
  const key = `${locale}|${calendar}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(`${locale}-u-ca-${calendar}-nu-latn`, { timeZone: 'UTC', era: 'short', year: 'numeric', month: 'numeric', day: 'numeric' });
    formatters.set(key, f);
  }
  return f;
}

interface CalendarDate { era: string; year: number; month: number; day: number }

/** A Gregorian instant as a date of `calendar`. */
function partsOf(calendar: string, time: number, locale = 'en'): CalendarDate {
  const parts = formatter(calendar, locale).formatToParts(new Date(time));
  const num = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? NaN);
  return { era: parts.find((p) => p.type === 'era')?.value ?? '', year: num('year'), month: num('month'), day: num('day') };
}

/** How many years a calendar's year numbers run ahead of the Gregorian ones (buddhist: 543, roc: -1911), from one probe. */
const offsets = new Map<string, number>();
export function yearOffset(calendar: 'buddhist' | 'roc'): number {
  let offset = offsets.get(calendar);
  if (offset === undefined) {
    offset = partsOf(calendar, Date.UTC(2000, 6, 1)).year - 2000;
    offsets.set(calendar, offset);
  }
  return offset;
}

/**
 * Japan's modern eras by every name ICU gives them (`令和`, `平成`, `Reiwa`, `R`), each with the Gregorian year before
 * its first (`令和` -> 2018: 令和8年 is 2026). Found by walking the years since Japan took the Gregorian calendar (1873).
 */
export const japaneseEras = lazily((): Map<string, number> => {
  const eras = new Map<string, number>();
  const names = ['ja', 'en'].flatMap((locale) => (['long', 'short', 'narrow'] as const).map((width) =>
    new Intl.DateTimeFormat(`${locale}-u-ca-japanese-nu-latn`, { timeZone: 'UTC', era: width, year: 'numeric' })));
  const now = new Date().getUTCFullYear() + 1;
  for (let y = 1873; y <= now; y++) {
    // An era may begin mid-year: look at the year's first and last days.
    for (const time of [Date.UTC(y, 0, 1), Date.UTC(y, 11, 31)]) {
      for (const f of names) {
        const parts = f.formatToParts(new Date(time));
        const era = parts.find((p) => p.type === 'era')?.value;
        const year = Number(parts.find((p) => p.type === 'year')?.value);
        if (era && Number.isFinite(year) && !eras.has(era)) eras.set(era, y - year);
      }
    }
  }
  return eras;
});

/** The Republic of China's era names (`民國`, `民国`, `Minguo`) -> the Gregorian year before its first (1911). */
export const rocEras = lazily((): Map<string, number> => {
  const eras = new Map<string, number>();
  const offset = -yearOffset('roc');
  for (const locale of ['zh-TW', 'zh-CN', 'en']) {
    for (const width of ['long', 'short', 'narrow'] as const) {
      const parts = new Intl.DateTimeFormat(`${locale}-u-ca-roc-nu-latn`, { timeZone: 'UTC', era: width, year: 'numeric' }).formatToParts(new Date(Date.UTC(2026, 6, 1)));
      const era = parts.find((p) => p.type === 'era')?.value;
      if (era) eras.set(era, offset);
    }
  }
  return eras;
});

const pad = (n: number) => String(n).padStart(2, '0');
const isoOf = (time: number) => { const d = new Date(time); return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`; };

/**
 * The Gregorian date (`YYYY-MM-DD`) of a date written in `calendar` (year, month 1-12, day), or null when the calendar
 * has no such day. For the lunar and solar Hijri calendars the day is found by search: a first guess from the
 * calendar's mean year (measured by two probes), then steps by the difference ICU reports, then day by day.
 */
export function toGregorian(calendar: Calendar, year: number, month: number, day: number): string | null {
  if (calendar === 'buddhist' || calendar === 'roc') {
    const y = year - yearOffset(calendar);
    const time = Date.UTC(y, month - 1, day);
    const d = new Date(time);
    return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? isoOf(time) : null;
  }
  const a = partsOf(calendar, Date.UTC(2000, 0, 1)), b = partsOf(calendar, Date.UTC(2040, 0, 1));
  const yearDays = (Date.UTC(2040, 0, 1) - Date.UTC(2000, 0, 1)) / DAY / (b.year - a.year + (b.month - a.month) / 12);
  const monthDays = yearDays / 12;
  const distance = (p: CalendarDate) => (year - p.year) * yearDays + (month - p.month) * monthDays + (day - p.day);
  let time = Date.UTC(2000, 0, 1) + Math.round(distance(a)) * DAY;
  for (let i = 0; i < 8; i++) {
    const step = Math.round(distance(partsOf(calendar, time)));
    if (step === 0) break;
    time += step * DAY;
  }
  for (let i = -3; i <= 3; i++) {
    const p = partsOf(calendar, time + i * DAY);
    if (p.year === year && p.month === month && p.day === day) return isoOf(time + i * DAY);
  }
  return null;
}
