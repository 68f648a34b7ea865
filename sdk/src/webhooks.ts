import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { components } from './contract.js';

export type WebhookEvent = components['schemas']['WebhookEvent'];
export { WebhookVerificationError };

/** Request headers as Node's `IncomingHttpHeaders`, the Fetch API's `Headers`, or a plain object. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * Verifies a webhook request from docextract and answers its event: the signature (`webhook-signature`, v1, HMAC-SHA256
 * with the endpoint's `whsec_...` secret) over the `webhook-id`, the `webhook-timestamp` (within 5 minutes of now) and
 * the body, with the Standard Webhooks reference library (`standardwebhooks`). Pass the body exactly as received
 * (a string or the raw bytes, never JSON parsed and serialised again). Throws `WebhookVerificationError` when the
 * request was not signed with this secret, was changed, or is too old or too new.
 *
 * Use the event's `webhook-id` (also `headers['webhook-id']`) to process each event once: a delivery retried after a
 * lost answer carries the same id.
 */
export function verifyWebhook(body: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const flat: Record<string, string> = {};
  if (typeof (headers as Headers).get === 'function') {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const value = (headers as Headers).get(name);
      if (value !== null) flat[name] = value;
    }
  } else {
    for (const [name, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(' ') : value;
    }
  }
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return new Webhook(secret).verify(text, flat) as WebhookEvent;
}
