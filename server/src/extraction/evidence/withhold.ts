// Taking values out of an answer: a member becomes null (every member of an answer may be null), an item of a list of
// words or figures leaves the list (a list holds no nulls), and so does an object item left with nothing in it. The
// pointers of what remains are renumbered to match.
import { escapeStep } from './pointers.js';

export interface Withheld {
  data: unknown;
  /** The new pointer of every leaf that remains, by its old pointer (only those that changed). */
  moved: Map<string, string>;
}

export function withhold(data: unknown, pointers: ReadonlySet<string>, renewal: boolean): Withheld {
  const moved = new Map<string, string>();
  const isEmpty = (v: unknown) => v === null || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every((m) => m === null || (Array.isArray(m) && m.length === 0)));
  const walk = (value: unknown, oldPointer: string, newPointer: string): unknown => {
    if (oldPointer !== newPointer) moved.set(oldPointer, newPointer);
    // A renewal's documentKindGuess is never null (the contract, and its stored record, require a kind): withheld, it
    // says `other`, the kind that claims nothing.
    if (pointers.has(oldPointer)) return renewal && oldPointer === '/documentKindGuess' ? 'other' : null;
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      value.forEach((item, i) => {
        const kept = walk(item, `${oldPointer}/${i}`, `${newPointer}/${out.length}`);
        const scalar = item === null || typeof item !== 'object';
        if ((scalar && kept === null) || (!scalar && isEmpty(kept))) {
          // Undo the moves recorded for a dropped item.
          for (const k of [...moved.keys()]) if (k === `${oldPointer}/${i}` || k.startsWith(`${oldPointer}/${i}/`)) moved.delete(k);
          return;
        }
        out.push(kept);
      });
      return out;
    }
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = walk(v, `${oldPointer}/${escapeStep(k)}`, `${newPointer}/${escapeStep(k)}`);
      // A renewal member withheld goes whole: `{value: null, sourceQuote: null}`, as for a term not found.
      if (renewal && 'value' in out && 'sourceQuote' in out && out.value === null) out.sourceQuote = null;
      return out;
    }
    return value;
  };
  return { data: walk(data, '', ''), moved };
}
