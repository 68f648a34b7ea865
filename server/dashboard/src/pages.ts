import { DocExtract, DocExtractError } from '../../../sdk/src/index.js';
import { copyButton, count, h, notice, render, when } from './dom.js';
import { session } from './session.js';

/**
 * The API as the signed-in session, for one page view: `signal` aborts its requests when the page is left (a request
 * already aborted by the SDK's own timeout keeps that reason).
 */
export const client = (signal?: AbortSignal) => new DocExtract({
  baseUrl: location.origin,
  token: session.get() ?? undefined,
  maxRetries: 1,
  ...(signal ? { fetch: ((input: Request) => fetch(new Request(input, { signal: AbortSignal.any([input.signal, signal]) }))) as typeof fetch } : {}),
});

export function signInPage(main: HTMLElement, go: (path: string) => void, message: string | null = null): void {
  const localSignIn = document.body.dataset.localSignIn === 'true';
  const status = h('div', { 'aria-live': 'polite' });
  const children: Node[] = [h('h1', {}, 'Sign in')];
  if (message) children.push(notice(message, 'error'));
  if (localSignIn) {
    const input = h('input', { id: 'account-id', name: 'accountId', required: true, autocomplete: 'username', pattern: '[A-Za-z0-9_.:@\\|\\-]{1,128}' }) as HTMLInputElement;
    const form = h('form', { 'aria-label': 'Local sign-in' },
      h('label', { for: 'account-id' }, 'Account id', input),
      h('button', { type: 'submit' }, 'Sign in'));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const res = await fetch('/dashboard/dev-session', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ accountId: input.value }) });
      if (!res.ok) {
        status.replaceChildren(notice('Sign-in failed: check the account id.', 'error'));
        return;
      }
      session.set((await res.json()).token);
      go('/dashboard/keys');
    });
    children.push(h('p', {}, 'Development sign-in: sessions are signed with this server\u2019s local secret.'), form);
  } else if (document.body.dataset.sessions === 'identity-provider') {
    children.push(h('p', {}, 'Sign in through your identity provider: it issues the session token this dashboard uses (configured with DASHBOARD_JWKS_URL). Paste the token it gave you below.'));
  } else {
    // Sessions signed with the service's DASHBOARD_JWT_SECRET and no local sign-in (production): an operator mints them.
    children.push(h('p', {}, 'Paste a session token below. This service signs its own sessions (DASHBOARD_JWT_SECRET): an operator mints one for an account where the service runs, with ',
      h('code', {}, 'npm run admin -- mint-session ACCOUNT'), ' (see \u201cFirst key and first session in production\u201d in docs/deploy.md).'));
  }
  const tokenInput = h('textarea', { id: 'token', name: 'token', rows: '3', required: true }) as HTMLTextAreaElement;
  const tokenForm = h('form', { 'aria-label': 'Sign in with a token' },
    h('label', { for: 'token' }, 'Session token', tokenInput),
    h('button', { type: 'submit', class: 'secondary' }, 'Use token'));
  tokenForm.addEventListener('submit', (e) => {
    e.preventDefault();
    session.set(tokenInput.value.trim());
    go('/dashboard/keys');
  });
  children.push(tokenForm, status);
  render(main, ...children);
}

export async function keysPage(main: HTMLElement, api: DocExtract): Promise<void> {
  const list = h('div', { id: 'key-list' });
  const status = h('div', { 'aria-live': 'polite', id: 'key-status' });
  const created = h('div', { id: 'created-key' });
  // The key whose raw value is on screen: revoking it takes the value away too.
  let shownKeyId: string | null = null;
  const nameInput = h('input', { id: 'key-name', name: 'name', maxlength: '100', placeholder: 'Default key' }) as HTMLInputElement;
  const form = h('form', { 'aria-label': 'Create an API key' },
    h('label', { for: 'key-name' }, 'Name', nameInput),
    h('button', { type: 'submit' }, 'Create key'));

  async function refresh(): Promise<void> {
    const rows: Node[] = [];
    for await (const k of api.keys.listAll()) {
      const actions = h('td', { 'data-label': 'Action' });
      if (!k.revokedAt) {
        const revoke = h('button', { type: 'button', class: 'secondary', 'aria-label': `Revoke ${k.name} (${k.prefix})` }, 'Revoke');
        revoke.addEventListener('click', () => {
          const confirm = h('button', { type: 'button', class: 'danger' }, 'Confirm revoke');
          const cancel = h('button', { type: 'button', class: 'secondary' }, 'Cancel');
          actions.replaceChildren(confirm, ' ', cancel);
          confirm.focus();
          cancel.addEventListener('click', () => { actions.replaceChildren(revoke); revoke.focus(); });
          confirm.addEventListener('click', async () => {
            try {
              await api.keys.revoke(k.id);
              if (k.id === shownKeyId) {
                created.replaceChildren();
                shownKeyId = null;
              }
              status.replaceChildren(notice(`Revoked ${k.name}.`));
              await refresh();
            } catch (e) {
              status.replaceChildren(notice(`Could not revoke: ${(e as Error).message}`, 'error'));
            }
          });
        });
        actions.append(revoke);
      }
      rows.push(h('tr', { 'data-key-id': k.id },
        h('td', { 'data-label': 'Name' }, k.name),
        h('td', { 'data-label': 'Prefix' }, h('code', {}, k.prefix)),
        h('td', { 'data-label': 'Created' }, when(k.createdAt)),
        h('td', { 'data-label': 'Last used' }, when(k.lastUsedAt)),
        h('td', { 'data-label': 'Status', class: k.revokedAt ? 'status-revoked' : '' }, k.revokedAt ? `Revoked ${when(k.revokedAt)}` : 'Active'),
        actions));
    }
    list.replaceChildren(rows.length
      ? h('table', {}, h('caption', { class: 'visually-hidden' }, 'Your API keys'),
          h('thead', {}, h('tr', {}, ...['Name', 'Prefix', 'Created', 'Last used', 'Status', 'Action'].map((t) => h('th', { scope: 'col' }, t)))),
          h('tbody', {}, ...rows))
      : h('p', {}, 'No keys yet.'));
  }

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const key = await api.keys.create(nameInput.value.trim() ? { name: nameInput.value.trim() } : {});
      const raw = h('input', { id: 'raw-key', readonly: true, value: key.key ?? '', 'aria-describedby': 'raw-key-warning' }) as HTMLInputElement;
      const copy = copyButton(raw, 'Copy');
      created.replaceChildren(h('section', { class: 'secret', 'aria-labelledby': 'created-heading' },
        h('h2', { id: 'created-heading' }, `Your new key "${key.name}"`),
        h('label', { for: 'raw-key' }, 'API key', raw),
        copy,
        h('p', { class: 'warning', id: 'raw-key-warning' }, 'Copy it now: it will not be shown again.')));
      shownKeyId = key.id;
      nameInput.value = '';
      raw.focus();
      raw.select();
      await refresh();
    } catch (e) {
      status.replaceChildren(notice(`Could not create a key: ${(e as Error).message}`, 'error'));
    }
  });

  // The list is read before the page is shown: a service that does not answer is said (states.ts), not an empty list.
  await refresh();
  render(main, h('h1', {}, 'API keys'), h('p', {}, 'Keys authenticate your servers\u2019 calls to the extraction API. Keep them secret.'), form, created, status, list);
}

export async function billingPage(main: HTMLElement, api: DocExtract): Promise<void> {
  const account = await api.account.get();
  const status = h('div', { 'aria-live': 'polite', id: 'billing-status' });
  const percent = account.heuLimit ? Math.round((account.heuUsed / account.heuLimit) * 100) : 0;
  const billingAvailable = document.body.dataset.billing === 'true';
  const reset = new Date(Date.UTC(new Date(account.periodStart).getUTCFullYear(), new Date(account.periodStart).getUTCMonth() + 1, 1)).toISOString();
  const bucket = account.heuUsed >= account.heuLimit
    ? notice(`This month's HEU are used up: extraction requests are refused (429) until the bucket resets on ${when(reset)}.${account.plan === 'free' && billingAvailable ? ' Upgrading raises the limit now.' : ''}`, 'error')
    : null;
  const upgrade = h('button', { type: 'button', id: 'upgrade' }, 'Upgrade to starter');
  upgrade.addEventListener('click', async () => {
    try {
      const { url } = await api.billing.checkout('starter');
      location.assign(url);
    } catch (e) {
      const message = e instanceof DocExtractError && e.code === 'billing_not_configured'
        ? 'Billing is not configured on this server yet, so upgrades are not available. Contact support.'
        : e instanceof DocExtractError && e.code === 'already_subscribed' ? 'You are already on the starter plan.'
        : `The upgrade could not start: ${(e as Error).message}`;
      status.replaceChildren(notice(message, 'error'));
    }
  });
  // A paid subscription's period comes from the payment provider; without one on record (the free plan, or a plan an
  // operator set), the period is the calendar month the HEU bucket counts, and only the free plan is called free.
  const periodEnds = account.currentPeriodEnd ? when(account.currentPeriodEnd)
    : `${new Date(reset).toLocaleDateString(undefined, { timeZone: 'UTC' })} (${account.plan === 'free' ? 'free plan: ' : ''}the month's HEU reset then)`;
  const cancellation = account.cancelAt ? `Cancels on ${when(account.cancelAt)}` : account.subscriptionEndedAt ? `Ended ${when(account.subscriptionEndedAt)}` : 'None scheduled';
  render(main,
    h('h1', {}, 'Billing and usage'),
    h('dl', {},
      h('dt', {}, 'Plan'), h('dd', { id: 'plan' }, account.plan),
      h('dt', {}, 'Status'), h('dd', {}, account.status.replace('_', ' ')),
      h('dt', {}, 'Period ends'), h('dd', { id: 'period-ends' }, periodEnds),
      h('dt', {}, 'Cancellation'), h('dd', {}, cancellation)),
    h('h2', {}, 'HEU this month'),
    h('label', { for: 'usage-meter' }, `${count(account.heuUsed)} of ${count(account.heuLimit)} HEU used (${percent}%)`,
      h('meter', { id: 'usage-meter', min: '0', max: String(account.heuLimit), value: String(account.heuUsed), high: String(Math.round(account.heuLimit * 0.8)) })),
    h('p', { id: 'heu-used', 'data-heu-used': String(account.heuUsed) }, `Counting since ${when(account.periodStart)}.`),
    ...(bucket ? [bucket] : []),
    account.plan !== 'free' ? h('p', {}, `You are on the ${account.plan} plan.`)
      : billingAvailable ? upgrade
      : h('p', { id: 'upgrade-unavailable' }, 'Upgrades are not available on this server (billing is not configured).'),
    status);
}
