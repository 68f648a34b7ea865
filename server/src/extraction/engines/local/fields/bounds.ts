// What each kind of field may hold. A finder's answer outside its field's bound is no answer (the runner tries the
// next finder, then gives null): a name is one line, a quote as short as the conventions promise, so no field can
// return a paragraph or the whole document by accident.
import { clean } from '../segment/text.js';

export type FieldKind =
  /** An identifier (`INV-2026-0042`, `GB 298 4471 02`). */
  | 'id'
  /** A person's or organisation's name, a product. */
  | 'name'
  /** A document's or role's title. */
  | 'title'
  /** A place or jurisdiction written on one line (`Austin, TX`, `England and Wales`). */
  | 'place'
  /** A postal address, its lines joined by commas. */
  | 'address'
  /** One statement: a list item, a task, a clause, a notice period as written. */
  | 'statement'
  /** A tender or other short word group (`VISA DEBIT`). */
  | 'label'
  | 'date'
  | 'time'
  | 'money'
  | 'count'
  | 'currency'
  | 'flag'
  /** A member of the contract's closed set (the type already holds it). */
  | 'choice';

/** Longest value of each text kind, in characters. */
export const MAX_CHARS: Partial<Record<FieldKind, number>> = {
  id: 40,
  name: 120,
  title: 150,
  place: 120,
  address: 300,
  statement: 500,
  label: 60,
};

/** The longest `sourceQuote` (../shared/extraction-conventions.md: "at most about 300 characters"). */
export const MAX_QUOTE = 300;

const ONE_LINE: ReadonlySet<FieldKind> = new Set(['id', 'name', 'title', 'place', 'label']);

/** The value in its field's bound, or null when it is out of it (a text value comes back in its normal form). */
export function bounded(kind: FieldKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ? value : null;
    case 'time':
      return typeof value === 'string' && /^(?:[01]\d|2[0-3]):[0-5]\d$/.test(value) ? value : null;
    case 'money':
      return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) < 1e12 ? value : null;
    case 'count':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 1e9 ? value : null;
    case 'currency':
      return typeof value === 'string' && /^[A-Z]{3}$/.test(value) ? value : null;
    case 'flag':
      return typeof value === 'boolean' ? value : null;
    case 'choice':
      return value;
    default: {
      if (typeof value !== 'string') return null;
      if (ONE_LINE.has(kind) && /[\r\n]/.test(value.trim())) return null;
      const text = clean(value);
      return text && text.length <= MAX_CHARS[kind]! ? text : null;
    }
  }
}
