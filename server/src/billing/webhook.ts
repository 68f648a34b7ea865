import type Stripe from 'stripe';
import { z } from 'zod';
import type { Prisma } from '../db/prisma-client/client.js';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';

type Tx = Prisma.TransactionClient;
type AccountStatus = 'active' | 'trialing' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'incomplete_expired' | 'paused';
const STATUSES = new Set<string>(['active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused']);
const SIGNATURE_TOLERANCE_S = 300;

const at = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : v?.id ?? null);

/** Verifies `Stripe-Signature` on the raw body; a bad or stale signature is 400 and changes nothing. */
export function verifyEvent(stripe: Stripe, rawBody: Buffer, signature: string | undefined, secret: string): Stripe.Event {
  if (!signature) throw new ApiError('invalid_request', 'The Stripe-Signature header is missing.', { errors: [{ path: '/header/stripe-signature', message: 'is required' }] });
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, secret, SIGNATURE_TOLERANCE_S);
  } catch {
    throw new ApiError('invalid_request', 'The Stripe signature does not verify.', { errors: [{ path: '/header/stripe-signature', message: 'does not match the body, or is too old' }] });
  }
  // A signature proves who sent it, not that it has the shape we read: refuse anything else before it is stored.
  const shape = eventShape.safeParse(event);
  if (!shape.success) {
    throw new ApiError('invalid_request', 'The body is not a Stripe event this service can read.', {
      errors: shape.error.issues.slice(0, 20).map((i) => ({ path: `/body/${i.path.join('/')}`, message: i.message })),
    });
  }
  return event;
}

const ref = z.union([z.string(), z.object({ id: z.string() }).passthrough()]).nullish();
const seconds = z.number().int().nonnegative().nullish();
/** The members of an event and its object that `applyEvent` reads (others pass through unchecked). */
const eventShape = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  created: z.number().int().nonnegative(),
  data: z.object({
    object: z.object({
      id: z.string().nullish(),
      mode: z.string().nullish(),
      status: z.string().nullish(),
      metadata: z.record(z.string(), z.string()).nullish(),
      client_reference_id: z.string().nullish(),
      customer: ref,
      subscription: ref,
      cancel_at: seconds,
      ended_at: seconds,
      items: z.object({ data: z.array(z.object({ current_period_end: seconds }).passthrough()) }).passthrough().nullish(),
    }).passthrough(),
  }).passthrough(),
}).passthrough();

/** The account an event is about: by our metadata, the checkout's client reference, or the Stripe customer. */
async function findAccount(tx: Tx, object: { metadata?: Record<string, string> | null; client_reference_id?: string | null; customer?: string | { id: string } | null }) {
  const byId = object.metadata?.accountId ?? object.client_reference_id ?? null;
  if (byId) {
    const account = await tx.account.findUnique({ where: { id: byId } });
    if (account) return account;
  }
  const customer = idOf(object.customer);
  return customer ? tx.account.findUnique({ where: { stripeCustomerId: customer } }) : null;
}

function periodEnd(sub: Stripe.Subscription): Date | null {
  const fromItem = sub.items?.data?.[0]?.current_period_end;
  const legacy = (sub as unknown as { current_period_end?: number }).current_period_end;
  return at(fromItem ?? legacy);
}

/**
 * Records the event id once and applies it in the same transaction. Each state change carries the event's creation
 * time; an event older than the state already applied changes nothing, and a subscription that ended stays ended,
 * so replayed and out-of-order deliveries leave the account as the newest subscription state says.
 */
export async function applyEvent(prisma: PrismaClient, event: Stripe.Event): Promise<'applied' | 'duplicate' | 'ignored'> {
  return prisma.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO billing_events (id, type, created_at, received_at)
      VALUES (${event.id}, ${event.type}, ${new Date(event.created * 1000).toISOString().replace('Z', '')}::timestamp(3), ${new Date().toISOString().replace('Z', '')}::timestamp(3))
      ON CONFLICT (id) DO NOTHING`;
    if (inserted === 0) return 'duplicate';
    const eventAt = new Date(event.created * 1000);

    const object = event.data.object as unknown as Record<string, unknown>;
    const account = await findAccount(tx, object as Parameters<typeof findAccount>[1]);
    if (!account) return 'ignored';
    // Newer state already applied, or the subscription this event is about has already ended.
    if (account.subscriptionStateAt && account.subscriptionStateAt > eventAt) return 'ignored';
    const subscriptionId = event.type.startsWith('customer.subscription.') ? (object.id as string)
      : idOf(object.subscription as string | { id: string } | null | undefined);
    const ended = account.subscriptionEndedAt !== null && subscriptionId !== null && account.stripeSubscriptionId === subscriptionId;
    if (ended && event.type !== 'customer.subscription.deleted') return 'ignored';

    const customer = idOf(object.customer as string | { id: string } | null);
    const base = { subscriptionStateAt: eventAt, ...(customer && !account.stripeCustomerId ? { stripeCustomerId: customer } : {}) };
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = event.data.object as Stripe.Checkout.Session;
        if (session.mode !== 'subscription') return 'ignored';
        await tx.account.update({ where: { id: account.id }, data: { ...base, plan: 'starter', status: 'active', stripeSubscriptionId: idOf(session.subscription), subscriptionEndedAt: null } });
        return 'applied';
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated': {
        const sub = event.data.object as Stripe.Subscription;
        const status = STATUSES.has(sub.status) ? (sub.status as AccountStatus) : account.status;
        const holds = ['active', 'trialing', 'past_due', 'unpaid'].includes(status);
        await tx.account.update({
          where: { id: account.id },
          data: { ...base, status, plan: holds ? 'starter' : account.plan, stripeSubscriptionId: sub.id, cancelAt: at(sub.cancel_at), currentPeriodEnd: periodEnd(sub), ...(holds ? { subscriptionEndedAt: null } : {}) },
        });
        return 'applied';
      }
      case 'customer.subscription.deleted': {
        const sub = event.data.object as Stripe.Subscription;
        await tx.account.update({
          where: { id: account.id },
          data: { ...base, plan: 'free', status: 'active', priorPlan: 'starter', stripeSubscriptionId: sub.id, subscriptionEndedAt: at(sub.ended_at) ?? eventAt, cancelAt: null, currentPeriodEnd: null },
        });
        return 'applied';
      }
      case 'invoice.paid': {
        if (account.plan !== 'starter') return 'ignored';
        await tx.account.update({ where: { id: account.id }, data: { ...base, status: 'active' } });
        return 'applied';
      }
      case 'invoice.payment_failed': {
        if (account.plan !== 'starter') return 'ignored';
        await tx.account.update({ where: { id: account.id }, data: { ...base, status: 'past_due' } });
        return 'applied';
      }
      default:
        return 'ignored';
    }
  });
}
