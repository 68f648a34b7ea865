import Stripe from 'stripe';
import { dbModes } from './support/databases.js';
import { FakeStripe } from './support/fake-stripe.js';
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

  const bearer = async (account: string) => ({ authorization: `Bearer ${await s.token(account)}` });
  const checkout = async (account: string, plan = 'starter') => s.fetch('/v1/billing/checkout', { method: 'POST', headers: await bearer(account), json: { plan } });
  const deliver = (payload: string, signature = signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET })) =>
    s.fetch('/v1/billing/webhook', { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
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
