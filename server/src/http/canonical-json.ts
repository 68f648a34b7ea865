/**
 * A JSON body's canonical text: objects' members sorted by name at every depth (arrays keep their order), so two
 * bodies that differ only in member order have the same text. Idempotency keys compare requests by it.
 */
export function canonicalJson(body: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object'
      ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]))
      : v;
  return JSON.stringify(canonical(body));
}
