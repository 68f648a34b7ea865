import OpenAI from 'openai';
import { ApiError } from '../../../http/api-error.js';
import { retryAfterSeconds } from '../anthropic/provider-errors.js';
import type { EngineLog } from '../engine.js';

/**
 * What a failure of an OpenAI-compatible server that survived the SDK's retries means for our caller, the same
 * envelopes as for Claude (anthropic/provider-errors.ts). OpenAI's error codes
 * (https://platform.openai.com/docs/guides/error-codes):
 * - 401 "Invalid Authentication" / "Incorrect API key provided" / "IP not authorized", 403 "Country, region, or
 *   territory not supported" (and a key without access to the model), 404 (a model the server does not serve), 400
 *   (a request the server refuses): our configuration: 502 `upstream_rejected`, logged with what to fix;
 * - 400 whose message says the prompt exceeds the model's context length (`context_length_exceeded`; vLLM and
 *   llama.cpp say "maximum context length"): the document does not fit the model: 422 `output_too_large`;
 * - 429 "Rate limit reached for requests" and 503 "The engine is currently overloaded" / "Slow Down": busy: 503
 *   `service_unavailable` with its Retry-After;
 * - 429 "You exceeded your current quota" (`insufficient_quota`): the operator's billing; retrying cannot succeed
 *   (never retried, see `quotaAware`): 503 with an hour's Retry-After, logged as an error;
 * - 500 and anything else, a connection refused or lost (a local server that is down): 502 `upstream_error`.
 * Log lines carry status, error type and code, request id and the server's message, never the key or the document.
 */
export function providerFailure(e: InstanceType<typeof OpenAI.APIError>, model: string, log: EngineLog | undefined): ApiError {
  const fields = { provider: 'openai', model, status: e.status ?? null, errorType: e.type ?? null, errorCode: e.code ?? null, providerRequestId: e.requestID ?? null };
  const message = clip((e.error as { message?: string } | undefined)?.message ?? e.message);
  if (e.status === undefined) {
    log?.warn({ ...fields, error: e.name }, 'model server not reachable (connection refused or lost) after retries: check OPENAI_BASE_URL and that the server is running');
    return new ApiError('upstream_error', 'The model server could not be reached.');
  }
  if (isQuota(e)) {
    log?.error({ ...fields, message }, 'model provider quota exhausted (429 insufficient_quota): check the plan and billing of the account of OPENAI_API_KEY; extractions fail until it is fixed');
    return new ApiError('service_unavailable', 'The model provider cannot take more requests now.', null, { 'Retry-After': String(QUOTA_RETRY_S) });
  }
  if (e.status === 429 || e.status === 503) {
    log?.warn(fields, 'model server busy after retries');
    return new ApiError('service_unavailable', 'The model provider is busy; retry later.', null, { 'Retry-After': String(retryAfterSeconds(e.headers)) });
  }
  if (e.status === 400 && isContextLength(e, message)) {
    log?.warn({ ...fields, message }, 'document exceeds the model context length');
    return new ApiError('output_too_large', "The document and its answer do not fit the model's context window: split the document.");
  }
  if (e.status === 401) {
    log?.error({ ...fields, message }, 'model server refused OPENAI_API_KEY (401): set a valid key; every extraction fails until then');
    return new ApiError('upstream_rejected');
  }
  if (e.status === 400 || e.status === 403 || e.status === 404 || e.status === 422) {
    const what = e.status === 404 ? 'does not serve the model: fix OPENAI_MODEL' : e.status === 403 ? 'refused access (key, project or region)' : 'refused the request: check OPENAI_STRUCTURED_OUTPUTS for this server';
    log?.error({ ...fields, message }, `model server ${what}`);
    return new ApiError('upstream_rejected');
  }
  log?.warn(fields, 'model server failed after retries');
  return new ApiError('upstream_error', `The model provider failed (HTTP ${e.status}).`);
}

/** The quota resets when the operator pays or raises it: an hour is a fair wait. */
const QUOTA_RETRY_S = 3600;

const isQuota = (e: InstanceType<typeof OpenAI.APIError>) => e.status === 429 && (e.code === 'insufficient_quota' || e.type === 'insufficient_quota');

const isContextLength = (e: InstanceType<typeof OpenAI.APIError>, message: string) =>
  e.code === 'context_length_exceeded' || /maximum context length|context length|context window|too many tokens/i.test(message);

const clip = (s: string | null | undefined) => (s ?? '').slice(0, 300);

/** Longer than this and we answer 503 with the server's Retry-After instead of holding the caller. */
const LONGEST_RETRY_WAIT_S = 30;

/**
 * A fetch for the SDK that marks the 429s it must not retry with `x-should-retry: false` (the SDK obeys that header
 * before its status rules): an exhausted quota, and a wait longer than a caller should be held.
 */
export function quotaAware(base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status !== 429 && response.status !== 503) return response;
    let stop = retryAfterSeconds(response.headers) > LONGEST_RETRY_WAIT_S && (response.headers.has('retry-after') || response.headers.has('retry-after-ms'));
    const body = await response.text();
    if (!stop && response.status === 429) {
      try {
        const error = (JSON.parse(body) as { error?: { code?: unknown; type?: unknown } }).error;
        stop = error?.code === 'insufficient_quota' || error?.type === 'insufficient_quota';
      } catch { /* not JSON: the SDK reports it */ }
    }
    const headers = new Headers(response.headers);
    if (stop) headers.set('x-should-retry', 'false');
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  };
}
