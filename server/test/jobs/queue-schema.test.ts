// pg-boss's tables: installed at this pg-boss's schema version, and refused when a newer pg-boss made them (a database
// an earlier build on pg-boss 12 ran on), with a message saying what to do, instead of statements failing one by one.
import pg from 'pg';
import { createLogger } from '../../src/http/logger.js';
import { BOSS_SCHEMA_VERSION, JobQueue } from '../../src/jobs/job-queue.js';
import { createTestDatabase, dbModes } from '../support/databases.js';

const withPostgres = dbModes().includes('postgres') ? it : it.skip;

describe("the job queue's tables", () => {
  withPostgres('are at the version this pg-boss makes, and a newer version stops the start with what to do', async () => {
    const database = await createTestDatabase('postgres');
    const pool = new pg.Pool({ connectionString: database.databaseUrl, max: 2 });
    const queue = () => new JobQueue({ pool, databaseUrl: database.databaseUrl, heartbeatSeconds: 30, maxAttempts: 3, logger: createLogger('silent') });
    try {
      const current = queue();
      await current.start();
      await current.stop();
      expect((await pool.query('SELECT version FROM pgboss.version')).rows).toEqual([{ version: BOSS_SCHEMA_VERSION }]);
      expect(BOSS_SCHEMA_VERSION).toBe(24);

      await pool.query('UPDATE pgboss.version SET version = $1', [BOSS_SCHEMA_VERSION + 2]);
      const refused = queue();
      await expect(refused.start()).rejects.toThrow(`the job queue's tables (schema "pgboss") were made by a newer pg-boss (schema version 26; this build reads 24): let the workers finish the queued jobs, then drop that schema (docs/deploy.md, "Backups and upgrades")`);
      await refused.boss.stop({ graceful: false, close: true, wait: true });
      // Nothing was changed: the tables are still the newer version's.
      expect((await pool.query('SELECT version FROM pgboss.version')).rows).toEqual([{ version: 26 }]);
    } finally {
      await pool.end();
      await database.drop();
    }
  }, 60_000);
});
