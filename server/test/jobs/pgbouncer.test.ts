// The service through PgBouncer in transaction mode (docs/deploy.md, "Connection budget and PgBouncer"): PgBouncer
// (Debian's package) on 127.0.0.1 in front of the test PostgreSQL, pool_mode = transaction, and the service with
// DATABASE_POOLER=transaction. In that mode a server session lasts one transaction
// (https://www.pgbouncer.org/features.html): the service names no prepared statement (PgBouncer 1.18 keeps none
// across sessions) and takes no session advisory lock (pg-boss's install lock is a transaction lock there); the
// startup parameters PgBouncer does not know (statement_timeout, idle_in_transaction_session_timeout) are ignored by
// `ignore_startup_parameters`, as the recipe says. Jobs are accepted, run by the worker and charged exactly.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createTestDatabase, dbModes, type TestDatabase } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { Meter } from '../../src/metering/meter.js';

const PGBOUNCER = ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer'].find((p) => existsSync(p));
const run = PGBOUNCER && dbModes().includes('postgres') ? describe : describe.skip;
type Json = Record<string, any>;
const INVOICE = 'ACME LLC\nInvoice No: INV-7\nInvoice Date: 2026-04-18\nTotal due: $4,500.00';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

run('the service through PgBouncer in transaction mode', () => {
  let bouncer: ChildProcess;
  let dir: string;
  let database: TestDatabase;
  let s: TestServer;
  let bouncerUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const direct = new URL(database.databaseUrl!);
    const dbName = direct.pathname.slice(1);
    dir = mkdtempSync(join(tmpdir(), 'docextract-pgbouncer-'));
    chmodSync(dir, 0o777);
    const port = await freePort();
    writeFileSync(join(dir, 'pgbouncer.ini'), [
      '[databases]',
      `${dbName} = host=127.0.0.1 port=${direct.port} dbname=${dbName} user=${direct.username}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      'default_pool_size = 8',
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits,statement_timeout,idle_in_transaction_session_timeout',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'));
    // PgBouncer refuses to run as root: as the postgres user then (as the test cluster runs).
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('chown', ['-R', 'postgres', dir]);
    bouncer = asRoot
      ? spawn('runuser', ['-u', 'postgres', '--', PGBOUNCER!, join(dir, 'pgbouncer.ini')], { stdio: 'ignore' })
      : spawn(PGBOUNCER!, [join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    bouncerUrl = `postgresql://${direct.username}@127.0.0.1:${port}/${dbName}`;
    for (let i = 0; ; i++) {
      const c = new pg.Client({ connectionString: bouncerUrl });
      try {
        await c.connect();
        await c.end();
        break;
      } catch (e) {
        await c.end().catch(() => {});
        if (i > 100) throw e;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    s = await startTestServer('postgres', { DATABASE_URL: bouncerUrl, DATABASE_POOLER: 'transaction', JOB_POLL_INTERVAL_MS: '100', JOB_CONCURRENCY: '4' }, undefined, { worker: false });
    await s.db.prisma.account.create({ data: { id: 'acct_bouncer', plan: 'starter' } });
    // The queue installed and the worker started through PgBouncer too.
    await s.jobs.start({ worker: true });
  }, 120_000);

  afterAll(async () => {
    await s?.close();
    bouncer?.kill('SIGTERM');
    await new Promise((r) => (bouncer && bouncer.exitCode === null ? bouncer.once('exit', r) : r(null)));
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('accepts, runs and charges jobs through PgBouncer, with no reservation left', async () => {
    expect(s.config.databaseUrl).toBe(bouncerUrl);
    const { key } = await s.createKey('acct_bouncer');
    const res = await s.fetch('/v1/jobs/batch', { method: 'POST', headers: { 'x-api-key': key }, json: { route: 'invoice', items: Array.from({ length: 12 }, (_, i) => ({ document: { text: `${INVOICE}\nLine ${i}` } })) } });
    expect(res.status).toBe(202);
    const ids = ((await res.json()) as Json).jobs.map((j: Json) => j.id as string);
    for (const id of ids) {
      for (let i = 0; ; i++) {
        const job = (await (await s.fetch(`/v1/jobs/${id}`, { headers: { 'x-api-key': key } })).json()) as Json;
        if (job.status === 'succeeded') break;
        expect(['queued', 'running']).toContain(job.status);
        if (i > 1200) throw new Error(`job ${id} did not finish`);
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const listed = (await (await s.fetch('/v1/jobs?status=succeeded', { headers: { 'x-api-key': key } })).json()) as Json;
    expect(listed.jobs).toHaveLength(12);
    await new Meter(s.db.sql, s.config.plans, 'http://x').fold();
    const account = (await (await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).json()) as Json;
    const settled = await s.db.prisma.usageRecord.aggregate({ where: { accountId: 'acct_bouncer', state: 'settled' }, _sum: { heu: true } });
    expect(account.heuUsed).toBe(settled._sum.heu);
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_bouncer', state: 'reserved' } })).toBe(0);
    // The service's sessions came through PgBouncer.
    expect(readFileSync(join(dir, 'pgbouncer.log'), 'utf8')).toMatch(/login attempt: db=/);
  }, 120_000);
});
