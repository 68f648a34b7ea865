import type { components } from '../../../generated/openapi.js';
import { utcTimestamp as ts } from '../db/sql.js';
import type { Transaction } from '../db/transaction.js';
import { newId } from '../ids/ids.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { MAX_ENDPOINTS } from './endpoint-limits.js';

type Schemas = components['schemas'];
export type WebhookEventType = Schemas['WebhookEventType'];

/**
 * Records a job's event for every endpoint of its account that takes it, in the transaction that ends the job, and
 * schedules each delivery's first attempt now: an event exists exactly when the job's end does, once (a worker that
 * dies before this commits leaves neither; the job's next run makes both). The body is built once and stored as
 * sent; every attempt sends it again with the same `webhook-id` (the event's id) and a fresh signature.
 * Body: the Standard Webhooks payload structure, `{type, timestamp, data}`
 * (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md#payload-structure).
 */
export async function recordJobEvent(tx: Transaction, queue: JobQueue, job: Schemas['Job'], accountId: string, type: WebhookEventType, now: Date): Promise<number> {
  const eventId = newId();
  const payload = JSON.stringify({ type, timestamp: now.toISOString(), data: { job } } satisfies Schemas['WebhookEvent']);
  // One statement: a delivery for each endpoint that takes the event. Ids are made here, not by the database: version
  // 7, so an endpoint's deliveries list newest first by id (more than an account's endpoints can be, even racing).
  const ids = Array.from({ length: 2 * MAX_ENDPOINTS }, () => newId());
  const rows = await tx.sql.rows<{ id: string }>('webhook_deliveries_insert', `
    WITH e AS (
      SELECT id, row_number() OVER (ORDER BY created_at, id) AS n FROM webhook_endpoints
      WHERE account_id = $1 AND disabled_at IS NULL AND $3 = ANY(events)
    )
    INSERT INTO webhook_deliveries (id, endpoint_id, account_id, event_id, event_type, job_id, payload, status, attempt_count, next_attempt_at, created_at)
    SELECT ($7::text[])[e.n], e.id, $1, $2, $3, $4, $5, 'pending', 0, $6::timestamp(3), $6::timestamp(3) FROM e
    RETURNING id`, [accountId, eventId, type, job.id, payload, ts(now), ids]);
  if (rows.length) await queue.scheduleDeliveries(tx, rows.map((r) => r.id), 0);
  return rows.length;
}
