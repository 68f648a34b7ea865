import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../src/db/prisma-client/client.js';
import { applyMigrations, readMigrationsList } from '../src/db/migrate.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { dbModes } from './support/databases.js';
import { accountBilling, type SubscriptionRecord, type SubscriptionStatus } from '../src/billing/subscription-state.js';

/**
 * A test pool whose idle connections may be cut by the server when the test drops its database (`DROP DATABASE ...
 * WITH (FORCE)` ends them with 57P01): that is expected, so the pool's error event is handled rather than thrown as an
 * unhandled error that fails the suite at random (a pool the Prisma adapter already ended can still hold one).
 */
const quiet = (p: pg.Pool) => p.on('error', () => {});

/** An empty database (no template: migrations start from nothing). */
async function emptyDatabase(mode: 'embedded' | 'postgres'): Promise<{ pool: () => pg.Pool; drop(): Promise<void> }> {
  if (mode === 'embedded') {
    const dir = mkdtempSync(join(tmpdir(), 'mig-'));
    const e = await startEmbeddedPostgres(dir);
    const pools: pg.Pool[] = [];
    return {
      pool: () => { const p = quiet(new pg.Pool({ ...e.connection, max: 4 })); pools.push(p); return p; },
      async drop() { await Promise.all(pools.map((p) => p.end().catch(() => {}))); await e.stop(); rmSync(dir, { recursive: true, force: true }); },
    };
  }
  const admin = process.env.TEST_PG_URL!;
  const name = `m_${randomBytes(5).toString('hex')}`;
  const c = new pg.Client({ connectionString: admin });
  await c.connect(); await c.query(`CREATE DATABASE ${name}`); await c.end();
  const pools: pg.Pool[] = [];
  return {
    pool: () => { const p = quiet(new pg.Pool({ connectionString: admin.replace(/\/postgres$/, `/${name}`), max: 4 })); pools.push(p); return p; },
    async drop() {
      await Promise.all(pools.map((p) => p.end().catch(() => {})));
      const d = new pg.Client({ connectionString: admin }); await d.connect(); await d.query(`DROP DATABASE ${name} WITH (FORCE)`); await d.end();
    },
  };
}

describe.each(dbModes())('migrations (%s database)', (mode) => {
  it('migrate an empty database once, even when two instances start together, then round-trip every model', async () => {
    const db = await emptyDatabase(mode);
    try {
      const expected = readMigrationsList().migrationDirectories.map((d) => d.path);
      expect(expected.length).toBeGreaterThan(0);
      const [a, b] = await Promise.all([applyMigrations(db.pool()), applyMigrations(db.pool())]);
      expect([...a, ...b].sort()).toEqual(expected.sort());
      expect(await applyMigrations(db.pool())).toEqual([]);
      const pool = db.pool();
      const recorded = await pool.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name');
      expect(recorded.rows.map((r) => r.migration_name)).toEqual(expected);

      const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
      const now = new Date('2026-11-22T10:15:00.123Z');
      const account = await prisma.account.create({ data: { id: 'acct_rt', plan: 'starter', status: 'past_due', stripeCustomerId: 'cus_1', currentPeriodEnd: now, priorPlan: 'free' } });
      expect(account).toMatchObject({ plan: 'starter', status: 'past_due', currentPeriodEnd: now, priorPlan: 'free' });
      const key = await prisma.apiKey.create({ data: { id: 'key_rt', accountId: account.id, name: 'n', prefix: 'dx_live_abcd', hash: 'f'.repeat(64), lastUsedAt: now } });
      expect((await prisma.apiKey.findUniqueOrThrow({ where: { hash: 'f'.repeat(64) } })).lastUsedAt).toEqual(now);
      await prisma.idempotencyRecord.create({ data: { id: 'idem_rt', accountId: account.id, key: 'k', requestHash: 'h', apiKeyId: key.id, expiresAt: now } });
      await prisma.usageBucket.create({ data: { accountId: account.id, periodStart: new Date('2026-11-01T00:00:00Z'), heuUsed: 3 } });
      await prisma.usageRecord.create({ data: { id: 'use_rt', accountId: account.id, periodStart: new Date('2026-11-01T00:00:00Z'), route: 'invoice', state: 'settled', heu: 3, inputTokens: 1000, outputTokens: 1500, expiresAt: now } });
      const renewal = await prisma.vendorRenewal.create({ data: { id: 'vr_rt', accountId: account.id, vendorKey: 'cloudnest', productKey: 'storage pro', vendorName: 'CloudNest Inc.', product: 'Storage Pro' } });
      const extraction = { vendorName: { value: 'CloudNest Inc.', sourceQuote: 'Vendor: CloudNest Inc.' }, nested: [1, null, true] };
      await prisma.storedDocument.create({ data: { id: 'doc_rt', accountId: account.id, vendorRenewalId: renewal.id, documentKindGuess: 'order_form', overallStatus: 'confirmed', extraction, model: 'local-rules-1', inputTokens: 10, outputTokens: 20 } });
      expect((await prisma.storedDocument.findUniqueOrThrow({ where: { id: 'doc_rt' } })).extraction).toEqual(extraction);
      await prisma.billingEvent.create({ data: { id: 'evt_rt', type: 'checkout.session.completed', createdAt: now } });
      const full = await prisma.account.findUniqueOrThrow({ where: { id: account.id }, include: { apiKeys: true, idempotencyRecords: true, usageBuckets: true, usageRecords: true, vendorRenewals: { include: { documents: true } } } });
      expect(full.apiKeys).toHaveLength(1);
      expect(full.idempotencyRecords[0]!.apiKeyId).toBe('key_rt');
      expect(full.usageBuckets[0]!.heuUsed).toBe(3);
      expect(full.usageRecords[0]!.state).toBe('settled');
      expect(full.vendorRenewals[0]!.documents[0]!.id).toBe('doc_rt');
      await prisma.$disconnect();
    } finally {
      await db.drop();
    }
  });
});

describe.each(dbModes())('prefixed ids of earlier versions (%s database)', (mode) => {
  it('become UUID v7 from each row\'s creation time, with references and key order kept', async () => {
    const db = await emptyDatabase(mode);
    const older = mkdtempSync(join(tmpdir(), 'mig-older-'));
    try {
      // The database as the version before UUID ids left it: every migration up to the rate windows.
      const all = readMigrationsList();
      for (const d of all.migrationDirectories.filter((m) => m.path < '20261123')) {
        mkdirSync(join(older, d.path));
        writeFileSync(join(older, d.path, 'migration.sql'), d.migrationFile.content.value);
      }
      writeFileSync(join(older, 'migration_lock.toml'), all.lockfile.content ?? '');
      const pool = db.pool();
      await applyMigrations(pool, older);
      await pool.query(`INSERT INTO accounts (id) VALUES ('acct_old')`);
      await pool.query(`INSERT INTO api_keys (id, account_id, name, prefix, hash, created_at) VALUES
        ('key_000000001aaaa', 'acct_old', 'first', 'dx_live_aaaa', 'a', '2026-01-01T00:00:00Z'),
        ('key_000000002bbbb', 'acct_old', 'second', 'dx_live_bbbb', 'b', '2026-02-01T00:00:00Z')`);
      await pool.query(`INSERT INTO idempotency_records (id, account_id, key, request_hash, api_key_id, expires_at)
        VALUES ('idem_1', 'acct_old', 'k', 'h', 'key_000000002bbbb', now())`);
      await pool.query(`INSERT INTO vendor_renewals (id, account_id, vendor_key, product_key, updated_at) VALUES ('vr_1', 'acct_old', 'v', 'p', now())`);
      await pool.query(`INSERT INTO stored_documents (id, account_id, vendor_renewal_id, document_kind_guess, overall_status, extraction, model, input_tokens, output_tokens)
        VALUES ('doc_1', 'acct_old', 'vr_1', 'order_form', 'confirmed', '{}', 'local-rules-1', 1, 1)`);

      expect(await applyMigrations(pool)).toEqual(all.migrationDirectories.map((m) => m.path).filter((p) => p >= '20261123'));
      const uuid7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
      const keys = (await pool.query(`SELECT id, name FROM api_keys ORDER BY id DESC`)).rows;
      expect(keys.map((k) => k.name)).toEqual(['second', 'first']);
      for (const k of keys) expect(k.id).toMatch(uuid7);
      expect(keys[0].id.slice(0, 13)).toBe('019c167f-cc00'); // 2026-02-01T00:00:00Z in milliseconds, as hex
      const idem = (await pool.query(`SELECT api_key_id FROM idempotency_records`)).rows[0];
      expect(idem.api_key_id).toBe(keys[0].id);
      const doc = (await pool.query(`SELECT d.id, d.vendor_renewal_id, v.id AS renewal FROM stored_documents d JOIN vendor_renewals v ON v.id = d.vendor_renewal_id`)).rows[0];
      expect(doc.id).toMatch(uuid7);
      expect(doc.vendor_renewal_id).toMatch(uuid7);
    } finally {
      rmSync(older, { recursive: true, force: true });
      await db.drop();
    }
  });
});

describe('npm run db:diff', () => {
  it('finds nothing to migrate: the migrations hold the whole schema', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/db-diff.ts', '--check'], { cwd: new URL('../..', import.meta.url).pathname, encoding: 'utf8' });
    expect(out).toContain('migrations hold the whole schema');
  });
});

describe.each(dbModes())('subscriptions followed before billing_subscriptions (%s database)', (mode) => {
  it('are carried into billing_subscriptions, so that the account derived from them is the account as it stood', async () => {
    const db = await emptyDatabase(mode);
    const older = mkdtempSync(join(tmpdir(), 'mig-older-'));
    try {
      const all = readMigrationsList();
      const BILLING = '20261126141648_billing_subscriptions';
      for (const d of all.migrationDirectories.filter((m) => m.path < BILLING)) {
        mkdirSync(join(older, d.path));
        writeFileSync(join(older, d.path, 'migration.sql'), d.migrationFile.content.value);
      }
      writeFileSync(join(older, 'migration_lock.toml'), all.lockfile.content ?? '');
      const pool = db.pool();
      await applyMigrations(pool, older);
      await pool.query(`INSERT INTO accounts (id, plan, status, stripe_customer_id, stripe_subscription_id, subscription_state_at, cancel_at, current_period_end) VALUES
        ('acct_paying', 'starter', 'past_due', 'cus_1', 'sub_1', '2026-11-01T10:00:00Z', '2026-12-01T00:00:00Z', '2026-12-01T00:00:00Z')`);
      await pool.query(`INSERT INTO accounts (id, plan, status, stripe_customer_id, stripe_subscription_id, subscription_state_at, prior_plan, subscription_ended_at) VALUES
        ('acct_ended', 'free', 'active', 'cus_2', 'sub_2', '2026-10-01T10:00:00Z', 'starter', '2026-10-01T09:00:00Z')`);
      await pool.query(`INSERT INTO accounts (id) VALUES ('acct_never')`);
      // That migration and those after it (which must carry the rows through too).
      expect(await applyMigrations(pool)).toEqual(all.migrationDirectories.map((m) => m.path).filter((p) => p >= BILLING).sort());

      const rows = (await pool.query(`SELECT *, created_at AT TIME ZONE 'UTC' AS created, first_seen_at AT TIME ZONE 'UTC' AS first_seen, status_at AT TIME ZONE 'UTC' AS status_time,
        object_at AT TIME ZONE 'UTC' AS object_time, cancel_at AT TIME ZONE 'UTC' AS cancel, current_period_end AT TIME ZONE 'UTC' AS period_end, ended_at AT TIME ZONE 'UTC' AS ended
        FROM billing_subscriptions ORDER BY id`)).rows;
      expect(rows.map((r) => [r.id, r.account_id])).toEqual([['sub_1', 'acct_paying'], ['sub_2', 'acct_ended']]);
      const record = (r: Record<string, any>): SubscriptionRecord => ({
        id: r.id, createdAt: r.created, firstSeenAt: r.first_seen,
        status: { value: r.status as SubscriptionStatus, at: r.status_time, stage: r.status_stage, eventId: r.status_event_id },
        object: { at: r.object_time, stage: r.object_stage, eventId: r.object_event_id, cancelAt: r.cancel, currentPeriodEnd: r.period_end },
        endedAt: r.ended,
      });
      expect(accountBilling([record(rows[0])])).toEqual({
        plan: 'starter', status: 'past_due', stripeSubscriptionId: 'sub_1', cancelAt: new Date('2026-12-01T00:00:00Z'), currentPeriodEnd: new Date('2026-12-01T00:00:00Z'),
        priorPlan: null, subscriptionEndedAt: null, subscriptionStateAt: new Date('2026-11-01T10:00:00Z'),
      });
      expect(accountBilling([record(rows[1])])).toMatchObject({ plan: 'free', status: 'active', stripeSubscriptionId: 'sub_2', priorPlan: 'starter', subscriptionEndedAt: new Date('2026-10-01T09:00:00Z') });
    } finally {
      rmSync(older, { recursive: true, force: true });
      await db.drop();
    }
  });
});
