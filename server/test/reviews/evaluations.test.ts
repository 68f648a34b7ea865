// Evaluations as a caller sees them: an uploaded set in the corpus format, or the account's resolved reviews, scored
// per route and field with ECE, AUROC and precision/recall at thresholds; charged as extraction; read back; another
// account's is 404; documents added to an earlier evaluation are reported with it.
import { dbModes } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/harness.js';

type Json = Record<string, any>;

const INVOICE = 'ACME CLOUD SUPPLY LLC\n500 Market Street, San Francisco, CA 94105\n\nINVOICE\nInvoice No: INV-2026-0418\nInvoice Date: April 18, 2026\nDue Date: May 18, 2026\n\nBill To: Brightline Analytics Inc.\n\nDescription            Qty   Unit Price    Amount\nData pipeline setup      1    $4,500.00   $4,500.00\n\nTotal due: $4,500.00';
const EXPECTED = {
  invoiceNumber: 'INV-2026-0418', issueDate: '2026-04-18', dueDate: '2026-05-18',
  vendor: { name: 'ACME CLOUD SUPPLY LLC', address: '500 Market Street, San Francisco, CA 94105', taxId: null },
  customer: { name: 'Brightline Analytics Inc.', address: null, taxId: null },
  lineItems: [{ description: 'Data pipeline setup', quantity: 1, unitPrice: 4500, amount: 4500 }],
  subtotal: null, tax: null, total: 4500, currency: 'USD',
};

describe.each(dbModes())('evaluations (%s database)', (mode) => {
  let s: TestServer;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    s = await startTestServer(mode);
    await s.db.prisma.account.create({ data: { id: 'acct_eval', plan: 'starter' } });
    await s.db.prisma.account.create({ data: { id: 'acct_eval_other', plan: 'starter' } });
    key = (await s.createKey('acct_eval')).key;
    otherKey = (await s.createKey('acct_eval_other')).key;
  });
  afterAll(async () => { await s?.close(); });

  const call = (method: string, path: string, json?: unknown, k = key) => s.fetch(path, { method, headers: { 'x-api-key': k }, ...(json === undefined ? {} : { json }) });
  const heuUsed = async (account = 'acct_eval') => (await s.db.prisma.usageBucket.findMany({ where: { accountId: account } })).reduce((n, b) => n + b.heuUsed, 0);

  it('refuses to evaluate on labelled examples the account does not have (400), charging nothing', async () => {
    const res = await call('POST', '/v1/evaluations', {});
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('invalid_request');
    expect(await heuUsed()).toBe(0);
  });

  it('scores an uploaded set per route and field, charges it as extraction, and reads it back', async () => {
    const wrong = { ...EXPECTED, total: 9999, vendor: { ...EXPECTED.vendor, name: 'Another Vendor' } };
    const res = await call('POST', '/v1/evaluations', { examples: [
      { route: 'invoice', document: { text: INVOICE }, expected: EXPECTED },
      { route: 'invoice', document: { text: INVOICE }, expected: wrong },
      { route: 'invoice', document: { text: '   ' }, expected: EXPECTED },
    ] });
    expect(res.status).toBe(200);
    const evaluation = await res.json();
    expect(evaluation).toMatchObject({ source: 'uploaded', model: 'local-rules-1', documents: 3, failures: [{ index: 2, code: 'invalid_request' }] });
    const invoice = evaluation.routes.find((r: Json) => r.route === 'invoice');
    expect(invoice.documents).toBe(2);
    const field = (name: string) => invoice.fields.find((f: Json) => f.field === name);
    expect(field('total')).toEqual({ field: 'total', tp: 1, fp: 1, fn: 1, precision: 0.5, recall: 0.5, f1: 0.5 });
    expect(field('invoiceNumber')).toMatchObject({ tp: 2, fp: 0, fn: 0, f1: 1 });
    expect(evaluation.values).toBe(24);
    expect(evaluation.thresholds.map((t: Json) => t.threshold)).toEqual([0.5, 0.6, 0.7, 0.8, 0.9]);
    expect(evaluation.ece).toBeGreaterThan(0);
    expect(evaluation.auroc).toBeGreaterThan(0.5);
    expect(evaluation.usage.heu).toBe(2);
    expect(await heuUsed()).toBe(2);
    const read = await call('GET', `/v1/evaluations/${evaluation.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(evaluation);
    expect((await call('GET', `/v1/evaluations/${evaluation.id}`, undefined, otherKey)).status).toBe(404);
    // More documents added to it: the report covers all of them.
    const more = await (await call('POST', '/v1/evaluations', { evaluationId: evaluation.id, examples: [{ route: 'invoice', document: { text: INVOICE }, expected: EXPECTED }] })).json();
    expect(more).toMatchObject({ id: evaluation.id, documents: 4, values: 36 });
    expect(more.routes[0].documents).toBe(3);
    expect((await call('POST', '/v1/evaluations', { evaluationId: evaluation.id, examples: [{ route: 'invoice', document: { text: INVOICE }, expected: EXPECTED }] }, otherKey)).status).toBe(404);
  });

  it('evaluates on the account\'s resolved reviews (labelled examples)', async () => {
    await call('POST', '/v1/extract/invoice', { document: { text: INVOICE }, review: true, reviewBelow: 0.8 });
    const { reviews } = await (await call('GET', '/v1/reviews')).json();
    const review = await (await call('GET', `/v1/reviews/${reviews[0].id}`)).json();
    await call('POST', `/v1/reviews/${review.id}/resolve`, { data: { ...review.data, vendor: { ...review.data.vendor, address: null } } });
    const res = await call('POST', '/v1/evaluations', { route: 'invoice' });
    expect(res.status).toBe(200);
    const evaluation = await res.json();
    expect(evaluation).toMatchObject({ source: 'labelled', documents: 1, failures: [] });
    expect(evaluation.routes[0].fields.find((f: Json) => f.field === 'vendor')).toMatchObject({ tp: 1, fp: 1, fn: 0 });
    expect((await call('POST', '/v1/evaluations', { route: 'receipt' })).status).toBe(400);
  });
});
