import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import { utcTimestamp as ts } from '../db/sql.js';
import { withTransaction } from '../db/transaction.js';
import { QUEUES, type ClaimedJob, type JobQueue } from '../jobs/job-queue.js';
import type { Clock } from '../time/clock.js';
import { sendAttempt, type AttemptOutcome } from './delivery-sender.js';
import type { AddressPolicy } from './url-guard.js';

export interface DeliveryRunnerDeps {
  db: Database;
  queue: JobQueue;
  clock: Clock;
  logger: Logger;
  /** Seconds to wait after each failed attempt (its length is the number of retries). */
  retryScheduleSeconds: number[];
  timeoutMs: number;
  /** Where deliveries may connect (url-guard.ts). */
  addresses: AddressPolicy;
  /** Attempts in a row without an answer in time after which the endpoint is disabled (0: never). */
  disableAfterTimeouts: number;
  /** Told of each attempt (metrics). */
  onAttempt?: (outcome: AttemptOutcome) => void;
}

interface DeliveryRow {
  id: string;
  eventId: string;
  payload: string;
  status: string;
  attemptCount: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  endpointId: string;
  accountId: string;
  disabled: boolean;
}

/** The longest an endpoint's `Retry-After` may push an attempt back. */
const MAX_RETRY_AFTER_SECONDS = 24 * 3600;

/**
 * Makes a delivery's next attempt and records it, then schedules the one after (on the retry schedule, with a little
 * jitter as the Standard Webhooks specification recommends, and no sooner than the endpoint's `Retry-After`) or ends
 * the delivery: succeeded on a 2xx, failed once the schedule is used up, and failed with its endpoint disabled on
 * `410 Gone` (spec, "Delivery success and failure"). Each attempt is its own pg-boss job, due at its time.
 */
export class DeliveryRunner {
  constructor(private readonly deps: DeliveryRunnerDeps) {}

  /** Makes the next attempt; with `claimed`, completes the queue's job in the transaction that records it. */
  async run(deliveryId: string, claimed?: ClaimedJob<unknown>): Promise<void | 'completed'> {
    const { db, queue, clock, retryScheduleSeconds } = this.deps;
    const rows = await db.sql.rows<DeliveryRow>('webhook_delivery_load', `
      SELECT d.id, d.event_id AS "eventId", ev.payload, d.status::text AS status, d.attempt_count AS "attemptCount",
             e.url, e.secret, e.id AS "endpointId", d.account_id AS "accountId", e.disabled_at IS NOT NULL AS disabled,
             CASE WHEN e.previous_secret_expires_at > $2::timestamp(3) THEN e.previous_secret END AS "previousSecret"
      FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id JOIN webhook_events ev ON ev.id = d.event_id
      WHERE d.id = $1`, [deliveryId, ts(clock.now())]);
    const row = rows[0];
    // Its endpoint was deleted (the delivery went with it), or it already ended.
    if (!row || row.status !== 'pending') return;
    if (row.disabled) {
      await db.sql.execute('webhook_delivery_drop', `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE id = $1 AND status = 'pending'`, [row.id]);
      return;
    }
    const attempt = row.attemptCount + 1;
    const sentAt = clock.now();
    const outcome = await sendAttempt({ url: row.url, eventId: row.eventId, payload: row.payload, secret: row.secret, previousSecret: row.previousSecret }, sentAt, this.deps.timeoutMs, this.deps.addresses);
    this.deps.onAttempt?.(outcome);
    const ok = outcome.error === null;
    const gone = outcome.statusCode === 410;
    const retries = retryScheduleSeconds.length;
    let next: Date | null = null;
    let delaySeconds = 0;
    if (!ok && !gone && attempt <= retries) {
      const jitter = 1 + (Math.random() * 0.2 - 0.1);
      delaySeconds = Math.max(retryScheduleSeconds[attempt - 1]! * jitter, Math.min(outcome.retryAfterSeconds ?? 0, MAX_RETRY_AFTER_SECONDS));
      next = new Date(clock.now().getTime() + delaySeconds * 1000);
    }
    const status = ok ? 'succeeded' : next ? 'pending' : 'failed';
    let completed = false;
    await withTransaction(db.pool, async (tx) => {
      // Only the run that made attempt n records it (a run thought dead that finishes late changes nothing).
      const moved = await tx.sql.rows<{ id: string }>('webhook_attempt_record', `
        WITH moved AS (
          UPDATE webhook_deliveries SET status = $2::"WebhookDeliveryStatus", attempt_count = $3, next_attempt_at = $4::timestamp(3)
          WHERE id = $1 AND attempt_count = $3 - 1 AND status = 'pending'
          RETURNING id
        )
        INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, status_code, error, duration_ms)
        SELECT id, $3, $5::timestamp(3), $6, $7, $8 FROM moved ON CONFLICT DO NOTHING
        RETURNING delivery_id AS id`,
      [row.id, status, attempt, next ? ts(next) : null, ts(sentAt), outcome.statusCode, outcome.error, outcome.durationMs]);
      if (moved.length === 0) return;
      if (gone) await tx.sql.execute('webhook_endpoint_disable', 'UPDATE webhook_endpoints SET disabled_at = $2::timestamp(3) WHERE id = $1 AND disabled_at IS NULL', [row.endpointId, ts(sentAt)]);
      // Attempts in a row without an answer in time: each holds a slot for the whole timeout, so an endpoint that
      // keeps hanging is disabled (any answer, even an error status, starts the count again).
      const timeouts = await tx.sql.rows<{ n: number; disabled: boolean }>('webhook_endpoint_timeouts', `
        UPDATE webhook_endpoints SET consecutive_timeouts = CASE WHEN $2 THEN consecutive_timeouts + 1 ELSE 0 END,
          disabled_at = CASE WHEN $2 AND $3 > 0 AND consecutive_timeouts + 1 >= $3 THEN COALESCE(disabled_at, $4::timestamp(3)) ELSE disabled_at END
        WHERE id = $1 RETURNING consecutive_timeouts AS n, disabled_at IS NOT NULL AS disabled`,
      [row.endpointId, outcome.timedOut === true, this.deps.disableAfterTimeouts, ts(sentAt)]);
      const disabledNow = outcome.timedOut === true && this.deps.disableAfterTimeouts > 0 && timeouts[0]?.n === this.deps.disableAfterTimeouts;
      if (disabledNow) {
        this.deps.logger.warn({ endpointId: row.endpointId, accountId: row.accountId, timeouts: timeouts[0]!.n }, 'webhook endpoint disabled: no answer in time to several attempts in a row');
      }
      if (next) await queue.scheduleDeliveries(tx, [{ deliveryId: row.id, endpointId: row.endpointId, accountId: row.accountId }], delaySeconds);
      // This attempt's queue job ends with its record: a worker dying after this commit sends nothing twice.
      if (claimed) {
        await queue.complete(QUEUES.deliveries, claimed, tx);
        completed = true;
      }
    });
    return completed ? 'completed' : undefined;
  }
}
