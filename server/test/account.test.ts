import { dbModes } from './support/databases.js';
import { startTestServer, TestClock, type TestServer } from './support/harness.js';

describe.each(dbModes())('GET /v1/account (%s database)', (mode) => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer(mode, {}, new TestClock(new Date('2026-11-22T10:00:00.000Z'))); });
  afterAll(async () => { await s.close(); });

  it('answers every field of the summary, with heuUsed from this UTC month only', async () => {
    const { key } = await s.createKey('acct_summary');
    await s.db.prisma.usageBucket.createMany({
      data: [
        { accountId: 'acct_summary', periodStart: new Date('2026-10-01T00:00:00.000Z'), heuUsed: 77 },
        { accountId: 'acct_summary', periodStart: new Date('2026-11-01T00:00:00.000Z'), heuUsed: 12 },
      ],
    });
    const byKey = await s.fetch('/v1/account', { headers: { 'x-api-key': key } });
    expect(byKey.status).toBe(200);
    const summary = await byKey.json();
    expect(summary).toEqual({
      id: 'acct_summary',
      plan: 'free',
      status: 'active',
      heuLimit: 100,
      heuUsed: 12,
      periodStart: '2026-11-01T00:00:00.000Z',
      requestsPerMinute: 10,
      activeKeyCount: 1,
      hasBillingCustomer: false,
      currentPeriodEnd: null,
      cancelAt: null,
      priorPlan: null,
      subscriptionEndedAt: null,
      createdAt: expect.any(String),
      calibratedRoutes: [],
    });
    const byToken = await s.fetch('/v1/account', { headers: { authorization: `Bearer ${await s.token('acct_summary')}` } });
    expect(await byToken.json()).toEqual(summary);
  });

  it('counts the keys that are not revoked as activeKeyCount', async () => {
    const first = await s.createKey('acct_key_count');
    const second = await s.createKey('acct_key_count');
    await s.createKey('acct_key_count');
    const count = async () => (await (await s.fetch('/v1/account', { headers: { 'x-api-key': first.key } })).json()).activeKeyCount;
    expect(await count()).toBe(3);
    await s.db.prisma.apiKey.update({ where: { id: second.id }, data: { revokedAt: new Date() } });
    expect(await count()).toBe(2);
  });

  it("shows each caller only its own account", async () => {
    const a = await s.createKey('acct_a');
    const b = await s.createKey('acct_b');
    expect((await (await s.fetch('/v1/account', { headers: { 'x-api-key': a.key } })).json()).id).toBe('acct_a');
    expect((await (await s.fetch('/v1/account', { headers: { 'x-api-key': b.key } })).json()).id).toBe('acct_b');
  });

  // The suite runs in Pacific/Auckland (global-setup), so an instant read in the process's zone would be off here.
  it('answers stored instants exactly, whatever time zone the process runs in', async () => {
    await s.db.prisma.account.create({
      data: { id: 'acct_zone', plan: 'starter', status: 'active', currentPeriodEnd: new Date('2026-12-22T10:00:00.000Z'), cancelAt: new Date('2026-12-22T10:00:00.000Z'), createdAt: new Date('2026-11-02T23:30:00.000Z') },
    });
    const res = await s.fetch('/v1/account', { headers: { authorization: `Bearer ${await s.token('acct_zone')}` } });
    expect(await res.json()).toMatchObject({ currentPeriodEnd: '2026-12-22T10:00:00.000Z', cancelAt: '2026-12-22T10:00:00.000Z', createdAt: '2026-11-02T23:30:00.000Z' });
  });

  it('follows the plan table: a starter account shows its limits', async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_paid', plan: 'starter' } });
    const res = await s.fetch('/v1/account', { headers: { authorization: `Bearer ${await s.token('acct_paid')}` } });
    expect(await res.json()).toMatchObject({ plan: 'starter', heuLimit: 10000, requestsPerMinute: 120 });
  });
});

describe('plans from PLANS_FILE', () => {
  it('overrides the plan table', async () => {
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'plans-')), 'plans.json');
    writeFileSync(file, JSON.stringify({ free: { heuPerMonth: 5, requestsPerMinute: 2 }, starter: { heuPerMonth: 50, requestsPerMinute: 20 } }));
    const s = await startTestServer('embedded', { PLANS_FILE: file });
    try {
      const res = await s.fetch('/v1/account', { headers: { authorization: `Bearer ${await s.token('acct_plans')}` } });
      expect(await res.json()).toMatchObject({ heuLimit: 5, requestsPerMinute: 2 });
    } finally {
      await s.close();
    }
  });
});

// The product decision (the first valid token for an unknown `sub` creates its account on the free plan) holds on a
// development service too, which is what `npm start` runs: a partner trying it meets the free plan's limits.
describe('the plan a new account starts on', () => {
  let dev: TestServer;
  beforeAll(async () => { dev = await startTestServer('embedded', { NODE_ENV: 'development' }); }, 60_000);
  afterAll(async () => { await dev.close(); });
  const summary = async (server: TestServer, account: string) =>
    (await server.fetch('/v1/account', { headers: { authorization: `Bearer ${await server.token(account)}` } })).json();

  it('is free on a development service, as on the test suite\'s (NODE_ENV=test)', async () => {
    expect(await summary(dev, 'acct_local')).toMatchObject({ id: 'acct_local', plan: 'free', heuLimit: 100, requestsPerMinute: 10 });
    expect(await summary(dev, 'acct_partner')).toMatchObject({ id: 'acct_partner', plan: 'free', heuLimit: 100, requestsPerMinute: 10 });
    const test = await startTestServer('embedded');
    try {
      expect(await summary(test, 'acct_local')).toMatchObject({ plan: 'free', heuLimit: 100 });
    } finally {
      await test.close();
    }
  }, 120_000);

  it('leaves an existing account on its plan', async () => {
    await dev.db.prisma.account.create({ data: { id: 'acct_old', plan: 'starter' } });
    expect(await summary(dev, 'acct_old')).toMatchObject({ plan: 'starter', heuLimit: 10000 });
  });

  it('is NEW_ACCOUNT_PLAN when set', async () => {
    const starter = await startTestServer('embedded', { NODE_ENV: 'development', NEW_ACCOUNT_PLAN: 'starter' });
    try {
      expect(await summary(starter, 'acct_new')).toMatchObject({ plan: 'starter', heuLimit: 10000, requestsPerMinute: 120 });
    } finally {
      await starter.close();
    }
  }, 120_000);
});
