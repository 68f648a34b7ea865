import { ApiError } from './api-error.js';

/** A UUID in its canonical lower-case text, as every id the service gives (ids/ids.ts). */
const ID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The shapes of the `nextCursor` values the lists give: the last id shown, or a renewal's sort key and id. */
export const CURSORS = {
  /** Jobs, keys, webhook deliveries: the id of the last item shown. */
  id: new RegExp(`^${ID}$`),
  /** Vendor renewals: the last one's cancellation deadline (`~` for none) and id (`2026-12-01|<id>`). */
  renewal: new RegExp(`^(?:\\d{4}-\\d{2}-\\d{2}|~)\\|${ID}$`),
} as const;

/**
 * A list's `cursor` query parameter: undefined when not sent; 400 invalid_request when it is not one a list of this
 * kind gives (any string used to be read as a position, so a garbage cursor answered page one again or an empty page).
 */
export function cursorParam(value: unknown, shape: keyof typeof CURSORS): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && CURSORS[shape].test(value)) return value;
  const message = 'is not a cursor this list gave: pass the nextCursor of the previous page, or no cursor for the first page';
  throw new ApiError('invalid_request', `/query/cursor ${message}`, { errors: [{ path: '/query/cursor', message }] });
}
