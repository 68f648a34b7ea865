// The cascade's unit of work: a top-level member of the answer (`/total`, `/vendor`, `/lineItems`; on the renewal route
// a term `{value, sourceQuote}`). The offline engine's member is kept whole or asked whole: a list or an object is
// never half the offline engine's and half the model's, so the merged answer stays consistent within each member.
import type { ScoredValue } from '../../evidence/assemble.js';
import { escapeStep, stepsOf } from '../../evidence/pointers.js';
import type { JsonSchema } from '../engine.js';

/** The pointer of the whole answer, for a schema whose root is not an object with `properties`. */
export const WHOLE = '';

/** The members of the answer: its schema's top-level properties, or the whole answer when it has none. */
export function membersOf(schema: JsonSchema): string[] {
  const props = schema.properties;
  if (schema.type !== 'object' || !props || typeof props !== 'object' || Object.keys(props).length === 0) return [WHOLE];
  return Object.keys(props);
}

/** The pointer of a member (`/vendor`), or '' for the whole answer. */
export const memberPointer = (member: string) => (member === WHOLE ? WHOLE : `/${escapeStep(member)}`);

/** The member a value's pointer belongs to (`/lineItems/0/amount` -> `/lineItems`). */
export function memberOfPointer(pointer: string, whole: boolean): string {
  if (whole) return WHOLE;
  const first = stepsOf(pointer)[0];
  return first === undefined ? WHOLE : `/${escapeStep(first)}`;
}

/** Whether a value holds a null (or undefined) anywhere, or an empty list: something the offline engine did not find. */
export function hasGap(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0 || value.some(hasGap);
  if (typeof value === 'object') return Object.values(value).some(hasGap);
  return false;
}

/**
 * Whether the offline engine vouches for a member: it found every value in it (no null, no empty list: a null is no
 * finding, and has no confidence to trust), and each value's calibrated confidence is at least `keep`. On the renewal
 * route a term's `sourceQuote` is its proof, not a value, and `value` is what counts.
 */
export function vouches(member: unknown, scored: ScoredValue[], keep: number, renewal: boolean): boolean {
  const own = renewal && member && typeof member === 'object' && !Array.isArray(member) && 'value' in member ? (member as { value: unknown }).value : member;
  if (hasGap(own) || scored.length === 0) return false;
  return scored.every((s) => s.confidence >= keep);
}
