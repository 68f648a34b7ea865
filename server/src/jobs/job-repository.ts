import { utcTimestamp as ts, type Sql } from '../db/sql.js';
import { fairBaseSql } from './fair-queue.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** A row of `jobs`, as this module reads it (JSON members as the text stored). */
export interface JobRow {
  id: string;
  accountId: string;
  apiKeyId: string;
  route: string;
  status: JobStatus;
  request: string | null;
  metadata: string | null;
  result: string | null;
  error: string | null;
  usageRecordId: string;
  reservedHeu: number;
  attempts: number;
  storedDocuments: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  expiresAt: Date | null;
  purgedAt: Date | null;
}

/** A new job, as accepted. */
export interface NewJob {
  id: string;
  accountId: string;
  apiKeyId: string;
  route: string;
  request: string;
  metadata: string | null;
  usageRecordId: string;
  reservedHeu: number;
  createdAt: Date;
}

// Timestamps are UTC without a zone: AT TIME ZONE 'UTC' hands pg an instant, whatever the process's zone.
const COLUMNS = `id, account_id AS "accountId", api_key_id AS "apiKeyId", route, status::text AS status, request, metadata, result, error,
  usage_record_id AS "usageRecordId", reserved_heu AS "reservedHeu", attempts, stored_documents AS "storedDocuments",
  created_at AT TIME ZONE 'UTC' AS "createdAt", started_at AT TIME ZONE 'UTC' AS "startedAt",
  finished_at AT TIME ZONE 'UTC' AS "finishedAt", expires_at AT TIME ZONE 'UTC' AS "expiresAt", purged_at AT TIME ZONE 'UTC' AS "purgedAt"`;
// The same without the request (a document of up to 10 MB): what reads of a job need.
const VIEW_COLUMNS = COLUMNS.replace('request, ', 'NULL AS request, ');
const LIST_COLUMNS = VIEW_COLUMNS.replace('result, ', 'NULL AS result, ');

// A page of an account's jobs ($1), newest first: $2 route or null, $3 cursor (ids below it) or null, $4 rows; with $5 a status.
const LIST_WHERE = `account_id = $1 AND purged_at IS NULL AND ($2::text IS NULL OR route = $2) AND ($3::text IS NULL OR id < $3)`;
const LIST_SQL = `SELECT ${LIST_COLUMNS} FROM jobs WHERE ${LIST_WHERE} ORDER BY id DESC LIMIT $4`;
export const LIST_BY_STATUS_SQL = `SELECT ${LIST_COLUMNS} FROM jobs WHERE ${LIST_WHERE} AND status = $5::"JobStatus" ORDER BY id DESC LIMIT $4`;

/** The most request text one insert statement carries (a request larger than this goes alone). */
const INSERT_GROUP_CHARS = 1_000_000;

/** Consecutive groups of jobs whose requests hold at most `max` characters together (at least one job each). */
function bySize(jobs: NewJob[], max: number): NewJob[][] {
  const groups: NewJob[][] = [];
  let size = Infinity;
  for (const job of jobs) {
    if (size + job.request.length > max) {
      groups.push([]);
      size = 0;
    }
    groups[groups.length - 1]!.push(job);
    size += job.request.length;
  }
  return groups;
}

/** The one owner of the `jobs` table: every statement on it is here. */
export const jobRepository = {
  /**
   * Inserts one request's accepted jobs, in one statement however many, tagged for the fair queue after the account's
   * queued jobs (fair-queue.ts); answers their tags, in order.
   */
  async insert(sql: Sql, accountId: string, jobs: NewJob[]): Promise<number[]> {
    // Requests holding files (up to 13 MB of base64 each) go a few per statement: the embedded database's socket
    // server gathers a message by concatenating every chunk received (@electric-sql/pglite-socket), which costs the
    // square of the statement's size (a 10-file batch in one statement: 1.8 s of copying). Each group is tagged after
    // the previous one (fairBaseSql), so the tags are those one statement would give.
    const tags: number[] = [];
    for (const group of bySize(jobs, INSERT_GROUP_CHARS)) tags.push(...await this.insertGroup(sql, accountId, group));
    return tags;
  },

  async insertGroup(sql: Sql, accountId: string, jobs: NewJob[]): Promise<number[]> {
    const col = <K extends keyof NewJob>(k: K) => jobs.map((j) => j[k]);
    const rows = await sql.rows<{ id: string; tag: string }>('jobs_insert', `
      WITH base AS (SELECT ${fairBaseSql('$1')} AS b)
      INSERT INTO jobs (id, account_id, api_key_id, route, status, request, metadata, usage_record_id, reserved_heu, tag, created_at)
      SELECT j.id, $1, j.api_key_id, j.route, 'queued', j.request, j.metadata, j.usage_record_id, j.reserved_heu, base.b + j.n, j.created_at
      FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[], $9::timestamp(3)[]) WITH ORDINALITY
        AS j(id, api_key_id, route, request, metadata, usage_record_id, reserved_heu, created_at, n), base
      RETURNING id, tag::text`,
    [accountId, col('id'), col('apiKeyId'), col('route'), col('request'), col('metadata'), col('usageRecordId'), col('reservedHeu'), jobs.map((j) => ts(j.createdAt))]);
    // RETURNING's order is not promised: match by id.
    const tagOf = new Map(rows.map((r) => [r.id, Number(r.tag)]));
    return jobs.map((j) => tagOf.get(j.id)!);
  },

  /** The account's job, without its request (null for another account's or an unknown id). */
  async find(sql: Sql, accountId: string, id: string): Promise<JobRow | null> {
    const rows = await sql.rows<JobRow>('jobs_find', `SELECT ${VIEW_COLUMNS} FROM jobs WHERE id = $1 AND account_id = $2`, [id, accountId]);
    return rows[0] ?? null;
  },

  /** Jobs by id, in the order given (the answer to a batch, or its idempotent replay). */
  async findMany(sql: Sql, accountId: string, ids: string[]): Promise<JobRow[]> {
    const rows = await sql.rows<JobRow>('jobs_find_many', `SELECT ${LIST_COLUMNS} FROM jobs WHERE id = ANY($1::text[]) AND account_id = $2`, [ids, accountId]);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is JobRow => r !== undefined);
  },

  /**
   * A page of the account's jobs, newest first, results left out; purged jobs are not listed. With a status, the
   * status is compared as the column's own type, so the index on (account, status, id) serves it (a `status::text`
   * comparison could use no index: a sequential scan of every job).
   */
  async list(sql: Sql, accountId: string, filter: { status?: JobStatus; route?: string; limit: number; cursor?: string }): Promise<JobRow[]> {
    const values = [accountId, filter.route ?? null, filter.cursor ?? null, filter.limit];
    if (filter.status === undefined) return sql.rows<JobRow>('jobs_list', LIST_SQL, values);
    return sql.rows<JobRow>('jobs_list_status', LIST_BY_STATUS_SQL, [...values, filter.status]);
  },



  /**
   * Starts a run: a queued job (or a running one whose worker died) becomes running, its attempts counted. Null when
   * the job is finished, cancelled or gone (its queue entry is then simply completed).
   */
  async claim(sql: Sql, id: string, now: Date): Promise<JobRow | null> {
    const rows = await sql.rows<JobRow>('jobs_claim', `
      UPDATE jobs SET status = 'running', attempts = attempts + 1, started_at = COALESCE(started_at, $2::timestamp(3))
      WHERE id = $1 AND status IN ('queued', 'running')
      RETURNING ${COLUMNS}`, [id, ts(now)]);
    return rows[0] ?? null;
  },

  /** Locks the job for the statements that end it (in a transaction); null when gone. */
  async lock(sql: Sql, id: string): Promise<{ status: JobStatus; attempts: number; accountId: string; apiKeyId: string; usageRecordId: string; reservedHeu: number; storedDocuments: string | null } | null> {
    const rows = await sql.rows<{ status: JobStatus; attempts: number; accountId: string; apiKeyId: string; usageRecordId: string; reservedHeu: number; storedDocuments: string | null }>('jobs_lock', `
      SELECT status::text AS status, attempts, account_id AS "accountId", api_key_id AS "apiKeyId", usage_record_id AS "usageRecordId",
             reserved_heu AS "reservedHeu", stored_documents AS "storedDocuments"
      FROM jobs WHERE id = $1 FOR UPDATE`, [id]);
    return rows[0] ?? null;
  },

  /**
   * Ends a job the run holding attempt `attempts` still holds (running, not run again since): as `finish`, in one
   * statement; null when that run no longer holds it (cancelled, or run again elsewhere).
   */
  async finishHeld(sql: Sql, id: string, attempts: number, end: { status: 'succeeded' | 'failed'; result?: string; error?: string; now: Date; expiresAt: Date }): Promise<JobRow | null> {
    const rows = await sql.rows<JobRow>('jobs_finish_held', `
      UPDATE jobs SET status = $2::"JobStatus", result = $3, error = $4, finished_at = $5::timestamp(3), expires_at = $6::timestamp(3),
        request = NULL, stored_documents = NULL
      WHERE id = $1 AND status = 'running' AND attempts = $7
      RETURNING ${VIEW_COLUMNS}`, [id, end.status, end.result ?? null, end.error ?? null, ts(end.now), ts(end.expiresAt), attempts]);
    return rows[0] ?? null;
  },

  /** Ends a job (succeeded, failed or cancelled): its request goes, its result or error stays until `expiresAt`. */
  async finish(sql: Sql, id: string, end: { status: 'succeeded' | 'failed' | 'cancelled'; result?: string; error?: string; now: Date; expiresAt: Date }): Promise<JobRow> {
    const rows = await sql.rows<JobRow>('jobs_finish', `
      UPDATE jobs SET status = $2::"JobStatus", result = $3, error = $4, finished_at = $5::timestamp(3), expires_at = $6::timestamp(3),
        request = NULL, stored_documents = NULL
      WHERE id = $1
      RETURNING ${VIEW_COLUMNS}`, [id, end.status, end.result ?? null, end.error ?? null, ts(end.now), ts(end.expiresAt)]);
    return rows[0]!;
  },

  /** The HEU a run holding attempt `attempts` reserves for the job now (its file opened); false when it no longer holds it. */
  async setReservedHeld(sql: Sql, id: string, attempts: number, heu: number): Promise<boolean> {
    return await sql.execute('jobs_set_reserved', `UPDATE jobs SET reserved_heu = $3 WHERE id = $1 AND status = 'running' AND attempts = $2`, [id, attempts, heu]) === 1;
  },

  /** What the current run stored (renewal documents), so a run that dies can be taken back by the next. */
  async recordStored(sql: Sql, id: string, stored: string | null): Promise<void> {
    await sql.execute('jobs_record_stored', `UPDATE jobs SET stored_documents = $2 WHERE id = $1 AND status = 'running'`, [id, stored]);
  },

  /**
   * Of the jobs a worker holds, those to stop now: cancelled (or ended by another run), or their key revoked. A job
   * still `queued` is not one: its worker has it but has not claimed it yet.
   */
  async toStop(sql: Sql, ids: string[]): Promise<Array<{ id: string; cancelled: boolean }>> {
    return sql.rows<{ id: string; cancelled: boolean }>('jobs_to_stop', `
      SELECT j.id, j.status IN ('cancelled', 'succeeded', 'failed') AS cancelled FROM jobs j LEFT JOIN api_keys k ON k.id = j.api_key_id
      WHERE j.id = ANY($1::text[]) AND (j.status IN ('cancelled', 'succeeded', 'failed') OR k.revoked_at IS NOT NULL OR k.id IS NULL)`, [ids]);
  },

  /** Deletes the results of jobs past their retention; the rows stay as tombstones so a read can say why. */
  async purgeExpired(sql: Sql, now: Date): Promise<number> {
    return sql.execute('jobs_purge', `
      UPDATE jobs SET result = NULL, error = NULL, metadata = NULL, request = NULL, stored_documents = NULL, purged_at = $1::timestamp(3)
      WHERE id IN (SELECT id FROM jobs WHERE expires_at < $1::timestamp(3) AND purged_at IS NULL ORDER BY expires_at LIMIT 1000 FOR UPDATE SKIP LOCKED)`,
    [ts(now)]);
  },

  /** Forgets tombstones purged before `before`: a read of those is a plain 404. */
  async deleteTombstones(sql: Sql, before: Date): Promise<number> {
    return sql.execute('jobs_delete_tombstones', `
      DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE purged_at < $1::timestamp(3) LIMIT 1000 FOR UPDATE SKIP LOCKED)`, [ts(before)]);
  },

  /** What the workers' autoscaler reads: UNFINISHED_JOBS_SQL, the very statement (metrics show it too). */
  async countForAutoscaler(sql: Sql): Promise<number> {
    const rows = await sql.rows<{ count: string }>('jobs_count_autoscaler', UNFINISHED_JOBS_SQL, []);
    return Number(rows[0]?.count ?? 0);
  },

  /** Jobs not finished yet, by status (metrics). */
  async countUnfinished(sql: Sql): Promise<{ queued: number; running: number }> {
    const rows = await sql.rows<{ status: JobStatus; n: string }>('jobs_count_unfinished', `
      SELECT status::text AS status, count(*) AS n FROM jobs WHERE status IN ('queued', 'running') GROUP BY status`, []);
    const n = (s: JobStatus) => Number(rows.find((r) => r.status === s)?.n ?? 0);
    return { queued: n('queued'), running: n('running') };
  },
};

/**
 * The statement the workers' autoscaler runs (KEDA's PostgreSQL scaler, deploy/kubernetes/base/worker-scaledobject.yaml;
 * a test checks that the manifest holds exactly this): jobs waiting for a worker or being run.
 */
export const UNFINISHED_JOBS_SQL = "SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')";
