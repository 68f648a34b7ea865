import { DocExtractError } from '../../../sdk/src/index.js';
import { billingPage, client, keysPage, signInPage } from './pages.js';
import { renewalsPage } from './renewals.js';
import { webhooksPage } from './webhooks.js';
import { session } from './session.js';

const main = document.getElementById('main')!;
const nav = document.getElementById('nav')!;

async function show(path: string): Promise<void> {
  const signedIn = session.get() !== null;
  if (path !== '/dashboard' && !signedIn) return go('/dashboard');
  nav.hidden = !signedIn;
  for (const a of nav.querySelectorAll('a')) {
    if (a.getAttribute('href') === path) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  try {
    if (path === '/dashboard/keys') await keysPage(main);
    else if (path === '/dashboard/billing') await billingPage(main);
    else if (path === '/dashboard/renewals') await renewalsPage(main, client());
    else if (path === '/dashboard/webhooks') await webhooksPage(main, client());
    else signInPage(main, go);
  } catch (e) {
    if (e instanceof DocExtractError && e.status === 401) {
      session.clear();
      return go('/dashboard');
    }
    throw e;
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
