// The database going away and coming back, through a proxy the test cuts: at start, and in the middle of traffic.
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, dbModes, type TestDatabase } from '../support/databases.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { mintDashboardToken } from '../../src/auth/dashboard-tokens.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { FakeAnthropic } from '../support/fake-anthropic.js';
import { emptyAnswer } from '../support/answers.js';
import { dataSchemaFor } from '../../src/extraction/schemas/contract-schemas.js';

const pgUrl = process.env.TEST_PG_URL;
const describePg = dbModes().includes('postgres') ? describe : describe.skip;

/** Asks until `ok` or `tries` run out; answers the last response. */
async function until(fetcher: () => Promise<Response>, ok: (r: Response) => boolean, tries = 200): Promise<Response> {
  let res = await fetcher();
  for (let i = 0; i < tries && !ok(res); i++) {
    await new Promise((r) => setTimeout(r, 100));
    res = await fetcher();
  }
  return res;
}

const envelope503 = { error: { code: 'service_unavailable', message: expect.any(String), details: null } };

describePg('database down at start (PostgreSQL behind a proxy)', () => {
  let server: ChildServer | undefined;
  let proxy: TcpProxy;
  const name = `t_empty_${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`); // empty: the service must migrate it once it can reach it
    await admin.end();
    const target = new URL(pgUrl!);
    proxy = await new TcpProxy(target.hostname, Number(target.port)).reserve();
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await proxy.down();
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });

  it('starts anyway, answers 503 and /readyz false, then migrates and serves once the database is back, without a restart', async () => {
    server = await startChildServer({
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${proxy.port}/${name}`,
      DATA_DIR: mkdtempSync(join(tmpdir(), 'down-start-')),
      DASHBOARD_JWT_SECRET: 'database-down-secret-0123456789-0123456789',
    });
    const token = await mintDashboardToken('database-down-secret-0123456789-0123456789', 'acct_down_start');
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ ready: false, database: 'down' });
    const refused = await fetch(`${server.baseUrl}/v1/account`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual(envelope503);

    await proxy.up();
    const back = await until(() => fetch(`${server!.baseUrl}/readyz`), (r) => r.status === 200);
    expect(await back.json()).toEqual({ ready: true, database: 'up' });
    expect(server.output()).toContain('"migrationsApplied":["');
    const account = await fetch(`${server.baseUrl}/v1/account`, { headers: { authorization: `Bearer ${token}` } });
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ id: 'acct_down_start', heuUsed: 0 });
    expect(server.child.exitCode).toBeNull();
  });
});

describePg('database down mid-request (PostgreSQL behind a proxy)', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let s: TestServer;
  let fake: FakeAnthropic;

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    const target = new URL(db.databaseUrl!);
    proxy = await new TcpProxy(target.hostname, Number(target.port)).up();
    fake = await new FakeAnthropic().start();
    fake.fallback = () => ({ kind: 'answer', input: emptyAnswer(dataSchemaFor('invoice')) });
    s = await startTestServer('postgres', {
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${proxy.port}${target.pathname}`,
      ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.url,
    });
  });
  afterAll(async () => {
    await s.close();
    await proxy.down();
    await fake.stop();
    await db.drop();
  });

  const heuUsed = async () => (await (await s.fetch('/v1/account', { headers: { authorization: `Bearer ${await s.token('acct_mid')}` } })).json()).heuUsed as number;

  it('answers 503 service_unavailable while it is gone, charges nothing it did not settle, and recovers by itself', async () => {
    const { key } = await s.createKey('acct_mid');
    const extract = () => s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: 'Invoice 7\nTotal: $10.00' } } });
    expect((await extract()).status).toBe(200);
    const before = await heuUsed();

    // The database goes away while the model is answering: the charge cannot be settled.
    fake.next({ kind: 'answer', input: emptyAnswer(dataSchemaFor('invoice')), delayMs: 400 });
    const pending = extract();
    await until(async () => new Response(String(fake.inFlight)), () => fake.inFlight > 0, 50);
    await proxy.down();
    const cut = await pending;
    expect(cut.status).toBe(503);
    expect(await cut.json()).toEqual(envelope503);

    const ready = await s.fetch('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ ready: false, database: 'down' });
    const account = await s.fetch('/v1/account', { headers: { authorization: `Bearer ${await s.token('acct_mid')}` } });
    expect(account.status).toBe(503);
    expect(await account.json()).toEqual(envelope503);
    const during = await extract();
    expect(during.status).toBe(503);

    await proxy.up();
    expect((await until(() => s.fetch('/readyz'), (r) => r.status === 200)).status).toBe(200);
    const after = await extract();
    expect(after.status).toBe(200);
    const charged = (await after.json()).usage.heu as number;
    // The cut request's reservation is held until it expires (then given back); nothing else was charged.
    const reserved = await s.db.prisma.usageRecord.aggregate({ where: { accountId: 'acct_mid', state: 'reserved' }, _sum: { heu: true } });
    expect(await heuUsed()).toBe(before + charged + (reserved._sum.heu ?? 0));
    const { Meter } = await import('../../src/metering/meter.js');
    await new Meter(s.db.sql, s.config.plans, 'http://x').releaseExpired(new Date(Date.now() + 60 * 60 * 1000));
    expect(await heuUsed()).toBe(before + charged);
  });
});
