import { ApiError } from '../http/api-error.js';

/**
 * At most `perAccount` of one account's requests at once in the steps that wait on that account's own rows (its
 * rate window, its month's bucket), per process. The rest wait here, in memory, holding no database connection: a
 * burst of one account queues behind its own rows without taking the pool's connections from every other account
 * (measured before: 10 connections all waiting on one account's bucket row, and a quiet account answered 503).
 * A request that waits longer than `maxWaitMs` is answered 503 with `Retry-After`.
 */
export class AccountGate {
  private readonly held = new Map<string, { active: number; waiting: Array<() => void> }>();

  constructor(private readonly perAccount: number, private readonly maxWaitMs: number) {}

  async run<T>(accountId: string, work: () => Promise<T>): Promise<T> {
    await this.enter(accountId);
    try {
      return await work();
    } finally {
      this.leave(accountId);
    }
  }

  private enter(accountId: string): Promise<void> {
    let entry = this.held.get(accountId);
    if (!entry) this.held.set(accountId, (entry = { active: 0, waiting: [] }));
    if (entry.active < this.perAccount) {
      entry.active++;
      return Promise.resolve();
    }
    const waiting = entry.waiting;
    return new Promise<void>((resolve, reject) => {
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(new ApiError('service_unavailable', 'Too many requests of this account are being admitted at once; retry shortly.', null, { 'Retry-After': '1' }));
      }, this.maxWaitMs);
      waiting.push(go);
    });
  }

  private leave(accountId: string): void {
    const entry = this.held.get(accountId)!;
    const next = entry.waiting.shift();
    // The slot passes straight to the next waiter (active stays the same).
    if (next) return next();
    entry.active--;
    if (entry.active === 0) this.held.delete(accountId);
  }
}
