import { DocExtractError } from './errors.js';

export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  maxRetries: number;
  /** The first backoff; it doubles each retry, with full jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** The longest one wait may be; a longer `Retry-After` is not waited for (the error is answered at once). */
  maxRetryWaitMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryWaitMs: 60_000 };

const sleep = (ms: number, signal: AbortSignal | null | undefined) => new Promise<void>((resolve, reject) => {
  if (signal?.aborted) return reject(signal.reason);
  const t = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(t); reject(signal.reason); }, { once: true });
});

/**
 * Requests that may be sent again after a failure the server may have half-done: reads, revocation and cancellation,
 * key creation with its idempotency key, and job creation with its `Idempotency-Key`.
 */
function replayable(request: Request): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'DELETE') return true;
  if (request.method !== 'POST') return false;
  const path = new URL(request.url).pathname;
  if (path.endsWith('/v1/keys')) return request.headers.has('x-idempotency-key');
  return (path.endsWith('/v1/jobs') || path.endsWith('/v1/jobs/batch')) && request.headers.has('idempotency-key');
}

/**
 * fetch with retries and a timeout. 429 is retried for any request (the server refused it, nothing happened),
 * honouring `Retry-After`; 502, 503, 504 and network errors only for replayable requests.
 */
export function retryingFetch(baseFetch: typeof fetch, policy: RetryPolicy, timeoutMs: number | undefined): (request: Request) => Promise<Response> {
  return async (request: Request) => {
    const callerSignal = request.signal;
    for (let attempt = 0; ; attempt++) {
      const timeout = timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined;
      const signal = timeout ? AbortSignal.any([callerSignal, timeout]) : callerSignal;
      let response: Response;
      try {
        response = await baseFetch(new Request(request.clone(), { signal }));
      } catch (e) {
        if (callerSignal.aborted) throw e;
        if (timeout?.aborted) throw new DocExtractError(0, 'timeout', `The request took longer than ${timeoutMs} ms.`, null, null);
        if (attempt < policy.maxRetries && replayable(request)) {
          await sleep(backoff(policy, attempt), callerSignal);
          continue;
        }
        throw new DocExtractError(0, 'network_error', `The request failed: ${(e as Error).message}`, null, null);
      }
      const retryable = response.status === 429 || ([502, 503, 504].includes(response.status) && replayable(request));
      if (!retryable || attempt >= policy.maxRetries) return response;
      const retryAfter = Number(response.headers.get('retry-after'));
      const wait = Number.isFinite(retryAfter) && response.headers.has('retry-after') ? retryAfter * 1000 : backoff(policy, attempt);
      if (wait > policy.maxRetryWaitMs) return response;
      await response.body?.cancel();
      await sleep(wait, callerSignal);
    }
  };
}

function backoff(policy: RetryPolicy, attempt: number): number {
  return Math.random() * Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
}
