import express, { Router } from 'express';
import type Stripe from 'stripe';
import type { components } from '../../../generated/openapi.js';
import { principalOf } from '../auth/authenticate.js';
import type { Config } from '../config/config.js';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { BODY_LIMIT_BYTES } from '../http/json-body.js';
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

/** The webhook reads its body raw (the signature covers the exact bytes), so it is mounted before the JSON parser. */
export function webhookRoute(deps: BillingDeps): Router {
  const router = Router();
  router.post('/v1/billing/webhook', express.raw({ type: () => true, limit: BODY_LIMIT_BYTES }), async (req, res) => {
    if (!deps.stripe || !deps.billing.webhookSecret) throw new ApiError('billing_not_configured');
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const event = verifyEvent(deps.stripe, raw, req.header('stripe-signature'), deps.billing.webhookSecret);
    const outcome = await applyEvent(deps.prisma, event);
    req.log?.info({ eventId: event.id, type: event.type, outcome }, 'stripe event');
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
