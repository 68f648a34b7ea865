import type pg from 'pg';
import type { Logger } from 'pino';
import { createRequire } from 'node:module';
import PgBoss from 'pg-boss';
import { isTransactionPooled } from '../db/pool-settings.js';
import type { Transaction } from '../db/transaction.js';

/**
 * The queues, in pg-boss: extraction jobs, the dead-letter queue a job lands in when its workers died on it
 * `maxAttempts` times, and webhook delivery attempts (each attempt a pg-boss job due at its time).
 */
export const QUEUES = {
  jobs: 'extraction-jobs',
  deadJobs: 'extraction-jobs-dead',
  deliveries: 'webhook-deliveries',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

/** pg-boss keeps its own tables in this schema of the same database. */
export const BOSS_SCHEMA = 'pgboss';

/** The advisory lock processes take turns on while they install pg-boss's tables and queues (any fixed number). */
const QUEUE_INSTALL_LOCK = 7_204_351_935;

/** The version of those tables this pg-boss makes and reads (it migrates older ones up, never newer ones down). */
export const BOSS_SCHEMA_VERSION = (createRequire(import.meta.url)('pg-boss/version.json') as { schema: number }).schema;

export interface JobQueueOptions {
  /** The service's pool: on the embedded database, pg-boss shares its one connection. */
  pool: pg.Pool;
  /** PostgreSQL: pg-boss gets a small pool of its own on this URL. Embedded (undefined): it shares `pool`. */
  databaseUrl: string | undefined;
  /** The size of pg-boss's own pool on PostgreSQL (DATABASE_QUEUE_POOL_MAX; default 4). */
  poolMax?: number;
  /** A running job or delivery whose worker has not refreshed it for this long is run again. */
  heartbeatSeconds: number;
  /** Runs a job may start before it goes to the dead-letter queue. */
  maxAttempts: number;
  logger: Logger;
}

type IDatabase = PgBoss.Db;
type Queue = PgBoss.Queue;

/** A job as a worker holds it: pg-boss's claim of one attempt. */
export type ClaimedJob<T> = Pick<PgBoss.JobWithMetadata<T>, 'id' | 'data' | 'retryCount'>;

/**
 * The job queue, on pg-boss 10 (https://github.com/timgit/pg-boss/tree/10.4.2/docs; the last major that supports Node
 * 20): jobs live in PostgreSQL, workers claim them with SKIP LOCKED, a claim is kept alive by heartbeats, and a job
 * whose worker died (no heartbeat for `heartbeatSeconds`) is claimed again, up to `maxAttempts` runs, then
 * dead-lettered (queue options retryLimit, expireInSeconds, deadLetter).
 *
 * pg-boss 10 has no heartbeat of its own: a claim expires `expireInSeconds` after the job started, and its supervision
 * (every `maintenanceIntervalSeconds`) fails an expired job back to `retry`. The heartbeat (`touch`) moves the start of
 * the claims still held to now, so only a job whose worker stopped refreshing it expires: a claim lapses
 * `heartbeatSeconds` after its last heartbeat, as pg-boss 11+'s own heartbeat does.
 *
 * On PostgreSQL pg-boss has a pool of its own. On the embedded database it must not: PGlite is one session behind a
 * socket server that does not keep two connections' statements apart (electric-sql/pglite#1046), so pg-boss is given
 * the service's one-connection pool through its `db` option (an `executeSql` adapter, which pg-boss documents for
 * bringing your own connection). Its statements then queue behind the service's own on that connection, as pg-boss's
 * built-in pool does (`pool.query`, node_modules/pg-boss/src/db.js).
 */
export class JobQueue {
  readonly boss: PgBoss;
  private started: Promise<void> | undefined;

  constructor(private readonly options: JobQueueOptions) {
    const { pool, databaseUrl, heartbeatSeconds, logger } = options;
    // Expired claims are looked for on every supervise pass: a few times per heartbeat, so a job whose worker died
    // is run again within about 1.3 heartbeats.
    const superviseSeconds = Math.max(1, Math.floor(heartbeatSeconds / 3));
    const common = {
      schema: BOSS_SCHEMA,
      maintenanceIntervalSeconds: superviseSeconds,
      // No cron schedules here: no clock-keeping queries.
      schedule: false,
      // Completed jobs leave the queue's table within the hour and are gone after a day.
      archiveCompletedAfterSeconds: 3600,
      deleteAfterSeconds: 86_400,
      application_name: 'docextract-jobs',
    };
    this.boss = databaseUrl
      ? new PgBoss({ ...common, connectionString: databaseUrl, max: options.poolMax ?? 4 })
      : new PgBoss({ ...common, db: poolAdapter(pool) });
    this.boss.on('error', (err: unknown) => logger.warn({ err }, 'job queue error'));
  }

  /** Installs or migrates pg-boss's schema, creates the queues, and starts supervision. Safe to call again. */
  start(): Promise<void> {
    this.started ??= this.oneAtATime(async () => {
      await this.boss.start();
      await this.assertSchemaKnown();
      const { heartbeatSeconds, maxAttempts } = this.options;
      const crashSafe: Partial<Queue> = { expireInSeconds: heartbeatSeconds, retryDelay: 0 };
      await this.ensureQueue(QUEUES.deadJobs, {});
      await this.ensureQueue(QUEUES.jobs, { ...crashSafe, retryLimit: maxAttempts - 1, deadLetter: QUEUES.deadJobs });
      // A delivery attempt whose worker died is tried once more; its own schedule does the rest.
      await this.ensureQueue(QUEUES.deliveries, { ...crashSafe, retryLimit: 1 });
    });
    this.started.catch(() => {
      this.started = undefined;
    });
    return this.started;
  }

  /**
   * Runs `install` while no other process installs (a session advisory lock on a connection of the service's pool).
   * pg-boss 10 creates a queue in several statements (a row, then its partition): processes starting together on a
   * new database crossed in them and PostgreSQL ended one with "deadlock detected", which stopped that process. The
   * embedded database serves one process, whose one connection pg-boss needs meanwhile: no lock there.
   */
  private async oneAtATime(install: () => Promise<void>): Promise<void> {
    if (!this.options.databaseUrl) return install();
    if (isTransactionPooled(this.options.pool)) return this.oneAtATimePooled(install);
    const client = await this.options.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [QUEUE_INSTALL_LOCK]);
      try {
        await install();
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [QUEUE_INSTALL_LOCK]);
      }
    } finally {
      client.release();
    }
  }

  /**
   * As `oneAtATime`, through a transaction-mode pooler, where a session lock would stay behind on whichever server
   * session took it: a transaction lock, held by a transaction kept open (one server session) while installing.
   */
  private async oneAtATimePooled(install: () => Promise<void>): Promise<void> {
    const client = await this.options.pool.connect();
    let broken = false;
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [QUEUE_INSTALL_LOCK]);
      try {
        await install();
      } finally {
        await client.query('COMMIT').catch(() => { broken = true; });
      }
    } finally {
      client.release(broken);
    }
  }

  /**
   * Refuses tables a newer pg-boss made (a database an earlier build, on pg-boss 11 or 12, ran on): pg-boss 10 leaves
   * them as they are and its statements would fail on them one by one, or worse, half work.
   */
  private async assertSchemaKnown(): Promise<void> {
    const { rows } = await this.db().executeSql(`SELECT version FROM ${BOSS_SCHEMA}.version`, []);
    const version = Number((rows[0] as { version?: unknown } | undefined)?.version);
    if (version > BOSS_SCHEMA_VERSION) {
      throw new Error(`the job queue's tables (schema "${BOSS_SCHEMA}") were made by a newer pg-boss (schema version ${version}; this build reads ${BOSS_SCHEMA_VERSION}): let the workers finish the queued jobs, then drop that schema (docs/deploy.md, "Backups and upgrades")`);
    }
  }

  /**
   * Inside a transaction the queue must already be started: on the embedded database, starting it there would wait
   * forever for the one connection the transaction holds.
   */
  private async assertStarted(): Promise<void> {
    if (!this.started) throw new Error('the job queue must be started before a transaction uses it');
    await this.started;
  }

  private async ensureQueue(name: QueueName, options: Partial<Queue>): Promise<void> {
    if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, { ...options, name });
    else await this.boss.createQueue(name, { ...options, name });
  }

  /**
   * Queues jobs in the caller's transaction, so a job exists in the queue exactly when its row does. Ids are the
   * jobs' own; `priority` orders them (highest first), which is how accounts take turns (fair-queue.ts).
   */
  async enqueue(tx: Transaction, jobs: Array<{ id: string; priority: number }>): Promise<void> {
    await this.assertStarted();
    await this.boss.insert(jobs.map((j) => ({ name: QUEUES.jobs, id: j.id, data: { jobId: j.id }, priority: j.priority })), { db: txAdapter(tx) });
  }

  /**
   * Schedules delivery attempts `delaySeconds` from now, in the caller's transaction. The delay is counted from the
   * database's clock (pg-boss reads a number of seconds as an interval from its `now()`), as pg-boss decides when a
   * job is due by that clock.
   */
  async scheduleDeliveries(tx: Transaction, deliveryIds: string[], delaySeconds: number): Promise<void> {
    await this.assertStarted();
    const startAfter = String(Math.max(0, Math.round(delaySeconds * 1000) / 1000));
    await this.boss.insert(deliveryIds.map((deliveryId) => ({ name: QUEUES.deliveries, data: { deliveryId }, startAfter })), { db: txAdapter(tx) });
  }

  async fetch<T extends object>(queue: QueueName, batchSize: number): Promise<Array<ClaimedJob<T>>> {
    return ((await this.boss.fetch<T>(queue, { batchSize, includeMetadata: true })) ?? []).map((j) => ({ id: j.id, data: j.data, retryCount: j.retryCount }));
  }

  /**
   * Settles one attempt: a later attempt of the same job (its worker was thought dead) is left alone. With `tx`, in
   * the caller's transaction (the job's end and its completion in the queue commit together).
   */
  async complete(queue: QueueName, job: ClaimedJob<unknown>, tx?: Transaction): Promise<void> {
    // pg-boss 10's complete (its completeJobs statement) with the attempt added to its condition.
    const db = tx ? txAdapter(tx) : this.db();
    await db.executeSql(
      `UPDATE ${BOSS_SCHEMA}.job SET completed_on = now(), state = 'completed'
       WHERE name = $1 AND id = $2 AND retry_count = $3 AND state = 'active'`,
      [queue, job.id, job.retryCount],
    );
  }

  /** Fails this attempt (pg-boss retries it up to the queue's limit), unless the job was claimed again since. */
  async fail(queue: QueueName, job: ClaimedJob<unknown>, reason: string): Promise<void> {
    if (!(await this.holds(queue, job))) return;
    await this.boss.fail(queue, job.id, { reason });
  }

  /** Keeps claims alive (the heartbeat): each claim still held by the attempt that made it starts its time again. */
  async touch(queue: QueueName, jobs: Array<ClaimedJob<unknown>>): Promise<void> {
    if (!jobs.length) return;
    await this.db().executeSql(
      `UPDATE ${BOSS_SCHEMA}.job SET started_on = now()
       FROM unnest($2::uuid[], $3::int[]) AS held(id, retry_count)
       WHERE job.name = $1 AND job.id = held.id AND job.retry_count = held.retry_count AND job.state = 'active'`,
      [queue, jobs.map((j) => j.id), jobs.map((j) => j.retryCount)],
    );
  }

  /** Whether this attempt still holds its claim. */
  private async holds(queue: QueueName, job: ClaimedJob<unknown>): Promise<boolean> {
    const { rows } = await this.db().executeSql(
      `SELECT 1 FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND id = $2 AND retry_count = $3 AND state = 'active'`,
      [queue, job.id, job.retryCount],
    );
    return rows.length > 0;
  }

  /** pg-boss's connection: its own pool on PostgreSQL, the service's on the embedded database. */
  private db(): IDatabase {
    return this.boss.getDb() as IDatabase;
  }

  /** Takes a queued job out of the queue (best effort: a worker that claims it anyway finds it cancelled). */
  async cancel(id: string): Promise<void> {
    await this.boss.cancel(QUEUES.jobs, id).catch(() => {});
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    await this.started.catch(() => {});
    // Workers are this service's own (job-worker.ts), stopped before this: pg-boss only has to stop supervising.
    await this.boss.stop({ graceful: false, close: true, wait: true }).catch(() => {});
    this.started = undefined;
  }
}

/** pg-boss on the service's pool: the same `pool.query` pg-boss's own driver runs. */
function poolAdapter(pool: pg.Pool): IDatabase {
  return { executeSql: (text: string, values?: unknown[]) => pool.query(text, values as unknown[]) };
}

/** pg-boss inside a transaction of ours (its `db` option of insert). */
function txAdapter(tx: Transaction): IDatabase {
  return { executeSql: (text: string, values?: unknown[]) => tx.client.query(text, values as unknown[]) };
}
