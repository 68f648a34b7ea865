import type { components } from '../../../generated/openapi.js';
import type { Transaction } from '../db/transaction.js';
import type { JobQueue } from '../jobs/job-queue.js';
import { recordEvent } from '../webhooks/job-events.js';

type Schemas = components['schemas'];

/**
 * Records a review event for every endpoint of the account that takes it, in the transaction that makes or resolves
 * the review: the same stored body, deliveries, signatures and retries as job events (webhooks/job-events.ts), with
 * no job (the body names the review). Standard Webhooks payload structure.
 */
export async function recordReviewEvent(tx: Transaction, queue: JobQueue, review: Schemas['ReviewSummary'], accountId: string, type: 'review.created' | 'review.resolved', now: Date): Promise<number> {
  return recordEvent(tx, queue, { accountId, type, jobId: null, body: { type, timestamp: now.toISOString(), data: { review } }, now });
}
