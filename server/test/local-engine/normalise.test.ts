import { findDates, parseDate } from '../../src/extraction/engines/local/normalise/dates.js';
import { parseTime } from '../../src/extraction/engines/local/normalise/times.js';
import { findAmounts, parseNumber } from '../../src/extraction/engines/local/normalise/money.js';
import { detectCurrency } from '../../src/extraction/engines/local/normalise/currency.js';
import { parseCount } from '../../src/extraction/engines/local/normalise/counts.js';

describe('dates', () => {
  it.each([
    ['2026-03-01', '2026-03-01'],
    ['March 1, 2026', '2026-03-01'],
    ['Mar. 1st 2026', '2026-03-01'],
    ['1st March 2026', '2026-03-01'],
    ['1 of March, 2026', '2026-03-01'],
    ['03.02.2026', '2026-02-03'],
    ['Thursday, 12 February 2026', '2026-02-12'],
    ['14. März 2026', '2026-03-14'],
    ['14MAR26', '2026-03-14'],
    ['02FEB2026', '2026-02-02'],
  ])('reads %s', (written, iso) => expect(parseDate(written)).toBe(iso));

  it('reads ambiguous slashes by the document habit, and an impossible month decides', () => {
    // With no evidence of the order (no unambiguous date, no dd/mm hint, no currency) an ambiguous date is not read.
    expect(parseDate('04/05/2026')).toBeNull();
    expect(parseDate('04/05/2026', { dayFirst: false })).toBe('2026-04-05');
    expect(parseDate('04/04/2026')).toBe('2026-04-04');
    expect(parseDate('04/05/2026', { dayFirst: true })).toBe('2026-05-04');
    expect(parseDate('25/05/2026')).toBe('2026-05-25');
  });

  it('refuses impossible dates and year-less dates without a document year', () => {
    expect(parseDate('2026-02-30')).toBeNull();
    expect(parseDate('by 10 March')).toBeNull();
    expect(parseDate('by 10 March', { year: 2027 })).toBe('2027-03-10');
  });

  it('finds several dates in order', () => {
    expect(findDates('from June 1, 2025 to May 31, 2026').map((d) => d.iso)).toEqual(['2025-06-01', '2026-05-31']);
  });
});

describe('times', () => {
  it.each([['12:47 PM', '12:47'], ['7:05 pm', '19:05'], ['12:10 AM', '00:10'], ['18:30 - 21:00', '18:30'], ['at 09.15', null]])('%s -> %s', (s, t) => expect(parseTime(s)).toBe(t));
});

describe('money', () => {
  it.each([
    ['1,234.56', 'us', 1234.56],
    ['1.234,56', 'eu', 1234.56],
    ['2.400,00', 'us', 2400],
    ['750,00', 'eu', 750],
    ['3.299', 'us', 3.299],
    ['1.800', 'eu', 1800],
    ['12', 'us', 12],
  ] as const)('parses %s (%s)', (raw, style, n) => expect(parseNumber(raw, style)).toBe(n));

  it('keeps table columns apart and reads currency marks on either side', () => {
    const found = findAmounts('12   150.00   1,800.00 €');
    expect(found.map((a) => a.value)).toEqual([12, 150, 1800]);
    expect(found[2]!.currency).toBe('EUR');
    expect(findAmounts('A$850 - A$950').map((a) => [a.value, a.currency])).toEqual([[850, 'AUD'], [950, 'AUD']]);
    expect(findAmounts('INV-2026-0418 dated 2026')).toEqual([expect.objectContaining({ value: 2026 })]);
  });

  it('takes a code written beside a dollar sign over the sign', () => {
    expect(findAmounts('Total CAD $1,204.50').map((a) => [a.value, a.currency])).toEqual([[1204.5, 'CAD']]);
    expect(findAmounts('AUD$ 90.00 and $1,200.00 NZD').map((a) => [a.value, a.currency])).toEqual([[90, 'AUD'], [1200, 'NZD']]);
    expect(findAmounts('$75.00').map((a) => a.currency)).toEqual(['USD']);
  });
});

describe('currency', () => {
  it('prefers an explicit code over a bare dollar sign', () => {
    expect(detectCurrency('Fee $100.00\nTotal (NZD) $100.00')).toBe('NZD');
    expect(detectCurrency('Fee $100.00')).toBe('USD');
    expect(detectCurrency('Miete 900 €')).toBe('EUR');
    expect(detectCurrency('no money here')).toBeNull();
  });
});

describe('counts', () => {
  it.each([['sixty (60)', 60], ['three', 3], ['twenty-one', 21], ['45', 45]])('%s -> %d', (s, n) => expect(parseCount(s)).toBe(n));
});
