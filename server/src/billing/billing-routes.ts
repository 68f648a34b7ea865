import express, { Router, type RequestHandler } from 'express';
import type Stripe from 'stripe';
import type { components } from '../../../generated/openapi.js';
import { principalOf } from '../auth/authenticate.js';
import type { Config } from '../config/config.js';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { BODY_LIMIT_BYTES, hasRequestBody } from '../http/json-body.js';
import type { Clock } from '../time/clock.js';
import { startCheckout } from './checkout.js';
import { applyEvent, verifyEvent } from './webhook.js';

type Schemas = components['schemas'];

export interface BillingDeps {
  prisma: PrismaClient;
  stripe: Stripe | null;
  billing: Config['billing'];
  publicUrl: string;
  clock: Clock;
}

/**
 * The operation's one media type, `application/json` (JSON is UTF-8: another charset is refused too, since the
 * signature and the parser read the bytes as UTF-8). Stripe sends `application/json; charset=utf-8`.
 */
function isJsonMediaType(header: string | undefined): boolean {
  if (!header) return false;
  const [type = '', ...params] = header.split(';').map((p) => p.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return params.every((p) => {
    const [name = '', value = ''] = p.split('=').map((x) => x.trim());
    return name !== 'charset' || ['utf-8', 'utf8'].includes(value.replace(/^"(.*)"$/, '$1'));
  });
}

/**
 * Before a byte of the body is read: 503 when billing is not configured, 415 when a body is not `application/json`
 * (the webhook is mounted before `jsonBody`, which checks this for every other route).
 */
function webhookPreconditions(deps: BillingDeps): RequestHandler {
  return (req, _res, next) => {
    if (!deps.stripe || !deps.billing.webhookSecret) throw new ApiError('billing_not_configured');
    if (hasRequestBody(req) && !isJsonMediaType(req.headers['content-type'])) throw new ApiError('unsupported_media_type');
    next();
  };
}

/** The webhook reads its body raw (the signature covers the exact bytes), so it is mounted before the JSON parser. */
export function webhookRoute(deps: BillingDeps): Router {
  const router = Router();
  router.post('/v1/billing/webhook', webhookPreconditions(deps), express.raw({ type: () => true, limit: BODY_LIMIT_BYTES }), async (req, res) => {
    const { stripe, billing: { webhookSecret } } = deps;
    if (!stripe || !webhookSecret) throw new ApiError('billing_not_configured'); // (checked before the body was read)
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const event = verifyEvent(stripe, raw, req.header('stripe-signature'), webhookSecret);
    const result = await applyEvent(deps.prisma, event, deps.clock.now());
    // Never the body, the signature or the secret: the event's id and type say which event it was.
    if (result.outcome === 'withheld') req.log?.warn({ eventId: event.id, type: event.type, reason: result.reason }, 'stripe event recorded but not applied');
    else req.log?.info({ eventId: event.id, type: event.type, outcome: result.outcome, ...('reason' in result ? { reason: result.reason } : {}) }, 'stripe event');
    res.json({ received: true } satisfies Schemas['WebhookReceipt']);
  });
  return router;
}

export function checkoutRoute(deps: BillingDeps): Router {
  const router = Router();
  router.post('/v1/billing/checkout', async (req, res) => {
    const body = req.body as Schemas['CheckoutRequest'];
    const answer = await startCheckout({ ...deps, now: () => deps.clock.now() }, principalOf(res).accountId, body.plan);
    res.json(answer satisfies Schemas['CheckoutSession']);
  });
  return router;
}
