import type { Response } from 'express';
import type { Sql } from '../db/sql.js';

/** Why an extraction stopped before its answer. */
export class KeyRevoked extends Error {}
export class ClientGone extends Error {}

export interface RequestGuard {
  signal: AbortSignal;
  stop(): void;
}

/**
 * Watches the API keys of running extractions, so a revoked key stops its model calls: at once when it is revoked
 * on this instance, and within one interval when revoked elsewhere. One statement per interval checks every key in
 * flight, however many requests run, and nothing is polled while none runs, so the database cost stays flat under
 * load. (The settle statement re-checks the key regardless: a revoked key is never charged.)
 */
export class RevocationWatcher {
  private readonly running = new Map<string, Set<AbortController>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly sql: Sql, private readonly intervalMs = 250) {}

  /** Aborts the extraction when the caller disconnects or `apiKeyId` is revoked; `stop()` when it ends. */
  guard(res: Response, apiKeyId: string): RequestGuard {
    const controller = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) controller.abort(new ClientGone('the client disconnected'));
    };
    res.on('close', onClose);
    let set = this.running.get(apiKeyId);
    if (!set) this.running.set(apiKeyId, (set = new Set()));
    set.add(controller);
    this.schedule();
    return {
      signal: controller.signal,
      stop: () => {
        res.off('close', onClose);
        set.delete(controller);
        if (set.size === 0 && this.running.get(apiKeyId) === set) this.running.delete(apiKeyId);
      },
    };
  }

  /** The key was revoked on this instance. */
  revoked(apiKeyId: string): void {
    for (const c of this.running.get(apiKeyId) ?? []) c.abort(new KeyRevoked('the API key was revoked'));
  }

  private schedule(): void {
    if (this.timer || this.running.size === 0) return;
    this.timer = setTimeout(() => void this.check(), this.intervalMs);
    this.timer.unref();
  }

  private async check(): Promise<void> {
    const ids = [...this.running.keys()];
    try {
      if (ids.length > 0) {
        const active = await this.sql.rows<{ id: string }>('keys_active',
          'SELECT id FROM api_keys WHERE id = ANY($1::text[]) AND revoked_at IS NULL', [ids]);
        const live = new Set(active.map((r) => r.id));
        for (const id of ids) if (!live.has(id)) this.revoked(id);
      }
    } catch {
      // A failed check is not a revocation; the next one (and the settle statement) checks again.
    } finally {
      this.timer = undefined;
      this.schedule();
    }
  }
}

/**
 * A signal that aborts (with ClientGone) when the caller hangs up before its answer is written: for work done before
 * a request is admitted (opening its file), which runs before the request's guard exists. `stop()` when it ends.
 */
export function connectionSignal(res: Response): { signal: AbortSignal; stop(): void } {
  const controller = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) controller.abort(new ClientGone('the client disconnected'));
  };
  res.on('close', onClose);
  return { signal: controller.signal, stop: () => res.off('close', onClose) };
}
