// The one place the derived fields of a vendor renewal are computed: its notice period, cancellation deadline, days
// left and status. The API, the calendar feed and (through the API) the dashboard all read them from here.
//
// Decisions:
// - Everything is in UTC calendar dates (`YYYY-MM-DD`); "today" is the UTC date of the clock.
// - The deadline is the renewal date minus the notice period. Days count back whole days and weeks 7 days each.
//   Months count back calendar months, and a day the earlier month does not have becomes its last day: 31 May minus
//   3 months is 28 February (29 in a leap year); 31 March minus 1 month is 28/29 February.
// - A notice period in months comes from the notice text ("3 months", "three (3) calendar months") when no day
//   count is known: the extraction leaves `noticePeriodDays` null for months, so that a month is never taken for
//   30 days.
// - `window_closing` is a deadline today or within WINDOW_CLOSING_DAYS days (30): time enough to act on a reminder.
// - `needs_review` means no deadline can be computed; `cancelled` (marked by hand) wins over every other status.
// - A renewal date outside the year window, or a notice period over its bound (term-bounds.ts), yields no deadline:
//   `deadlineUnknownReason` says which (`renewal_date_out_of_range`, `notice_period_out_of_range`). Such values can
//   be stored (extracted, or set by hand before the bounds were checked); they must never make a renewal unreadable.

import { isDateInWindow, isNoticeInBounds } from './term-bounds.js';

export const WINDOW_CLOSING_DAYS = 30;

export type NoticeUnit = 'days' | 'weeks' | 'months';
export interface NoticePeriod { amount: number; unit: NoticeUnit }
export type DeadlineStatus = 'upcoming' | 'window_closing' | 'deadline_passed' | 'needs_review' | 'cancelled';
export type DeadlineUnknownReason = 'no_renewal_date' | 'no_notice_period' | 'renewal_date_out_of_range' | 'notice_period_out_of_range';

export interface DeadlineInput {
  renewalDate: string | null;
  noticePeriodDays: number | null;
  noticePeriodText: string | null;
  /** Read the notice period from the text even when a day count is known (the text was corrected by hand). */
  preferText?: boolean;
  cancelled: boolean;
}

export interface Deadline {
  noticePeriod: NoticePeriod | null;
  cancellationDeadline: string | null;
  deadlineUnknownReason: DeadlineUnknownReason | null;
  daysLeft: number | null;
  status: DeadlineStatus;
}

const DAY_MS = 86_400_000;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` calendar date as its UTC midnight, or null when it is no real date (2026-02-30). */
export function parseDate(date: string | null | undefined): Date | null {
  const m = typeof date === 'string' ? ISO_DATE.exec(date) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const at = new Date(Date.UTC(y, mo - 1, d));
  return at.getUTCFullYear() === y && at.getUTCMonth() === mo - 1 && at.getUTCDate() === d ? at : null;
}

export function formatDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The UTC calendar date of an instant. */
export function utcToday(now: Date): string {
  return formatDate(now);
}

/** Whole days from one calendar date to another (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const a = parseDate(from), b = parseDate(to);
  if (!a || !b) throw new RangeError('not a calendar date');
  return Math.round((b.getTime() - a.getTime()) / DAY_MS);
}

/** The last day of a UTC month (`month` 0-11, may be out of range: it is normalised). */
function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** A calendar date minus `months` calendar months, clamped to the end of the earlier month. */
export function minusMonths(date: string, months: number): string {
  const at = parseDate(date);
  if (!at) throw new RangeError('not a calendar date');
  const target = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - months, 1));
  const day = Math.min(at.getUTCDate(), lastDayOfMonth(target.getUTCFullYear(), target.getUTCMonth()));
  return formatDate(new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), day)));
}

/** A calendar date minus a number of days. */
export function minusDays(date: string, days: number): string {
  const at = parseDate(date);
  if (!at) throw new RangeError('not a calendar date');
  return formatDate(new Date(at.getTime() - days * DAY_MS));
}

/** The renewal date minus the notice period. */
export function subtractNotice(renewalDate: string, notice: NoticePeriod): string {
  if (notice.unit === 'months') return minusMonths(renewalDate, notice.amount);
  return minusDays(renewalDate, notice.unit === 'weeks' ? notice.amount * 7 : notice.amount);
}

const WORD_NUMBERS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fourteen: 14, fifteen: 15, twenty: 20, thirty: 30, sixty: 60, ninety: 90,
};
const NUMBER = `(\\d{1,4}|${Object.keys(WORD_NUMBERS).join('|')})`;
// "3 months", "three (3) months", "90 calendar days", "8 weeks'", "six-month"
const PERIOD = new RegExp(`\\b${NUMBER}(?:\\s*\\((\\d{1,4})\\))?[\\s-]*(?:full\\s+|calendar\\s+|business\\s+)?(day|week|month)s?\\b`, 'i');

function readNumber(word: string): number | null {
  const n = /^\d+$/.test(word) ? Number(word) : WORD_NUMBERS[word.toLowerCase()];
  return n === undefined || !Number.isFinite(n) ? null : n;
}

/** A notice period read from its phrase ("90 days", "8 weeks", "three (3) months"), or null. */
export function noticeFromText(text: string | null): NoticePeriod | null {
  if (!text) return null;
  const m = PERIOD.exec(text);
  if (!m) return null;
  // The digits in brackets are the number the phrase means ("thirty-seven (37) months": the word read is "seven").
  const amount = m[2] !== undefined ? Number(m[2]) : readNumber(m[1]!);
  if (amount === null) return null;
  return { amount, unit: `${m[3]!.toLowerCase()}s` as NoticeUnit };
}

/**
 * The notice period: the day count when one is known (shown in weeks when the phrase says weeks and they agree),
 * else the phrase read in days, weeks or months.
 */
export function readNoticePeriod(days: number | null, text: string | null, preferText = false): NoticePeriod | null {
  const fromText = noticeFromText(text);
  if (preferText && fromText) return fromText;
  if (days !== null && Number.isInteger(days) && days >= 0) {
    if (fromText?.unit === 'weeks' && fromText.amount * 7 === days) return fromText;
    return { amount: days, unit: 'days' };
  }
  return fromText;
}

/** The derived fields of a vendor renewal, as of `now`. Never throws: a value it cannot count from is a reason. */
export function deriveDeadline(input: DeadlineInput, now: Date): Deadline {
  const read = readNoticePeriod(input.noticePeriodDays, input.noticePeriodText, input.preferText);
  let deadlineUnknownReason: DeadlineUnknownReason | null = null;
  if (!parseDate(input.renewalDate)) deadlineUnknownReason = 'no_renewal_date';
  else if (!isDateInWindow(input.renewalDate)) deadlineUnknownReason = 'renewal_date_out_of_range';
  else if (!read) deadlineUnknownReason = 'no_notice_period';
  else if (!isNoticeInBounds(read)) deadlineUnknownReason = 'notice_period_out_of_range';
  const noticePeriod = read && isNoticeInBounds(read) ? read : null;
  let cancellationDeadline: string | null = null;
  let daysLeft: number | null = null;
  if (deadlineUnknownReason === null) {
    // Within the bounds the deadline is always a calendar date (years 1897-2199); should it ever not be, the renewal
    // still reads, without a deadline.
    try {
      cancellationDeadline = subtractNotice(input.renewalDate!, noticePeriod!);
      daysLeft = daysBetween(utcToday(now), cancellationDeadline);
    } catch {
      cancellationDeadline = null;
      daysLeft = null;
      deadlineUnknownReason = 'renewal_date_out_of_range';
    }
  }
  return { noticePeriod, cancellationDeadline, deadlineUnknownReason, daysLeft, status: statusOf(daysLeft, input.cancelled) };
}

export function statusOf(daysLeft: number | null, cancelled: boolean): DeadlineStatus {
  if (cancelled) return 'cancelled';
  if (daysLeft === null) return 'needs_review';
  if (daysLeft < 0) return 'deadline_passed';
  return daysLeft <= WINDOW_CLOSING_DAYS ? 'window_closing' : 'upcoming';
}
