// A fresh, migrated database for one test suite, embedded or PostgreSQL.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomBytes } from 'node:crypto';

export type DbMode = 'embedded' | 'postgres';

/** The database modes this run can test: always the embedded one, and PostgreSQL when the cluster is up. */
export function dbModes(): DbMode[] {
  return process.env.TEST_PG_URL ? ['embedded', 'postgres'] : ['embedded'];
}

export interface TestDatabase {
  /** DATA_DIR for the service (holds the embedded database when mode is embedded). */
  dataDir: string;
  /** DATABASE_URL for the service in postgres mode. */
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}

export async function createTestDatabase(mode: DbMode): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'docextract-test-'));
  if (mode === 'embedded') {
    const template = process.env.TEST_PGLITE_TEMPLATE;
    if (!template) throw new Error('global setup did not prepare the embedded template');
    cpSync(template, dataDir, { recursive: true });
    return { dataDir, databaseUrl: undefined, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) throw new Error('no PostgreSQL cluster in this run');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE docextract_template`);
  await admin.end();
  return {
    dataDir,
    databaseUrl: adminUrl.replace(/\/postgres$/, `/${name}`),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
