/** A JSON Pointer step (RFC 6901): `~` and `/` escaped. */
export const escapeStep = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every non-null value of an answer's data by JSON Pointer, in order (a renewal term `{value, sourceQuote}` as its value). */
export function leaves(value: unknown, pointer = ''): Array<[string, unknown]> {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object') return [[pointer, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${pointer}/${i}`));
  const o = value as Record<string, unknown>;
  if ('value' in o && 'sourceQuote' in o && Object.keys(o).length === 2) return leaves(o.value, `${pointer}/value`);
  return Object.entries(o).flatMap(([k, v]) => leaves(v, `${pointer}/${escapeStep(k)}`));
}
