// The states a page shows around its data: loading, a service that does not answer (with a retry), and a page that
// does not exist. Every failure is said in words, with what to do; none leaves a page silently empty.
import { DocExtractError } from '../../../sdk/src/index.js';
import { h, notice, render } from './dom.js';

/** The pages of the dashboard, by path, with the heading each shows. */
export const PAGES: Record<string, string> = {
  '/dashboard': 'Sign in',
  '/dashboard/keys': 'API keys',
  '/dashboard/try': 'Try a document',
  '/dashboard/review': 'Review',
  '/dashboard/renewals': 'Renewals',
  '/dashboard/webhooks': 'Webhooks',
  '/dashboard/billing': 'Billing and usage',
};

/** The page's heading and a loading line, shown until its data arrives. */
export function loading(main: HTMLElement, title: string): void {
  render(main, h('h1', {}, title), h('p', { role: 'status', class: 'muted', id: 'loading' }, 'Loading…'));
}

/** Why the service did not answer, in a sentence: its status and code when it answered, else the network. */
function cause(e: unknown): string {
  if (e instanceof DocExtractError) {
    if (e.status === 503) return 'The service is temporarily unavailable (503): its database or a provider it needs is not answering.';
    if (e.code === 'network_error') return 'The service could not be reached: check your connection, or whether the server is running.';
    if (e.code === 'timeout') return 'The service did not answer in time.';
    return `The service answered ${e.status ?? ''} ${e.code}: ${e.message}`.replace('  ', ' ');
  }
  return `Something went wrong while loading this page: ${(e as Error).message}`;
}

/** The page's heading, why it could not load, and a button that tries again. */
export function failed(main: HTMLElement, title: string, e: unknown, retry: () => void): void {
  const again = h('button', { type: 'button', id: 'retry' }, 'Try again');
  again.addEventListener('click', retry);
  const requestId = e instanceof DocExtractError && e.requestId ? h('p', { class: 'muted' }, `Request id: ${e.requestId}`) : null;
  render(main, h('h1', {}, title), notice(`${cause(e)} Nothing was changed.`, 'error'), ...(requestId ? [requestId] : []), again);
}

/** A path under /dashboard that is no page: said so, with the pages there are. */
export function notFound(main: HTMLElement, path: string, signedIn: boolean): void {
  const links = signedIn
    ? Object.entries(PAGES).filter(([p]) => p !== '/dashboard').map(([p, t]) => h('li', {}, h('a', { href: p }, t)))
    : [h('li', {}, h('a', { href: '/dashboard' }, 'Sign in'))];
  render(main, h('h1', {}, 'Page not found'), h('p', {}, `There is no dashboard page at ${path}.`), h('ul', {}, ...links));
}
