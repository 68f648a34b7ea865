import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import ipaddr from 'ipaddr.js';
import { AddressRefused, addressAllowed, publicOnlyLookup, type AddressPolicy } from './url-guard.js';

export interface AttemptOutcome {
  /** The endpoint's status; null when none came back. */
  statusCode: number | null;
  /** Why it failed; null for a 2xx. */
  error: string | null;
  durationMs: number;
  /** The endpoint's `Retry-After`, in seconds, when it sent one. */
  retryAfterSeconds: number | null;
  /** No answer came within the timeout (what disables an endpoint when it happens often enough in a row). */
  timedOut?: boolean;
}

export interface Signed {
  url: string;
  /** The event's id: the `webhook-id` of every attempt. */
  eventId: string;
  payload: string;
  secret: string;
  /** The secret it replaced, while it still signs (a rotation's overlap): a second signature. */
  previousSecret?: string | null;
}

/** The most of an answer's body read (and thrown away): enough to keep the connection orderly, no more. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Sends one attempt, as the Standard Webhooks specification says: POST of the JSON body with `webhook-id`,
 * `webhook-timestamp` (this attempt's Unix seconds) and `webhook-signature` (`v1,` HMAC-SHA256 of
 * `id.timestamp.body`, made by the `standardwebhooks` package; two of them while a rotated secret overlaps), within
 * `timeoutMs` (the specification recommends 15-30 s). Only a 2xx is a success; redirects are not followed (a 3xx is a failure: spec, "Delivery success and
 * failure"). The connection is made to a public address only, unless private ones are allowed (url-guard.ts).
 */
export async function sendAttempt(signed: Signed, now: Date, timeoutMs: number, policy: AddressPolicy | boolean): Promise<AttemptOutcome> {
  const addresses = typeof policy === 'boolean' ? { allowPrivate: policy } : policy;
  const started = performance.now();
  // During a rotation, both signatures, space-separated (the specification's list): a receiver holding either verifies.
  const signature = [signed.secret, ...(signed.previousSecret ? [signed.previousSecret] : [])]
    .map((secret) => new Webhook(secret).sign(signed.eventId, now, signed.payload)).join(' ');
  const url = new URL(signed.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const elapsed = () => Math.round(performance.now() - started);
  // An address in the URL is connected to without a lookup: checked here (settings may have changed since it was made).
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(literal) && !addressAllowed(literal, addresses)) {
    return { statusCode: null, error: `refused: ${literal} is not an address deliveries may go to`, durationMs: elapsed(), retryAfterSeconds: null };
  }
  return new Promise<AttemptOutcome>((resolve) => {
    const req = send(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(signed.payload),
        'user-agent': 'docextract-webhooks/1',
        'webhook-id': signed.eventId,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
      lookup: publicOnlyLookup(addresses),
      signal: AbortSignal.timeout(timeoutMs),
    }, (res: IncomingMessage) => {
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) res.destroy();
      });
      const finish = () => {
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        resolve({ statusCode: status, error: ok ? null : `answered ${status}`, durationMs: elapsed(), retryAfterSeconds: retryAfter(res.headers['retry-after'], now) });
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    req.on('error', (err: Error & { code?: string }) => {
      const timedOut = !(err instanceof AddressRefused) && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const error = err instanceof AddressRefused ? `refused: ${err.message}`
        : timedOut ? `no answer within ${timeoutMs} ms`
        : `could not connect (${err.code ?? err.message})`;
      resolve({ statusCode: null, error, durationMs: elapsed(), retryAfterSeconds: null, timedOut });
    });
    req.end(signed.payload);
  });
}

/** `Retry-After` as seconds: a number of seconds, or an HTTP date. */
function retryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
