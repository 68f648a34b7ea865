// The bucket holds under any mix: random documents (a word to a 190,000-character single line), fixed routes,
// custom schemas and batches, sent concurrently against a small plan. After every request has been answered, the
// month's heuUsed never exceeds heuLimit, and it equals exactly the HEU the 200 answers reported (nothing reserved is
// left, nothing unanswered is charged). Both databases.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { dbModes } from './support/databases.js';
import { startTestServer, type TestServer } from './support/harness.js';

type Json = Record<string, any>;
const HEU_LIMIT = 30;
const KINDS = ['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal'] as const;
const WORDS = ['Invoice', 'No:', 'INV-7', 'Total', 'due:', '$4,500.00', 'Vendor:', 'Cloudnest', 'Inc.', 'renews', 'automatically', 'Attendees:', 'Ana', '2026-04-18', '\n'];

const documentText = fc.oneof(
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 60 }).map((w) => w.join(' ')),
  fc.integer({ min: 1_000, max: 190_000 }).map((n) => 'Vendor: Acme Ltd Total 3.00 '.repeat(Math.ceil(n / 28)).slice(0, n)), // one long line
  fc.integer({ min: 1_000, max: 60_000 }).map((n) => 'Invoice No: INV-7\nTotal due: $4,500.00\n'.repeat(Math.ceil(n / 38)).slice(0, n)),
);
const customSchema = fc.constantFrom(
  { type: 'object', properties: { vendor: { type: 'string' }, total: { type: 'number' } } },
  { type: 'object', properties: { items: { type: 'array', items: { type: 'object', properties: { d: { type: 'string' }, n: { type: 'number' } } } } } },
);
const single = fc.oneof(
  fc.record({ kind: fc.constantFrom(...KINDS), text: documentText }).map(({ kind, text }) => ({ path: `/v1/extract/${kind}`, body: { document: { text } } })),
  fc.record({ schema: customSchema, text: documentText }).map(({ schema, text }) => ({ path: '/v1/extract/custom', body: { document: { text }, schema } })),
);
const batch = fc.array(fc.record({ kind: fc.constantFrom(...KINDS), text: documentText }), { minLength: 1, maxLength: 6 })
  .map((items) => ({ path: '/v1/extract/batch', body: { items: items.map((it, i) => ({ id: `i${i}`, document: { text: it.text }, kind: it.kind })) } }));
const requests = fc.array(fc.oneof(single, batch), { minLength: 1, maxLength: 8 });

describe.each(dbModes())('the HEU bucket under random load (%s database)', (mode) => {
  let s: TestServer;
  beforeAll(async () => {
    const plans = join(mkdtempSync(join(tmpdir(), 'metering-property-')), 'plans.json');
    writeFileSync(plans, JSON.stringify({ free: { heuPerMonth: HEU_LIMIT, requestsPerMinute: 100_000 }, starter: { heuPerMonth: 10_000, requestsPerMinute: 100_000 } }));
    s = await startTestServer(mode, { PLANS_FILE: plans });
  });
  afterAll(async () => { await s.close(); });

  let run = 0;
  const seen = new Map<number, number>();
  it('never passes heuLimit, and charges exactly what the answers report', async () => {
    await fc.assert(fc.asyncProperty(requests, async (reqs) => {
      const account = `acct_prop_${mode}_${run++}`;
      const { key } = await s.createKey(account);
      const answers = await Promise.all(reqs.map(async (r) => {
        const res = await s.fetch(r.path, { method: 'POST', headers: { 'x-api-key': key }, json: r.body });
        return { status: res.status, body: (await res.json()) as Json };
      }));
      for (const a of answers) {
        expect([200, 402, 429]).toContain(a.status);
        seen.set(a.status, (seen.get(a.status) ?? 0) + 1);
      }
      const reported = answers.filter((a) => a.status === 200).reduce((sum, a) => sum + a.body.usage.heu, 0);
      const summary = (await (await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).json()) as Json;
      expect(summary.heuUsed).toBeLessThanOrEqual(HEU_LIMIT);
      expect(summary.heuUsed).toBe(reported);
      const { rows } = await s.db.pool.query(`SELECT count(*)::int AS n FROM usage_records WHERE account_id = $1 AND state = 'reserved'`, [account]);
      expect(rows[0].n).toBe(0);
    }), { seed: 20261123, numRuns: 12, endOnFailure: true });
    // The runs reached both sides of the limit: answered work, and work refused for want of HEU.
    expect(seen.get(200) ?? 0).toBeGreaterThan(0);
    expect((seen.get(402) ?? 0) + (seen.get(429) ?? 0)).toBeGreaterThan(0);
  }, 120_000);
});
