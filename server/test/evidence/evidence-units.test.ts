// The evidence primitives on their own: finding a quote however it was copied, taking values out of an answer, the
// checks every engine's answer goes through, and placing a span on its page.
import { locateQuote } from '../../src/extraction/evidence/locate-quote.js';
import { withhold } from '../../src/extraction/evidence/withhold.js';
import { runChecks } from '../../src/extraction/evidence/checks.js';
import { placeSpan } from '../../src/extraction/evidence/placement.js';
import { leaves } from '../../src/extraction/evidence/pointers.js';

describe('locateQuote', () => {
  const text = 'Rechnung Nr. RE-2026-04\nGesamtbetrag:   1.190,00 €\nZahlbar bis 30.04.2026 – “ohne Abzug”.\n請求金額 ¥220,000 😀 Cafe\u0301 Zoë';

  it('finds an exact quote, its offsets reproducing it', () => {
    const q = locateQuote(text, '1.190,00 €')!;
    expect(q).toMatchObject({ how: 'exact', similarity: 1 });
    expect(text.slice(q.start, q.end)).toBe('1.190,00 €');
  });

  it('finds a quote with other whitespace, case and typographic punctuation, offsets in the original', () => {
    const q = locateQuote(text, 'gesamtbetrag: 1.190,00 €')!;
    expect(q.how).toBe('folded');
    expect(text.slice(q.start, q.end)).toBe('Gesamtbetrag:   1.190,00 €');
    const quoted = locateQuote(text, 'bis 30.04.2026 - "ohne Abzug"')!;
    expect(text.slice(quoted.start, quoted.end)).toBe('bis 30.04.2026 – “ohne Abzug”');
  });

  it('finds a quote after emoji and combining marks in UTF-16 offsets (a precomposed é matches e + U+0301)', () => {
    const q = locateQuote(text, 'Café Zoë')!;
    expect(q.how).toBe('folded');
    expect(text.slice(q.start, q.end)).toBe('Cafe\u0301 Zoë');
    const yen = locateQuote(text, '¥220,000 😀')!;
    expect(text.slice(yen.start, yen.end)).toBe('¥220,000 😀');
  });

  it('finds a quote with OCR slips approximately, and refuses one that is not there', () => {
    const q = locateQuote(text, 'Zahlbar bls 3O.04.2026 - ohne Abzug')!;
    expect(q.how).toBe('approximate');
    expect(q.similarity).toBeGreaterThanOrEqual(0.8);
    expect(text.slice(q.start, q.end)).toContain('Zahlbar bis 30.04.2026');
    expect(locateQuote(text, 'Payment due within thirty days of receipt')).toBeNull();
    expect(locateQuote(text, 'RE-2O26')).toBeNull();
  });
});

describe('withhold', () => {
  it('nulls a member, drops a list item of words, and renumbers the pointers of what stays', () => {
    const data = { total: 5, requirements: ['a', 'b', 'c'], lineItems: [{ description: 'x', amount: 1 }, { description: 'y', amount: 2 }] };
    const { data: kept, moved } = withhold(data, new Set(['/total', '/requirements/0', '/lineItems/0/description', '/lineItems/0/amount']), false);
    expect(kept).toEqual({ total: null, requirements: ['b', 'c'], lineItems: [{ description: 'y', amount: 2 }] });
    expect(moved.get('/requirements/2')).toBe('/requirements/1');
    expect(moved.get('/lineItems/1/amount')).toBe('/lineItems/0/amount');
  });

  it('takes a renewal member out whole', () => {
    const { data } = withhold({ renewalDate: { value: '2026-01-01', sourceQuote: 'Renews 1 January 2026' } }, new Set(['/renewalDate/value']), true);
    expect(data).toEqual({ renewalDate: { value: null, sourceQuote: null } });
  });
});

describe('checks', () => {
  const tally = (kind: string, data: unknown, quotes: Record<string, string> = {}, integers: string[] = []) =>
    Object.fromEntries(runChecks({ kind, data, quotes: new Map(Object.entries(quotes)), integers: new Set(integers) }));

  it('subtotal + tax = total holds for all three; a contradiction fails them', () => {
    expect(tally('invoice', { subtotal: 100, tax: 20, total: 120 })).toEqual({ '/subtotal': { held: 1, failed: 0 }, '/tax': { held: 1, failed: 0 }, '/total': { held: 1, failed: 0 } });
    expect(tally('invoice', { subtotal: 100, tax: 20, total: 936 })['/total']).toEqual({ held: 0, failed: 1 });
  });

  it('an amount whose quote writes another currency fails with the currency', () => {
    const t = tally('invoice', { total: 120, currency: 'GBP' }, { '/total': '€120,00' });
    expect(t['/total']).toEqual({ held: 0, failed: 1 });
    expect(t['/currency']).toEqual({ held: 0, failed: 1 });
    expect(tally('invoice', { total: 120, currency: 'EUR' }, { '/total': '120,00 €' })['/currency']).toEqual({ held: 1, failed: 0 });
  });

  it('a year out of the plausible window and a negative whole number fail on their own; dates in order hold', () => {
    const t = tally('custom', { start: '0100-01-01', probationMonths: -6 }, {}, ['/probationMonths']);
    expect(t['/start']).toEqual({ held: 0, failed: 1 });
    expect(t['/probationMonths']).toEqual({ held: 0, failed: 1 });
    expect(tally('contract', { effectiveDate: '2026-01-01', expirationDate: '2025-01-01' })['/expirationDate']).toEqual({ held: 0, failed: 1 });
  });
});

describe('placeSpan', () => {
  const layout = { pages: [
    { start: 0, end: 10, runs: [{ start: 0, end: 10, x: 0.1, y: 0.1, width: 0.5, height: 0.02 }] },
    { start: 12, end: 30, runs: [{ start: 12, end: 20, x: 0.2, y: 0.5, width: 0.4, height: 0.02, confidence: 0.6 }, { start: 21, end: 30, x: 0.2, y: 0.53, width: 0.45, height: 0.02, confidence: 0.9 }] },
  ] };

  it('places a span on the page it starts on, its box the part of each run it covers', () => {
    expect(placeSpan(layout, 0, 5)).toEqual({ page: 1, box: { x: 0.1, y: 0.1, width: 0.25, height: 0.02 } });
    const two = placeSpan(layout, 14, 25)!;
    expect(two.page).toBe(2);
    expect(two.box).toEqual({ x: 0.2, y: 0.5, width: 0.4, height: 0.05 });
    expect(two.ocrConfidence).toBe(0.6);
    expect(placeSpan(undefined, 0, 5)).toBeNull();
  });
});

describe('leaves', () => {
  it('lists every non-null scalar by JSON Pointer, escaping ~ and /', () => {
    expect(leaves({ a: 1, b: null, 'c/d': ['x', null], 'e~': { f: true } }).map((l) => l.pointer)).toEqual(['/a', '/c~1d/0', '/e~0/f']);
  });
});
