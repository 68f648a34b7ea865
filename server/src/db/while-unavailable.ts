import { isDatabaseUnavailable } from './errors.js';

/** Backoff between tries while the database is away: 250 ms doubling to 5 s. */
export const UNAVAILABLE_RETRY_MS = { first: 250, max: 5_000 } as const;

/**
 * Runs `work` until it is done, trying again (after a backoff) as long as it fails because the database cannot be
 * reached or gave no connection (`isDatabaseUnavailable`: refused, "too many clients", pool timeout); any other
 * failure is thrown at once, and so is the signal's reason once it is aborted. `onRetry` is told of each retry.
 */
export async function whileUnavailable<T>(work: () => Promise<T>, signal: AbortSignal, onRetry?: (err: unknown, tries: number) => void): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await work();
    } catch (err) {
      if (signal.aborted || !isDatabaseUnavailable(err)) throw err;
      onRetry?.(err, tries);
      await pause(Math.min(UNAVAILABLE_RETRY_MS.max, UNAVAILABLE_RETRY_MS.first * 2 ** tries), signal);
      if (signal.aborted) throw signal.reason;
    }
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
