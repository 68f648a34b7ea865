import Stripe from 'stripe';
import { dbModes } from './support/databases.js';
import { FakeStripe, SubscriptionHistory, type StripeEvent } from './support/fake-stripe.js';
import { startTestServer, type TestServer } from './support/harness.js';

const WEBHOOK_SECRET = 'whsec_test_secret';
const signer = new Stripe('sk_test_signer');
let seq = 0;

function event(type: string, object: Record<string, unknown>, created: number, id = `evt_${++seq}`) {
  return JSON.stringify({ id, object: 'event', type, created, livemode: false, api_version: '2026-10-28.endive', data: { object } });
}

describe.each(dbModes())('billing (%s database)', (mode) => {
  let fake: FakeStripe;
  let s: TestServer;
  beforeAll(async () => {
    fake = await (new FakeStripe()).start();
    s = await startTestServer(mode, { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_PRICE_STARTER: 'price_starter_1', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url });
  });
  afterAll(async () => { await s.close(); await fake.stop(); });
  // Tests that set the server's clock put it back to real time.
  afterEach(() => { s.clock.set(new Date()); });

  const bearer = async (account: string) => ({ authorization: `Bearer ${await s.token(account)}` });
  const checkout = async (account: string, plan = 'starter') => s.fetch('/v1/billing/checkout', { method: 'POST', headers: await bearer(account), json: { plan } });
  const sign = (payload: string) => signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const post = (payload: string, signature: string, contentType: string) =>
    s.fetch('/v1/billing/webhook', { method: 'POST', headers: { 'content-type': contentType, 'stripe-signature': signature }, body: payload });
  const deliver = (payload: string, signature = sign(payload)) => post(payload, signature, 'application/json');
  const summary = async (account: string) => (await s.fetch('/v1/account', { headers: await bearer(account) })).json();
  const now = () => Math.floor(Date.now() / 1000);

  async function subscribed(account: string, created = now()) {
    const res = await checkout(account);
    expect(res.status).toBe(200);
    const session = [...fake.sessions.values()].find((x) => x.client_reference_id === account)!;
    const customer = session.customer as string;
    await deliver(event('checkout.session.completed', { id: session.id, object: 'checkout.session', mode: 'subscription', client_reference_id: account, customer, subscription: `sub_${account}` }, created));
    return { customer, subscription: `sub_${account}` };
  }

  it('answers 502 upstream_error, as the contract declares, when Stripe keeps failing', async () => {
    const before = fake.requests.length;
    fake.failNext(10);
    const res = await checkout('acct_stripe_down');
    fake.failNext(0);
    fake.requests.splice(before); // the failed calls are not part of the other tests' record
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: { code: 'upstream_error', message: expect.any(String), details: null } });
  });

  it('checks out end to end: a customer with the account id, a subscription session, then the webhook upgrades the account', async () => {
    const res = await checkout('acct_buyer');
    expect(res.status).toBe(200);
    const { url } = await res.json();
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const customerCall = fake.requests.find((r) => r.path === '/v1/customers')!;
    expect(customerCall.form.get('metadata[accountId]')).toBe('acct_buyer');
    expect(customerCall.headers['idempotency-key']).toEqual(expect.any(String));
    expect(customerCall.headers['stripe-version']).toEqual(expect.any(String));
    expect(customerCall.headers.authorization).toBe('Bearer sk_test_123');
    const sessionCall = fake.requests.find((r) => r.path === '/v1/checkout/sessions')!;
    expect(Object.fromEntries(sessionCall.form)).toMatchObject({
      mode: 'subscription',
      client_reference_id: 'acct_buyer',
      'line_items[0][price]': 'price_starter_1',
      'line_items[0][quantity]': '1',
      success_url: 'http://127.0.0.1:8080/dashboard/billing?checkout=success',
      cancel_url: 'http://127.0.0.1:8080/dashboard/billing?checkout=cancelled',
    });
    expect(sessionCall.headers['idempotency-key']).toEqual(expect.any(String));
    expect(await summary('acct_buyer')).toMatchObject({ plan: 'free', hasBillingCustomer: true });

    const session = [...fake.sessions.values()].at(-1)!;
    const done = await deliver(event('checkout.session.completed', { id: session.id, object: 'checkout.session', mode: 'subscription', client_reference_id: 'acct_buyer', customer: session.customer, subscription: 'sub_buyer' }, now()));
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ received: true });
    expect(await summary('acct_buyer')).toMatchObject({ plan: 'starter', status: 'active', heuLimit: 10000, requestsPerMinute: 120 });
  });

  it('reuses the customer on a retried checkout, and a retry within minutes gets the same session', async () => {
    const before = fake.customers.size;
    const a = await (await checkout('acct_retry')).json();
    const b = await (await checkout('acct_retry')).json();
    expect(fake.customers.size).toBe(before + 1);
    expect(b.url).toBe(a.url);
  });

  it('refuses free and unknown plans with 400, and a plan already held with 409', async () => {
    expect((await checkout('acct_plans', 'free')).status).toBe(400);
    expect((await checkout('acct_plans', 'enterprise')).status).toBe(400);
    await subscribed('acct_plans');
    const again = await checkout('acct_plans');
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('already_subscribed');
  });

  it('refuses a forged, stale or missing signature with 400 and changes nothing', async () => {
    await checkout('acct_forged');
    const payload = event('checkout.session.completed', { object: 'checkout.session', mode: 'subscription', client_reference_id: 'acct_forged', subscription: 'sub_f' }, now());
    const forged = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' });
    const stale = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: now() - 3600 });
    for (const sig of [forged, stale, 't=1,v1=deadbeef']) {
      const res = await deliver(payload, sig);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
    const tampered = await deliver(payload.replace('acct_forged', 'acct_forgex'), signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    expect(tampered.status).toBe(400);
    expect((await summary('acct_forged')).plan).toBe('free');
    expect(await s.db.prisma.billingEvent.count({ where: { id: JSON.parse(payload).id } })).toBe(0);
  });

  it('refuses a correctly signed body that is not a readable Stripe event with 400, storing nothing', async () => {
    await checkout('acct_malformed');
    const good = JSON.parse(event('checkout.session.completed', { object: 'checkout.session', mode: 'subscription', client_reference_id: 'acct_malformed', subscription: 'sub_m' }, now()));
    const bodies = [
      { ...good, id: 'evt_no_data', data: undefined },
      { ...good, id: 'evt_created_text', created: 'yesterday' },
      { ...good, id: 'evt_metadata_number', data: { object: { ...good.data.object, metadata: { accountId: 42 } } } },
      { ...good, id: 'evt_customer_number', data: { object: { ...good.data.object, customer: 7 } } },
      [good],
      'just a string',
    ];
    for (const body of bodies) {
      const res = await deliver(JSON.stringify(body));
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
    expect((await summary('acct_malformed')).plan).toBe('free');
    expect(await s.db.prisma.billingEvent.count({ where: { id: { in: ['evt_no_data', 'evt_created_text', 'evt_metadata_number', 'evt_customer_number'] } } })).toBe(0);
  });

  it('applies each event id once: a replay answers 200 and does nothing', async () => {
    const { customer, subscription } = await subscribed('acct_replay');
    const failed = event('invoice.payment_failed', { object: 'invoice', customer, subscription }, now() + 10, 'evt_replayed');
    expect((await deliver(failed)).status).toBe(200);
    expect((await summary('acct_replay')).status).toBe('past_due');
    await deliver(event('invoice.paid', { object: 'invoice', customer, subscription }, now() + 20));
    expect((await summary('acct_replay')).status).toBe('active');
    const replay = await deliver(failed);
    expect(replay.status).toBe(200);
    expect((await summary('acct_replay')).status).toBe('active');
  });

  it('cancels at period end (plan kept, cancelAt set), then ends the subscription (free, priorPlan starter)', async () => {
    const t = now();
    const { customer, subscription } = await subscribed('acct_cancel', t);
    const periodEnd = t + 30 * 86400;
    const sub = (status: string, extra: Record<string, unknown> = {}) => ({ id: subscription, object: 'subscription', customer, status, metadata: { accountId: 'acct_cancel' }, cancel_at: null, ended_at: null, items: { object: 'list', data: [{ id: 'si_1', current_period_end: periodEnd }] }, ...extra });
    await deliver(event('customer.subscription.updated', sub('active', { cancel_at: periodEnd }), t + 10));
    expect(await summary('acct_cancel')).toMatchObject({ plan: 'starter', status: 'active', cancelAt: new Date(periodEnd * 1000).toISOString(), currentPeriodEnd: new Date(periodEnd * 1000).toISOString() });
    await deliver(event('customer.subscription.deleted', sub('canceled', { ended_at: periodEnd }), t + 20));
    expect(await summary('acct_cancel')).toMatchObject({ plan: 'free', priorPlan: 'starter', subscriptionEndedAt: new Date(periodEnd * 1000).toISOString(), heuLimit: 100, cancelAt: null });
  });

  it('ends in the newest state whatever order events arrive in', async () => {
    const t = now();
    await checkout('acct_order');
    const customer = [...fake.sessions.values()].find((x) => x.client_reference_id === 'acct_order')!.customer as string;
    const sub = (status: string) => ({ id: 'sub_order', object: 'subscription', customer, status, metadata: { accountId: 'acct_order' }, cancel_at: null, ended_at: status === 'canceled' ? t + 30 : null, items: { object: 'list', data: [{ id: 'si', current_period_end: t + 1000 }] } });
    await deliver(event('customer.subscription.deleted', sub('canceled'), t + 30));
    await deliver(event('customer.subscription.updated', sub('past_due'), t + 20));
    await deliver(event('checkout.session.completed', { object: 'checkout.session', mode: 'subscription', client_reference_id: 'acct_order', customer, subscription: 'sub_order' }, t));
    await deliver(event('invoice.paid', { object: 'invoice', customer, subscription: 'sub_order' }, t + 40));
    expect(await summary('acct_order')).toMatchObject({ plan: 'free', priorPlan: 'starter', status: 'active' });
  });

  it('moves a failed payment to past_due', async () => {
    const { customer, subscription } = await subscribed('acct_pastdue');
    await deliver(event('invoice.payment_failed', { object: 'invoice', customer, subscription }, now() + 5));
    expect(await summary('acct_pastdue')).toMatchObject({ plan: 'starter', status: 'past_due' });
  });

  // The contract (StripeEvent) requires only id, type and data; `created` is optional. Such an event is ordered as
  // received now, by the server's clock.
  it('accepts a signed event without created and orders it as received now', async () => {
    const t = now();
    const { customer, subscription } = await subscribed('acct_nocreated', t - 100);
    s.clock.set(new Date(t * 1000));
    const failed = JSON.parse(event('invoice.payment_failed', { object: 'invoice', customer, subscription }, 0, 'evt_no_created'));
    delete failed.created;
    const res = await deliver(JSON.stringify(failed));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect(await summary('acct_nocreated')).toMatchObject({ plan: 'starter', status: 'past_due' });
    expect((await s.db.prisma.billingEvent.findUniqueOrThrow({ where: { id: 'evt_no_created' } })).createdAt.toISOString()).toBe(new Date(t * 1000).toISOString());
    // Ordered at its receipt: an event Stripe created before then changes nothing, a later one applies.
    expect((await deliver(event('invoice.paid', { object: 'invoice', customer, subscription }, t - 10))).status).toBe(200);
    expect((await summary('acct_nocreated')).status).toBe('past_due');
    expect((await deliver(event('invoice.paid', { object: 'invoice', customer, subscription }, t + 10))).status).toBe(200);
    expect((await summary('acct_nocreated')).status).toBe('active');
    // A replay of the created-less event is still a no-op.
    expect((await deliver(JSON.stringify(failed))).status).toBe(200);
    expect((await summary('acct_nocreated')).status).toBe('active');
  });

  it('answers 415 unsupported_media_type to a correctly signed body that is not application/json, changing nothing', async () => {
    await checkout('acct_textplain');
    const payload = event('checkout.session.completed', { object: 'checkout.session', mode: 'subscription', client_reference_id: 'acct_textplain', subscription: 'sub_tp' }, now(), 'evt_text_plain');
    const signature = sign(payload);
    for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/x-www-form-urlencoded', 'application/json-patch+json', 'application/json; charset=utf-16', null]) {
      const headers: Record<string, string> = { 'stripe-signature': signature };
      if (type) headers['content-type'] = type;
      // A Uint8Array body makes fetch send no Content-Type of its own.
      const res = await s.fetch('/v1/billing/webhook', { method: 'POST', headers, body: new TextEncoder().encode(payload) });
      expect([type, res.status]).toEqual([type, 415]);
      expect(await res.json()).toEqual({ error: { code: 'unsupported_media_type', message: expect.any(String), details: null } });
    }
    expect((await summary('acct_textplain')).plan).toBe('free');
    expect(await s.db.prisma.billingEvent.count({ where: { id: 'evt_text_plain' } })).toBe(0);
    // The same bytes as application/json (as Stripe sends them) are accepted.
    const ok = await post(payload, signature, 'application/json; charset=utf-8');
    expect(ok.status).toBe(200);
    expect((await summary('acct_textplain')).plan).toBe('starter');
  });

  // The signature covers the raw bytes (https://docs.stripe.com/webhooks/signature), so it is checked first; bytes
  // that verify but are not JSON are malformed_json, not a bad signature.
  it('answers 400 malformed_json to a correctly signed body that is not JSON, changing nothing', async () => {
    await checkout('acct_brokenjson');
    const whole = event('checkout.session.completed', { object: 'checkout.session', mode: 'subscription', client_reference_id: 'acct_brokenjson', subscription: 'sub_bj' }, now(), 'evt_broken_json');
    const before = await s.db.prisma.billingEvent.count();
    for (const payload of [whole.slice(0, -1), `${whole},`, whole.replace('"type"', "'type'"), '{', 'not json at all']) {
      const res = await deliver(payload);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'malformed_json', message: expect.any(String), details: null } });
      // Wrongly signed, the same bytes are still a bad signature: nothing is read before the signature verifies.
      const forged = await deliver(payload, signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' }));
      expect(forged.status).toBe(400);
      expect((await forged.json()).error.code).toBe('invalid_request');
    }
    expect(await s.db.prisma.billingEvent.count()).toBe(before);
    expect((await summary('acct_brokenjson')).plan).toBe('free');
  });

  it('records the deletion of a subscription that is not the account\'s current one and leaves the plan alone', async () => {
    const t = now();
    const { customer, subscription } = await subscribed('acct_twosubs', t);
    const sub = (id: string) => ({ id, object: 'subscription', customer, status: 'canceled', metadata: { accountId: 'acct_twosubs' }, cancel_at: null, ended_at: t + 5, items: { object: 'list', data: [{ id: 'si', current_period_end: t + 5 }] } });
    const res = await deliver(event('customer.subscription.deleted', sub('sub_old_twosubs'), t + 10, 'evt_old_sub_deleted'));
    expect(res.status).toBe(200);
    expect(await summary('acct_twosubs')).toMatchObject({ plan: 'starter', status: 'active', priorPlan: null, subscriptionEndedAt: null });
    expect(await s.db.prisma.billingEvent.count({ where: { id: 'evt_old_sub_deleted' } })).toBe(1);
    expect((await s.db.prisma.account.findUniqueOrThrow({ where: { id: 'acct_twosubs' } })).stripeSubscriptionId).toBe(subscription);
    // Deleting the current one still ends the plan.
    await deliver(event('customer.subscription.deleted', sub(subscription), t + 20));
    expect(await summary('acct_twosubs')).toMatchObject({ plan: 'free', priorPlan: 'starter' });
  });

  // Stripe's real order on a replacement (https://docs.stripe.com/webhooks#event-ordering: no order is promised): the
  // old subscription is updated, then deleted, while the new one is active. Was: free/active, and the new
  // subscription's invoice.paid did not bring starter back.
  describe('a subscription replaced by a newer one', () => {
    const deliverAll = async (events: StripeEvent[]) => {
      for (const e of events) expect([e.type, (await deliver(JSON.stringify(e))).status]).toEqual([e.type, 200]);
    };
    async function replaced(account: string) {
      await checkout(account);
      const customer = [...fake.sessions.values()].find((x) => x.client_reference_id === account)!.customer as string;
      const history = new SubscriptionHistory(account, customer);
      const t = now() - 10 * 86400;
      const old = history.checkout(t);
      const first = history.events.length;
      const renewed = history.replace(old, t + 3600);
      return { history, old, renewed, initial: history.events.slice(0, first), replacement: history.events.slice(first) };
    }

    it('stays on starter when the old subscription is updated and then deleted after the new one started', async () => {
      const { initial, replacement, renewed } = await replaced('acct_replaced');
      await deliverAll(initial);
      // The new subscription's events first, then the old one's update and deletion.
      const newOnes = replacement.filter((e) => JSON.stringify(e.data.object).includes(renewed.id));
      await deliverAll(newOnes);
      await deliverAll(replacement.filter((e) => !newOnes.includes(e)));
      expect(await summary('acct_replaced')).toMatchObject({
        plan: 'starter', status: 'active', priorPlan: null, subscriptionEndedAt: null, cancelAt: null,
        currentPeriodEnd: new Date(renewed.currentPeriodEnd * 1000).toISOString(),
      });
      expect((await s.db.prisma.account.findUniqueOrThrow({ where: { id: 'acct_replaced' } })).stripeSubscriptionId).toBe(renewed.id);
    });

    it('returns to starter when the new subscription\'s invoice.paid arrives after the old one\'s deletion', async () => {
      const { initial, replacement, renewed, old } = await replaced('acct_replaced_late');
      await deliverAll(initial);
      const oldOnes = replacement.filter((e) => JSON.stringify(e.data.object).includes(old.id));
      await deliverAll(oldOnes);
      expect(await summary('acct_replaced_late')).toMatchObject({ plan: 'free', priorPlan: 'starter' });
      const paid = replacement.find((e) => e.type === 'invoice.paid')!;
      await deliverAll([paid]);
      expect(await summary('acct_replaced_late')).toMatchObject({ plan: 'starter', status: 'active', priorPlan: null, subscriptionEndedAt: null });
      await deliverAll(replacement.filter((e) => !oldOnes.includes(e) && e !== paid));
      expect(await summary('acct_replaced_late')).toMatchObject({ plan: 'starter', status: 'active', currentPeriodEnd: new Date(renewed.currentPeriodEnd * 1000).toISOString() });
    });

    it('reads the subscription of an invoice from parent.subscription_details (the current API version) and from subscription (older ones)', async () => {
      const { initial } = await replaced('acct_invoice_shapes');
      await deliverAll(initial);
      const sub = [...(await s.db.prisma.billingSubscription.findMany({ where: { accountId: 'acct_invoice_shapes' } }))][0]!;
      const customer = (await s.db.prisma.account.findUniqueOrThrow({ where: { id: 'acct_invoice_shapes' } })).stripeCustomerId;
      await deliver(event('invoice.payment_failed', { object: 'invoice', customer, billing_reason: 'subscription_cycle', parent: { type: 'subscription_details', subscription_details: { subscription: sub.id } } }, now() - 5 * 86400));
      expect(await summary('acct_invoice_shapes')).toMatchObject({ plan: 'starter', status: 'past_due' });
      await deliver(event('invoice.paid', { object: 'invoice', customer, subscription: sub.id }, now() - 4 * 86400));
      expect(await summary('acct_invoice_shapes')).toMatchObject({ plan: 'starter', status: 'active' });
      // An invoice of no subscription (a one-off invoice) changes nothing.
      await deliver(event('invoice.payment_failed', { object: 'invoice', customer, parent: null }, now() - 3 * 86400));
      expect(await summary('acct_invoice_shapes')).toMatchObject({ plan: 'starter', status: 'active' });
    });
  });

  it('refuses with 400 a signed event whose id, type or account references hold U+0000 (PostgreSQL text cannot), storing nothing', async () => {
    await checkout('acct_nul');
    const good = JSON.parse(event('checkout.session.completed', { object: 'checkout.session', mode: 'subscription', client_reference_id: 'acct_nul', subscription: 'sub_nul' }, now()));
    const o = good.data.object;
    const bodies = [
      { ...good, id: 'evt_nul\u0000' },
      { ...good, id: 'evt_nul_type', type: 'checkout.session.completed\u0000' },
      { ...good, id: 'evt_nul_reference', data: { object: { ...o, client_reference_id: 'acct_nul\u0000' } } },
      { ...good, id: 'evt_nul_metadata', data: { object: { ...o, client_reference_id: null, metadata: { accountId: 'acct_nul\u0000' } } } },
      { ...good, id: 'evt_nul_customer', data: { object: { ...o, client_reference_id: null, customer: 'cus_\u0000' } } },
    ];
    for (const body of bodies) {
      const res = await deliver(JSON.stringify(body));
      expect([body.id, res.status]).toEqual([body.id, 400]);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
    expect(await s.db.prisma.billingEvent.count({ where: { id: { startsWith: 'evt_nul' } } })).toBe(0);
    expect((await summary('acct_nul')).plan).toBe('free');
  });

  // Stripe resends an event until it gets a 2xx, for up to three days
  // (https://docs.stripe.com/webhooks/process-undelivered-events, "automatically resends"; https://docs.stripe.com/webhooks#automatic-retries):
  // a signed event that can never apply is acknowledged and recorded, not answered 500 for ever.
  it('acknowledges a signed event naming contradictory accounts or an absurd time: 200, recorded once, no account changed, a warn log', async () => {
    const t = now();
    const b = await subscribed('acct_conflict_b', t - 100);
    const a = await subscribed('acct_conflict_a', t - 100);
    await summary('acct_conflict_fresh'); // an account with no Stripe customer yet
    const sub = (extra: Record<string, unknown>) => ({ id: a.subscription, object: 'subscription', customer: a.customer, status: 'canceled', metadata: { accountId: 'acct_conflict_a' }, cancel_at: null, ended_at: null, items: { object: 'list', data: [{ id: 'si', current_period_end: t + 1000 }] }, ...extra });
    const cases: Array<[string, string, Record<string, unknown>, number]> = [
      // metadata names an account without a customer, the customer is another account's (a unique violation: was 500)
      ['evt_conflict_fresh', 'checkout.session.completed', { object: 'checkout.session', mode: 'subscription', client_reference_id: 'acct_conflict_fresh', metadata: { accountId: 'acct_conflict_fresh' }, customer: b.customer, subscription: 'sub_x' }, t],
      // metadata names A, the customer is B's (was applied to A)
      ['evt_conflict_customer', 'customer.subscription.deleted', sub({ customer: b.customer }), t],
      // metadata and client_reference_id name two different accounts
      ['evt_conflict_reference', 'checkout.session.completed', { object: 'checkout.session', mode: 'subscription', client_reference_id: 'acct_conflict_b', metadata: { accountId: 'acct_conflict_a' }, customer: a.customer, subscription: 'sub_y' }, t],
      // metadata names an account this service does not have, the customer is A's
      ['evt_conflict_unknown', 'customer.subscription.deleted', sub({ metadata: { accountId: 'acct_not_here' } }), t],
      // created out of any Date's range (was 500), or far in the future (would hold every later event back)
      ['evt_created_absurd', 'customer.subscription.deleted', sub({}), 1e15],
      ['evt_created_future', 'customer.subscription.deleted', sub({}), t + 10 * 365 * 86400],
      // a timestamp of the object out of range (was 500)
      ['evt_cancel_absurd', 'customer.subscription.updated', sub({ status: 'active', cancel_at: 1e15 }), t],
    ];
    const accounts = () => s.db.prisma.account.findMany({ where: { id: { in: ['acct_conflict_a', 'acct_conflict_b', 'acct_conflict_fresh'] } }, orderBy: { id: 'asc' } });
    const before = await accounts();
    const signatures: string[] = [];
    for (const [id, type, object, created] of cases) {
      const payload = event(type, object, created, id);
      for (let attempt = 0; attempt < 2; attempt++) {
        const signature = sign(payload);
        signatures.push(signature);
        const res = await deliver(payload, signature);
        expect([id, attempt, res.status]).toEqual([id, attempt, 200]);
        expect(await res.json()).toEqual({ received: true });
      }
      expect([id, await s.db.prisma.billingEvent.count({ where: { id } })]).toEqual([id, 1]);
      expect(await accounts()).toEqual(before);
      const warned = s.logs.map((l) => JSON.parse(l) as { level: number; eventId?: string }).filter((l) => l.level === 40 && l.eventId === id);
      expect([id, warned.length]).toEqual([id, 1]);
    }
    const logs = s.logs.join('\n');
    expect(logs).not.toContain(WEBHOOK_SECRET);
    for (const signature of signatures) expect(logs).not.toContain(signature.split('v1=')[1]);
    // A consistent event for A still applies afterwards.
    await deliver(event('invoice.payment_failed', { object: 'invoice', customer: a.customer, subscription: a.subscription }, t + 5));
    expect((await summary('acct_conflict_a')).status).toBe('past_due');
  });
});

describe('billing not configured', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer('embedded'); });
  afterAll(async () => { await s.close(); });

  it('answers checkout with 503 billing_not_configured', async () => {
    const res = await s.fetch('/v1/billing/checkout', { method: 'POST', headers: { authorization: `Bearer ${await s.token('acct_nb')}` }, json: { plan: 'starter' } });
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('billing_not_configured');
  });

  it('answers the webhook with 503 too', async () => {
    const res = await s.fetch('/v1/billing/webhook', { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' }, body: '{}' });
    expect(res.status).toBe(503);
  });
});
