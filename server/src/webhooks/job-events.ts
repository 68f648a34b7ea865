import type { components } from '../../../generated/openapi.js';
import { utcTimestamp as ts } from '../db/sql.js';
import type { Transaction } from '../db/transaction.js';
import { newId } from '../ids/ids.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { MAX_PENDING_UNCHARGED_DELIVERIES } from './endpoint-limits.js';

type Schemas = components['schemas'];
export type WebhookEventType = Schemas['WebhookEventType'];

/**
 * Records a job's event for every endpoint of its account that takes it, in the transaction that ends the job, and
 * schedules each delivery's first attempt now: an event exists exactly when the job's end does, once (a worker that
 * dies before this commits leaves neither; the job's next run makes both). The body is built and stored once
 * (webhook_events), whatever the number of endpoints; every attempt sends it again with the same `webhook-id` (the
 * event's id) and a fresh signature. A `job.failed` event (its job was never charged) is scheduled only while the
 * account has fewer than MAX_PENDING_UNCHARGED_DELIVERIES such deliveries pending; beyond, its deliveries are
 * recorded failed, unsent. Answers the deliveries scheduled.
 * Body: the Standard Webhooks payload structure, `{type, timestamp, data}`
 * (https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md#payload-structure).
 */
export async function recordJobEvent(tx: Transaction, queue: JobQueue, job: Schemas['Job'], accountId: string, type: WebhookEventType, now: Date): Promise<number> {
  const body = { type, timestamp: now.toISOString(), data: { job } } satisfies Schemas['WebhookEvent'];
  return recordEvent(tx, queue, { accountId, type, jobId: job.id, body, now });
}

/**
 * Records an event (a job's or a review's) for every endpoint of its account that takes it, in the caller's
 * transaction: its body stored once, one delivery per endpoint, each first attempt scheduled now (see above).
 */
export async function recordEvent(tx: Transaction, queue: JobQueue, event: { accountId: string; type: string; jobId: string | null; body: { type: string; timestamp: string; data: unknown }; now: Date }): Promise<number> {
  const { accountId, type, jobId, now } = event;
  const endpoints = await tx.sql.rows<{ id: string }>('webhook_event_endpoints', `
    SELECT id FROM webhook_endpoints WHERE account_id = $1 AND disabled_at IS NULL AND $2 = ANY(events) ORDER BY created_at, id`, [accountId, type]);
  if (endpoints.length === 0) return 0;
  const eventId = newId();
  const payload = JSON.stringify(event.body);
  await tx.sql.execute('webhook_event_insert', `
    INSERT INTO webhook_events (id, account_id, type, job_id, payload, created_at) VALUES ($1, $2, $3, $4, $5, $6::timestamp(3))`,
  [eventId, accountId, type, jobId, payload, ts(now)]);
  let send = true;
  if (type === 'job.failed') {
    const pending = await tx.sql.rows<{ n: string }>('webhook_pending_uncharged', `
      SELECT count(*) AS n FROM webhook_deliveries WHERE account_id = $1 AND status = 'pending' AND event_type = 'job.failed'`, [accountId]);
    send = Number(pending[0]?.n ?? 0) < MAX_PENDING_UNCHARGED_DELIVERIES;
  }
  // Ids are made here, not by the database: version 7, so an endpoint's deliveries list newest first by id.
  const deliveries = endpoints.map((e) => ({ deliveryId: newId(), endpointId: e.id, accountId }));
  await tx.sql.execute('webhook_deliveries_insert', `
    INSERT INTO webhook_deliveries (id, endpoint_id, account_id, event_id, event_type, job_id, status, attempt_count, next_attempt_at, created_at)
    SELECT d.id, d.endpoint_id, $1, $2, $3, $4, $6::"WebhookDeliveryStatus", 0, CASE WHEN $6 = 'pending' THEN $5::timestamp(3) END, $5::timestamp(3)
    FROM unnest($7::text[], $8::text[]) AS d(id, endpoint_id)`,
  [accountId, eventId, type, jobId, ts(now), send ? 'pending' : 'failed', deliveries.map((d) => d.deliveryId), deliveries.map((d) => d.endpointId)]);
  if (!send) return 0;
  await queue.scheduleDeliveries(tx, deliveries, 0);
  return deliveries.length;
}
