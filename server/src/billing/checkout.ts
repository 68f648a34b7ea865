import type Stripe from 'stripe';
import type { Config } from '../config/config.js';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';

/** A subscription in these states already gives the account the plan. */
const HOLDS_PLAN = new Set(['active', 'trialing', 'past_due', 'unpaid']);
/** Retries of the same checkout within this window reuse Stripe's answer (idempotency). */
const CHECKOUT_IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;

export interface CheckoutDeps {
  prisma: PrismaClient;
  stripe: Stripe | null;
  billing: Config['billing'];
  publicUrl: string;
  now: () => Date;
}

/**
 * A Checkout Session in subscription mode for the plan, for the account's Stripe customer (reused, or created once:
 * its idempotency key is the account id, so a retried checkout never makes two customers).
 */
export async function startCheckout(deps: CheckoutDeps, accountId: string, plan: 'starter'): Promise<{ url: string }> {
  const { stripe } = deps;
  if (!stripe || !deps.billing.priceStarter) throw new ApiError('billing_not_configured');
  const account = await deps.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
  if (account.plan === plan && HOLDS_PLAN.has(account.status)) throw new ApiError('already_subscribed', `The account is already on the ${plan} plan.`);

  let customerId = account.stripeCustomerId;
  if (!customerId) {
    const customer = await stripe.customers.create(
      { metadata: { accountId }, description: `docextract account ${accountId}` },
      { idempotencyKey: `docextract-customer-${accountId}` },
    );
    // Two checkouts racing got the same customer from Stripe (same idempotency key); either write is the same.
    await deps.prisma.account.updateMany({ where: { id: accountId, stripeCustomerId: null }, data: { stripeCustomerId: customer.id } });
    customerId = customer.id;
  }
  const window = Math.floor(deps.now().getTime() / CHECKOUT_IDEMPOTENCY_WINDOW_MS);
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'subscription',
      customer: customerId,
      client_reference_id: accountId,
      line_items: [{ price: deps.billing.priceStarter, quantity: 1 }],
      success_url: `${deps.publicUrl}/dashboard/billing?checkout=success`,
      cancel_url: `${deps.publicUrl}/dashboard/billing?checkout=cancelled`,
      metadata: { accountId, plan },
      subscription_data: { metadata: { accountId, plan } },
    },
    { idempotencyKey: `docextract-checkout-${accountId}-${plan}-${customerId}-${window}` },
  );
  if (!session.url) throw new ApiError('upstream_error', 'Stripe did not answer a checkout URL.');
  return { url: session.url };
}
