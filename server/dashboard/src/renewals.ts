// The Renewals page: vendor renewals soonest deadline first, a detail view with each term's quote and the override
// form, and the calendar link. Every date and status shown comes from the API (derived in one place on the server).
import { DocExtract, DocExtractError, type VendorRenewal, type VendorRenewalDetail } from '../../../sdk/src/index.js';
import { copyButton, h, notice, render, when } from './dom.js';

type Term = keyof VendorRenewal['terms'];

const TERMS: Array<{ name: Term; label: string; kind: 'number' | 'integer' | 'date' | 'text' | 'boolean' | 'frequency' }> = [
  { name: 'renewalDate', label: 'Renewal date', kind: 'date' },
  { name: 'noticePeriodDays', label: 'Notice period (days)', kind: 'integer' },
  { name: 'noticePeriodText', label: 'Notice period (as written)', kind: 'text' },
  { name: 'autoRenewal', label: 'Renews automatically', kind: 'boolean' },
  { name: 'contractEndDate', label: 'Term end', kind: 'date' },
  { name: 'billingAmount', label: 'Billing amount', kind: 'number' },
  { name: 'currency', label: 'Currency', kind: 'text' },
  { name: 'billingFrequency', label: 'Billing frequency', kind: 'frequency' },
  { name: 'seatCount', label: 'Seats', kind: 'integer' },
];
const FREQUENCIES = ['monthly', 'quarterly', 'semiannual', 'annual', 'one_time'];

const STATUS_LABEL: Record<VendorRenewal['status'], string> = {
  upcoming: 'Upcoming', window_closing: 'Window closing', deadline_passed: 'Deadline passed', needs_review: 'Needs review', cancelled: 'Cancelled',
};

export function daysLeftText(days: number | null): string {
  if (days === null) return '—';
  if (days === 0) return 'Today';
  if (days < 0) return `${-days} day${days === -1 ? '' : 's'} ago`;
  return `${days} day${days === 1 ? '' : 's'}`;
}

const title = (r: VendorRenewal) => [r.vendorName, r.product].filter(Boolean).join(' — ') || 'Unnamed vendor';
const show = (v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'boolean' ? (v ? 'Yes' : 'No') : String(v));
const statusBadge = (r: VendorRenewal) => h('span', { class: `badge status-${r.status}` }, STATUS_LABEL[r.status]);

function reasonText(r: VendorRenewal): string | null {
  if (r.deadlineUnknownReason === 'no_renewal_date') return 'No deadline: the renewal date is unknown. Set it below.';
  if (r.deadlineUnknownReason === 'no_notice_period') return 'No deadline: the notice period is unknown. Set it below.';
  if (r.deadlineUnknownReason === 'renewal_date_out_of_range') return 'No deadline: the renewal date is outside 1900-2199. Correct it below.';
  if (r.deadlineUnknownReason === 'notice_period_out_of_range') return 'No deadline: the notice period is over 3 years. Correct it below.';
  return null;
}

/** The value typed in the override form, as the contract's type for the term. */
function parseInput(kind: (typeof TERMS)[number]['kind'], raw: string): unknown {
  if (kind === 'number') return Number(raw);
  if (kind === 'integer') return Number.parseInt(raw, 10);
  if (kind === 'boolean') return raw === 'yes';
  if (kind === 'text') return raw.trim();
  return raw;
}

export async function renewalsPage(main: HTMLElement, api: DocExtract): Promise<void> {
  const status = h('div', { 'aria-live': 'polite', id: 'renewal-status' });
  const list = h('div', { id: 'renewal-list' }, h('p', { class: 'muted', role: 'status' }, 'Loading…'));
  const detail = h('div', { id: 'renewal-detail' });
  const calendar = h('section', { id: 'calendar', 'aria-labelledby': 'calendar-heading' });

  async function refreshList(): Promise<void> {
    const rows: Node[] = [];
    for await (const r of api.renewals.listAll()) {
      const open = h('button', { type: 'button', class: 'secondary', 'aria-label': `Details of ${title(r)}` }, 'Details');
      open.addEventListener('click', () => void openDetail(r.id));
      rows.push(h('tr', { 'data-renewal-id': r.id, class: `row-${r.status}` },
        h('td', { 'data-label': 'Vendor' }, title(r)),
        h('td', { 'data-label': 'Deadline' }, r.cancellationDeadline ?? '—'),
        h('td', { 'data-label': 'Days left', class: 'days-left' }, daysLeftText(r.daysLeft)),
        h('td', { 'data-label': 'Status' }, statusBadge(r)),
        h('td', { 'data-label': 'Renews' }, show(r.terms.renewalDate.value)),
        h('td', { 'data-label': 'Notice' }, r.noticePeriod ? `${r.noticePeriod.amount} ${r.noticePeriod.unit}` : '—'),
        h('td', { 'data-label': 'Action' }, open)));
    }
    list.replaceChildren(rows.length
      ? h('table', {}, h('caption', { class: 'visually-hidden' }, 'Vendor renewals, soonest cancellation deadline first'),
          h('thead', {}, h('tr', {}, ...['Vendor', 'Deadline', 'Days left', 'Status', 'Renews', 'Notice', 'Action'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, ...rows))
      : h('p', {}, 'No vendor renewals yet. Send an order form or renewal notice to POST /v1/extract/renewal and it shows here.'));
  }

  async function openDetail(id: string): Promise<void> {
    let r: VendorRenewalDetail;
    try {
      r = await api.renewals.get(id);
    } catch (e) {
      if (e instanceof DocExtractError && e.status === 404) {
        detail.replaceChildren(notice('This vendor renewal does not exist in this account.', 'error'));
        return;
      }
      throw e;
    }
    history.replaceState({}, '', `/dashboard/renewals?id=${encodeURIComponent(id)}`);
    const docName = new Map(r.documents.map((d) => [d.id, d.filename ?? `${d.documentKindGuess.replace('_', ' ')} of ${when(d.createdAt)}`]));
    const termRows = TERMS.map(({ name, label }) => {
      const t = r.terms[name];
      const source = t.source === 'override'
        ? h('span', { class: 'badge override' }, `Manual override, ${when(t.override!.setAt)}`)
        : t.source === 'extracted' ? `From ${docName.get(t.extracted.documentId!) ?? 'a document'}` : 'Not found';
      const cells: Node[] = [h('th', { scope: 'row' }, label), h('td', { 'data-label': 'Value' }, show(t.value)), h('td', { 'data-label': 'Source' }, source)];
      const quote = t.extracted.sourceQuote ? h('blockquote', {}, t.extracted.sourceQuote) : h('span', { class: 'muted' }, '—');
      const extractedNote = t.source === 'override' ? h('p', { class: 'muted' }, `Extracted: ${show(t.extracted.value)}`) : null;
      const quoteCell = h('td', { 'data-label': 'Quote' }, quote, extractedNote);
      if (t.source === 'override') {
        const clear = h('button', { type: 'button', class: 'secondary', 'aria-label': `Clear the override of ${label}` }, 'Clear override');
        clear.addEventListener('click', () => void save({ overrides: { [name]: null } }, `Cleared the override of ${label}.`));
        quoteCell.append(clear);
      }
      return h('tr', { 'data-term': name }, ...cells, quoteCell);
    });

    const termSelect = h('select', { id: 'override-term', name: 'term' }, ...TERMS.map((t) => h('option', { value: t.name }, t.label))) as HTMLSelectElement;
    const valueSlot = h('div', { class: 'value-slot' });
    let valueInput: HTMLInputElement | HTMLSelectElement;
    const setInput = () => {
      const kind = TERMS.find((t) => t.name === termSelect.value)!.kind;
      valueInput = kind === 'boolean' ? h('select', { id: 'override-value', name: 'value' }, h('option', { value: 'yes' }, 'Yes'), h('option', { value: 'no' }, 'No')) as HTMLSelectElement
        : kind === 'frequency' ? h('select', { id: 'override-value', name: 'value' }, ...FREQUENCIES.map((f) => h('option', { value: f }, f.replace('_', ' ')))) as HTMLSelectElement
        : h('input', { id: 'override-value', name: 'value', required: true, type: kind === 'date' ? 'date' : kind === 'text' ? 'text' : 'number', step: kind === 'number' ? '0.01' : kind === 'integer' ? '1' : undefined, min: kind === 'number' || kind === 'integer' ? '0' : undefined }) as HTMLInputElement;
      valueSlot.replaceChildren(h('label', { for: 'override-value' }, 'Value', valueInput));
    };
    termSelect.addEventListener('change', setInput);
    setInput();
    const form = h('form', { 'aria-label': 'Override a term' },
      h('label', { for: 'override-term' }, 'Term', termSelect), valueSlot,
      h('button', { type: 'submit' }, 'Save override'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const term = TERMS.find((t) => t.name === termSelect.value)!;
      void save({ overrides: { [term.name]: { value: parseInput(term.kind, valueInput.value) } } }, `Saved the override of ${term.label}.`);
    });

    const cancelled = r.status === 'cancelled';
    const toggle = h('button', { type: 'button', class: cancelled ? 'secondary' : 'danger', id: 'toggle-cancelled' }, cancelled ? 'Undo cancelled' : 'Mark cancelled');
    toggle.addEventListener('click', () => void save({ cancelled: !cancelled }, cancelled ? 'No longer marked cancelled.' : 'Marked cancelled.'));

    async function save(body: Parameters<DocExtract['renewals']['update']>[1], done: string): Promise<void> {
      try {
        await api.renewals.update(r.id, body);
        await refreshList();
        await openDetail(r.id);
        status.replaceChildren(notice(done));
      } catch (e) {
        const details = e instanceof DocExtractError ? e.message : (e as Error).message;
        status.replaceChildren(notice(`Not saved: ${details}`, 'error'));
      }
    }

    const reason = reasonText(r);
    detail.replaceChildren(h('section', { class: 'detail', 'aria-labelledby': 'detail-heading' },
      h('h2', { id: 'detail-heading' }, title(r)),
      h('dl', {},
        h('dt', {}, 'Cancellation deadline'), h('dd', { id: 'detail-deadline' }, r.cancellationDeadline ?? '—'),
        h('dt', {}, 'Days left'), h('dd', {}, daysLeftText(r.daysLeft)),
        h('dt', {}, 'Status'), h('dd', {}, statusBadge(r)),
        h('dt', {}, 'Notice period'), h('dd', {}, r.noticePeriod ? `${r.noticePeriod.amount} ${r.noticePeriod.unit}` : '—')),
      reason ? notice(reason) : null,
      h('table', { class: 'terms' }, h('caption', { class: 'visually-hidden' }, 'Terms with their quotes'),
        h('thead', {}, h('tr', {}, ...['Term', 'Value', 'Source', 'Quote'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, ...termRows)),
      h('h3', {}, 'Correct a term'),
      h('p', {}, 'An override is kept apart from what the documents say; clearing it shows the extracted value again.'),
      form, toggle,
      h('h3', {}, `Documents (${r.documents.length})`),
      h('ul', { class: 'documents' }, ...r.documents.map((d) => h('li', {},
        `${d.filename ?? d.documentKindGuess.replace('_', ' ')} — ${d.documentKindGuess.replace('_', ' ')}, ${d.overallStatus.replace('_', ' ')}, stored ${when(d.createdAt)}`)))));
  }

  async function refreshCalendar(shown?: { url: string }): Promise<void> {
    const feed = await api.renewals.calendarFeed.get();
    const reset = h('button', { type: 'button', id: 'calendar-reset', class: feed.active ? 'secondary' : undefined }, feed.active ? 'Reset calendar link' : 'Create calendar link');
    reset.addEventListener('click', async () => {
      try {
        const created = await api.renewals.calendarFeed.reset();
        await refreshCalendar(created);
        (document.getElementById('calendar-url') as HTMLInputElement | null)?.select();
      } catch (e) {
        status.replaceChildren(notice(`Could not create the calendar link: ${(e as Error).message}`, 'error'));
      }
    });
    const parts: Node[] = [h('h2', { id: 'calendar-heading' }, 'Calendar'),
      h('p', {}, 'Subscribe in your calendar app to see every cancellation deadline (with reminders 7 days and 1 day before) and renewal date.')];
    if (shown) {
      const url = h('input', { id: 'calendar-url', readonly: true, value: shown.url, 'aria-describedby': 'calendar-warning' }) as HTMLInputElement;
      const copy = copyButton(url, 'Copy link', { id: 'calendar-copy' });
      parts.push(h('div', { class: 'secret' }, h('label', { for: 'calendar-url' }, 'Calendar link', url), copy,
        h('p', { class: 'warning', id: 'calendar-warning' }, 'Copy it now: it will not be shown again. Anyone with the link can read these dates; reset it if it leaks.')));
    } else if (feed.active) {
      parts.push(h('p', { id: 'calendar-state' }, `A calendar link (${feed.prefix}…) is active since ${when(feed.createdAt)}. Resetting it gives a new link and stops the old one.`));
    }
    parts.push(reset);
    calendar.replaceChildren(...parts);
  }

  render(main, h('h1', {}, 'Renewals'),
    h('p', {}, 'Your SaaS subscriptions, soonest cancellation deadline first. Deadlines are the renewal date minus the notice period, in UTC.'),
    status, list, detail, calendar);
  await Promise.all([refreshList(), refreshCalendar()]);
  const id = new URLSearchParams(location.search).get('id');
  if (id) await openDetail(id);
}
