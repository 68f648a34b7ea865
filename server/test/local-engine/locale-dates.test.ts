// Dates as the world writes them: month names in some twenty languages, CJK dates and eras, the Buddhist era, Roman
// numeral months, Vietnamese and Hungarian order, ISO week dates, other scripts' digits; and the evidence of order.
import { detectBuddhistEra, detectDayFirst, findDates, parseDate } from '../../src/extraction/engines/local/normalise/dates.js';
import { segment } from '../../src/extraction/engines/local/segment/document.js';

describe('month names', () => {
  it.each([
    ['fr', '14 mars 2026'], ['es', '14 de marzo de 2026'], ['it', '14 marzo 2026'], ['pt', '14 de março de 2026'],
    ['nl', '14 maart 2026'], ['de', '14. März 2026'], ['sv', '14 mars 2026'], ['no', '14. mars 2026'], ['da', '14. marts 2026'],
    ['fi', '14. maaliskuuta 2026'], ['pl', '14 marca 2026 r.'], ['cs', '14. března 2026'], ['hu', '2026. március 14.'], ['tr', '14 Mart 2026'],
    ['id', '14 Maret 2026'], ['ms', '14 Mac 2026'], ['el', '14 Μαρτίου 2026'], ['el (capitals)', '14 ΜΑΡΤΙΟΥ 2026'], ['ar', '14 مارس 2026'],
    ['ar (Levant)', '14 آذار 2026'], ['ar (Arabic-Indic digits)', '١٤ مارس ٢٠٢٦'], ['ro', '14 martie 2026'],
  ])('%s: %s', (_lang, written) => expect(parseDate(written)).toBe('2026-03-14'));

  it.each([
    ['fr', '1er mars 2026', '2026-03-01'], ['pl', '3 października 2026', '2026-10-03'], ['pl (typed without accents)', '3 pazdziernika 2026', '2026-10-03'], ['cs', '1. září 2026', '2026-09-01'],
    ['tr', '30 Ağustos 2026', '2026-08-30'], ['tr (capitals)', '19 MAYIS 2026', '2026-05-19'], ['fi', '6. joulukuuta 2026', '2026-12-06'],
    ['pt', '7 de setembro de 2026', '2026-09-07'], ['es (Peru)', '28 de setiembre de 2026', '2026-09-28'], ['da', '5. december 2026', '2026-12-05'],
    ['el', '25 Δεκεμβρίου 2026', '2026-12-25'], ['hu', '2026. október 23.', '2026-10-23'], ['sv', '6 juni 2026', '2026-06-06'],
  ])('%s: %s', (_lang, written, iso) => expect(parseDate(written)).toBe(iso));

  it('reads a short name that is also a word only beside a year', () => {
    expect(parseDate('14 mar 2026')).toBe('2026-03-14');
    expect(parseDate('Opłata 14 maja', { year: 2026 })).toBeNull(); // Maja is also a first name
    expect(parseDate('14 maja 2026')).toBe('2026-05-14');
    expect(parseDate('went out 3 times', { year: 2026 })).toBeNull();
    expect(parseDate('3 out 2026')).toBe('2026-10-03');
    expect(parseDate('bis 14. März', { year: 2026 })).toBe('2026-03-14');
  });
});

describe('other calendars and orders', () => {
  it.each([
    ['2026年3月14日', '2026-03-14'], ['2026 年 3 月 14 日', '2026-03-14'], ['２０２６年３月１４日', '2026-03-14'], ['2026년 3월 14일', '2026-03-14'],
    ['令和8年3月14日', '2026-03-14'], ['令和元年5月1日', '2019-05-01'], ['民國115年3月14日', '2026-03-14'], ['2026年3月14号', '2026-03-14'],
    ['14.III.2026', '2026-03-14'], ['14 III 2026', '2026-03-14'], ['14. XII. 2026', '2026-12-14'], ['ngày 14 tháng 3 năm 2026', '2026-03-14'],
    ['14 tháng 3, 2026', '2026-03-14'], ['2026. 03. 14.', '2026-03-14'], ['2026-W11-6', '2026-03-14'], ['2026W116', '2026-03-14'],
  ])('%s', (written, iso) => expect(parseDate(written)).toBe(iso));

  it('reads a year-less CJK date in the document year only', () => {
    expect(parseDate('3月14日')).toBeNull();
    expect(parseDate('納期 3月14日', { year: 2026 })).toBe('2026-03-14');
  });

  it('counts years in the Buddhist era in a Thai document', () => {
    expect(parseDate('14 มีนาคม 2569', { buddhist: true })).toBe('2026-03-14');
    expect(parseDate('14/03/2569', { buddhist: true, dayFirst: true })).toBe('2026-03-14');
    expect(parseDate('14/03/2026', { buddhist: true, dayFirst: true })).toBe('2026-03-14');
    expect(parseDate('14 มีนาคม 2569')).toBeNull();
    expect(detectBuddhistEra('ใบกำกับภาษี วันที่ 14 มีนาคม 2569')).toBe(true);
    expect(detectBuddhistEra('Invoice dated B.E. 2569')).toBe(true);
    expect(detectBuddhistEra('Invoice dated 14 March 2026')).toBe(false);
    const doc = segment('ใบกำกับภาษี\nวันที่: 14/03/2569\nรวมทั้งสิ้น 1,070.00 บาท');
    expect(doc.dateOptions.buddhist).toBe(true);
    expect(findDates(doc.text, doc.dateOptions).map((d) => d.iso)).toEqual(['2026-03-14']);
  });

  it('keeps the offsets of the text as written', () => {
    const s = 'التاريخ: ١٤ مارس ٢٠٢٦';
    const [d] = findDates(s);
    expect(s.slice(d!.index, d!.end)).toBe('١٤ مارس ٢٠٢٦');
  });
});

describe('the order of ambiguous numeric dates', () => {
  it('is day first in a document naming a month in another language, or hinting jj/mm/aaaa', () => {
    expect(detectDayFirst('Protokół z 4 marca 2026\nTermin: 03/04/2026', null)).toBe(true);
    expect(detectDayFirst('Date limite : 03/04/2026 (jj/mm/aaaa)', null)).toBe(true);
    expect(detectDayFirst('Meeting on March 4, 2026; follow-up 03/04/2026', null)).toBeUndefined();
  });
});
