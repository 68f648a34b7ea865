// kill -9 in the middle of a burst of extractions and key creations, then a restart on the same database: the
// ledger still adds up, every key has its record, and no idempotency key is stuck.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintDashboardToken } from '../../src/auth/dashboard-tokens.js';
import { openDatabase } from '../../src/db/database.js';
import { Meter, RESERVATION_TTL_MS } from '../../src/metering/meter.js';
import { loadPlans } from '../../src/config/plans.js';
import { emptyAnswer } from '../support/answers.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { createTestDatabase, dbModes } from '../support/databases.js';
import { FakeAnthropic, schemaOf } from '../support/fake-anthropic.js';

const SECRET = 'crash-test-secret-0123456789-0123456789-0123';
const ACCOUNT = 'acct_crash';

describe.each(dbModes())('kill -9 during a burst (%s database)', (mode) => {
  it('loses and double-counts nothing beyond the reservation expiry; keys and idempotency records stay whole', async () => {
    const database = await createTestDatabase(mode);
    const fake = await new FakeAnthropic().start();
    let n = 0;
    fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)), delayMs: 20 + ((n++ * 37) % 200) });
    const plansFile = join(mkdtempSync(join(tmpdir(), 'crash-plans-')), 'plans.json');
    writeFileSync(plansFile, JSON.stringify({ free: { heuPerMonth: 1_000_000, requestsPerMinute: 100_000 }, starter: { heuPerMonth: 1_000_000, requestsPerMinute: 100_000 } }));
    const env = {
      DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl ?? '', DASHBOARD_JWT_SECRET: SECRET, PLANS_FILE: plansFile,
      ANTHROPIC_API_KEY: 'sk-ant-crash', ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_MAX_RETRIES: '0',
    };
    let server: ChildServer | undefined;
    try {
      server = await startChildServer(env);
      const bearer = { authorization: `Bearer ${await mintDashboardToken(SECRET, ACCOUNT)}`, 'content-type': 'application/json' };
      const base = server.baseUrl;
      const { key } = await (await fetch(`${base}/v1/keys`, { method: 'POST', headers: bearer, body: '{}' })).json();

      // The burst: extractions (single and batch) and key creations with idempotency keys, all at once.
      const charged: number[] = [];
      const created = new Map<string, string>(); // idempotency key -> key id answered with 201
      const extraction = (i: number) => fetch(`${base}/v1/extract/${i % 5 === 0 ? 'batch' : 'receipt'}`, {
        method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify(i % 5 === 0
          ? { items: [0, 1, 2].map((j) => ({ id: `i${j}`, kind: 'receipt', document: { text: `Receipt ${i}.${j}\nTOTAL 4.00` } })) }
          : { document: { text: `Receipt ${i}\nTOTAL 4.00` } }),
      }).then(async (r) => { if (r.status === 200) charged.push((await r.json()).usage.heu); }, () => undefined);
      const creation = (i: number) => fetch(`${base}/v1/keys`, { method: 'POST', headers: { ...bearer, 'x-idempotency-key': `crash-${i}` }, body: JSON.stringify({ name: `k${i}` }) })
        .then(async (r) => { if (r.status === 201) created.set(`crash-${i}`, (await r.json()).id); }, () => undefined);
      let finished = 0;
      const burst = [...Array.from({ length: 60 }, (_, i) => extraction(i)), ...Array.from({ length: 20 }, (_, i) => creation(i))]
        .map((p) => p.finally(() => { finished++; }));

      // Kill it once some answers are out and others are still running (bounded generously: CI machines are busy).
      for (let i = 0; i < 1500 && charged.length < 5; i++) await new Promise((r) => setTimeout(r, 20));
      expect(charged.length).toBeGreaterThanOrEqual(5);
      server.child.kill('SIGKILL');
      const finishedBeforeKill = finished;
      expect(finishedBeforeKill).toBeLessThan(burst.length);
      expect((await server.exited).signal).toBe('SIGKILL');
      await Promise.all(burst);
      expect(charged.length).toBeGreaterThan(0);
      expect(charged.length).toBeLessThan(60);

      // Restart on the same data: it serves, and no idempotency key is stuck.
      server = await startChildServer(env);
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      for (let i = 0; i < 20; i++) {
        const again = await fetch(`${server.baseUrl}/v1/keys`, { method: 'POST', headers: { ...bearer, 'x-idempotency-key': `crash-${i}` }, body: JSON.stringify({ name: `k${i}` }) });
        const body = await again.json();
        if (created.has(`crash-${i}`)) {
          expect([again.status, body.id]).toEqual([200, created.get(`crash-${i}`)]);
        } else {
          expect([200, 201]).toContain(again.status); // committed before the kill (answer lost) or never: both whole
        }
      }
      const after = await fetch(`${server.baseUrl}/v1/extract/receipt`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ document: { text: 'Receipt after\nTOTAL 1.00' } }) });
      expect(after.status).toBe(200);
      charged.push((await after.json()).usage.heu);
      server.child.kill('SIGTERM');
      expect((await server.exited).code).toBe(0);
      server = undefined;

      // The ledger, read straight from the database.
      const db = await openDatabase({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
      try {
        const sum = async (state: 'settled' | 'reserved') => (await db.prisma.usageRecord.aggregate({ where: { accountId: ACCOUNT, state }, _sum: { heu: true } }))._sum.heu ?? 0;
        const bucket = async () => (await db.prisma.usageBucket.findFirstOrThrow({ where: { accountId: ACCOUNT } })).heuUsed;
        const settled = await sum('settled');
        // Every answer the caller got was charged; a charge whose answer the kill cut off is the only excess.
        const answered = charged.reduce((a, b) => a + b, 0);
        expect(settled).toBeGreaterThanOrEqual(answered);
        expect(await bucket()).toBe(settled + (await sum('reserved')));
        // Once the dead requests' reservations expire, the sweeper gives them back: the bucket is what was settled.
        await new Meter(db.sql, loadPlans(plansFile), 'http://x').releaseExpired(new Date(Date.now() + RESERVATION_TTL_MS + 60_000));
        expect(await sum('reserved')).toBe(0);
        expect(await bucket()).toBe(settled);

        // Every key made with an idempotency key has its record, and every record its key.
        const keys = await db.prisma.apiKey.findMany({ where: { accountId: ACCOUNT, name: { startsWith: 'k' } } });
        const records = await db.prisma.idempotencyRecord.findMany({ where: { accountId: ACCOUNT } });
        expect(records.every((r) => r.apiKeyId !== null && keys.some((k) => k.id === r.apiKeyId))).toBe(true);
        expect(keys.every((k) => records.some((r) => r.apiKeyId === k.id))).toBe(true);
        expect(keys).toHaveLength(20);
      } finally {
        await db.close();
      }
    } finally {
      server?.child.kill('SIGKILL');
      await fake.stop();
      await database.drop();
    }
  }, 90_000);
});
