// Locale knowledge read from ICU (server/src/extraction/engines/local/locale/), locale by locale: a date written as the
// locale writes it (its month name in the form a date takes, its own digits) reads as its ISO date; an amount written
// with the locale's separators, digits and currency mark reads as its value and code; the currency's name in the
// locale's words names its code. Other calendars read back to Gregorian dates.
import { LOCALES, LOCALE_CURRENCIES } from '../../src/extraction/engines/local/locale/locales.js';
import { currencyNames } from '../../src/extraction/engines/local/locale/currencies.js';
import { japaneseEras, rocEras, toGregorian, yearOffset } from '../../src/extraction/engines/local/locale/calendars.js';
import { digitsOf, separatorsOf } from '../../src/extraction/engines/local/locale/numbering.js';
import { calendarNames } from '../../src/extraction/engines/local/locale/calendar-names.js';
import { detectBuddhistEra, parseDate } from '../../src/extraction/engines/local/normalise/dates.js';
import { foldDigits } from '../../src/extraction/engines/local/normalise/digits.js';
import { currencyIn, markContext } from '../../src/extraction/engines/local/normalise/currency.js';
import { detectNumberStyle, findAmounts } from '../../src/extraction/engines/local/normalise/money.js';

const DATES = [new Date(Date.UTC(2026, 2, 14)), new Date(Date.UTC(2026, 8, 3)), new Date(Date.UTC(2027, 11, 28))];
const isoOf = (d: Date) => d.toISOString().slice(0, 10);

describe.each(LOCALES.map((l) => [l]))('%s', (locale) => {
  it('reads a date written with the month by name, in the locale\'s own calendar era and digits', () => {
    for (const date of DATES) {
      // The locale's default calendar when it is Gregorian or Buddhist (Thailand), else the Gregorian one (Saudi Arabia's
      // Hijri dates are read by calendars.ts, below).
      const calendar = new Intl.DateTimeFormat(locale).resolvedOptions().calendar === 'buddhist' ? 'buddhist' : 'gregory';
      const written = new Intl.DateTimeFormat(locale, { calendar, timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(date);
      expect([written, parseDate(written, { buddhist: detectBuddhistEra(written) })]).toEqual([written, isoOf(date)]);
    }
  });

  it('reads a date written with the month\'s short name', () => {
    const date = DATES[0]!;
    const written = new Intl.DateTimeFormat(locale, { calendar: 'gregory', timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(date);
    expect([written, parseDate(written)]).toEqual([written, isoOf(date)]);
  });

  it('reads an amount in the locale\'s own currency, separators and digits', () => {
    const code = LOCALE_CURRENCIES[locale];
    // Without the invisible direction marks ICU puts around Hebrew and Arabic figures (text read from a document has none).
    const written = new Intl.NumberFormat(locale, { style: 'currency', currency: code }).format(12345.5).replace(/[\u200e\u200f\u061c]/g, '');
    const { decimal } = separatorsOf(locale);
    const value = Number(new Intl.NumberFormat('en', { maximumFractionDigits: 2, useGrouping: false }).format(12345.5));
    const whole = new Intl.NumberFormat(locale, { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits === 0;
    // A mark several currencies share (`$`, `kr`, `¥`) is read by the document's other evidence: here its code, written once.
    const marks = markContext(`${written}\nCurrency: ${code}`);
    const found = findAmounts(written, { style: foldDigits(decimal) === ',' ? 'eu' : detectNumberStyle(written), marks })[0];
    expect([written, found?.value, found?.currency]).toEqual([written, whole ? Math.round(value) : value, code]);
  });

  it('maps the currency\'s name in the locale\'s words to its code', () => {
    const code = LOCALE_CURRENCIES[locale];
    const name = new Intl.DisplayNames(locale, { type: 'currency' }).of(code)!;
    expect([name, currencyNames().names.get(name.toLowerCase())]).toEqual([name, code]);
    expect([name, currencyIn(`Total: 100 ${name}`)]).toEqual([name, code]);
  });
});

describe('numbering systems', () => {
  it.each(['arab', 'arabext', 'deva', 'beng', 'thai', 'laoo', 'mymr', 'fullwide'])('folds %s digits to ASCII, offsets kept', (system) => {
    const digits = digitsOf(system).join('');
    expect(foldDigits(digits)).toBe('0123456789');
    expect(foldDigits(`a${digits}b`).length).toBe(12);
  });

  it('reads Arabic-Indic separators as the figure\'s', () => {
    expect(separatorsOf('ar-EG')).toEqual({ decimal: '٫', group: '٬' });
    expect(findAmounts('١٢٬٣٤٥٫٥٠ ج.م', 'us')[0]).toMatchObject({ value: 12345.5, currency: 'EGP' });
  });
});

describe('calendars', () => {
  it('knows the Buddhist era and the Republic of China\'s year offsets', () => {
    expect(yearOffset('buddhist')).toBe(543);
    expect(yearOffset('roc')).toBe(-1911);
    expect(rocEras().get('民國')).toBe(1911);
  });

  it('knows Japan\'s modern eras by name', () => {
    expect(japaneseEras().get('令和')).toBe(2018);
    expect(japaneseEras().get('平成')).toBe(1988);
    expect(japaneseEras().get('Reiwa')).toBe(2018);
    expect(parseDate('令和8年3月14日')).toBe('2026-03-14');
    expect(parseDate('平成31年4月30日')).toBe('2019-04-30');
    expect(parseDate('令和元年5月1日')).toBe('2019-05-01');
    expect(parseDate('民國115年3月14日')).toBe('2026-03-14');
  });

  it.each([
    ['buddhist', 2569, 3, 14, '2026-03-14'], ['roc', 115, 3, 14, '2026-03-14'], ['persian', 1404, 12, 23, '2026-03-14'],
    ['persian', 1405, 1, 1, '2026-03-21'], ['islamic-umalqura', 1447, 9, 25, '2026-03-14'], ['islamic-umalqura', 1447, 1, 1, '2025-06-26'],
  ] as const)('%s %i-%i-%i is %s', (calendar, y, m, d, iso) => {
    expect(toGregorian(calendar, y, m, d)).toBe(iso);
  });

  it.each([
    ['٢٥ رمضان ١٤٤٧ هـ', '2026-03-14'], ['Ramadan 25, 1447 AH', '2026-03-14'], ['1 محرم 1447', '2025-06-26'], ['23 اسفند 1404', '2026-03-14'],
    ['۱ فروردین ۱۴۰۵', '2026-03-21'], ['Esfand 23, 1404', '2026-03-14'],
  ])('reads the Hijri or Persian date %s as %s', (written, iso) => {
    expect(parseDate(written)).toBe(iso);
  });

  it('reads a date as Saudi Arabia writes it by default, in the Umm al-Qura calendar', () => {
    const written = new Intl.DateTimeFormat('ar-SA', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(DATES[0]);
    expect([written, parseDate(written)]).toEqual([written, isoOf(DATES[0]!)]);
  });

  it('refuses a day the calendar does not have', () => {
    expect(toGregorian('roc', 115, 2, 30)).toBeNull();
    expect(toGregorian('persian', 1404, 12, 31)).toBeNull();
  });
});

describe('month and weekday names', () => {
  it('holds the genitive a date takes and the name standing alone', () => {
    const { months, weekdays } = calendarNames();
    expect([months.get('marca'), months.get('marzec'), months.get('μαρτίου'), months.get('μάρτιος'), months.get('března'), months.get('марта')]).toEqual([3, 3, 3, 3, 3, 3]);
    expect([weekdays.get('monday'), weekdays.get('poniedziałek'), weekdays.get('pazartesi'), weekdays.get('dimanche')]).toEqual([1, 1, 1, 7]);
  });
});
