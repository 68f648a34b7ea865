// Confidence per account: once an account has resolved 200 values of an engine and route, its confidences there go
// through a monotone map fitted on its own reviews (and only its own), GET /v1/account says so, and the map follows
// the reviews (refitted as they are resolved, dropped when deletions leave fewer than 200).
import { fitIsotonic, applyMap } from '../../src/reviews/isotonic.js';
import { dbModes } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/harness.js';

type Json = Record<string, any>;

// On the offline engine the vendor's name (0.745) and address (0.629) are the least sure values of this invoice.
const INVOICE = 'ACME CLOUD SUPPLY LLC\n500 Market Street, San Francisco, CA 94105\n\nINVOICE\nInvoice No: INV-2026-0418\nInvoice Date: April 18, 2026\nDue Date: May 18, 2026\n\nBill To: Brightline Analytics Inc.\n\nDescription            Qty   Unit Price    Amount\nData pipeline setup      1    $4,500.00   $4,500.00\n\nTotal due: $4,500.00';

describe('isotonic map', () => {
  it('is monotone, pools violators and gives each block its share right', () => {
    const map = fitIsotonic([
      { confidence: 0.2, correct: false }, { confidence: 0.3, correct: true }, { confidence: 0.4, correct: false },
      { confidence: 0.8, correct: true }, { confidence: 0.9, correct: true },
    ]);
    expect(map.y).toEqual([...map.y].sort((a, b) => a - b));
    expect(map.x).toEqual([0.2, 0.35, 0.8, 0.9]);
    expect(map.y).toEqual([0, 0.5, 1, 1]);
    expect(applyMap(map, 0.1)).toBe(0);
    expect(applyMap(map, 0.6)).toBe(0.778);
    expect(applyMap(map, 0.95)).toBe(1);
  });
});

describe.each(dbModes())('confidence per account (%s database)', (mode) => {
  let s: TestServer;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    s = await startTestServer(mode);
    await s.db.prisma.account.create({ data: { id: 'acct_cal', plan: 'starter' } });
    await s.db.prisma.account.create({ data: { id: 'acct_cal_other', plan: 'starter' } });
    key = (await s.createKey('acct_cal')).key;
    otherKey = (await s.createKey('acct_cal_other')).key;
  });
  afterAll(async () => { await s?.close(); });

  const call = (method: string, path: string, json?: unknown, k = key) => s.fetch(path, { method, headers: { 'x-api-key': k }, ...(json === undefined ? {} : { json }) });
  const extract = async (body: Json, k = key) => (await call('POST', '/v1/extract/invoice', body, k)).json() as Promise<Json>;
  /** One review of every value, resolved as a reviewer who finds the vendor's name and address wrong would. */
  const reviewOnce = async () => {
    await extract({ document: { text: INVOICE }, review: true, reviewBelow: 1 });
    const { reviews } = await (await call('GET', '/v1/reviews?status=open&limit=1')).json();
    const review = await (await call('GET', `/v1/reviews/${reviews[0].id}`)).json();
    const data = structuredClone(review.data);
    data.vendor.name = 'Someone Else Ltd';
    data.vendor.address = null;
    expect((await call('POST', `/v1/reviews/${review.id}/resolve`, { data })).status).toBe(200);
    return review.id as string;
  };
  const calibrated = async (k = key) => (await (await call('GET', '/v1/account', undefined, k)).json()).calibratedRoutes;

  it('keeps the fitted confidences until 200 values are reviewed, then maps them on the account\'s reviews only', async () => {
    const before = await extract({ document: { text: INVOICE } });
    expect(before.evidence['/vendor/name'].confidence).toBe(0.745);
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) ids.push(await reviewOnce());
    // 16 reviews of 12 values: 192, under 200.
    expect(await calibrated()).toEqual([]);
    expect((await extract({ document: { text: INVOICE } })).evidence['/vendor/name'].confidence).toBe(0.745);
    ids.push(await reviewOnce());
    expect(await calibrated()).toEqual([{ engine: 'local', route: 'invoice', values: 204, fittedAt: expect.any(String) }]);
    // Every reviewer found the name and address wrong, and everything above them right: the account's map says so.
    const after = await extract({ document: { text: INVOICE } });
    expect(after.data.vendor).toEqual({ name: null, address: null, taxId: null });
    expect(after.withheld.map((w: Json) => [w.path, w.confidence])).toEqual([['/vendor/name', 0], ['/vendor/address', 0]]);
    expect(after.evidence['/total'].confidence).toBe(1);
    // Another account's confidences, and another route's, are untouched.
    expect((await extract({ document: { text: INVOICE } }, otherKey)).evidence['/vendor/name'].confidence).toBe(0.745);
    expect(await calibrated(otherKey)).toEqual([]);
    // Deleting reviews below 200 values drops the map: the fitted confidences again.
    expect((await call('DELETE', `/v1/reviews/${ids[0]}`)).status).toBe(200);
    expect(await calibrated()).toEqual([]);
    expect((await extract({ document: { text: INVOICE } })).evidence['/vendor/name'].confidence).toBe(0.745);
  });
});
