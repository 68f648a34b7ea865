// SIGTERM while extractions are running: every accepted request is answered, then the process exits 0.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintDashboardToken } from '../../src/auth/dashboard-tokens.js';
import { emptyAnswer } from '../support/answers.js';
import { startChildServer } from '../support/child-server.js';
import { createTestDatabase } from '../support/databases.js';
import { FakeAnthropic, schemaOf } from '../support/fake-anthropic.js';

const SECRET = 'shutdown-test-secret-0123456789-0123456789-01';

it('finishes every in-flight request on SIGTERM, refuses new connections, exits 0, and charges exactly the answers', async () => {
  const database = await createTestDatabase('embedded');
  const fake = await new FakeAnthropic().start();
  fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)), delayMs: 800 });
  const plansFile = join(mkdtempSync(join(tmpdir(), 'shutdown-plans-')), 'plans.json');
  writeFileSync(plansFile, JSON.stringify({ free: { heuPerMonth: 1_000_000, requestsPerMinute: 100_000 }, starter: { heuPerMonth: 1_000_000, requestsPerMinute: 100_000 } }));
  const server = await startChildServer({
    DATA_DIR: database.dataDir, DASHBOARD_JWT_SECRET: SECRET, PLANS_FILE: plansFile, SHUTDOWN_TIMEOUT_MS: '20000',
    ANTHROPIC_API_KEY: 'sk-ant-shutdown', ANTHROPIC_BASE_URL: fake.url,
  });
  try {
    const bearer = { authorization: `Bearer ${await mintDashboardToken(SECRET, 'acct_shutdown')}`, 'content-type': 'application/json' };
    const { key } = await (await fetch(`${server.baseUrl}/v1/keys`, { method: 'POST', headers: bearer, body: '{}' })).json();
    const inFlight = Array.from({ length: 24 }, (_, i) => fetch(`${server.baseUrl}/v1/extract/receipt`, {
      method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ document: { text: `Receipt ${i}\nTOTAL 2.00` } }),
    }));
    for (let i = 0; i < 500 && fake.requests.length < 24; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fake.requests).toHaveLength(24); // every request is accepted and running

    server.child.kill('SIGTERM');
    const answers = await Promise.all(inFlight);
    expect(answers.map((r) => r.status)).toEqual(Array(24).fill(200));
    const charged = (await Promise.all(answers.map((r) => r.json()))).reduce((sum, b) => sum + b.usage.heu, 0);
    expect(fake.abandoned).toBe(0);
    await expect(fetch(`${server.baseUrl}/healthz`)).rejects.toThrow();
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('"msg":"stopped"');

    // The ledger after the stop: exactly what was answered, nothing left reserved.
    const { openDatabase } = await import('../../src/db/database.js');
    const db = await openDatabase({ databaseUrl: undefined, dataDir: database.dataDir });
    try {
      expect((await db.prisma.usageBucket.findFirstOrThrow({ where: { accountId: 'acct_shutdown' } })).heuUsed).toBe(charged);
      expect(await db.prisma.usageRecord.count({ where: { accountId: 'acct_shutdown', state: 'reserved' } })).toBe(0);
    } finally {
      await db.close();
    }
  } finally {
    server.child.kill('SIGKILL');
    await fake.stop();
    await database.drop();
  }
}, 60_000);
