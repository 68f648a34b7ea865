import type { components } from '../../../generated/openapi.js';
import { utcTimestamp as ts } from '../db/sql.js';
import type { Transaction } from '../db/transaction.js';
import { newId } from '../ids/ids.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { MAX_ENDPOINTS } from '../webhooks/endpoint-limits.js';

type Schemas = components['schemas'];

/**
 * Records a review event for every endpoint of the account that takes it, in the transaction that makes or resolves
 * the review, and schedules each first attempt: the same deliveries, signatures and retries as job events
 * (webhooks/job-events.ts), with no job (the body names the review). Standard Webhooks payload structure.
 */
export async function recordReviewEvent(tx: Transaction, queue: JobQueue, review: Schemas['ReviewSummary'], accountId: string, type: 'review.created' | 'review.resolved', now: Date): Promise<number> {
  const eventId = newId();
  const payload = JSON.stringify({ type, timestamp: now.toISOString(), data: { review } } satisfies { type: string; timestamp: string; data: { review: Schemas['ReviewSummary'] } });
  const ids = Array.from({ length: 2 * MAX_ENDPOINTS }, () => newId());
  const rows = await tx.sql.rows<{ id: string }>('review_deliveries_insert', `
    WITH e AS (
      SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM webhook_endpoints
      WHERE account_id = $1 AND disabled_at IS NULL AND $3 = ANY(events)
    )
    INSERT INTO webhook_deliveries (id, endpoint_id, account_id, event_id, event_type, job_id, payload, status, attempt_count, next_attempt_at, created_at)
    SELECT ($6::text[])[e.n], e.id, $1, $2, $3, NULL, $4, 'pending', 0, $5::timestamp(3), $5::timestamp(3) FROM e
    RETURNING id`, [accountId, eventId, type, payload, ts(now), ids]);
  if (rows.length) await queue.scheduleDeliveries(tx, rows.map((r) => r.id), 0);
  return rows.length;
}
