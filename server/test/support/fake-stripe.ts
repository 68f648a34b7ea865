// A small Stripe API on 127.0.0.1 for tests: customers and checkout sessions, form-encoded like the real one, with
// Idempotency-Key replay. It records every request. It answers only what these tests need.
//
// `SubscriptionHistory` is Stripe's side of a customer's subscriptions: what a checkout, a renewal, a failed or
// recovered payment, a cancellation and a replacement do to the subscription objects (Stripe's truth, kept in
// `subscriptions`), and the events Stripe creates for each, shaped as the docs describe them for the API version the
// SDK pins. Stripe does not promise to deliver them in that order, nor once (https://docs.stripe.com/webhooks#event-ordering).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface StripeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

export class FakeStripe {
  readonly requests: StripeRequest[] = [];
  readonly customers = new Map<string, Record<string, unknown>>();
  readonly sessions = new Map<string, Record<string, unknown>>();
  private replies = new Map<string, string>();
  private server!: Server;
  private seq = 0;
  private failures = 0;
  url = '';

  /** The next `count` requests answer 500 with Stripe's error body (https://docs.stripe.com/api/errors). */
  failNext(count: number): void {
    this.failures = count;
  }

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const path = (req.url ?? '').split('?')[0]!;
      this.requests.push({ method: req.method ?? '', path, headers: req.headers, form });
      const idem = req.headers['idempotency-key'];
      const cacheKey = typeof idem === 'string' ? `${req.method} ${path} ${idem}` : null;
      if (cacheKey && this.replies.has(cacheKey)) {
        res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' }).end(this.replies.get(cacheKey));
        return;
      }
      let status = 200;
      let body: unknown;
      if (this.failures > 0) {
        this.failures--;
        res.writeHead(500, { 'content-type': 'application/json', 'request-id': `req_fail${this.failures}` })
          .end(JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred.' } }));
        return;
      }
      if (req.method === 'POST' && path === '/v1/customers') {
        const id = `cus_fake${++this.seq}`;
        body = { id, object: 'customer', metadata: { accountId: form.get('metadata[accountId]') } };
        this.customers.set(id, body as Record<string, unknown>);
      } else if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_fake${++this.seq}`;
        body = { id, object: 'checkout.session', mode: form.get('mode'), customer: form.get('customer'), client_reference_id: form.get('client_reference_id'), url: `https://checkout.stripe.com/c/pay/${id}` };
        this.sessions.set(id, body as Record<string, unknown>);
      } else {
        status = 404;
        body = { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } };
      }
      const text = JSON.stringify(body);
      if (cacheKey && status === 200) this.replies.set(cacheKey, text);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${this.seq}` }).end(text);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export interface StripeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
}

/** Stripe's own state of one subscription (https://docs.stripe.com/api/subscriptions/object). */
export interface SimulatedSubscription {
  id: string;
  created: number;
  status: 'active' | 'past_due' | 'canceled';
  cancelAt: number | null;
  currentPeriodStart: number;
  currentPeriodEnd: number;
  endedAt: number | null;
}

const MONTH_S = 30 * 86_400;
let eventSeq = 0;
let objectSeq = 0;
/** Ids unique across every history of the run (a repeated event id would be a replay). */
const nextId = (prefix: string) => `${prefix}_test${String(++objectSeq).padStart(8, '0')}`;

/**
 * One customer's subscriptions as Stripe keeps them, and the events Stripe creates as they change (in creation order,
 * each with its `created` in whole seconds; several may share a second). Only the events a docextract endpoint is
 * registered for are recorded (README, Billing): checkout.session.completed, customer.subscription.created / updated /
 * deleted, invoice.paid, invoice.payment_failed.
 */
export class SubscriptionHistory {
  readonly subscriptions = new Map<string, SimulatedSubscription>();
  readonly events: StripeEvent[] = [];

  constructor(readonly accountId: string, readonly customer: string, readonly price = 'price_starter_1') {}

  /** A subscription as a customer.subscription.* event carries it. */
  subscriptionObject(sub: SimulatedSubscription): Record<string, unknown> {
    return {
      id: sub.id, object: 'subscription', customer: this.customer, status: sub.status, created: sub.created,
      start_date: sub.created, cancel_at: sub.cancelAt, cancel_at_period_end: sub.cancelAt !== null && sub.cancelAt === sub.currentPeriodEnd,
      canceled_at: sub.endedAt, ended_at: sub.endedAt, livemode: false,
      metadata: { accountId: this.accountId, plan: 'starter' },
      // Since 2025-03-31.basil the period lives on each item (https://docs.stripe.com/changelog/basil/2025-03-31/deprecate-subscription-current-period-start-and-end).
      items: { object: 'list', data: [{ id: `si_${sub.id.slice(4)}`, object: 'subscription_item', current_period_start: sub.currentPeriodStart, current_period_end: sub.currentPeriodEnd, price: { id: this.price, object: 'price' }, quantity: 1 }] },
    };
  }

  /** An invoice of a subscription (https://docs.stripe.com/api/invoices/object): it names it under `parent`. */
  invoiceObject(sub: SimulatedSubscription, at: number, paid: boolean, billingReason: 'subscription_create' | 'subscription_cycle'): Record<string, unknown> {
    return {
      id: nextId('in'), object: 'invoice', customer: this.customer, created: at, status: paid ? 'paid' : 'open',
      billing_reason: billingReason, amount_due: 2900, amount_paid: paid ? 2900 : 0, currency: 'usd', livemode: false, metadata: {},
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: { accountId: this.accountId, plan: 'starter' } } },
    };
  }

  private emit(type: string, object: Record<string, unknown>, at: number, previous?: Record<string, unknown>): void {
    this.events.push({
      id: `evt_test${String(++eventSeq).padStart(8, '0')}`, object: 'event', api_version: Stripe.API_VERSION, created: at, livemode: false,
      pending_webhooks: 1, request: { id: null, idempotency_key: null }, type,
      data: { object, ...(previous ? { previous_attributes: previous } : {}) },
    });
  }

  private snapshot(sub: SimulatedSubscription) {
    return this.subscriptionObject({ ...sub });
  }

  /** The subscriptions that have not ended. */
  live(): SimulatedSubscription[] {
    return [...this.subscriptions.values()].filter((s) => s.status !== 'canceled');
  }

  /**
   * A completed Checkout Session in subscription mode: the subscription is created active, its first invoice paid,
   * and the session completed, all in the same second (https://docs.stripe.com/billing/subscriptions/build-subscriptions).
   */
  checkout(at: number): SimulatedSubscription {
    const sub: SimulatedSubscription = { id: nextId('sub'), created: at, status: 'active', cancelAt: null, currentPeriodStart: at, currentPeriodEnd: at + MONTH_S, endedAt: null };
    this.subscriptions.set(sub.id, sub);
    this.emit('customer.subscription.created', this.snapshot(sub), at);
    this.emit('invoice.paid', this.invoiceObject(sub, at, true, 'subscription_create'), at);
    this.emit('checkout.session.completed', {
      id: nextId('cs'), object: 'checkout.session', mode: 'subscription', status: 'complete', payment_status: 'paid',
      customer: this.customer, client_reference_id: this.accountId, subscription: sub.id, created: at,
      metadata: { accountId: this.accountId, plan: 'starter' },
    }, at);
    return sub;
  }

  /** A renewal paid: a new period and its paid invoice. */
  renew(sub: SimulatedSubscription, at: number): void {
    const previous = { current_period_end: sub.currentPeriodEnd };
    Object.assign(sub, { currentPeriodStart: at, currentPeriodEnd: at + MONTH_S, status: 'active' });
    this.emit('invoice.paid', this.invoiceObject(sub, at, true, 'subscription_cycle'), at);
    this.emit('customer.subscription.updated', this.snapshot(sub), at, previous);
  }

  /** A renewal's payment failed: the invoice stays open and the subscription is past_due. */
  failPayment(sub: SimulatedSubscription, at: number): void {
    const previous = { status: sub.status };
    sub.status = 'past_due';
    this.emit('invoice.payment_failed', this.invoiceObject(sub, at, false, 'subscription_cycle'), at);
    this.emit('customer.subscription.updated', this.snapshot(sub), at, previous);
  }

  /** A retry of the open invoice succeeded: the subscription is active again. */
  recover(sub: SimulatedSubscription, at: number): void {
    const previous = { status: sub.status };
    sub.status = 'active';
    this.emit('invoice.paid', this.invoiceObject(sub, at, true, 'subscription_cycle'), at);
    this.emit('customer.subscription.updated', this.snapshot(sub), at, previous);
  }

  /** Cancellation at the period's end: still active, `cancel_at` set. */
  scheduleCancel(sub: SimulatedSubscription, at: number): void {
    const previous = { cancel_at: sub.cancelAt };
    sub.cancelAt = sub.currentPeriodEnd;
    this.emit('customer.subscription.updated', this.snapshot(sub), at, previous);
  }

  /** The subscription ends now (canceled at once, or its scheduled end reached). */
  end(sub: SimulatedSubscription, at: number): void {
    Object.assign(sub, { status: 'canceled', endedAt: at });
    this.emit('customer.subscription.deleted', this.snapshot(sub), at);
  }

  /**
   * A new subscription replaces an old one in the same second: the new one is checked out, the old one is first
   * updated (cancel_at now) and then deleted.
   */
  replace(old: SimulatedSubscription, at: number): SimulatedSubscription {
    const sub = this.checkout(at);
    const previous = { cancel_at: old.cancelAt };
    old.cancelAt = at;
    this.emit('customer.subscription.updated', this.snapshot(old), at, previous);
    this.end(old, at);
    return sub;
  }
}
