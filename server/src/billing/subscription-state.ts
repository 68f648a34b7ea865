// What Stripe's events say about an account's subscriptions, folded so that the order of delivery does not matter,
// and the one rule that derives the account's plan from them. Pure: webhook.ts reads and writes the rows.
//
// Stripe does not deliver events in the order it creates them, and delivers some more than once
// (https://docs.stripe.com/webhooks#event-ordering, https://docs.stripe.com/webhooks#handle-duplicate-events). So
// each subscription keeps, per kind of news, the newest it has heard (a maximum, which no order changes), and the
// account's plan is computed from all of its subscriptions every time, never updated step by step.
//
// Decisions:
// - Each subscription keeps its newest status (from any event about it), its newest subscription object (its
//   cancel_at and current period end), its own `created` (from a customer.subscription.* event), the earliest event
//   that named it, and whether it has ended (customer.subscription.deleted, or the terminal statuses `canceled` and
//   `incomplete_expired`: https://docs.stripe.com/billing/subscriptions/overview#subscription-statuses). An ended
//   subscription stays ended whatever arrives later.
// - "Newest" is the event's `created` (whole seconds). Within one second the later lifecycle stage wins (a checkout
//   completion < incomplete < trialing < active < past_due < unpaid < paused), then the greater event id, so that
//   the outcome is one whatever the order.
// - The account's current subscription is the newest created (its own `created`; while no subscription object has
//   told it, the first event that named it) among those that give the plan (active, trialing, past_due, unpaid);
//   when none does, the newest created among those not ended (incomplete, paused: the account is on free with that
//   status); when all have ended, the one that ended last (free, active, `priorPlan: starter`).
// - An event about another subscription than the current one changes the account only where it changes which one is
//   current: the end of a replaced subscription says nothing about the one that replaced it.

export type SubscriptionStatus = 'active' | 'trialing' | 'past_due' | 'unpaid' | 'canceled' | 'incomplete' | 'incomplete_expired' | 'paused';
export const SUBSCRIPTION_STATUSES: ReadonlySet<string> = new Set<SubscriptionStatus>(['active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused']);
/** Statuses in which a subscription gives the account its plan. */
export const HOLDS_PLAN: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due', 'unpaid']);
/** Statuses a subscription never leaves. */
const TERMINAL: ReadonlySet<string> = new Set(['canceled', 'incomplete_expired']);

/** A checkout's completion says only that the subscription exists and was paid for: within its second, Stripe's own subscription object or invoice says more. */
export const CHECKOUT_STAGE = -1;
const STAGE: Record<SubscriptionStatus, number> = { incomplete: 0, trialing: 1, active: 2, past_due: 3, unpaid: 4, paused: 5, canceled: 6, incomplete_expired: 6 };
export const stageOf = (status: SubscriptionStatus): number => STAGE[status];

/** One piece of news, ordered by (at, stage, eventId). */
interface Stamp { at: Date; stage: number; eventId: string }

const later = (a: Stamp, b: Stamp | null): boolean => {
  if (!b) return true;
  if (a.at.getTime() !== b.at.getTime()) return a.at.getTime() > b.at.getTime();
  if (a.stage !== b.stage) return a.stage > b.stage;
  return a.eventId > b.eventId;
};

export interface SubscriptionRecord {
  id: string;
  /** The subscription's own `created`, once a subscription object has told it. */
  createdAt: Date | null;
  firstSeenAt: Date;
  status: (Stamp & { value: SubscriptionStatus }) | null;
  object: (Stamp & { cancelAt: Date | null; currentPeriodEnd: Date | null }) | null;
  endedAt: Date | null;
}

/** What one event says about one subscription. */
export type Observation =
  /** A subscription object (customer.subscription.created, .updated, .deleted). */
  | { kind: 'object'; eventId: string; at: Date; status: SubscriptionStatus; createdAt: Date | null; cancelAt: Date | null; currentPeriodEnd: Date | null; deleted: boolean; endedAt: Date | null }
  /** A payment's outcome (invoice.paid, invoice.payment_failed) or a completed checkout (stage CHECKOUT_STAGE). */
  | { kind: 'payment'; eventId: string; at: Date; status: SubscriptionStatus; stage?: number };

const minDate = (a: Date | null, b: Date | null) => (!a ? b : !b ? a : a.getTime() <= b.getTime() ? a : b);

/** The record with one more observation folded in (commutative: any order of the same observations gives the same record). */
export function observe(record: SubscriptionRecord | null, id: string, o: Observation): SubscriptionRecord {
  const r: SubscriptionRecord = record
    ? { ...record, firstSeenAt: minDate(record.firstSeenAt, o.at)! }
    : { id, createdAt: null, firstSeenAt: o.at, status: null, object: null, endedAt: null };
  const stage = o.kind === 'payment' && o.stage !== undefined ? o.stage : STAGE[o.status];
  const status = { at: o.at, stage, eventId: o.eventId, value: o.status };
  if (later(status, r.status)) r.status = status;
  if (o.kind === 'object') {
    // A subscription's `created` never changes; should two events disagree, the earliest is kept.
    r.createdAt = minDate(r.createdAt, o.createdAt);
    const object = { at: o.at, stage, eventId: o.eventId, cancelAt: o.cancelAt, currentPeriodEnd: o.currentPeriodEnd };
    if (later(object, r.object)) r.object = object;
    if (o.deleted || TERMINAL.has(o.status)) r.endedAt = minDate(r.endedAt, o.endedAt ?? o.at);
  }
  return r;
}

export interface AccountBilling {
  plan: 'free' | 'starter';
  status: SubscriptionStatus;
  stripeSubscriptionId: string;
  cancelAt: Date | null;
  currentPeriodEnd: Date | null;
  priorPlan: 'starter' | null;
  subscriptionEndedAt: Date | null;
  /** When Stripe wrote the newest status of the current subscription. */
  subscriptionStateAt: Date | null;
}

const rankOf = (r: SubscriptionRecord) => (r.createdAt ?? r.firstSeenAt).getTime();
/** The newest created (then the greater id, so that a tie has one answer). */
const newestCreated = (a: SubscriptionRecord, b: SubscriptionRecord) => rankOf(b) - rankOf(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** The account's billing state from all of its subscriptions (see the decisions above); null when it has none. */
export function accountBilling(records: SubscriptionRecord[]): AccountBilling | null {
  if (records.length === 0) return null;
  const live = records.filter((r) => r.endedAt === null);
  const holding = live.filter((r) => r.status !== null && HOLDS_PLAN.has(r.status.value));
  const ended = records.filter((r) => r.endedAt !== null);
  const lastEnded = [...ended].sort((a, b) => b.endedAt!.getTime() - a.endedAt!.getTime() || newestCreated(a, b))[0] ?? null;
  if (holding.length > 0) {
    const current = [...holding].sort(newestCreated)[0]!;
    return {
      plan: 'starter', status: current.status!.value, stripeSubscriptionId: current.id,
      cancelAt: current.object?.cancelAt ?? null, currentPeriodEnd: current.object?.currentPeriodEnd ?? null,
      priorPlan: null, subscriptionEndedAt: null, subscriptionStateAt: current.status!.at,
    };
  }
  if (live.length > 0) {
    const current = [...live].sort(newestCreated)[0]!;
    return {
      plan: 'free', status: current.status?.value ?? 'incomplete', stripeSubscriptionId: current.id,
      cancelAt: current.object?.cancelAt ?? null, currentPeriodEnd: current.object?.currentPeriodEnd ?? null,
      priorPlan: lastEnded ? 'starter' : null, subscriptionEndedAt: lastEnded?.endedAt ?? null, subscriptionStateAt: current.status?.at ?? null,
    };
  }
  const current = lastEnded!;
  return {
    plan: 'free', status: 'active', stripeSubscriptionId: current.id, cancelAt: null, currentPeriodEnd: null,
    priorPlan: 'starter', subscriptionEndedAt: current.endedAt, subscriptionStateAt: current.status?.at ?? current.endedAt,
  };
}
