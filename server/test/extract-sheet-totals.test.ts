// Spreadsheets (XLSX) and CSV invoices whose subtotal, tax and total stand in labelled cells: a label cell with its
// value further along the row, or a row of column headers over a row of values. The offline engine reads them, with
// evidence at the value's cell in the text the service read (`source.text`), and whole numbers (a sheet's number
// cells) only when subtotal + tax = total says they are the amounts.
import { MEDIA, xlsxFile, type Cell } from './support/office-files.js';
import { startTestServer, type TestServer } from './support/harness.js';

type Evidence = { quote: string; start: number; end: number; derived: boolean };
type Answer = { data: Record<string, unknown>; evidence: Record<string, Evidence>; source: { text: string; mediaType: string } };

const HEAD: Cell[][] = [
  ['Northwind Office Supply Ltd'],
  ['12 Quay Street, Bristol BS1 4DJ'],
  [],
  ['INVOICE'],
  ['Invoice No', 'INV-7731'],
  [],
  ['Description', 'Qty', 'Unit Price', 'Amount'],
  ['Archive boxes', 10, 4.5, 45],
  ['Desk lamp', 2, 30, 60],
  [],
];
/** Label cells with their values further along the row, the values whole numbers as a sheet stores them. */
const ROW_LABELS: Cell[][] = [...HEAD, ['Subtotal', null, null, 105], ['VAT 20%', null, null, 21], ['Total', null, null, 126]];
/** A row of headers over a row of values. */
const COLUMN_HEADERS: Cell[][] = [...HEAD, ['Subtotal', 'Tax', 'Total', 'Currency'], [105, 21, 126, 'GBP']];

const csvOf = (rows: Cell[][]) => rows.map((r) => [...r, ...Array(4 - r.length).fill(null)].map((c) => (c === null ? '' : String(c))).join(',')).join('\n');
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

describe('totals in labelled cells of sheets and CSV', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_sheets', plan: 'starter' } });
    key = (await s.createKey('acct_sheets')).key;
  });
  afterAll(async () => { await s.close(); });

  const extract = async (content: Uint8Array | string, mediaType: string): Promise<Answer> => {
    const res = await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { content: b64(content), mediaType }, returnText: true, minConfidence: 0 } });
    expect(res.status).toBe(200);
    return (await res.json()) as Answer;
  };

  /** The value cell of a summary figure: on the line of `label` (row labels) or the line under it (column headers). */
  const expectCell = (body: Answer, pointer: string, quote: string) => {
    const e = body.evidence[pointer]!;
    expect(e).toBeDefined();
    expect([pointer, e.quote, body.source.text.slice(e.start, e.end), e.derived]).toEqual([pointer, quote, quote, false]);
  };

  const cases: [string, () => Uint8Array | string, string][] = [
    ['XLSX, label cell then value cell', () => xlsxFile([{ name: 'Invoice', rows: ROW_LABELS }]), MEDIA.xlsx],
    ['XLSX, column headers over values', () => xlsxFile([{ name: 'Invoice', rows: COLUMN_HEADERS }]), MEDIA.xlsx],
    ['CSV, label cell then value cell', () => csvOf(ROW_LABELS), MEDIA.csv],
    ['CSV, column headers over values', () => csvOf(COLUMN_HEADERS), MEDIA.csv],
  ];

  it.each(cases)('%s: subtotal, tax and total read, each at its value cell', async (_name, make, mediaType) => {
    const body = await extract(make(), mediaType);
    expect(body.source.mediaType).toBe(mediaType);
    expect(body.data).toMatchObject({ invoiceNumber: 'INV-7731', subtotal: 105, tax: 21, total: 126 });
    expectCell(body, '/subtotal', '105');
    expectCell(body, '/tax', '21');
    expectCell(body, '/total', '126');
  });

  it('whole figures nothing corroborates are not taken as amounts (subtotal + tax does not make the total), nor one label\'s figure for another field', async () => {
    const rows: Cell[][] = [...HEAD, ['Subtotal', null, null, 105], ['Tax', null, null, 123456789], ['Total', null, null, 126]];
    const body = await extract(xlsxFile([{ name: 'Invoice', rows }]), MEDIA.xlsx);
    // Before, the learned ranker answered the total with the subtotal's cell (105): a wrong value is worse than none.
    expect(body.data).toMatchObject({ subtotal: null, tax: null, total: null });
    expect(body.evidence['/tax']).toBeUndefined();
  });
});
