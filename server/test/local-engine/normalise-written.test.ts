// Normaliser cases met in held-out documents: written ordinal dates, currency-decided thousands, space groups,
// OCR look-alike digits and typo-tolerant labels.
import { findDates, parseDate } from '../../src/extraction/engines/local/normalise/dates.js';
import { findAmounts } from '../../src/extraction/engines/local/normalise/money.js';
import { labelIs, labelKey, ocrLetters, sameLabel } from '../../src/extraction/engines/local/segment/text.js';

describe('written dates', () => {
  it.each([
    ['the third of March 2026', '2026-03-03'],
    ['on the first of June 2026', '2026-06-01'],
    ['the twenty-first of September, 2026', '2026-09-21'],
    ['thirty-first day of December 2026', '2026-12-31'],
    ['March the third, 2026', '2026-03-03'],
    ['March 3rd, 2026', '2026-03-03'],
    ['Friday, April 17th, 2026', '2026-04-17'],
    ['3 mars 2026', '2026-03-03'],
    ['please remit by the eighteenth of March 2026.', '2026-03-18'],
  ])('reads %s', (written, iso) => expect(parseDate(written)).toBe(iso));

  it('borrows the document year for a written date without one, and refuses it otherwise', () => {
    expect(parseDate('the fifth of May')).toBeNull();
    expect(parseDate('the fifth of May', { year: 2026 })).toBe('2026-05-05');
  });

  it('refuses an impossible written date', () => {
    expect(parseDate('the thirty-first of February 2026')).toBeNull();
  });

  it('finds each date of a sentence in order', () => {
    expect(findDates('started on June 1, 2025 and renews on the first of June 2026').map((d) => d.iso)).toEqual(['2025-06-01', '2026-06-01']);
  });
});

describe('amounts whose own currency decides the grouping', () => {
  const values = (s: string, style: 'us' | 'eu' = 'us') => findAmounts(s, style).map((a) => a.value);

  it('reads 38.000 SEK as thirty-eight thousand even in a US-style document', () => {
    expect(values('38.000 SEK')).toEqual([38000]);
  });

  it('reads both ends of a range by the currency written at its end', () => {
    expect(values('34.000 – 38.000 SEK per month')).toEqual([34000, 38000]);
  });

  it('keeps a three-decimal dollar price (fuel) as written', () => {
    expect(values('@ $3.299/GAL')).toEqual([3.299]);
  });

  it('reads 1,650 USD as a thousand in a European-style document', () => {
    expect(values('1,650 USD', 'eu')).toEqual([1650]);
  });

  it('reads a space-grouped European figure as one amount', () => {
    expect(values('Total: 1 234,56 €', 'eu')).toEqual([1234.56]);
    expect(values('Summe 12 480,00 EUR', 'eu')).toEqual([12480]);
  });

  it('reads European dot groups and comma decimals', () => {
    expect(values('2.708,03 €', 'eu')).toEqual([2708.03]);
  });
});

describe('OCR-tolerant labels', () => {
  it('reads look-alike digits inside words, keeping positions and codes', () => {
    expect(ocrLetters('Tota1 due: 12.00')).toBe('Total due: 12.00');
    expect(ocrLetters('Subt0tal')).toBe('Subtotal');
    expect(ocrLetters('Super E10 A2')).toBe('Super E10 A2');
    expect(labelKey('Tota1')).toBe('total');
  });

  it.each([
    ['invoce no', 'invoice no'],
    ['invocie date', 'invoice date'],
    ['dute date', 'due date'],
    ['due dtae', 'due date'],
    ['subtotai', 'subtotal'],
  ])('%s matches %s', (key, synonym) => expect(sameLabel(key, synonym)).toBe(true));

  it.each([
    ['invoice to', 'invoice no'],
    ['tax rate', 'tax date'],
    ['fax', 'tax'],
    ['end date', 'due date'],
    ['dte', 'due'],
  ])('%s does not match %s', (key, synonym) => expect(sameLabel(key, synonym)).toBe(false));

  it('matches a label naming alternatives when one of them matches', () => {
    expect(labelIs(labelKey('Ship To / Bill To'), ['bill to'])).toBe(true);
    expect(labelIs(labelKey('Ship To / Bill To'), ['vendor'])).toBe(false);
  });
});
