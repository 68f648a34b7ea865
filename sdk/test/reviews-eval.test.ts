// The SDK's reviews and evaluations, and `docextract eval DIR` on a folder in the corpus format, against a service
// started here (offline engine).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocExtract } from '../src/client.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { cli } from './run-cli.js';

const INVOICE = 'ACME CLOUD SUPPLY LLC\n500 Market Street, San Francisco, CA 94105\n\nINVOICE\nInvoice No: INV-2026-0418\nInvoice Date: April 18, 2026\nDue Date: May 18, 2026\n\nBill To: Brightline Analytics Inc.\n\nDescription            Qty   Unit Price    Amount\nData pipeline setup      1    $4,500.00   $4,500.00\n\nTotal due: $4,500.00';

describe('SDK reviews and evaluations, and docextract eval', () => {
  let s: TestServer;
  let key: string;
  let dir: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_sdk_rev', plan: 'starter' } });
    key = (await s.createKey('acct_sdk_rev')).key;
    dir = mkdtempSync(join(tmpdir(), 'eval-'));
    mkdirSync(join(dir, 'receipt'));
    // 52 receipts: two calls of the service (50 a call), one evaluation.
    for (let i = 0; i < 52; i++) {
      const slug = `r${String(i).padStart(2, '0')}`;
      writeFileSync(join(dir, 'receipt', `${slug}.txt`), `CORNER SHOP ${i}\n03/15/2026\nTOTAL ${i + 1}.00\nCASH`);
      writeFileSync(join(dir, 'receipt', `${slug}.json`), JSON.stringify({ merchant: `CORNER SHOP ${i}`, address: null, date: '2026-03-15', time: null, items: [], subtotal: null, tax: null, tip: null, total: i + 1, currency: null, paymentMethod: 'CASH' }));
    }
    writeFileSync(join(dir, 'receipt', 'unlabelled.txt'), 'no label beside me');
  });
  afterAll(async () => { await s.close(); });

  it('extracts with review, lists, reads, resolves and deletes reviews, then evaluates on them', async () => {
    const client = new DocExtract({ baseUrl: s.baseUrl, apiKey: key });
    await client.extract.invoice(INVOICE, { review: true, reviewBelow: 0.8 });
    const { reviews } = await client.reviews.list({ status: 'open' });
    expect(reviews).toHaveLength(1);
    const review = await client.reviews.get(reviews[0]!.id);
    expect(review.low).toEqual(['/vendor/address', '/vendor/name']);
    const resolved = await client.reviews.resolve(review.id, review.data);
    expect(resolved.resolution?.counts.confirmed).toBe(12);
    const evaluation = await client.evaluations.create();
    expect(evaluation).toMatchObject({ source: 'labelled', documents: 1, overall: { fp: 0, fn: 0 } });
    expect(await client.evaluations.get(evaluation.id)).toEqual(evaluation);
    expect((await client.reviews.delete(review.id)).id).toBe(review.id);
    expect((await client.reviews.list()).reviews).toEqual([]);
  });

  it('docextract eval DIR scores the folder in one evaluation and prints the table, or the JSON', async () => {
    const env = { DOCEXTRACT_API_KEY: key, DOCEXTRACT_BASE_URL: s.baseUrl };
    const json = await cli(['eval', dir, '--format', 'json'], env);
    expect(json.code).toBe(0);
    const evaluation = JSON.parse(json.stdout);
    expect(evaluation).toMatchObject({ source: 'uploaded', documents: 52, failures: [] });
    expect(evaluation.routes.map((r: { route: string; documents: number }) => [r.route, r.documents])).toEqual([['receipt', 52]]);
    expect(evaluation.routes[0].fields.find((f: { field: string }) => f.field === 'total')).toMatchObject({ tp: 52, fp: 0, fn: 0 });
    const table = await cli(['eval', dir, '--route', 'receipt'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^model local-rules-1: 52 documents/);
    expect(table.stdout).toMatch(/\n {2}total\s+52\s+0\s+0\s+1\.000\s+1\.000\s+1\.000\n/);
    expect(table.stdout).toMatch(/ECE \d\.\d{3} {3}AUROC \d\.\d{3}/);
    const none = await cli(['eval', dir, '--route', 'invoice'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/holds no labelled document/);
  });
});
