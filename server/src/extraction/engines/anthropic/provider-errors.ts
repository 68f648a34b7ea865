import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '../../../http/api-error.js';
import type { EngineLog } from '../engine.js';

/**
 * What a provider failure that survived the SDK's retries means for our caller
 * (https://platform.claude.com/docs/en/api/errors, https://platform.claude.com/docs/en/api/rate-limits):
 * - 429 `rate_limit_error` and 529 `overloaded_error`: the provider is busy: 503 `service_unavailable` with its
 *   Retry-After (the caller may retry; nothing is wrong with the request).
 * - 429 with `error.details.error_code: "enforced_spend_limit_reached"`, and 400 "You have reached your specified ...
 *   usage limits": the organisation's spend cap; retrying cannot succeed until the month or the limit changes, so it
 *   is never retried (see `spendLimitAware`) and answers 503 as well, logged as an error for the operator.
 * - 402 `billing_error` ("There's an issue with your billing or payment information", errors page): the operator's
 *   Anthropic account, like the spend cap: not the caller's request, and not fixed by retrying (the SDK does not
 *   retry a 402). 503 with an hour's Retry-After, logged as an error naming the cause.
 * - 400 (a setting or schema the model refuses), 401/403 (the service's key), 404 (unknown model): our configuration
 *   is wrong: 502 `upstream_rejected`, logged with the provider's request id and error type.
 * - anything else (500, a connection lost after retries): 502 `upstream_error`.
 * Log lines carry status, error type, request id and the provider's message about the request, never the document.
 */
export function providerFailure(e: InstanceType<typeof Anthropic.APIError>, model: string, log: EngineLog | undefined): ApiError {
  const fields = { provider: 'anthropic', model, status: e.status ?? null, errorType: e.type ?? null, errorCode: e.errorCode ?? null, providerRequestId: e.requestID ?? null };
  if (e.status === 402 || e.type === 'billing_error') {
    log?.error({ ...fields, message: clip(e.apiMessage) }, 'model provider billing error: check the payment details of the Anthropic account of ANTHROPIC_API_KEY (Claude Console, Billing); extractions fail until it is fixed');
    return new ApiError('service_unavailable', 'The model provider cannot take requests from this service now.', null, { 'Retry-After': String(SPEND_LIMIT_RETRY_S) });
  }
  if (e.status === 401) {
    // The key itself (never logged): wrong, revoked or expired. The provider's message says which, without the key.
    log?.error({ ...fields, message: clip(e.apiMessage) }, 'model provider refused ANTHROPIC_API_KEY (401 authentication_error): set a valid key; every extraction fails until then');
    return new ApiError('upstream_rejected');
  }
  if (isSpendLimit(e)) {
    log?.error({ ...fields, message: clip(e.apiMessage) }, 'model provider spend limit reached: extractions fail until it is raised');
    return new ApiError('service_unavailable', 'The model provider cannot take more requests now.', null, { 'Retry-After': String(SPEND_LIMIT_RETRY_S) });
  }
  if (e.status === 429 || e.status === 529) {
    log?.warn(fields, 'model provider busy after retries');
    return new ApiError('service_unavailable', 'The model provider is busy; retry later.', null, { 'Retry-After': String(retryAfterSeconds(e.headers)) });
  }
  if (e.status === 400 || e.status === 401 || e.status === 403 || e.status === 404) {
    const what = e.status === 404 ? 'unknown model' : e.status === 400 ? 'request refused' : 'service credentials refused';
    log?.error({ ...fields, message: clip(e.apiMessage) }, `model provider ${what}: fix the ANTHROPIC_* configuration`);
    return new ApiError('upstream_rejected');
  }
  log?.warn(fields, 'model provider failed after retries');
  return new ApiError('upstream_error', `The model provider failed${e.status ? ` (HTTP ${e.status})` : ''}.`);
}

/** Seconds a busy provider asked us to wait (whole, at least 1); 10 when it did not say. */
export function retryAfterSeconds(headers: Headers | undefined): number {
  const ms = Number(headers?.get('retry-after-ms'));
  if (Number.isFinite(ms) && ms > 0) return Math.max(1, Math.ceil(ms / 1000));
  const raw = headers?.get('retry-after');
  const s = Number(raw);
  if (raw && Number.isFinite(s) && s > 0) return Math.ceil(s);
  const date = raw ? Date.parse(raw) : NaN;
  if (Number.isFinite(date) && date > Date.now()) return Math.ceil((date - Date.now()) / 1000);
  return 10;
}

/** The spend cap resets at the start of the next month or when the operator raises it: an hour is a fair wait. */
const SPEND_LIMIT_RETRY_S = 3600;

function isSpendLimit(e: InstanceType<typeof Anthropic.APIError>): boolean {
  return (e.status === 429 && e.errorCode === 'enforced_spend_limit_reached')
    || (e.status === 400 && /reached your specified (workspace )?API usage limits/i.test(e.apiMessage ?? ''));
}

const clip = (s: string | null | undefined) => (s ?? '').slice(0, 300);

/** Longer than this and we answer 503 with the provider's Retry-After instead of holding the caller. */
const LONGEST_RETRY_WAIT_S = 30;

/**
 * A fetch for the SDK that marks responses it must not retry with `x-should-retry: false` (the SDK obeys that header
 * before its status rules): a spend-limit 429 (retrying cannot succeed, docs above), and a 429/529 asking for a wait
 * longer than a caller should be held. Everything else passes through untouched.
 */
export function spendLimitAware(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status !== 429 && response.status !== 529) return response;
    let stop = retryAfterSeconds(response.headers) > LONGEST_RETRY_WAIT_S && (response.headers.has('retry-after') || response.headers.has('retry-after-ms'));
    const body = await response.text();
    if (!stop && response.status === 429) {
      try {
        stop = (JSON.parse(body) as { error?: { details?: { error_code?: unknown } } }).error?.details?.error_code === 'enforced_spend_limit_reached';
      } catch { /* not JSON: the SDK reports it */ }
    }
    const headers = new Headers(response.headers);
    if (stop) headers.set('x-should-retry', 'false');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}
