import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import type { components } from '../../../generated/openapi.js';
import { principalOf } from '../auth/authenticate.js';
import type { Database } from '../db/database.js';
import { withTransaction } from '../db/transaction.js';
import { ApiError } from '../http/api-error.js';
import { newId } from '../ids/ids.js';
import type { JobQueue } from '../jobs/job-queue.js';
import type { Clock } from '../time/clock.js';
import { endpointRepository as endpoints } from './endpoint-repository.js';
import { checkEndpointUrl, type UrlPolicy } from './url-guard.js';
import { MAX_ENDPOINTS } from './endpoint-limits.js';

type Schemas = components['schemas'];

const ALL_EVENTS: Array<Schemas['WebhookEventType']> = ['job.succeeded', 'job.failed', 'review.created', 'review.resolved'];
// Without `events`, an endpoint takes the job events, as before review events existed: a receiver written for job
// events (`data.job`) never gets a review event it did not name.
const DEFAULT_EVENTS: Array<Schemas['WebhookEventType']> = ['job.succeeded', 'job.failed'];

/**
 * A signing secret as the Standard Webhooks specification serialises it: `whsec_` and the base64 of random bytes
 * (at least 24; 32 here).
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** How long a rotated-out secret keeps signing when the request does not say (the contract's default). */
const DEFAULT_OVERLAP_SECONDS = 86_400;

export function endpointRoutes(db: Database, queue: JobQueue, clock: Clock, policy: UrlPolicy): Router {
  const router = Router();
  const { sql } = db;

  router.post('/v1/webhook-endpoints', async (req, res) => {
    const { accountId } = principalOf(res);
    const body = req.body as Schemas['CreateWebhookEndpointRequest'];
    const url = checkEndpointUrl(body.url, policy);
    if (await endpoints.count(sql, accountId) >= MAX_ENDPOINTS) {
      throw new ApiError('invalid_request', `An account may have at most ${MAX_ENDPOINTS} webhook endpoints: delete one first.`, { errors: [{ path: '/body', message: `at most ${MAX_ENDPOINTS} endpoints per account` }] });
    }
    const secret = newSigningSecret();
    const events = body.events ? ALL_EVENTS.filter((e) => body.events!.includes(e)) : DEFAULT_EVENTS;
    const created = await endpoints.create(sql, { id: newId(), accountId, url, events, description: body.description ?? null, secret, createdAt: clock.now() });
    res.status(201).json({ ...created, secret } satisfies Schemas['CreatedWebhookEndpoint']);
  });

  router.get('/v1/webhook-endpoints', async (_req, res) => {
    res.json({ endpoints: await endpoints.list(sql, principalOf(res).accountId) } satisfies Schemas['WebhookEndpointList']);
  });

  const found = async (accountId: string, id: string) => {
    const endpoint = await endpoints.find(sql, accountId, id);
    if (!endpoint) throw new ApiError('not_found', 'No webhook endpoint with this id.');
    return endpoint;
  };

  router.get('/v1/webhook-endpoints/:id', async (req, res) => {
    res.json(await found(principalOf(res).accountId, req.params.id!));
  });

  router.delete('/v1/webhook-endpoints/:id', async (req, res) => {
    const deleted = await endpoints.delete(sql, principalOf(res).accountId, req.params.id!);
    if (!deleted) throw new ApiError('not_found', 'No webhook endpoint with this id.');
    res.json(deleted);
  });

  router.post('/v1/webhook-endpoints/:id/rotate-secret', async (req, res) => {
    const body = req.body as Schemas['RotateWebhookSecretRequest'];
    const overlap = body.overlapSeconds ?? DEFAULT_OVERLAP_SECONDS;
    const until = overlap > 0 ? new Date(clock.now().getTime() + overlap * 1000) : null;
    const secret = newSigningSecret();
    const rotated = await endpoints.rotateSecret(sql, principalOf(res).accountId, req.params.id!, secret, until);
    if (!rotated) throw new ApiError('not_found', 'No webhook endpoint with this id.');
    res.json({ ...rotated, secret } satisfies Schemas['RotatedWebhookSecret']);
  });

  router.post('/v1/webhook-endpoints/:id/enable', async (req, res) => {
    const enabled = await endpoints.enable(sql, principalOf(res).accountId, req.params.id!);
    if (!enabled) throw new ApiError('not_found', 'No webhook endpoint with this id.');
    res.json(enabled);
  });

  router.post('/v1/webhook-endpoints/:id/deliveries/:deliveryId/redeliver', async (req, res) => {
    const endpoint = await found(principalOf(res).accountId, req.params.id!);
    if (endpoint.disabledAt !== null) {
      throw new ApiError('webhook_endpoint_disabled', `The endpoint was disabled on ${endpoint.disabledAt}: enable it (POST /v1/webhook-endpoints/${endpoint.id}/enable) before redelivering to it.`);
    }
    // Started before the transaction: on the embedded database, starting it inside would wait for the one connection.
    await queue.start();
    const id = await withTransaction(db.pool, async (tx) => {
      const copied = await endpoints.copyDelivery(tx.sql, endpoint.id, req.params.deliveryId!, newId(), clock.now());
      if (copied) await queue.scheduleDeliveries(tx, [copied], 0);
      return copied;
    });
    const delivery = id === null ? null : await endpoints.delivery(sql, endpoint.id, id);
    if (!delivery) throw new ApiError('not_found', 'No delivery with this id for this endpoint.');
    res.status(202).json(delivery);
  });

  router.get('/v1/webhook-endpoints/:id/deliveries', async (req, res) => {
    const endpoint = await found(principalOf(res).accountId, req.params.id!);
    const q = req.query as { status?: string; limit?: string; cursor?: string };
    const limit = q.limit ? Number(q.limit) : 20;
    const rows = await endpoints.deliveries(sql, endpoint.id, { status: q.status, limit: limit + 1, cursor: q.cursor });
    const more = rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    res.json({ deliveries: page, nextCursor: more ? page[page.length - 1]!.id : null } satisfies Schemas['WebhookDeliveryList']);
  });

  return router;
}
