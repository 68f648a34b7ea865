import type { Database } from '../db/database.js';
import { withTransaction } from '../db/transaction.js';
import { BOSS_SCHEMA, QUEUES, type ClaimedJob } from '../jobs/job-queue.js';

export interface DeliveryCaps {
  /** Attempts in flight to one endpoint, across every worker. */
  perEndpoint: number;
  /** Attempts in flight to one account's endpoints, across every worker. */
  perAccount: number;
}

/** The lock delivery claims take turns on (a transaction-scoped advisory lock; any fixed number). */
const CLAIM_LOCK = 7_204_351_936;

/**
 * Due attempts looked at per claim, at least: the oldest due attempts of endpoints and accounts that are not at
 * their cap. Those at their cap are left out before this window is taken, so they cannot fill it.
 */
const WINDOW = 500;

/**
 * Claims up to `batchSize` due delivery attempts from pg-boss's queue, keeping every endpoint and every account
 * under its cap of attempts in flight (pg-boss's `active` jobs, whichever worker holds them), and taking turns
 * between accounts: the account with the fewest attempts in flight goes first, then the oldest attempt. A slow or
 * failing endpoint therefore holds at most `perEndpoint` slots and its account at most `perAccount`; the others'
 * attempts are claimed when due, whatever waits behind it.
 *
 * Why not pg-boss's own: pg-boss 10 has no per-key concurrency (group concurrency came in 11, which needs Node 22),
 * and its `singleton` policy makes a whole fetch come back empty when one job of the batch has an active twin
 * (fetchNextJob's update hits the unique index job_i2 and `fetch` swallows the error), which would block everyone
 * behind a slow endpoint. So this is pg-boss's fetchNextJob (node_modules/pg-boss/src/plans.js) with the caps in
 * its selection; claims take turns on an advisory lock so two workers cannot both take an endpoint's last slot.
 * Attempts queued before the caps existed (no endpoint or account in them) each count as their own.
 */
export async function claimDeliveries(db: Database, batchSize: number, caps: DeliveryCaps): Promise<Array<ClaimedJob<{ deliveryId: string }>>> {
  if (batchSize <= 0) return [];
  return withTransaction(db.pool, async (tx) => {
    await tx.client.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
    const { rows } = await tx.client.query<{ id: string; data: { deliveryId: string }; retry_count: number }>(`
      WITH active AS (
        SELECT COALESCE(singleton_key, id::text) AS endpoint, COALESCE(data->>'accountId', id::text) AS account
        FROM ${BOSS_SCHEMA}.job WHERE name = $1 AND state = 'active'
      ), endpoint_busy AS (
        SELECT endpoint, count(*) AS n FROM active GROUP BY endpoint
      ), account_busy AS (
        SELECT account, count(*) AS n FROM active GROUP BY account
      ), due AS (
        SELECT j.id, j.created_on, COALESCE(j.singleton_key, j.id::text) AS endpoint, COALESCE(j.data->>'accountId', j.id::text) AS account
        FROM ${BOSS_SCHEMA}.job j
        WHERE j.name = $1 AND j.state < 'active' AND j.start_after < now()
          AND NOT EXISTS (SELECT 1 FROM endpoint_busy b WHERE b.endpoint = COALESCE(j.singleton_key, j.id::text) AND b.n >= $3)
          AND NOT EXISTS (SELECT 1 FROM account_busy b WHERE b.account = COALESCE(j.data->>'accountId', j.id::text) AND b.n >= $4)
        ORDER BY j.created_on, j.id
        LIMIT $5
      ), per_endpoint AS (
        SELECT d.*, row_number() OVER (PARTITION BY d.endpoint ORDER BY d.created_on, d.id) + COALESCE(b.n, 0) AS endpoint_n
        FROM due d LEFT JOIN endpoint_busy b ON b.endpoint = d.endpoint
      ), per_account AS (
        SELECT p.id, p.created_on, row_number() OVER (PARTITION BY p.account ORDER BY p.created_on, p.id) + COALESCE(b.n, 0) AS account_n
        FROM per_endpoint p LEFT JOIN account_busy b ON b.account = p.account
        WHERE p.endpoint_n <= $3
      ), chosen AS (
        SELECT id FROM per_account WHERE account_n <= $4 ORDER BY account_n, created_on, id LIMIT $2
      )
      UPDATE ${BOSS_SCHEMA}.job j SET
        state = 'active',
        started_on = now(),
        retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
      FROM chosen
      WHERE j.name = $1 AND j.id = chosen.id AND j.state < 'active'
      RETURNING j.id, j.data, j.retry_count`,
    [QUEUES.deliveries, batchSize, caps.perEndpoint, caps.perAccount, Math.max(WINDOW, 20 * batchSize)]);
    return rows.map((r) => ({ id: r.id, data: r.data, retryCount: r.retry_count }));
  });
}
