import type Stripe from 'stripe';
import { z } from 'zod';
import type { Prisma } from '../db/prisma-client/client.js';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { accountBilling, CHECKOUT_STAGE, observe, SUBSCRIPTION_STATUSES, type Observation, type SubscriptionRecord, type SubscriptionStatus } from './subscription-state.js';

type Tx = Prisma.TransactionClient;
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
      // A subscription's own creation (customer.subscription.*); other objects have one too, unread.
      created: seconds,
      cancel_at: seconds,
      ended_at: seconds,
      billing_reason: z.string().nullish(),
      // An invoice names its subscription here since API version 2025-03-31.basil
      // (https://docs.stripe.com/changelog/basil/2025-03-31/adds-new-parent-field-to-invoicing-objects); before, in
      // `subscription` (an endpoint can be pinned to an older version).
      parent: z.object({ subscription_details: z.object({ subscription: ref }).passthrough().nullish() }).passthrough().nullish(),
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

function periodEndSeconds(sub: EventObject): number | undefined {
  const fromItem = sub.items?.data?.[0]?.current_period_end;
  const legacy = (sub as unknown as { current_period_end?: unknown }).current_period_end;
  return fromItem ?? (typeof legacy === 'number' ? legacy : undefined);
}

export type ApplyResult =
  | { outcome: 'applied' | 'duplicate' }
  /** Nothing to change (not ours, names no subscription, a type not handled). */
  | { outcome: 'ignored'; reason: string }
  /** Recorded but applied to no account because it cannot be trusted to: the route logs it as a warning. */
  | { outcome: 'withheld'; reason: string };

/**
 * What an event says about which subscription (https://docs.stripe.com/billing/subscriptions/webhooks lists the
 * events and what each means), or why it says nothing this service acts on.
 */
function observationOf(event: WebhookEvent, eventAt: Date): { subscriptionId: string; observation: Observation } | { ignore: string } {
  const object = event.data.object;
  const base = { eventId: event.id, at: eventAt };
  switch (event.type) {
    case 'checkout.session.completed': {
      if (object.mode !== 'subscription') return { ignore: 'not a subscription checkout' };
      const subscriptionId = idOf(object.subscription);
      if (!subscriptionId) return { ignore: 'the checkout names no subscription' };
      return { subscriptionId, observation: { kind: 'payment', ...base, status: 'active', stage: CHECKOUT_STAGE } };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      // The subscription object (https://docs.stripe.com/api/subscriptions/object): its id, status, created,
      // cancel_at, ended_at and, per item, current_period_end.
      if (!object.id) return { ignore: 'the subscription has no id' };
      const deleted = event.type === 'customer.subscription.deleted';
      const status = object.status && SUBSCRIPTION_STATUSES.has(object.status) ? (object.status as SubscriptionStatus) : deleted ? 'canceled' : null;
      if (!status) return { ignore: 'a subscription status this service does not know' };
      return {
        subscriptionId: object.id,
        observation: {
          kind: 'object', ...base, status, deleted, createdAt: at(object.created), cancelAt: at(object.cancel_at),
          currentPeriodEnd: at(periodEndSeconds(object)), endedAt: at(object.ended_at),
        },
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const subscriptionId = idOf(object.parent?.subscription_details?.subscription) ?? idOf(object.subscription);
      if (!subscriptionId) return { ignore: 'not a subscription invoice' };
      // A paid invoice makes its subscription active; a failed first payment leaves it incomplete, a failed renewal
      // makes it past_due (https://docs.stripe.com/billing/subscriptions/overview#payment-status).
      const status: SubscriptionStatus = event.type === 'invoice.paid' ? 'active' : object.billing_reason === 'subscription_create' ? 'incomplete' : 'past_due';
      return { subscriptionId, observation: { kind: 'payment', ...base, status } };
    }
    default:
      return { ignore: 'an event type this service does not act on' };
  }
}

type SubscriptionRow = NonNullable<Awaited<ReturnType<Tx['billingSubscription']['findUnique']>>>;

function toRecord(row: SubscriptionRow): SubscriptionRecord {
  return {
    id: row.id,
    createdAt: row.createdAt,
    firstSeenAt: row.firstSeenAt,
    status: row.status !== null && row.statusAt && row.statusStage !== null && SUBSCRIPTION_STATUSES.has(row.status)
      ? { value: row.status as SubscriptionStatus, at: row.statusAt, stage: row.statusStage, eventId: row.statusEventId ?? '' } : null,
    object: row.objectAt && row.objectStage !== null
      ? { at: row.objectAt, stage: row.objectStage, eventId: row.objectEventId ?? '', cancelAt: row.cancelAt, currentPeriodEnd: row.currentPeriodEnd } : null,
    endedAt: row.endedAt,
  };
}

function toRow(r: SubscriptionRecord) {
  return {
    createdAt: r.createdAt, firstSeenAt: r.firstSeenAt,
    status: r.status?.value ?? null, statusAt: r.status?.at ?? null, statusStage: r.status?.stage ?? null, statusEventId: r.status?.eventId ?? null,
    objectAt: r.object?.at ?? null, objectStage: r.object?.stage ?? null, objectEventId: r.object?.eventId ?? null,
    cancelAt: r.object?.cancelAt ?? null, currentPeriodEnd: r.object?.currentPeriodEnd ?? null, endedAt: r.endedAt,
  };
}

/**
 * Records the event id once and applies it in the same transaction: what it says is folded into its subscription's
 * row (subscription-state.ts: the newest of each kind, so the order of delivery does not matter), then the account's
 * plan is derived again from all of its subscriptions. The account's row is locked first, so two deliveries for one
 * account (Stripe sends them concurrently) apply one after the other.
 *
 * `receivedAt` (the server's clock) orders an event without `created` (the contract does not require it): it is
 * taken as created when received. Stripe sends events just after it creates them, so this is at worst slightly late.
 *
 * An event that can never be applied safely (contradictory accounts, a `created` after its receipt or out of range,
 * a timestamp of its object out of range, a subscription another account follows) is recorded, its row's
 * `created_at` being `receivedAt` (the column cannot hold an absurd time), and answered `withheld`: acknowledged, so
 * Stripe stops resending it, and changing no account. A replay of any recorded event is a `duplicate` and does nothing.
 */
export async function applyEvent(prisma: PrismaClient, event: WebhookEvent, receivedAt: Date): Promise<ApplyResult> {
  const object = event.data.object;
  const createdMs = typeof event.created === 'number' ? event.created * 1000 : null;
  let anomaly: string | null = null;
  if (createdMs !== null && !(createdMs <= receivedAt.getTime() + MAX_FUTURE_SKEW_MS)) anomaly = 'created is later than its receipt';
  else if (![object.cancel_at, object.ended_at, object.created, periodEndSeconds(object)].every(inRange)) anomaly = 'a timestamp of its object is out of range';
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
    const seen = observationOf(event, eventAt);
    if ('ignore' in seen) return { outcome: 'ignored', reason: seen.ignore };

    const accountId = resolved.account.id;
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    const existing = await tx.billingSubscription.findUnique({ where: { id: seen.subscriptionId } });
    if (existing && existing.accountId !== accountId) return { outcome: 'withheld', reason: 'the subscription is another account\'s' };
    const record = observe(existing ? toRecord(existing) : null, seen.subscriptionId, seen.observation);
    await tx.billingSubscription.upsert({
      where: { id: record.id },
      create: { id: record.id, accountId, ...toRow(record) },
      update: toRow(record),
    });

    const all = (await tx.billingSubscription.findMany({ where: { accountId } })).map(toRecord);
    const billing = accountBilling(all)!;
    const account = await tx.account.findUniqueOrThrow({ where: { id: accountId } });
    const customer = idOf(object.customer);
    await tx.account.update({
      where: { id: accountId },
      data: { ...billing, ...(customer && !account.stripeCustomerId ? { stripeCustomerId: customer } : {}) },
    });
    return { outcome: 'applied' };
  });
}
