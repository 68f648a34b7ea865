import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { isTransactionPooled, withoutTimeouts } from './pool-settings.js';
import { openSchemaEngine } from './schema-engine.js';

export const PRISMA_DIR = fileURLToPath(new URL('../../../prisma/', import.meta.url));
export const MIGRATIONS_DIR = join(PRISMA_DIR, 'migrations');

/** Our own lock key, distinct from any the engine may take on its own connection. */
const MIGRATION_LOCK_KEY = 0x64_78_6d_67; // "dxmg"

/** The migrations folder in the shape Prisma's schema engine reads (Prisma's own folder format). */
export function readMigrationsList(dir = MIGRATIONS_DIR) {
  const names = existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort() : [];
  const lockPath = join(dir, 'migration_lock.toml');
  return {
    baseDir: dir,
    lockfile: { path: lockPath, content: existsSync(lockPath) ? readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories: names.map((name) => ({
      // The engine records `path` as the migration's name in _prisma_migrations, as the CLI does.
      path: name,
      migrationFile: { path: join(name, 'migration.sql'), content: { tag: 'ok' as const, value: readFileSync(join(dir, name, 'migration.sql'), 'utf8') } },
    })),
  };
}

/**
 * Applies every migration not yet recorded in `_prisma_migrations`, each once. Instances starting together take
 * turns on a session advisory lock, so the second finds the work done.
 */
export function applyMigrations(pool: pg.Pool, dir = MIGRATIONS_DIR): Promise<string[]> {
  // The embedded database has one session for every connection, where advisory locks are re-entrant: so callers
  // in this process also queue here.
  const run = inProcess.then(() => applyMigrationsLocked(pool, dir));
  inProcess = run.catch(() => undefined);
  return run;
}

let inProcess: Promise<unknown> = Promise.resolve();

async function applyMigrationsLocked(pool: pg.Pool, dir: string): Promise<string[]> {
  if (isTransactionPooled(pool)) return checkMigrationsPooled(pool, dir);
  const lock = await pool.connect();
  let failed = false;
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const migrations = readMigrationsList(dir);
    // Most starts have nothing to apply: say so from the migrations table, without loading the engine (~1 s).
    if (await allApplied(lock, migrations.migrationDirectories)) return [];
    // A migration may rightly run longer than the pool lets a request's statement run (DATABASE_*_TIMEOUT_MS).
    const { engine, close } = await openSchemaEngine(withoutTimeouts(pool.options));
    try {
      const { appliedMigrationNames } = await engine.applyMigrations({
        migrationsList: migrations,
        filters: { externalTables: [], externalEnums: [] },
      });
      return appliedMigrationNames;
    } finally {
      await close();
    }
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {});
    // After a failure (a lock wait past the pool's time limits, a connection lost) the session may still be waiting
    // for the lock, and would take it later and keep it: closed, it gives up whatever it holds or waits for.
    lock.release(failed);
  }
}

/**
 * Through a transaction-mode pooler (DATABASE_POOLER=transaction) a session lock would stay on whichever server
 * session ran it, and Prisma's schema engine needs a session of its own: migrations are applied over a direct
 * connection instead (docs/deploy.md), and here only checked.
 */
async function checkMigrationsPooled(pool: pg.Pool, dir: string): Promise<string[]> {
  const client = await pool.connect();
  try {
    if (await allApplied(client, readMigrationsList(dir).migrationDirectories)) return [];
  } finally {
    client.release();
  }
  throw new Error('the database schema is not current, and migrations are not applied through a transaction-mode pooler (DATABASE_POOLER=transaction): apply them over a direct connection first (DATABASE_URL=<PostgreSQL itself> node server/dist/admin/cli.js migrate; docs/deploy.md)');
}

type MigrationDirectory = ReturnType<typeof readMigrationsList>['migrationDirectories'][number];

/** True when every local migration is recorded as finished, with the checksum of the file we have (SHA-256, as Prisma records it). */
async function allApplied(client: pg.PoolClient, local: MigrationDirectory[]): Promise<boolean> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass('_prisma_migrations')::text AS t`);
  if (!exists.rows[0]?.t) return false;
  const { rows } = await client.query<{ migration_name: string; checksum: string }>(
    'SELECT migration_name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL');
  const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
  return local.every((m) => applied.get(m.path) === createHash('sha256').update(m.migrationFile.content.value).digest('hex'));
}
