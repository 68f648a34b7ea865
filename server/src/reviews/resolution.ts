// What a person's corrected `data` says about each value the service found: confirmed, corrected, added or removed.
// A value the service found is one of the answer's non-null leaves or one it withheld; each is compared with the leaf
// at the same JSON Pointer of the corrected data.
import type { components } from '../../../generated/openapi.js';
import { escapeStep } from '../extraction/evidence/pointers.js';

type Schemas = components['schemas'];

/** A value the service found: its pointer, value and confidence (as returned, and before the account's own map). */
export interface FoundValue {
  path: string;
  value: unknown;
  confidence: number;
  /** The confidence before the account's own calibration map (what that map is fitted on). */
  baseConfidence: number;
}

/** Every leaf (a value that is not an object or a list) of `data`, null ones included, by JSON Pointer, in order. */
export function leavesOf(data: unknown, pointer = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(data)) data.forEach((v, i) => leavesOf(v, `${pointer}/${i}`, out));
  else if (data !== null && typeof data === 'object') for (const [k, v] of Object.entries(data)) leavesOf(v, `${pointer}/${escapeStep(k)}`, out);
  else if (pointer !== '') out.set(pointer, data);
  return out;
}

/** Values compare as JSON: `4500` and `4500.0` are one, strings compare exactly (after trimming outer white space). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.trim() === b.trim();
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Each value of a review once resolved: in the order of the corrected data's leaves, then the values found that it
 * no longer holds. Leaves null on both sides say nothing and are left out.
 */
export function reviewedValues(found: FoundValue[], corrected: unknown): { values: Schemas['ReviewedValue'][]; counts: Schemas['ReviewCounts'] } {
  const byPath = new Map(found.map((f) => [f.path, f]));
  const sent = leavesOf(corrected);
  const values: Schemas['ReviewedValue'][] = [];
  const counts = { confirmed: 0, corrected: 0, added: 0, removed: 0 };
  const add = (path: string, f: FoundValue | undefined, value: unknown) => {
    const had = f !== undefined && f.value !== null;
    const has = value !== null && value !== undefined;
    if (!had && !has) return;
    const outcome: Schemas['ReviewOutcome'] = had && has ? (same(f!.value, value) ? 'confirmed' : 'corrected') : had ? 'removed' : 'added';
    counts[outcome]++;
    values.push({ path, outcome, found: had ? f!.value : null, value: has ? value : null, confidence: had ? f!.confidence : null });
  };
  for (const [path, value] of sent) add(path, byPath.get(path), value);
  for (const f of found) if (!sent.has(f.path)) add(f.path, f, null);
  return { values, counts };
}
