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
    // The log line is written asynchronously: it may reach the pipe just after /readyz answers.
    for (let i = 0; i < 50 && !server.output().includes('"migrationsApplied":["'); i++) await new Promise((r) => setTimeout(r, 100));
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
    // The cut request's reservation is given back once the database answers again (was: held until it expired, 15
    // minutes): the account shows only the HEU settled, and nothing stays reserved.
    await untilHeld('acct_mid', s, 0);
    expect(await heldHeu('acct_mid', s)).toBe(0);
    expect(await heuUsed()).toBe(before + charged);
  });
});

/** HEU an account has reserved by requests not settled yet. */
async function heldHeu(accountId: string, s: TestServer): Promise<number> {
  const reserved = await s.db.prisma.usageRecord.aggregate({ where: { accountId, state: 'reserved' }, _sum: { heu: true } });
  return reserved._sum.heu ?? 0;
}

/** Waits (up to 20 s) for an account's reserved HEU to come to `heu`: the meter gives reservations back in the background. */
async function untilHeld(accountId: string, s: TestServer, heu: number): Promise<void> {
  for (let i = 0; i < 200 && (await heldHeu(accountId, s)) !== heu; i++) await new Promise((r) => setTimeout(r, 100));
}

describePg('database gone silent (PostgreSQL behind a proxy that stops answering)', () => {
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
    // Short limits, so the test waits little; the defaults are 5 s to connect, 10 s a statement, 15 s an answer.
    s = await startTestServer('postgres', {
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${proxy.port}${target.pathname}`,
      DATABASE_CONNECT_TIMEOUT_MS: '1000', DATABASE_STATEMENT_TIMEOUT_MS: '1000', DATABASE_QUERY_TIMEOUT_MS: '1500',
      ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.url,
    });
  });
  afterAll(async () => {
    proxy.resume();
    await s.close();
    await proxy.down();
    await fake.stop();
    await db.drop();
  });

  const heuUsed = async () => (await (await s.fetch('/v1/account', { headers: { authorization: `Bearer ${await s.token('acct_silent')}` } })).json()).heuUsed as number;

  it('sets its time limits on each PostgreSQL session (DATABASE_STATEMENT_TIMEOUT_MS, DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS)', async () => {
    const show = async (name: string) => (await s.db.pool.query(`SHOW ${name}`)).rows[0][name];
    expect(await show('statement_timeout')).toBe('1s');
    expect(await show('idle_in_transaction_session_timeout')).toBe('1min');
    expect(s.db.pool.options).toMatchObject({ max: 10, connectionTimeoutMillis: 1000, query_timeout: 1500, keepAlive: true });
    // 0 sends none (a pooler that refuses startup parameters): the server's own setting holds.
    const { openDatabase } = await import('../../src/db/database.js');
    const plain = await openDatabase({ databaseUrl: db.databaseUrl, dataDir: db.dataDir, pool: { ...s.config.pool, max: 1, statementTimeoutMs: 0, idleInTransactionTimeoutMs: 0 } });
    try {
      expect((await plain.pool.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('0');
      expect((await plain.pool.query('SHOW idle_in_transaction_session_timeout')).rows[0].idle_in_transaction_session_timeout).toBe('0');
    } finally {
      await plain.close();
    }
  });

  it('answers 503 service_unavailable (not a hang) while the database is silent, and gives the cut request\'s reservation back once it is back', async () => {
    const { key } = await s.createKey('acct_silent');
    const extract = () => s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: 'Invoice 8\nTotal: $12.00' } } });
    expect((await extract()).status).toBe(200);
    const before = await heuUsed();

    // Every connection of the pool open and idle, as under load: the requests below get connections that went silent
    // (only the query time limit ends their wait), not new ones (which the connect time limit ends).
    await Promise.all(Array.from({ length: s.config.pool.max }, () => s.db.pool.query('SELECT pg_sleep(0.1)')));
    // In flight when the database goes silent: admitted (HEU reserved), then its charge cannot be written.
    fake.next({ kind: 'answer', input: emptyAnswer(dataSchemaFor('invoice')), delayMs: 400 });
    const pending = extract();
    await until(async () => new Response(String(fake.inFlight)), () => fake.inFlight > 0, 50);
    proxy.stall();
    const cut = await pending;
    expect(cut.status).toBe(503);
    expect(await cut.json()).toEqual(envelope503);
    expect(cut.headers.get('retry-after')).toBe('5');

    // New requests: on connections gone silent, or waiting for new ones that are never answered.
    const during = await Promise.all([extract(), s.fetch('/v1/account', { headers: { authorization: `Bearer ${await s.token('acct_silent')}` } })]);
    for (const r of during) {
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual(envelope503);
    }
    expect((await s.fetch('/readyz')).status).toBe(503);

    // The database returns (restarted: the silent connections are reset).
    proxy.resume();
    expect((await until(() => s.fetch('/readyz'), (r) => r.status === 200)).status).toBe(200);
    await untilHeld('acct_silent', s, 0);
    expect(await heldHeu('acct_silent', s)).toBe(0);
    expect(await heuUsed()).toBe(before);
    const after = await extract();
    expect(after.status).toBe(200);
    expect(await heuUsed()).toBe(before + ((await after.json()).usage.heu as number));
  }, 60_000);
});
