// A finder's answer with the place it was read from. A finder points at its text: the lines of the document it read
// the value from (and, when it knows it, the very words: `surface`), or a span of the document's text. The runner
// places the value there (place.ts); a value that cannot be placed where its finder says is no answer.

const LOCATED = Symbol('located');

export interface Located<T> {
  readonly [LOCATED]: true;
  readonly value: T;
  /** Indices of `doc.lines` the value was read from, in the order read. */
  readonly lines?: readonly number[];
  /** Offsets `[start, end)` in `doc.text` the value was read from. */
  readonly span?: readonly [number, number];
  /** The words the value was read as (`$4,500.00`, `18 April 2026`), found within `lines`. */
  readonly surface?: string;
  /** The value is computed from the text (a due date from `Net 30`, a sum of tax lines), not copied from it. */
  readonly derived: boolean;
  /** How a `span` was matched, when not by the finder's own words (`value`: a figure read as the value, in its cell). */
  readonly how?: 'value';
}

/** A value read from one or more lines of the document, optionally as the words `surface`. */
export const at = <T>(value: T, lines: number | readonly number[], surface?: string): Located<T> =>
  ({ [LOCATED]: true, value, lines: typeof lines === 'number' ? [lines] : lines, ...(surface !== undefined ? { surface } : {}), derived: false });

/** A value computed from what stands on those lines (the quote is what it was computed from). */
export const derivedAt = <T>(value: T, lines: number | readonly number[], surface?: string): Located<T> =>
  ({ ...at(value, lines, surface), derived: true });

/** A value read from `[start, end)` of `doc.text`. */
export const inText = <T>(value: T, start: number, end: number, derived = false): Located<T> =>
  ({ [LOCATED]: true, value, span: [start, end], derived });

export const isLocated = (x: unknown): x is Located<unknown> => typeof x === 'object' && x !== null && (x as Record<symbol, unknown>)[LOCATED] === true;

/** The value of an answer, located or not. */
export const valueOf = <T>(x: T | Located<T>): T => (isLocated(x) ? (x.value as T) : x);

/** Another value read from the same place (a value normalised or trimmed after it was located). */
export const mapLocated = <T, U>(x: Located<T>, value: U): Located<U> => ({ ...x, value });

/** A figure read on a summary line (totals.ts), or a sum of several: derived, pointing at every line it added. */
type FigureWhere = { line: number; raw: string; span?: readonly [number, number] };
export function figure<T>(value: T, where: FigureWhere | readonly FigureWhere[] | undefined): Located<T> | null {
  if (value === null || value === undefined || !where) return null;
  const one = (w: FigureWhere) => (w.span ? inText(value, w.span[0], w.span[1]) : at(value, w.line, w.raw));
  if (!Array.isArray(where)) return one(where as FigureWhere);
  const list = where as readonly FigureWhere[];
  if (list.length === 0) return null;
  if (list.length === 1) return one(list[0]!);
  return derivedAt(value, list.map((w) => w.line));
}

/** The lines a section's items and paragraph were read from (segment/document.ts). */
export const sectionLines = (s: { line: number; end: number }): number[] => Array.from({ length: s.end - s.line + 1 }, (_, k) => s.line + k);

/** The lines of `doc` that hold part of `[start, end)` of `doc.text`, in order. */
export function linesOf(doc: { lines: readonly { index: number; at: number; raw: string }[] }, start: number, end: number): number[] {
  return doc.lines.filter((l) => l.at < end && l.at + l.raw.length > start).map((l) => l.index);
}
