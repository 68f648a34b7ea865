import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import { ACCOUNT_ID, mintDashboardToken } from '../auth/dashboard-tokens.js';
import { assertLocalRequest } from '../auth/local-sign-in-guard.js';
import type { Config } from '../config/config.js';
import { ApiError } from '../http/api-error.js';
import { staticAssets } from '../http/static-assets.js';

const DIST = fileURLToPath(new URL('../../dashboard/dist/', import.meta.url));
/** Only our own origin: no inline script, no third-party anything; never framed (no clickjacking of key actions). */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The page's headers: its policy, no framing, no referrer. */
function pageHeaders(res: express.Response): void {
  res.setHeader('Content-Security-Policy', CSP);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
}

/**
 * Where this service's dashboard sessions come from: the local sign-in; the identity provider (DASHBOARD_JWKS_URL:
 * only its tokens are accepted); or an operator, who mints them with the shared secret (`npm run admin -- mint-session`).
 */
export function sessionSource(config: Config, localSignIn: boolean): 'local' | 'identity-provider' | 'operator' {
  if (config.dashboard.jwksUrl) return 'identity-provider';
  return localSignIn ? 'local' : 'operator';
}

/**
 * The web dashboard (not part of the API contract): one page for /dashboard, /dashboard/keys, /dashboard/try, /dashboard/review,
 * /dashboard/renewals, /dashboard/webhooks and /dashboard/billing,
 * its built assets, and, outside production, a local sign-in that mints a session token for an account id.
 */
export function dashboardRoutes(config: Config): Router {
  const router = Router();
  const localSignIn = config.dashboard.localSignIn && Boolean(config.dashboard.jwtSecret);
  const page = existsSync(`${DIST}index.html`)
    ? readFileSync(`${DIST}index.html`, 'utf8').replace('__LOCAL_SIGN_IN__', String(localSignIn))
      // Where a session comes from, so the sign-in page tells a person without one what to do (sessionSource).
      .replace('__SESSIONS__', sessionSource(config, localSignIn))
      // Whether upgrades can be bought here: without a Stripe key the page says so instead of offering a button that fails.
      .replace('__BILLING__', String(Boolean(config.billing.secretKey && config.billing.priceStarter)))
    : '<!doctype html><title>docextract</title><p>The dashboard is not built: run <code>npm run build:dashboard</code>.</p>';
  const send = (_req: express.Request, res: express.Response) => {
    pageHeaders(res);
    res.type('text/html').send(page);
  };
  router.get(['/dashboard', '/dashboard/', '/dashboard/keys', '/dashboard/try', '/dashboard/review', '/dashboard/renewals', '/dashboard/webhooks', '/dashboard/billing'], send);
  // The built folder holds the page's template too (/dashboard/assets/index.html): every file gets the page's headers.
  router.use('/dashboard/assets', (_req: express.Request, res: express.Response, next: express.NextFunction) => {
    pageHeaders(res);
    next();
  });
  router.use('/dashboard/assets', staticAssets(DIST, { maxAge: '5m' }));
  if (localSignIn) {
    router.post('/dashboard/dev-session', (req, _res, next) => {
      // Before the body is read: only requests addressed to this machine (DNS rebinding, a proxy in front).
      assertLocalRequest({ host: req.headers.host, origin: req.headers.origin }, config.publicUrl);
      next();
    }, express.json({ limit: '1kb' }), async (req, res) => {
      const accountId = (req.body as { accountId?: unknown } | undefined)?.accountId;
      if (typeof accountId !== 'string' || !ACCOUNT_ID.test(accountId)) {
        throw new ApiError('invalid_request', 'accountId must be 1-128 letters, digits or ._:@|-');
      }
      res.json({ token: await mintDashboardToken(config.dashboard.jwtSecret!, accountId, { issuer: config.dashboard.issuer, audience: config.dashboard.audience }) });
    });
  }
  // Any other page under /dashboard is the dashboard's own "page not found" (status 404), not the API's JSON.
  router.get(/^\/dashboard\/(?!assets\/)/, (req, res) => {
    pageHeaders(res);
    res.status(404).type('text/html').send(page);
  });
  return router;
}
