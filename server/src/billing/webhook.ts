import type Stripe from 'stripe';
import { z } from 'zod';
import type { Prisma } from '../db/prisma-client/client.js';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';

type Tx = Prisma.TransactionClient;
type AccountStatus = 'active' | 'trialing' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'incomplete_expired' | 'paused';
const STATUSES = new Set<string>(['active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused']);
const SIGNATURE_TOLERANCE_S = 300;
/**
 * How far after its receipt an event's `created` may lie. Stripe creates an event before it signs and sends it, so a
 * genuine `created` is never later than its delivery; an hour absorbs any clock skew between Stripe and this server,
 * while an absurd `created` (1e15, or years ahead) could otherwise hold every later event back as "older".
 */
const MAX_FUTURE_SKEW_MS = 60 * 60 * 1000;
/**
 * 9999-12-31T23:59:59Z. Later instants print with a six-digit year PostgreSQL does not read (the update or insert
 * failed: a 500), and past 8.64e12 s they are not a Date at all (1e15 threw RangeError).
 */
const MAX_SECONDS = 253_402_300_799;

const at = (seconds: number | null | undefined) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : v?.id ?? null);
const inRange = (seconds: unknown) => typeof seconds !== 'number' || (Number.isFinite(seconds) && seconds >= 0 && seconds <= MAX_SECONDS);
const sqlTimestamp = (d: Date) => d.toISOString().replace('Z', '');

/**
 * Verifies `Stripe-Signature` on the raw body, then reads it: a missing, bad or stale signature is 400
 * invalid_request; verified bytes that are not JSON are 400 malformed_json; JSON that is not an event this service
 * can read is 400 invalid_request. None of them changes anything. The signature is checked before a byte is parsed.
 */
export function verifyEvent(stripe: Stripe, rawBody: Buffer, signature: string | undefined, secret: string): WebhookEvent {
  if (!signature) throw new ApiError('invalid_request', 'The Stripe-Signature header is missing.', { errors: [{ path: '/header/stripe-signature', message: 'is required' }] });
  const verifier = stripe.webhooks.signature;
  if (!verifier) throw new Error('The Stripe SDK has no webhook signature verifier.');
  try {
    verifier.verifyHeader(rawBody, signature, secret, SIGNATURE_TOLERANCE_S);
  } catch {
    throw new ApiError('invalid_request', 'The Stripe signature does not verify.', { errors: [{ path: '/header/stripe-signature', message: 'does not match the body, or is too old' }] });
  }
  // constructEvent would parse too, but reports a parse failure like a bad signature: parse here instead.
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new ApiError('malformed_json');
  }
  // A signature proves who sent it, not that it has the shape we read: refuse anything else before it is stored.
  const shape = eventShape.safeParse(parsed);
  if (!shape.success) {
    throw new ApiError('invalid_request', 'The body is not a Stripe event this service can read.', {
      errors: shape.error.issues.slice(0, 20).map((i) => ({ path: `/body/${i.path.join('/')}`, message: i.message })),
    });
  }
  return shape.data;
}

/** Strings stored or looked up must be ones PostgreSQL text can hold: no U+0000 (that was a 500). */
const NO_NUL = [(v: string) => !v.includes('\u0000'), 'must not contain U+0000 (NUL)'] as const;
const text = z.string().refine(...NO_NUL);
const ref = z.union([text, z.object({ id: text }).passthrough()]).nullish();
const seconds = z.number().int().nonnegative().nullish();
/** The members of an event and its object that `applyEvent` reads (others pass through unchecked). */
const eventShape = z.object({
  id: z.string().min(1).max(255).refine(...NO_NUL),
  type: z.string().min(1).max(255).refine(...NO_NUL),
  // Not in the published contract (StripeEvent requires only id, type and data): without it, the event is ordered
  // as received (see applyEvent).
  created: seconds,
  data: z.object({
    object: z.object({
      id: text.nullish(),
      mode: z.string().nullish(),
      status: z.string().nullish(),
      metadata: z.object({ accountId: text.optional() }).catchall(z.string()).nullish(),
      client_reference_id: text.nullish(),
      customer: ref,
      subscription: ref,
      cancel_at: seconds,
      ended_at: seconds,
      items: z.object({ data: z.array(z.object({ current_period_end: seconds }).passthrough()) }).passthrough().nullish(),
    }).passthrough(),
  }).passthrough(),
}).passthrough();

export type WebhookEvent = z.infer<typeof eventShape>;
type EventObject = WebhookEvent['data']['object'];
type Account = NonNullable<Awaited<ReturnType<Tx['account']['findUnique']>>>;

/**
 * The account an event is about, from what it names: our metadata's accountId, the checkout's client_reference_id,
 * and the Stripe customer. Everything it names must agree, or it is about no account this service can trust:
 * - metadata.accountId and client_reference_id name two different accounts;
 * - it names an account by id and its customer is another account's (or the named account has another customer);
 * - it names an account id this service does not have, while its customer is one of ours.
 * A contradictory event is recorded and applied to no account (`conflict`): applying it to either side could move
 * the wrong account (or adopt another account's customer, a unique violation), and refusing it would only make
 * Stripe resend it for days. An event naming nothing of ours is `none` (another deployment's, say).
 */
async function resolveAccount(tx: Tx, object: EventObject): Promise<{ account: Account } | { conflict: string } | { none: true }> {
  const byMetadata = object.metadata?.accountId ?? null;
  const byReference = object.client_reference_id ?? null;
  if (byMetadata !== null && byReference !== null && byMetadata !== byReference) return { conflict: 'metadata.accountId and client_reference_id name different accounts' };
  const named = byMetadata ?? byReference;
  const customer = idOf(object.customer);
  const byName = named !== null ? await tx.account.findUnique({ where: { id: named } }) : null;
  const byCustomer = customer !== null ? await tx.account.findUnique({ where: { stripeCustomerId: customer } }) : null;
  if (named !== null && !byName) return byCustomer ? { conflict: 'it names an unknown account id, and its customer is another account\'s' } : { none: true };
  if (byName) {
    if (byCustomer && byCustomer.id !== byName.id) return { conflict: 'the account it names and its customer\'s account differ' };
    if (customer !== null && !byCustomer && byName.stripeCustomerId !== null) return { conflict: 'the account it names has another Stripe customer' };
    return { account: byName };
  }
  return byCustomer ? { account: byCustomer } : { none: true };
}

function periodEndSeconds(sub: Stripe.Subscription): number | undefined {
  const fromItem = sub.items?.data?.[0]?.current_period_end;
  const legacy = (sub as unknown as { current_period_end?: unknown }).current_period_end;
  return fromItem ?? (typeof legacy === 'number' ? legacy : undefined);
}

export type ApplyResult =
  | { outcome: 'applied' | 'duplicate' }
  /** Nothing to change (not ours, older than the state applied, not the current subscription, a type not handled). */
  | { outcome: 'ignored'; reason: string }
  /** Recorded but applied to no account because it cannot be trusted to: the route logs it as a warning. */
  | { outcome: 'withheld'; reason: string };

/**
 * Records the event id once and applies it in the same transaction. Each state change carries the event's creation
 * time; an event older than the state already applied changes nothing, and a subscription that ended stays ended,
 * so replayed and out-of-order deliveries leave the account as the newest subscription state says.
 *
 * `receivedAt` (the server's clock) orders an event without `created` (the contract does not require it): it is
 * taken as created when received. Stripe sends events just after it creates them, so this is at worst slightly late,
 * and never reaches past the state a genuinely newer event wrote. Its row's `created_at` is `receivedAt`.
 *
 * An event that can never be applied safely (contradictory accounts, a `created` after its receipt or out of range,
 * a timestamp of its object out of range) is recorded, its row's `created_at` being `receivedAt` (the column cannot
 * hold an absurd time), and answered `withheld`: acknowledged, so Stripe stops resending it, and changing no account.
 * A replay of any recorded event is a `duplicate` and does nothing.
 */
export async function applyEvent(prisma: PrismaClient, event: WebhookEvent, receivedAt: Date): Promise<ApplyResult> {
  const object = event.data.object;
  const createdMs = typeof event.created === 'number' ? event.created * 1000 : null;
  let anomaly: string | null = null;
  if (createdMs !== null && !(createdMs <= receivedAt.getTime() + MAX_FUTURE_SKEW_MS)) anomaly = 'created is later than its receipt';
  else if (![object.cancel_at, object.ended_at, periodEndSeconds(object as unknown as Stripe.Subscription)].every(inRange)) anomaly = 'a timestamp of its object is out of range';
  const eventAt = createdMs === null || anomaly ? receivedAt : new Date(createdMs);

  return prisma.$transaction(async (tx): Promise<ApplyResult> => {
    const inserted = await tx.$executeRaw`
      INSERT INTO billing_events (id, type, created_at, received_at)
      VALUES (${event.id}, ${event.type}, ${sqlTimestamp(eventAt)}::timestamp(3), ${sqlTimestamp(receivedAt)}::timestamp(3))
      ON CONFLICT (id) DO NOTHING`;
    if (inserted === 0) return { outcome: 'duplicate' };
    if (anomaly) return { outcome: 'withheld', reason: anomaly };

    const resolved = await resolveAccount(tx, object);
    if ('conflict' in resolved) return { outcome: 'withheld', reason: resolved.conflict };
    if ('none' in resolved) return { outcome: 'ignored', reason: 'no account of this service' };
    const { account } = resolved;
    // Newer state already applied, or the subscription this event is about has already ended.
    if (account.subscriptionStateAt && account.subscriptionStateAt > eventAt) return { outcome: 'ignored', reason: 'older than the state applied' };
    const subscriptionId = event.type.startsWith('customer.subscription.') ? (object.id ?? null) : idOf(object.subscription);
    const ended = account.subscriptionEndedAt !== null && subscriptionId !== null && account.stripeSubscriptionId === subscriptionId;
    if (ended && event.type !== 'customer.subscription.deleted') return { outcome: 'ignored', reason: 'the subscription has ended' };

    const customer = idOf(object.customer);
    const base = { subscriptionStateAt: eventAt, ...(customer && !account.stripeCustomerId ? { stripeCustomerId: customer } : {}) };
    switch (event.type) {
      case 'checkout.session.completed': {
        const session = object as unknown as Stripe.Checkout.Session;
        if (session.mode !== 'subscription') return { outcome: 'ignored', reason: 'not a subscription checkout' };
        await tx.account.update({ where: { id: account.id }, data: { ...base, plan: 'starter', status: 'active', stripeSubscriptionId: idOf(session.subscription), subscriptionEndedAt: null } });
        return { outcome: 'applied' };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated': {
        const sub = object as unknown as Stripe.Subscription;
        const status = STATUSES.has(sub.status) ? (sub.status as AccountStatus) : account.status;
        const holds = ['active', 'trialing', 'past_due', 'unpaid'].includes(status);
        await tx.account.update({
          where: { id: account.id },
          data: { ...base, status, plan: holds ? 'starter' : account.plan, stripeSubscriptionId: sub.id, cancelAt: at(sub.cancel_at), currentPeriodEnd: at(periodEndSeconds(sub)), ...(holds ? { subscriptionEndedAt: null } : {}) },
        });
        return { outcome: 'applied' };
      }
      case 'customer.subscription.deleted': {
        const sub = object as unknown as Stripe.Subscription;
        // Only the end of the account's current subscription ends its plan: an older (or stray) subscription ending
        // says nothing about the one it holds now. Without a current one on record (this deletion came before the
        // checkout that started it), the deletion applies.
        if (account.stripeSubscriptionId !== null && sub.id !== account.stripeSubscriptionId) return { outcome: 'ignored', reason: 'not the account\'s current subscription' };
        await tx.account.update({
          where: { id: account.id },
          data: { ...base, plan: 'free', status: 'active', priorPlan: 'starter', stripeSubscriptionId: sub.id, subscriptionEndedAt: at(sub.ended_at) ?? eventAt, cancelAt: null, currentPeriodEnd: null },
        });
        return { outcome: 'applied' };
      }
      case 'invoice.paid': {
        if (account.plan !== 'starter') return { outcome: 'ignored', reason: 'the account has no paid plan' };
        await tx.account.update({ where: { id: account.id }, data: { ...base, status: 'active' } });
        return { outcome: 'applied' };
      }
      case 'invoice.payment_failed': {
        if (account.plan !== 'starter') return { outcome: 'ignored', reason: 'the account has no paid plan' };
        await tx.account.update({ where: { id: account.id }, data: { ...base, status: 'past_due' } });
        return { outcome: 'applied' };
      }
      default:
        return { outcome: 'ignored', reason: 'an event type this service does not act on' };
    }
  });
}
