// Segmenter and normaliser shapes held-out documents showed (side-by-side blocks unfolded, European ranges).
import { findAmounts } from '../../src/extraction/engines/local/normalise/money.js';
import { unfoldColumns } from '../../src/extraction/engines/local/segment/document.js';

describe("layout and amounts", () => {
  it('reads both ends of `EUR 1.650 - 1.900` the European way', () => {
    expect(findAmounts('EUR 1.650 - 1.900 per month').map((a) => [a.value, a.currency])).toEqual([[1650, 'EUR'], [1900, 'EUR']]);
  });

  it('leaves label/value lists and tables as they are', () => {
    const kv = ['Invoice Number      TMS-1', 'Invoice Date        April 7, 2026'];
    expect(unfoldColumns(kv)).toEqual(kv);
    const table = ['Widget        2     $4.00', 'Gadget        1     $9.50'];
    expect(unfoldColumns(table)).toEqual(table);
  });
});
