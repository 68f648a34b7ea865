// Property: whatever order Stripe delivers a customer's subscription events in, and however many times, the account
// ends as Stripe's own state of its subscriptions says (README, Billing: "the current subscription").
//
// Histories are generated as Stripe makes them (support/fake-stripe.ts, SubscriptionHistory): a checkout, then renewals,
// failed and recovered payments, cancellations at the period's end or at once, further subscriptions and
// replacements (the old one updated and deleted in the second the new one starts), up to three subscriptions. Events
// of one step share a second, as Stripe's do. They are delivered in any order (Stripe promises none:
// https://docs.stripe.com/webhooks#event-ordering), some twice (https://docs.stripe.com/webhooks#handle-duplicate-events).
//
// Runs are seeded: BILLING_SEED and BILLING_RUNS override the defaults; fast-check prints the seed and the shrunk
// history of a failure.
import fc from 'fast-check';
import Stripe from 'stripe';
import { dbModes } from './support/databases.js';
import { FakeStripe, SubscriptionHistory, type SimulatedSubscription } from './support/fake-stripe.js';
import { startTestServer, type TestServer } from './support/harness.js';

const SEED = Number(process.env.BILLING_SEED ?? 20261126);
const RUNS = Number(process.env.BILLING_RUNS ?? 40);
const WEBHOOK_SECRET = 'whsec_order_property_0123456789';
const signer = new Stripe('sk_test_signer');
const DAY = 86_400;

type Op = 'checkout' | 'renew' | 'fail' | 'recover' | 'scheduleCancel' | 'end' | 'replace';
interface Step { op: Op; pick: number; gap: number }

const step: fc.Arbitrary<Step> = fc.record({
  op: fc.constantFrom<Op>('checkout', 'renew', 'fail', 'recover', 'scheduleCancel', 'end', 'replace'),
  pick: fc.nat({ max: 5 }),
  // Steps are at least a second apart; the events of one step share its second.
  gap: fc.integer({ min: 1, max: 3 * DAY }),
});

/** Plays the steps on Stripe's side; a step that does not apply (nothing past due to recover, a fourth subscription) is skipped. */
function play(history: SubscriptionHistory, steps: Step[], start: number): void {
  let t = start;
  history.checkout(t);
  for (const { op, pick, gap } of steps) {
    t += gap;
    const live = history.live();
    const choose = (subs: SimulatedSubscription[]) => subs[pick % subs.length];
    switch (op) {
      case 'checkout':
        if (history.subscriptions.size < 3) history.checkout(t);
        break;
      case 'replace': {
        const old = choose(live);
        if (old && history.subscriptions.size < 3) history.replace(old, t);
        break;
      }
      case 'renew': { const sub = choose(live); if (sub) history.renew(sub, t); break; }
      case 'fail': { const sub = choose(live.filter((x) => x.status === 'active')); if (sub) history.failPayment(sub, t); break; }
      case 'recover': { const sub = choose(live.filter((x) => x.status === 'past_due')); if (sub) history.recover(sub, t); break; }
      case 'scheduleCancel': { const sub = choose(live.filter((x) => x.cancelAt === null)); if (sub) history.scheduleCancel(sub, t); break; }
      case 'end': { const sub = choose(live); if (sub) history.end(sub, t); break; }
    }
  }
}

const iso = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000).toISOString());

/**
 * The account as Stripe's final state of the subscriptions says, by the README's rule: the newest created of those
 * that give the plan (active, past_due); when none does, the one that ended last.
 */
function expectedAccount(history: SubscriptionHistory) {
  const subs = [...history.subscriptions.values()];
  const newestFirst = (a: SimulatedSubscription, b: SimulatedSubscription) => b.created - a.created;
  const holding = subs.filter((x) => x.status === 'active' || x.status === 'past_due').sort(newestFirst);
  const current = holding[0];
  if (current) {
    return { plan: 'starter', status: current.status, cancelAt: iso(current.cancelAt), currentPeriodEnd: iso(current.currentPeriodEnd), priorPlan: null, subscriptionEndedAt: null };
  }
  const last = subs.sort((a, b) => b.endedAt! - a.endedAt! || newestFirst(a, b))[0]!;
  return { plan: 'free', status: 'active', cancelAt: null, currentPeriodEnd: null, priorPlan: 'starter', subscriptionEndedAt: iso(last.endedAt) };
}

describe.each(dbModes())('Stripe events in any order and any number of times (%s database)', (mode) => {
  let fake: FakeStripe;
  let s: TestServer;
  beforeAll(async () => {
    fake = await new FakeStripe().start();
    s = await startTestServer(mode, { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_PRICE_STARTER: 'price_starter_1', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url });
  });
  afterAll(async () => { await s.close(); await fake.stop(); });

  let run = 0;
  /** An account with its Stripe customer, made as the service makes it: through a checkout. */
  async function customerFor(account: string): Promise<string> {
    const res = await s.fetch('/v1/billing/checkout', { method: 'POST', headers: { authorization: `Bearer ${await s.token(account)}` }, json: { plan: 'starter' } });
    expect(res.status).toBe(200);
    return [...fake.sessions.values()].find((x) => x.client_reference_id === account)!.customer as string;
  }

  it('ends as the newest state of the current subscription says', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(step, { maxLength: 7 }),
      fc.array(fc.nat(), { maxLength: 4 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 80, maxLength: 80 }),
      async (steps, replays, keys) => {
        const account = `acct_order_${mode}_${++run}`;
        const history = new SubscriptionHistory(account, await customerFor(account));
        play(history, steps, Math.floor(Date.now() / 1000) - 60 * DAY);
        const events = history.events;
        const deliveries = [...events, ...replays.map((r) => events[r % events.length]!)]
          .map((e, i) => ({ e, key: keys[i % keys.length]! + i * 1e-9 }))
          .sort((a, b) => a.key - b.key)
          .map(({ e }) => e);
        for (const e of deliveries) {
          const payload = JSON.stringify(e);
          const res = await s.fetch('/v1/billing/webhook', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) },
            body: payload,
          });
          expect([e.id, e.type, res.status]).toEqual([e.id, e.type, 200]);
        }
        const summary = await (await s.fetch('/v1/account', { headers: { authorization: `Bearer ${await s.token(account)}` } })).json();
        const { plan, status, cancelAt, currentPeriodEnd, priorPlan, subscriptionEndedAt } = summary;
        expect({ plan, status, cancelAt, currentPeriodEnd, priorPlan, subscriptionEndedAt }).toEqual(expectedAccount(history));
      },
    ), { seed: SEED, numRuns: RUNS });
  }, 300_000);
});
