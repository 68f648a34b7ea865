// The calendar feed's content: an RFC 5545 calendar written by ical-generator (never by hand), from the renewals as
// the API shows them, so that the feed's dates are the ones deadline.ts derived.
import ical, { ICalAlarmType, type ICalCalendar } from 'ical-generator';
import { parseDate } from '../deadline.js';
import { isDateInWindow } from '../term-bounds.js';
import type { VendorRenewal } from '../renewals.js';

/** Reminders ahead of each cancellation deadline, in days. */
export const REMINDER_DAYS = [7, 1] as const;
const DAY_S = 86_400;
/** How often calendar apps are asked to fetch the feed again. */
const REFRESH_S = 6 * 3600;

function titleOf(r: VendorRenewal): string {
  const names = [r.vendorName, r.product].filter((x): x is string => !!x);
  return names.length ? [...new Set(names)].join(' - ') : 'Unnamed vendor renewal';
}

function describe(r: VendorRenewal): string {
  const t = r.terms;
  const notice = r.noticePeriod ? `${r.noticePeriod.amount} ${r.noticePeriod.unit}` : 'unknown';
  const lines = [
    `Renewal date: ${t.renewalDate.value ?? 'unknown'}`,
    `Cancellation deadline: ${r.cancellationDeadline ?? 'unknown'}`,
    `Notice period: ${notice}`,
    `Renews automatically: ${t.autoRenewal.value === null ? 'unknown' : t.autoRenewal.value ? 'yes' : 'no'}`,
  ];
  if (t.billingAmount.value !== null) lines.push(`Billing: ${t.billingAmount.value} ${t.currency.value ?? ''} ${t.billingFrequency.value ?? ''}`.trimEnd());
  return lines.join('\n');
}

/** The feed: one all-day event per cancellation deadline (with reminders) and one per renewal date. */
export function buildCalendar(renewals: VendorRenewal[], now: Date, publicUrl: string): ICalCalendar {
  const cal = ical({ name: 'docextract renewals', prodId: { company: 'docextract', product: 'renewals', language: 'EN' }, ttl: REFRESH_S });
  for (const r of renewals) {
    if (r.status === 'cancelled') continue;
    const url = `${publicUrl}/dashboard/renewals?id=${r.id}`;
    const deadline = parseDate(r.cancellationDeadline);
    if (deadline) {
      const event = cal.createEvent({
        id: `deadline-${r.id}@docextract`, start: deadline, allDay: true, stamp: now, url,
        summary: `Cancellation deadline: ${titleOf(r)}`, description: describe(r),
      });
      for (const days of REMINDER_DAYS) {
        event.createAlarm({ type: ICalAlarmType.display, trigger: days * DAY_S, description: `${days === 1 ? '1 day' : `${days} days`} left to cancel ${titleOf(r)}` });
      }
    }
    // A stored renewal date outside the window (needs_review, renewal_date_out_of_range) is no date a calendar can hold.
    const renewal = isDateInWindow(r.terms.renewalDate.value) ? parseDate(r.terms.renewalDate.value) : null;
    if (renewal) {
      cal.createEvent({ id: `renewal-${r.id}@docextract`, start: renewal, allDay: true, stamp: now, url, summary: `Renews: ${titleOf(r)}`, description: describe(r) });
    }
  }
  return cal;
}
