// Once per test run: a PostgreSQL cluster with a migrated template database, and a migrated embedded (PGlite)
// data directory to copy, so each suite gets a fresh database in milliseconds.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { applyMigrations } from '../../src/db/migrate.js';
import { postgresBinDir, startCluster } from './postgres-cluster.js';
import { JobQueue } from '../../src/jobs/job-queue.js';
import { createLogger } from '../../src/http/logger.js';

/** pg-boss's schema and the queues, installed once in each template (as the service does at start). */
async function installJobQueue(pool: pg.Pool, databaseUrl: string | undefined): Promise<void> {
  const queue = new JobQueue({ pool, databaseUrl, heartbeatSeconds: 30, maxAttempts: 3, logger: createLogger('silent') });
  await queue.start();
  await queue.stop();
}

export const TEMPLATE_DB = 'docextract_template';

export async function prepareDatabases(): Promise<void> {
  const state: Record<string, string> = {};
  const embeddedDir = mkdtempSync(join(tmpdir(), 'docextract-pglite-template-'));
  const embedded = await startEmbeddedPostgres(embeddedDir);
  const pool = new pg.Pool({ ...embedded.connection, max: 2 });
  await applyMigrations(pool);
  await pool.end();
  const one = new pg.Pool({ ...embedded.connection, max: 1 });
  await installJobQueue(one, undefined);
  await one.end();
  await embedded.stop();
  state.TEST_PGLITE_TEMPLATE = embeddedDir;

  if (postgresBinDir()) {
    const cluster = await startCluster();
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${TEMPLATE_DB}`);
    await admin.end();
    const tpl = new pg.Pool({ connectionString: cluster.url(TEMPLATE_DB), max: 2 });
    await applyMigrations(tpl);
    await installJobQueue(tpl, cluster.url(TEMPLATE_DB));
    await tpl.end();
    state.TEST_PG_DIR = cluster.dir;
    state.TEST_PG_URL = cluster.url('postgres');
  } else if (process.env.CI) {
    throw new Error('CI needs PostgreSQL: install Debian\'s postgresql package');
  }
  Object.assign(process.env, state);
}
