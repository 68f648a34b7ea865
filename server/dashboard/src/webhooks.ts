// The Webhooks page: the account's endpoints (add one, its secret shown once with a copy button; delete with a confirm
// step), and an endpoint's deliveries, newest first, each with every attempt: when, the status answered, why it
// failed, and when the next one is due.
import { DocExtractError, type DocExtract, type components } from '../../../sdk/src/index.js';
import { copyButton, h, notice, render, when } from './dom.js';

type Endpoint = components['schemas']['WebhookEndpoint'];
type Delivery = components['schemas']['WebhookDelivery'];
type EventType = components['schemas']['WebhookEventType'];

const EVENTS: EventType[] = ['job.succeeded', 'job.failed'];
const STATUS_LABEL: Record<Delivery['status'], string> = { pending: 'Retrying', succeeded: 'Delivered', failed: 'Failed' };

export async function webhooksPage(main: HTMLElement, api: DocExtract): Promise<void> {
  const status = h('div', { 'aria-live': 'polite', id: 'webhook-status' });
  const list = h('div', { id: 'endpoint-list' });
  const deliveries = h('section', { id: 'deliveries', 'aria-labelledby': 'deliveries-heading' });

  async function refresh(): Promise<void> {
    const { endpoints } = await api.webhookEndpoints.list();
    list.replaceChildren(endpoints.length
      ? h('table', {}, h('caption', { class: 'visually-hidden' }, 'Webhook endpoints'),
          h('thead', {}, h('tr', {}, ...['URL', 'Events', 'Created', 'State', 'Actions'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, ...endpoints.map(endpointRow)))
      : h('p', {}, 'No webhook endpoints yet. Add one to be told when a job succeeds or fails.'));
  }

  function endpointRow(e: Endpoint): HTMLElement {
    const show = h('button', { type: 'button', class: 'secondary', 'aria-label': `Deliveries to ${e.url}` }, 'Deliveries');
    show.addEventListener('click', () => void openDeliveries(e));
    const remove = h('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${e.url}` }, 'Delete');
    remove.addEventListener('click', () => {
      const confirm = h('button', { type: 'button', class: 'danger', 'aria-label': `Confirm deleting ${e.url}` }, 'Confirm delete');
      const cancel = h('button', { type: 'button', class: 'secondary' }, 'Keep it');
      const cell = remove.parentElement!;
      cell.replaceChildren(show, confirm, cancel);
      confirm.focus();
      cancel.addEventListener('click', () => void refresh());
      confirm.addEventListener('click', async () => {
        await api.webhookEndpoints.delete(e.id);
        status.replaceChildren(notice(`Deleted ${e.url}: it receives nothing more.`));
        if (deliveries.dataset.endpointId === e.id) deliveries.replaceChildren();
        await refresh();
      });
    });
    return h('tr', { 'data-endpoint-id': e.id },
      h('td', { 'data-label': 'URL' }, h('code', {}, e.url), e.description ? h('p', { class: 'muted' }, e.description) : null),
      h('td', { 'data-label': 'Events' }, e.events.join(', ')),
      h('td', { 'data-label': 'Created' }, when(e.createdAt)),
      h('td', { 'data-label': 'State' }, e.disabledAt ? h('span', { class: 'badge status-failed' }, `Disabled (410 Gone) ${when(e.disabledAt)}`) : h('span', { class: 'badge status-succeeded' }, 'Active')),
      h('td', { 'data-label': 'Actions' }, show, remove));
  }

  async function openDeliveries(e: Endpoint): Promise<void> {
    deliveries.dataset.endpointId = e.id;
    const { deliveries: page } = await api.webhookEndpoints.deliveries(e.id, { limit: 50 });
    const rows = page.map((d) => {
      const last = d.attempts.at(-1);
      const attempts = h('ol', { class: 'attempts' }, ...d.attempts.map((a) => h('li', {},
        `${when(a.attemptedAt)}: ${a.statusCode === null ? 'no answer' : `HTTP ${a.statusCode}`}${a.error ? ` (${a.error})` : ''}, ${a.durationMs} ms`)));
      return h('tr', { 'data-delivery-id': d.id, class: `row-${d.status}` },
        h('td', { 'data-label': 'Event' }, d.eventType, h('p', { class: 'muted' }, `job ${d.jobId}`)),
        h('td', { 'data-label': 'Status' }, h('span', { class: `badge status-${d.status}` }, STATUS_LABEL[d.status])),
        h('td', { 'data-label': 'Attempts' }, String(d.attempts.length), d.attempts.length ? h('details', {}, h('summary', {}, 'Every attempt'), attempts) : null),
        h('td', { 'data-label': 'Last attempt' }, last ? `${last.statusCode === null ? 'no answer' : `HTTP ${last.statusCode}`}${last.error ? `: ${last.error}` : ''}` : 'not yet'),
        h('td', { 'data-label': 'Next attempt' }, d.nextAttemptAt ? when(d.nextAttemptAt) : '—'));
    });
    deliveries.replaceChildren(
      h('h2', { id: 'deliveries-heading' }, `Deliveries to ${e.url}`),
      rows.length
        ? h('table', {}, h('caption', { class: 'visually-hidden' }, 'Deliveries, newest first'),
            h('thead', {}, h('tr', {}, ...['Event', 'Status', 'Attempts', 'Last attempt', 'Next attempt'].map((t) => h('th', { scope: 'col' }, t)))),
            h('tbody', {}, ...rows))
        : h('p', {}, 'Nothing sent yet: events are sent when jobs succeed or fail.'),
    );
    (deliveries.querySelector('h2') as HTMLElement).setAttribute('tabindex', '-1');
    (deliveries.querySelector('h2') as HTMLElement).focus();
  }

  // Add an endpoint: the secret is shown once, with a copy button.
  const url = h('input', { id: 'endpoint-url', name: 'url', type: 'url', required: true, placeholder: 'https://example.com/hooks/docextract', autocomplete: 'off' }) as HTMLInputElement;
  const boxes = EVENTS.map((ev) => h('input', { type: 'checkbox', id: `event-${ev}`, name: 'events', value: ev, checked: true }) as HTMLInputElement);
  // A form of its own rows: the heading above, the URL field as wide as its placeholder, each box beside its label.
  const form = h('form', { id: 'add-endpoint', class: 'stacked', 'aria-labelledby': 'add-heading' },
    h('h2', { id: 'add-heading' }, 'Add an endpoint'),
    h('label', { for: 'endpoint-url' }, 'URL', url),
    h('fieldset', { class: 'checks' }, h('legend', {}, 'Events'), ...EVENTS.map((ev, i) => h('label', { class: 'check', for: `event-${ev}` }, boxes[i]!, ev))),
    h('button', { type: 'submit' }, 'Add endpoint'));
  const secretSlot = h('div', { id: 'new-secret' });
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const events = boxes.filter((b) => b.checked).map((b) => b.value as EventType);
    try {
      const made = await api.webhookEndpoints.create({ url: url.value, ...(events.length ? { events } : {}) });
      const field = h('input', { id: 'secret-value', readonly: true, value: made.secret, 'aria-label': 'Signing secret' }) as HTMLInputElement;
      secretSlot.replaceChildren(notice(`Added ${made.url}. Its signing secret is shown this once: keep it where your receiver can read it.`),
        field, copyButton(field, 'Copy secret'));
      url.value = '';
      await refresh();
    } catch (e) {
      if (!(e instanceof DocExtractError) || e.status !== 400) throw e;
      secretSlot.replaceChildren(notice(e.message, 'error'));
    }
  });

  render(main,
    h('h1', {}, 'Webhooks'),
    h('p', {}, 'Job events are POSTed to these URLs, signed per Standard Webhooks (verify them with verifyWebhook from the SDK). A failed delivery is retried for about 3 days.'),
    status, list, form, secretSlot, deliveries);
  await refresh();
}
