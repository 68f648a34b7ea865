/** What a key lookup found, kept briefly so a hot extraction path does not read it every time. */
export interface CachedKey {
  id: string;
  accountId: string;
  lastUsedAt: Date | null;
}

/**
 * A few seconds of API-key lookups, used only on the extraction routes: there revocation still takes effect at once,
 * because the statement that settles the charge re-checks the key (a revoked key answers 401 and is not charged),
 * and revoking on this instance drops the entry.
 */
export class KeyCache {
  private readonly entries = new Map<string, { key: CachedKey; expires: number }>();

  constructor(private readonly ttlMs = 5_000, private readonly maxEntries = 10_000) {}

  get(hash: string, now: number): CachedKey | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (e.expires <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return e.key;
  }

  set(hash: string, key: CachedKey, now: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { key, expires: now + this.ttlMs });
  }

  forgetKey(id: string): void {
    for (const [hash, e] of this.entries) if (e.key.id === id) this.entries.delete(hash);
  }
}
