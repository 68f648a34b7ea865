import Stripe from 'stripe';
import type { Config } from '../config/config.js';

/** The Stripe SDK client, or null when billing is not configured (no secret key). */
export function createStripeClient(billing: Config['billing']): Stripe | null {
  if (!billing.secretKey) return null;
  const options: Stripe.StripeConfig = { maxNetworkRetries: 2, timeout: 20_000, appInfo: { name: 'docextract' } };
  if (billing.apiBase) {
    const url = new URL(billing.apiBase);
    options.host = url.hostname;
    options.port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    options.protocol = url.protocol.replace(':', '') as 'http' | 'https';
  }
  return new Stripe(billing.secretKey, options);
}
