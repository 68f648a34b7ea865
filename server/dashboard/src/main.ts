import { DocExtractError } from '../../../sdk/src/index.js';
import { h } from './dom.js';
import { billingPage, client, keysPage, signInPage } from './pages.js';
import { renewalsPage } from './renewals.js';
import { reviewPage } from './review.js';
import { tryPage } from './try.js';
import { webhooksPage } from './webhooks.js';
import { session } from './session.js';
import { failed, loading, notFound, PAGES } from './states.js';

const root = document.getElementById('main')!;
const nav = document.getElementById('nav')!;

/** Said on the sign-in page once, after a session the API no longer accepts (expired, or its secret changed). */
let signInMessage: string | null = null;

/**
 * The page on screen: its requests' signal and the element it draws in. Leaving a page aborts its requests and takes
 * its element off the screen, so an answer that arrives late (the list of keys after you opened Webhooks) is dropped,
 * never drawn over the page you are on.
 */
let current: AbortController | null = null;

async function show(path: string): Promise<void> {
  current?.abort();
  const view = new AbortController();
  current = view;
  // Each page view draws in its own element: a late answer for one no longer shown draws in a detached element.
  const main = h('div', { class: 'view' });
  root.replaceChildren(main);
  const signedIn = session.get() !== null;
  const title = PAGES[path];
  nav.hidden = !signedIn;
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === path) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  // A path that is no page (the server answers it 404 with this page): said so, not raw JSON nor a redirect.
  if (title === undefined) return notFound(main, path, signedIn);
  if (path !== '/dashboard' && !signedIn) return go('/dashboard');
  if (path === '/dashboard') {
    signInPage(main, go, signInMessage);
    signInMessage = null;
    return;
  }
  loading(main, title);
  const api = client(view.signal);
  try {
    if (path === '/dashboard/keys') await keysPage(main, api);
    else if (path === '/dashboard/billing') await billingPage(main, api);
    else if (path === '/dashboard/try') await tryPage(main, api);
    else if (path === '/dashboard/review') await reviewPage(main, api, view.signal);
    else if (path === '/dashboard/webhooks') await webhooksPage(main, api);
    else await renewalsPage(main, api);
  } catch (e) {
    // A page left while it loaded: its failure (the abort itself, or anything else) is not this page's to show.
    if (view.signal.aborted) return;
    if (e instanceof DocExtractError && e.status === 401) {
      session.clear();
      signInMessage = 'Your session has expired or is no longer valid: sign in again.';
      return go('/dashboard');
    }
    // 503, the network, anything else: why, and a button that tries again (never an empty page).
    failed(main, title, e, () => void show(path));
  }
}

function go(path: string): void {
  if (location.pathname !== path) history.pushState({}, '', path);
  void show(path);
}

// Links inside the dashboard change the page without a reload.
document.addEventListener('click', (e) => {
  const a = (e.target as Element).closest('a');
  if (a && a.origin === location.origin && a.pathname.startsWith('/dashboard')) {
    e.preventDefault();
    go(a.pathname);
  }
});
document.getElementById('sign-out')!.addEventListener('click', () => {
  session.clear();
  go('/dashboard');
});
window.addEventListener('popstate', () => void show(location.pathname));
void show(location.pathname.replace(/\/$/, '') || '/dashboard');
