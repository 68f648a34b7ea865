// The bounds of a renewal's dates and notice period, whether a document states them or they are set by hand: an
// override outside them is refused (400), and a stored value outside them (extracted, or set before these bounds) is
// shown as it is but yields no deadline (`needs_review`, with a reason saying which value is out of range). Within
// them every deadline is a real calendar date, so the list, the detail and the calendar feed can always be computed.
//
// Decisions:
// - Dates: years 1900 to 2199. A SaaS contract's renewal falls within a lifetime of today; anything outside is a
//   typing or reading error (0100-01-01), and a calendar feed cannot carry it (RFC 5545 dates have four digits).
// - Notice periods: at most 3 years, that is 1,095 days, 156 weeks or 36 months. The longest notice clauses of
//   enterprise agreements are 12 months; a longer one is far more likely a misread ("9999 months").
import type { NoticePeriod } from './deadline.js';

export const FIRST_YEAR = 1900;
export const LAST_YEAR = 2199;
export const MAX_NOTICE: Readonly<Record<NoticePeriod['unit'], number>> = { days: 1095, weeks: 156, months: 36 };

/** A `YYYY-MM-DD` calendar date within the year window. */
export function isDateInWindow(date: unknown): date is string {
  const m = typeof date === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  // Date.UTC reads years 0-99 as 1900-1999: the window check comes first.
  return y >= FIRST_YEAR && y <= LAST_YEAR && at.getUTCFullYear() === y && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d;
}

/** A notice period within the bound of its unit. */
export function isNoticeInBounds(notice: NoticePeriod): boolean {
  return Number.isInteger(notice.amount) && notice.amount >= 0 && notice.amount <= MAX_NOTICE[notice.unit];
}

export const DATE_WINDOW_TEXT = `a date from ${FIRST_YEAR}-01-01 to ${LAST_YEAR}-12-31`;
export const NOTICE_BOUND_TEXT = `at most 3 years (${MAX_NOTICE.days.toLocaleString('en-US')} days, ${MAX_NOTICE.weeks} weeks or ${MAX_NOTICE.months} months)`;
