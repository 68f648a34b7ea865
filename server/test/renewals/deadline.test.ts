import { daysBetween, deriveDeadline, minusMonths, noticeFromText, readNoticePeriod, subtractNotice, WINDOW_CLOSING_DAYS } from '../../src/renewals/deadline.js';

const at = (iso: string) => new Date(iso);
const base = { noticePeriodText: null, cancelled: false };

describe('cancellation deadline: the renewal date minus the notice period, in UTC calendar dates', () => {
  it('counts days back across a month and a year end', () => {
    expect(subtractNotice('2026-12-31', { amount: 30, unit: 'days' })).toBe('2026-12-01');
    expect(subtractNotice('2027-01-15', { amount: 45, unit: 'days' })).toBe('2026-12-01');
  });

  it('counts weeks as 7 days each', () => {
    expect(subtractNotice('2027-06-30', { amount: 8, unit: 'weeks' })).toBe('2027-05-05');
    expect(subtractNotice('2026-03-01', { amount: 1, unit: 'weeks' })).toBe('2026-02-22');
  });

  it('counts calendar months, clamped to the end of the earlier month', () => {
    expect(minusMonths('2026-05-31', 3)).toBe('2026-02-28');
    expect(minusMonths('2028-05-31', 3)).toBe('2028-02-29'); // leap year
    expect(minusMonths('2026-03-31', 1)).toBe('2026-02-28');
    expect(minusMonths('2026-07-31', 1)).toBe('2026-06-30');
    expect(minusMonths('2026-12-15', 1)).toBe('2026-11-15');
    expect(minusMonths('2027-01-31', 2)).toBe('2026-11-30'); // across the year
    expect(minusMonths('2026-06-30', 12)).toBe('2025-06-30');
  });

  it('handles leap days as renewal dates and inside the counted span', () => {
    expect(subtractNotice('2028-02-29', { amount: 1, unit: 'months' })).toBe('2028-01-29');
    expect(subtractNotice('2029-02-28', { amount: 12, unit: 'months' })).toBe('2028-02-28');
    expect(subtractNotice('2028-03-01', { amount: 1, unit: 'days' })).toBe('2028-02-29');
    expect(subtractNotice('2027-03-01', { amount: 1, unit: 'days' })).toBe('2027-02-28');
    expect(subtractNotice('2028-03-30', { amount: 30, unit: 'days' })).toBe('2028-02-29');
  });

  it('reads notice periods from their phrase', () => {
    expect(noticeFromText("8 weeks' notice before the end of the service period")).toEqual({ amount: 8, unit: 'weeks' });
    expect(noticeFromText('three (3) months prior written notice')).toEqual({ amount: 3, unit: 'months' });
    expect(noticeFromText('at least 90 calendar days before renewal')).toEqual({ amount: 90, unit: 'days' });
    expect(noticeFromText('a six-month notice period')).toEqual({ amount: 6, unit: 'months' });
    expect(noticeFromText('reasonable notice')).toBeNull();
    // The digits in brackets are the number meant: "thirty-seven" has no word of its own, "seven" was read.
    expect(noticeFromText('thirty-seven (37) months notice')).toEqual({ amount: 37, unit: 'months' });
    expect(noticeFromText(null)).toBeNull();
  });

  it('prefers the day count, shown in weeks when the phrase says weeks and agrees', () => {
    expect(readNoticePeriod(56, "8 weeks' notice")).toEqual({ amount: 8, unit: 'weeks' });
    expect(readNoticePeriod(30, '30 days')).toEqual({ amount: 30, unit: 'days' });
    expect(readNoticePeriod(60, "8 weeks' notice")).toEqual({ amount: 60, unit: 'days' });
    expect(readNoticePeriod(null, '3 months')).toEqual({ amount: 3, unit: 'months' });
    expect(readNoticePeriod(30, '3 months', true)).toEqual({ amount: 3, unit: 'months' });
    expect(readNoticePeriod(null, null)).toBeNull();
  });
});

describe('days left and status, from the UTC date of now', () => {
  it('counts whole days from today, 0 on the deadline itself, whatever the time of day', () => {
    expect(daysBetween('2026-11-22', '2026-12-01')).toBe(9);
    const late = deriveDeadline({ ...base, renewalDate: '2026-12-31', noticePeriodDays: 30 }, at('2026-12-01T23:59:59.999Z'));
    expect(late).toMatchObject({ cancellationDeadline: '2026-12-01', daysLeft: 0, status: 'window_closing' });
    const next = deriveDeadline({ ...base, renewalDate: '2026-12-31', noticePeriodDays: 30 }, at('2026-12-02T00:00:00.000Z'));
    expect(next).toMatchObject({ daysLeft: -1, status: 'deadline_passed' });
  });

  it(`is window_closing up to ${WINDOW_CLOSING_DAYS} days ahead, upcoming beyond`, () => {
    const input = { ...base, renewalDate: '2027-03-31', noticePeriodDays: 0 };
    expect(deriveDeadline(input, at('2027-03-01T12:00:00Z'))).toMatchObject({ daysLeft: 30, status: 'window_closing' });
    expect(deriveDeadline(input, at('2027-02-28T12:00:00Z'))).toMatchObject({ daysLeft: 31, status: 'upcoming' });
  });

  it('counts across a leap day', () => {
    const d = deriveDeadline({ ...base, renewalDate: '2028-03-31', noticePeriodDays: null, noticePeriodText: 'one month' }, at('2028-02-01T00:00:00Z'));
    expect(d).toMatchObject({ noticePeriod: { amount: 1, unit: 'months' }, cancellationDeadline: '2028-02-29', daysLeft: 28 });
  });

  it('needs review, with a reason, when no deadline can be computed', () => {
    expect(deriveDeadline({ ...base, renewalDate: null, noticePeriodDays: 30 }, at('2026-01-01T00:00:00Z')))
      .toEqual({ noticePeriod: { amount: 30, unit: 'days' }, cancellationDeadline: null, deadlineUnknownReason: 'no_renewal_date', daysLeft: null, status: 'needs_review' });
    expect(deriveDeadline({ ...base, renewalDate: '2026-12-31', noticePeriodDays: null, noticePeriodText: 'reasonable notice' }, at('2026-01-01T00:00:00Z')))
      .toMatchObject({ cancellationDeadline: null, deadlineUnknownReason: 'no_notice_period', status: 'needs_review' });
    expect(deriveDeadline({ ...base, renewalDate: '2026-02-30', noticePeriodDays: 30 }, at('2026-01-01T00:00:00Z')))
      .toMatchObject({ deadlineUnknownReason: 'no_renewal_date' });
  });

  it('says cancelled when marked so, and still shows the deadline', () => {
    expect(deriveDeadline({ ...base, renewalDate: '2026-12-31', noticePeriodDays: 30, cancelled: true }, at('2026-11-22T00:00:00Z')))
      .toMatchObject({ cancellationDeadline: '2026-12-01', daysLeft: 9, status: 'cancelled' });
  });
});

describe('values out of bounds: no deadline, a reason, never an exception', () => {
  const now = at('2026-11-24T12:00:00Z');
  it.each([
    ['a renewal date in year 100, 3,660 days', { renewalDate: '0100-01-01', noticePeriodDays: 3660 }, 'renewal_date_out_of_range'],
    ['a renewal date in year 100, 30 days', { renewalDate: '0100-01-01', noticePeriodDays: 30 }, 'renewal_date_out_of_range'],
    ['a renewal date after 2199', { renewalDate: '2300-06-30', noticePeriodDays: 30 }, 'renewal_date_out_of_range'],
    ['a renewal date before 1900', { renewalDate: '1899-12-31', noticePeriodDays: 30 }, 'renewal_date_out_of_range'],
    ['3,660 days of notice', { renewalDate: '2027-06-30', noticePeriodDays: 3660 }, 'notice_period_out_of_range'],
    ['1,096 days of notice', { renewalDate: '2027-06-30', noticePeriodDays: 1096 }, 'notice_period_out_of_range'],
    ['9999 months of notice', { renewalDate: '2027-06-30', noticePeriodDays: null, noticePeriodText: '9999 months' }, 'notice_period_out_of_range'],
    ['157 weeks of notice', { renewalDate: '2027-06-30', noticePeriodDays: null, noticePeriodText: '157 weeks' }, 'notice_period_out_of_range'],
  ] as const)('%s', (_name, input, reason) => {
    const derived = deriveDeadline({ ...base, ...input }, now);
    expect(derived).toMatchObject({ cancellationDeadline: null, deadlineUnknownReason: reason, daysLeft: null, status: 'needs_review' });
    // A notice period out of range is not shown as the one counted back; one in range still is.
    if (reason === 'notice_period_out_of_range') expect(derived.noticePeriod).toBeNull();
    else if (input.noticePeriodDays === 30) expect(derived.noticePeriod).toEqual({ amount: 30, unit: 'days' });
  });

  it('counts from the edges of the bounds', () => {
    expect(deriveDeadline({ ...base, renewalDate: '2199-12-31', noticePeriodDays: 1095 }, now)).toMatchObject({ cancellationDeadline: '2196-12-31', deadlineUnknownReason: null });
    expect(deriveDeadline({ ...base, renewalDate: '1900-01-01', noticePeriodDays: null, noticePeriodText: '36 months' }, now)).toMatchObject({ cancellationDeadline: '1897-01-01', status: 'deadline_passed' });
  });
});
