// JSON Pointers (RFC 6901) into an answer's `data`: the keys of its evidence and of the values it withholds.

/** One step of a pointer, escaped (`~` as `~0`, `/` as `~1`). */
export const escapeStep = (step: string | number) => String(step).replace(/~/g, '~0').replace(/\//g, '~1');

/** The steps of a pointer, unescaped (`/a~1b/0` is `['a/b', '0']`). */
export const stepsOf = (pointer: string) => (pointer === '' ? [] : pointer.slice(1).split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')));

export interface Leaf {
  pointer: string;
  value: string | number | boolean;
}

/** Every non-null scalar of a value (strings, numbers, booleans), depth first in member and item order. */
export function leaves(value: unknown, pointer = ''): Leaf[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [{ pointer, value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${pointer}/${i}`));
  if (typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, `${pointer}/${escapeStep(k)}`));
  return [];
}

/** The value at a pointer, or undefined when there is none. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const step of stepsOf(pointer)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, step)) return undefined;
    node = (node as Record<string, unknown>)[step];
  }
  return node;
}

/** Sets the member at a pointer (it must exist) to `value`, in place. */
export function setAt(root: unknown, pointer: string, value: unknown): void {
  const steps = stepsOf(pointer);
  const last = steps.pop();
  if (last === undefined) return;
  const parent = valueAt(root, steps.length ? `/${steps.map(escapeStep).join('/')}` : '');
  if (parent !== null && typeof parent === 'object' && Object.hasOwn(parent, last)) (parent as Record<string, unknown>)[last] = value;
}

// A pointer with its list indices as `*` (`/lineItems/3/amount` is `/lineItems/*/amount`): a field, whatever its item.
export const fieldOf = (pointer: string) => pointer.replace(/\/\d+(?=\/|$)/g, '/*');
