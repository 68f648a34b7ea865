// A line item's figures point at the cell each was read from, on the offline engine: in a four-column table the
// amount is the amount column's cell even when the unit price's cell holds the same number, a quantity equal to the
// price is the quantity's cell, and a figure computed from others (an amount from quantity x price, a price from
// amount / quantity) is derived and quotes the cells it was computed from, never another cell that happens to hold
// its number.
import { startTestServer, type TestServer } from '../support/harness.js';

type Evidence = { quote: string; start: number; end: number; derived: boolean };
type Answer = { data: { lineItems: { description: string; quantity: number | null; unitPrice: number | null; amount: number | null }[] }; evidence: Record<string, Evidence> };

/** The offset of the `nth` (from 0) occurrence of `cell` on the line of `text` that starts with `row`. */
function cellAt(text: string, row: string, cell: string, nth = 0): number {
  const lineStart = text.indexOf(`\n${row}`) + 1;
  expect(lineStart).toBeGreaterThan(0);
  let at = lineStart - 1;
  for (let k = 0; k <= nth; k++) at = text.indexOf(cell, at + 1);
  expect(at).toBeGreaterThan(lineStart);
  return at;
}

const FOUR_COLUMNS = [
  'INVOICE',
  'Invoice number: INV-3001',
  'Date: 2026-03-01',
  '',
  'Description          Qty   Unit Price      Amount',
  'Paper A4 box           1       42.00       42.00',
  'Toner cartridge        2       60.00      120.00',
  'Stapler               35       35.00    1,225.00',
  '',
  'Subtotal: 1,387.00',
  'Total: 1,387.00',
].join('\n');

const THREE_COLUMNS_AMOUNT = [
  'INVOICE',
  'Invoice number: INV-3002',
  'Date: 2026-03-01',
  '',
  'Description          Qty      Amount',
  'Paper A4 box           2       84.00',
  'Cable                  1       12.00',
  '',
  'Total: 96.00',
].join('\n');

const THREE_COLUMNS_PRICE = [
  'INVOICE',
  'Invoice number: INV-3003',
  'Date: 2026-03-01',
  '',
  'Description          Qty   Unit Price',
  'Paper A4 box           2       42.00',
  'Cable                  1       12.00',
  '',
  'Total: 96.00',
].join('\n');

describe('line items: each figure points at its own cell', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_cells', plan: 'starter' } });
    key = (await s.createKey('acct_cells')).key;
  });
  afterAll(async () => { await s.close(); });

  const extract = async (text: string): Promise<Answer> => {
    const res = await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text }, minConfidence: 0 } });
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  };
  const span = (e: Evidence | undefined) => e && { start: e.start, end: e.end, quote: e.quote, derived: e.derived };

  it('four columns: the amount is the amount cell when the unit price holds the same number; a quantity equal to the price is the quantity cell', async () => {
    const t = FOUR_COLUMNS;
    const body = await extract(t);
    expect(body.data.lineItems).toEqual([
      { description: 'Paper A4 box', quantity: 1, unitPrice: 42, amount: 42 },
      { description: 'Toner cartridge', quantity: 2, unitPrice: 60, amount: 120 },
      { description: 'Stapler', quantity: 35, unitPrice: 35, amount: 1225 },
    ]);
    const ev = body.evidence;
    // Line 1: `1   42.00   42.00`: the price is the first 42.00, the amount the second.
    expect(span(ev['/lineItems/0/unitPrice'])).toEqual({ start: cellAt(t, 'Paper A4 box', '42.00'), end: cellAt(t, 'Paper A4 box', '42.00') + 5, quote: '42.00', derived: false });
    expect(span(ev['/lineItems/0/amount'])).toEqual({ start: cellAt(t, 'Paper A4 box', '42.00', 1), end: cellAt(t, 'Paper A4 box', '42.00', 1) + 5, quote: '42.00', derived: false });
    expect(span(ev['/lineItems/1/amount'])).toEqual({ start: cellAt(t, 'Toner cartridge', '120.00'), end: cellAt(t, 'Toner cartridge', '120.00') + 6, quote: '120.00', derived: false });
    // Line 3: `35   35.00   1,225.00`: the price is `35.00`, not the quantity's `35`.
    expect(span(ev['/lineItems/2/quantity'])).toEqual({ start: cellAt(t, 'Stapler', '35'), end: cellAt(t, 'Stapler', '35') + 2, quote: '35', derived: false });
    expect(span(ev['/lineItems/2/unitPrice'])).toEqual({ start: cellAt(t, 'Stapler', '35.00'), end: cellAt(t, 'Stapler', '35.00') + 5, quote: '35.00', derived: false });
    expect(span(ev['/lineItems/2/amount'])).toEqual({ start: cellAt(t, 'Stapler', '1,225.00'), end: cellAt(t, 'Stapler', '1,225.00') + 8, quote: '1,225.00', derived: false });
  });

  it('three columns (quantity, amount): the unit price is computed, derived, quoting the quantity and amount cells, not the amount cell alone', async () => {
    const t = THREE_COLUMNS_AMOUNT;
    const body = await extract(t);
    expect(body.data.lineItems).toEqual([
      { description: 'Paper A4 box', quantity: 2, unitPrice: 42, amount: 84 },
      { description: 'Cable', quantity: 1, unitPrice: 12, amount: 12 },
    ]);
    const ev = body.evidence;
    expect(span(ev['/lineItems/1/amount'])).toEqual({ start: cellAt(t, 'Cable', '12.00'), end: cellAt(t, 'Cable', '12.00') + 5, quote: '12.00', derived: false });
    // 12 = 12.00 / 1: computed from the quantity through the amount.
    expect(span(ev['/lineItems/1/unitPrice'])).toEqual({ start: cellAt(t, 'Cable', '1'), end: cellAt(t, 'Cable', '12.00') + 5, quote: '1       12.00', derived: true });
    expect(ev['/lineItems/0/unitPrice']).toMatchObject({ quote: '2       84.00', derived: true });
  });

  it('three columns (quantity, unit price): the amount is quantity x price, derived, quoting those cells, not the price cell as if read there', async () => {
    const t = THREE_COLUMNS_PRICE;
    const body = await extract(t);
    expect(body.data.lineItems).toEqual([
      { description: 'Paper A4 box', quantity: 2, unitPrice: 42, amount: 84 },
      { description: 'Cable', quantity: 1, unitPrice: 12, amount: 12 },
    ]);
    const ev = body.evidence;
    expect(span(ev['/lineItems/1/unitPrice'])).toEqual({ start: cellAt(t, 'Cable', '12.00'), end: cellAt(t, 'Cable', '12.00') + 5, quote: '12.00', derived: false });
    expect(span(ev['/lineItems/1/amount'])).toEqual({ start: cellAt(t, 'Cable', '1'), end: cellAt(t, 'Cable', '12.00') + 5, quote: '1       12.00', derived: true });
    expect(ev['/lineItems/0/amount']).toMatchObject({ quote: '2       42.00', derived: true });
  });
});
