// The operator's admin command as it runs in the image: the compiled `node server/dist/admin/cli.js` (what
// `npm run admin --` runs; jest's global setup builds it) in a process of its own, with production settings, against a
// fresh database. Its output and exit status, the database as it then stands, and the service on that database
// accepting the key and the session it printed.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import pg from 'pg';
import { readMigrationsList } from '../src/db/migrate.js';
import { createTestDatabase, dbModes, type TestDatabase } from './support/databases.js';
import { startChildServer } from './support/child-server.js';
import { TEST_SECRET } from './support/harness.js';

const root = new URL('../..', import.meta.url).pathname;

interface Run { code: number; stdout: string; stderr: string }

/** Runs the compiled admin command with exactly this environment (no `.env` read: ENV_FILE empty). */
function admin(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['server/dist/admin/cli.js', ...args], { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ENV_FILE: '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
  });
}

const KEY = /^dx_live_[A-Za-z0-9]{43}$/;

describe.each(dbModes())('npm run admin (%s database, NODE_ENV=production)', (mode) => {
  let db: TestDatabase;
  let env: Record<string, string>;
  const run = (...args: string[]) => admin(args, env);
  const accounts = async () => {
    const listed = await run('list-accounts', '--json');
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    return JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
  };
  /** Every output must be free of the configured secrets (the only secret printed is the one asked for). */
  const noSecrets = (r: Run) => {
    for (const text of [r.stdout, r.stderr]) {
      expect(text).not.toContain(TEST_SECRET);
      if (db.databaseUrl) expect(text).not.toContain(db.databaseUrl);
    }
    return r;
  };

  beforeAll(async () => {
    db = await createTestDatabase(mode);
    env = {
      NODE_ENV: 'production', DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? '', DASHBOARD_JWT_SECRET: TEST_SECRET,
      // The embedded database in production only because the test says so (config.test.ts tests the refusal).
      ALLOW_EMBEDDED_DATABASE: 'true',
    };
  });
  afterAll(async () => { await db.drop(); });

  it('says how it is used: help on stdout (exit 0); no command, or an unknown one, on stderr (exit 2)', async () => {
    const help = await run('help');
    expect(help.code).toBe(0);
    for (const command of ['create-account ACCOUNT [--plan free|starter]', 'list-accounts [--json]', 'set-plan ACCOUNT free|starter', 'create-key ACCOUNT [--name NAME]', 'mint-session ACCOUNT [--ttl SECONDS]', 'migrate']) {
      expect(help.stdout).toContain(command);
    }
    expect(help.stdout).toContain('Exit status: 0 done; 1 refused or failed, nothing changed; 2 wrong usage or configuration.');
    for (const args of [[], ['make-me-admin']]) {
      const wrong = await run(...args);
      expect(wrong).toMatchObject({ code: 2, stdout: '' });
      expect(wrong.stderr).toMatch(args.length ? /^docextract admin: unknown command "make-me-admin"\n/ : /^docextract admin: no command given\n/);
      expect(wrong.stderr).toContain('Usage: npm run admin -- COMMAND');
    }
  });

  it('creates an account on a plan, a key (printed once, on stdout alone) and a session; lists them; moves the plan', async () => {
    expect(await accounts()).toEqual([]);
    const created = noSecrets(await run('create-account', 'acct_ops', '--plan', 'starter'));
    expect(created).toEqual({ code: 0, stdout: 'Created account acct_ops on the starter plan: 10,000 HEU a month, 120 requests a minute.\n', stderr: '' });

    const key = noSecrets(await run('create-key', 'acct_ops', '--name', 'ops key'));
    expect(key.code).toBe(0);
    expect(key.stdout).toMatch(/^dx_live_[A-Za-z0-9]{43}\n$/);
    const raw = key.stdout.trim();
    expect(key.stderr).toMatch(/^A key for account acct_ops \(the starter plan: 10,000 HEU a month, 120 requests a minute\): "ops key", id [0-9a-f-]{36}, prefix dx_live_\w{4}\. Shown once; keep it:\n$/);
    expect(key.stderr).toContain(`prefix ${raw.slice(0, 12)}.`);
    expect(key.stderr).not.toContain(raw);

    const session = noSecrets(await run('mint-session', 'acct_ops', '--ttl', '600'));
    expect(session.code).toBe(0);
    const token = session.stdout.trim();
    expect(session.stdout).toBe(`${token}\n`);
    const claims = decodeJwt(token);
    expect(claims.sub).toBe('acct_ops');
    expect(claims.exp! - claims.iat!).toBe(600);
    expect(session.stderr).toMatch(/^A dashboard session for account acct_ops, valid until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ: paste it into the dashboard's sign-in \(Session token\)\.\n$/);

    expect(await accounts()).toEqual([{ id: 'acct_ops', plan: 'starter', status: 'active', activeKeyCount: 1, stripeSubscription: false, createdAt: expect.stringMatching(/Z$/) }]);
    const table = await run('list-accounts');
    expect(table.stdout.split('\n')).toEqual([expect.stringMatching(/^ACCOUNT +PLAN +STATUS +KEYS +CREATED$/), expect.stringMatching(/^acct_ops +starter +active +1 +\d{4}-.*Z$/), '']);

    expect(await run('set-plan', 'acct_ops', 'free')).toEqual({ code: 0, stdout: 'Moved account acct_ops from starter to the free plan: 100 HEU a month, 10 requests a minute.\n', stderr: '' });
    expect(await run('set-plan', 'acct_ops', 'free')).toEqual({ code: 0, stdout: 'Account acct_ops is on the free plan already: nothing changed.\n', stderr: '' });
    expect((await accounts()).map((a) => [a.id, a.plan, a.activeKeyCount])).toEqual([['acct_ops', 'free', 1]]);

    // The service on this database takes the key and the session as they were printed.
    const server = await startChildServer({ ...env, PORT: '0', HOST: '127.0.0.1' });
    try {
      // Its start line tells an operator where keys come from here (no local sign-in in production).
      expect(server.output()).toContain('keys: the dashboard, or npm run admin -- create-key ACCOUNT');
      const byKey = await fetch(`${server.baseUrl}/v1/account`, { headers: { 'x-api-key': raw } });
      expect(byKey.status).toBe(200);
      expect(await byKey.json()).toMatchObject({ id: 'acct_ops', plan: 'free', heuLimit: 100, requestsPerMinute: 10, activeKeyCount: 1 });
      const bySession = await fetch(`${server.baseUrl}/v1/keys`, { headers: { authorization: `Bearer ${token}` } });
      expect(bySession.status).toBe(200);
      expect((await bySession.json()).keys).toEqual([expect.objectContaining({ name: 'ops key', prefix: raw.slice(0, 12), revokedAt: null })]);
      if (mode === 'postgres') {
        // Beside a running service, a move applies to its next request.
        expect((await run('set-plan', 'acct_ops', 'starter')).code).toBe(0);
        const after = await fetch(`${server.baseUrl}/v1/account`, { headers: { 'x-api-key': raw } });
        expect(await after.json()).toMatchObject({ plan: 'starter', heuLimit: 10_000, requestsPerMinute: 120 });
        expect((await run('set-plan', 'acct_ops', 'free')).code).toBe(0);
      } else {
        // The embedded database belongs to the one process holding DATA_DIR: the command says so and changes nothing.
        const busy = await run('set-plan', 'acct_ops', 'starter');
        expect(busy).toMatchObject({ code: 1, stdout: '' });
        expect(busy.stderr).toMatch(/^docextract admin: DATA_DIR .* is in use by another docextract \(pid \d+\): stop it first/);
      }
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    expect((await accounts()).map((a) => [a.id, a.plan])).toEqual([['acct_ops', 'free']]);
  }, 180_000);

  it('refuses bad input with a clear message on stderr and its exit status, printing and changing nothing', async () => {
    const cases: Array<[string, string[], number, RegExp]> = [
      ['an account that exists', ['create-account', 'acct_ops', '--plan', 'starter'], 1, /^docextract admin: Account acct_ops exists already/],
      ['an account id the service would refuse', ['create-account', 'acct one'], 2, /^docextract admin: "acct one" is not an account id: 1 to 128 of/],
      ['a plan that is not sold', ['create-account', 'acct_gold', '--plan', 'gold'], 2, /^docextract admin: --plan must be free or starter \(not "gold"\)/],
      ['an option the command has not', ['create-account', 'acct_x', '--owner', 'me'], 2, /^docextract admin: Unknown option '--owner' \(usage: create-account ACCOUNT \[--plan free\|starter\]\)/],
      ['a missing argument', ['set-plan', 'acct_ops'], 2, /^docextract admin: set-plan takes 2 arguments \(usage: set-plan ACCOUNT free\|starter\)/],
      ['an unknown account to move', ['set-plan', 'acct_nobody', 'starter'], 1, /^docextract admin: No account acct_nobody: create it with npm run admin -- create-account acct_nobody --plan starter\./],
      ['a plan that is not sold, to move to', ['set-plan', 'acct_ops', 'enterprise'], 2, /^docextract admin: the plan must be free or starter \(not "enterprise"\)/],
      ['a key for an unknown account', ['create-key', 'acct_nobody'], 1, /^docextract admin: No account acct_nobody: create it first/],
      ['a key name over 100 characters', ['create-key', 'acct_ops', '--name', 'k'.repeat(101)], 2, /^docextract admin: --name must be 1 to 100 characters/],
      ['a session for an unknown account', ['mint-session', 'acct_nobody'], 1, /^docextract admin: No account acct_nobody: create it first/],
      ['a session longer than the service accepts', ['mint-session', 'acct_ops', '--ttl', '86401'], 2, /^docextract admin: --ttl must be 1 to 86400 seconds/],
      ['a session of a fractional second', ['mint-session', 'acct_ops', '--ttl', '1.5'], 2, /^docextract admin: --ttl must be 1 to 86400 seconds/],
    ];
    const before = await accounts();
    expect(before.find((a) => a.id === 'acct_ops')).toMatchObject({ plan: 'free', activeKeyCount: 1 });
    for (const [name, args, code, message] of cases) {
      const refused = noSecrets(await run(...args));
      expect([name, refused.code, refused.stdout]).toEqual([name, code, '']);
      expect([name, refused.stderr]).toEqual([name, expect.stringMatching(message)]);
    }
    // No account created or moved, no key made.
    expect(await accounts()).toEqual(before);
  }, 120_000);

  it('refuses a wrong configuration before opening anything (exit 2), and a session the service would not accept (exit 1)', async () => {
    const before = await accounts();
    const noSecret = await admin(['create-account', 'acct_unconfigured'], { ...env, DASHBOARD_JWT_SECRET: '' });
    expect(noSecret).toMatchObject({ code: 2, stdout: '' });
    expect(noSecret.stderr).toContain('DASHBOARD_JWT_SECRET: required in production');
    const badPlan = await admin(['create-account', 'acct_unconfigured'], { ...env, NEW_ACCOUNT_PLAN: 'gold' });
    expect(badPlan).toMatchObject({ code: 2, stdout: '' });
    expect(badPlan.stderr).toContain('NEW_ACCOUNT_PLAN');
    const provider = await admin(['mint-session', 'acct_ops'], { ...env, DASHBOARD_JWKS_URL: 'https://idp.example/.well-known/jwks.json' });
    expect(provider).toMatchObject({ code: 1, stdout: '' });
    expect(provider.stderr).toMatch(/^docextract admin: Dashboard sessions come from your identity provider here \(DASHBOARD_JWKS_URL\)/);
    expect(await accounts()).toEqual(before);
  }, 60_000);

  it('leaves npm run key and npm run token refusing in production, pointing to the admin command: no acct_local is created', async () => {
    const server = await startChildServer({ ...env, PORT: '0', HOST: '127.0.0.1' });
    try {
      // The service answers at PUBLIC_URL: without the refusal, the key would be made (and acct_local with it).
      const npm = (args: string[]) => new Promise<Run>((resolve) => {
        execFile('npm', ['run', '-s', ...args], { cwd: root, env: { PATH: process.env.PATH, HOME: process.env.HOME, ENV_FILE: '', ...env, PUBLIC_URL: server.baseUrl }, timeout: 60_000 },
          (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr }));
      });
      const key = await npm(['key']);
      expect(key).toMatchObject({ code: 2, stdout: '' });
      expect(key.stderr).toContain('npm run key is for a local service (NODE_ENV=production here)');
      expect(key.stderr).toContain('npm run admin -- create-key ACCOUNT');
      const token = await npm(['token', '--', '--account', 'acct_local']);
      expect(token).toMatchObject({ code: 2, stdout: '' });
      expect(token.stderr).toContain('npm run admin -- mint-session ACCOUNT');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    expect((await accounts()).map((a) => a.id)).not.toContain('acct_local');
  }, 120_000);

  it('creates an account on NEW_ACCOUNT_PLAN (free unless set) when no --plan is given', async () => {
    expect(await run('create-account', 'acct_default')).toMatchObject({ code: 0, stdout: 'Created account acct_default on the free plan: 100 HEU a month, 10 requests a minute.\n' });
    expect(await admin(['create-account', 'acct_configured'], { ...env, NEW_ACCOUNT_PLAN: 'starter' })).toMatchObject({ code: 0, stdout: expect.stringContaining('on the starter plan') });
    expect((await accounts()).map((a) => [a.id, a.plan, a.activeKeyCount])).toEqual([['acct_ops', 'free', 1], ['acct_default', 'free', 0], ['acct_configured', 'starter', 0]]);
  }, 60_000);

  if (mode === 'postgres') {
    it('moves an account Stripe bills, and says that Stripe\'s next event sets its plan again', async () => {
      const c = new pg.Client({ connectionString: db.databaseUrl });
      await c.connect();
      await c.query(`UPDATE accounts SET stripe_customer_id = 'cus_admin', stripe_subscription_id = 'sub_admin' WHERE id = 'acct_default'`);
      await c.end();
      const moved = await run('set-plan', 'acct_default', 'starter');
      expect(moved.code).toBe(0);
      expect(moved.stdout).toBe('Moved account acct_default from free to the starter plan: 10,000 HEU a month, 120 requests a minute.\n');
      expect(moved.stderr).toBe("Note: account acct_default has a Stripe subscription; Stripe's next event for it sets its plan again (docs/billing.md).\n");
      expect((await accounts()).find((a) => a.id === 'acct_default')).toMatchObject({ plan: 'starter', stripeSubscription: true });
    }, 60_000);
  }
});

const postgres = process.env.TEST_PG_URL ? describe : describe.skip;

postgres('npm run admin -- migrate (PostgreSQL)', () => {
  it('migrates an empty database once when two processes run it together: both exit 0, each migration applied once', async () => {
    const adminUrl = process.env.TEST_PG_URL!;
    const name = `adm_${randomBytes(5).toString('hex')}`;
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const databaseUrl = adminUrl.replace(/\/postgres$/, `/${name}`);
    try {
      const env = { NODE_ENV: 'production', DATABASE_URL: databaseUrl, DASHBOARD_JWT_SECRET: TEST_SECRET, DATA_DIR: '/nonexistent-admin-test' };
      const expected = readMigrationsList().migrationDirectories.map((d) => d.path);
      const runs = await Promise.all([admin(['migrate'], env), admin(['migrate'], env)]);
      expect(runs.map((r) => [r.code, r.stderr])).toEqual([[0, ''], [0, '']]);
      // One applied them all while the other waited on the lock, then found nothing left to do.
      expect(runs.map((r) => r.stdout).sort()).toEqual([`Applied ${expected.length} migrations: ${expected.join(', ')}.\n`, 'The database schema is current: nothing to apply.\n']);
      const check = new pg.Client({ connectionString: databaseUrl });
      await check.connect();
      const recorded = await check.query('SELECT migration_name, count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL GROUP BY migration_name ORDER BY migration_name');
      await check.end();
      expect(recorded.rows).toEqual(expected.map((migration_name) => ({ migration_name, n: 1 })));
      expect(await admin(['migrate'], env)).toEqual({ code: 0, stdout: 'The database schema is current: nothing to apply.\n', stderr: '' });
    } finally {
      const d = new pg.Client({ connectionString: adminUrl });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    }
  }, 120_000);
});
