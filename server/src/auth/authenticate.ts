import type { RequestHandler, Response } from 'express';
import type { PrismaClient } from '../db/database.js';
import { ApiError } from '../http/api-error.js';
import { takesDocument } from '../http/json-body.js';
import type { ContractRoute } from '../contract/routes.js';
import { ensureAccount } from '../accounts/accounts.js';
import { hashApiKey, looksLikeApiKey } from './api-keys.js';
import type { DashboardTokenVerifier } from './dashboard-tokens.js';
import type { Clock } from '../time/clock.js';
import type { KeyCache } from './key-cache.js';
import { findKeyByHash, LAST_USED_RESOLUTION_MS, touchKey } from './key-lookup.js';
import type { Sql } from '../db/sql.js';
import { findFeedAccount } from './feed-tokens.js';

export type Principal =
  | { via: 'api_key'; accountId: string; apiKeyId: string }
  | { via: 'bearer'; accountId: string }
  | { via: 'calendar_feed'; accountId: string };


/** The caller this request was authenticated as (set by `authenticate`). */
export function principalOf(res: Response): Principal {
  const p = res.locals.principal as Principal | undefined;
  if (!p) throw new ApiError('unauthorized');
  return p;
}

export interface AuthDeps {
  prisma: PrismaClient;
  sql: Sql;
  tokens: DashboardTokenVerifier;
  clock: Clock;
  /** Brief cache of key lookups for routes whose answer re-checks the key (extraction). */
  keyCache: KeyCache;
  /** The plan an account starts on when its first session creates it (config.newAccountPlan). */
  newAccountPlan?: 'free' | 'starter';
}

/**
 * Admits the caller by the route's security: an API key in `x-api-key`, a dashboard token as `Authorization:
 * Bearer`, or either. A missing or wrong kind of credential is 401 `unauthorized`; a bad or revoked API key is
 * 401 `{ error: "invalid_api_key" }`.
 */
export function authenticate(deps: AuthDeps): RequestHandler {
  return async (req, res, next) => {
    const route = res.locals.route as ContractRoute;
    if (route.security.length === 0) return next();
    const apiKey = req.headers['x-api-key'];
    const authorization = req.headers.authorization;
    if (route.security.includes('CalendarFeedAuth')) {
      // The calendar feed's token travels in the URL (calendar apps send no headers); it admits only the feed.
      const presented = req.query.token;
      const accountId = typeof presented === 'string' && presented.length > 0 ? await findFeedAccount(deps.prisma, presented) : null;
      if (!accountId) throw new ApiError('unauthorized', 'The calendar feed token is missing, was reset or was revoked.');
      res.locals.principal = { via: 'calendar_feed', accountId } satisfies Principal;
      return next();
    }
    const acceptsKey = route.security.includes('ApiKeyAuth');
    const acceptsBearer = route.security.includes('BearerAuth');

    if (acceptsKey && typeof apiKey === 'string' && apiKey !== '') {
      // Cached briefly where the answer re-checks the key: documents (extraction, classification), and job creation (its
      // charge re-checks it).
      const cacheable = takesDocument(route.template) || (route.template.startsWith('/v1/jobs') && route.method === 'POST');
      res.locals.principal = await admitApiKey(deps, apiKey, cacheable);
      return next();
    }
    const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
    if (acceptsBearer && bearer) {
      const accountId = await deps.tokens.verify(bearer);
      if (!accountId) throw new ApiError('unauthorized', 'The bearer token is invalid or expired.');
      await ensureAccount(deps.prisma, accountId, deps.newAccountPlan);
      res.locals.principal = { via: 'bearer', accountId } satisfies Principal;
      return next();
    }
    if (apiKey !== undefined && !acceptsKey) throw new ApiError('unauthorized', 'This route needs a dashboard session (Authorization: Bearer), not an API key.');
    if (authorization !== undefined && !acceptsBearer) throw new ApiError('unauthorized', 'This route needs an API key in x-api-key, not a bearer token.');
    throw new ApiError('unauthorized', acceptsKey ? 'An API key is required in the x-api-key header.' : 'A dashboard session token is required (Authorization: Bearer).');
  };
}

async function admitApiKey(deps: AuthDeps, raw: string, cacheable: boolean): Promise<Principal> {
  // Malformed keys never reach the database; the lookup is by the SHA-256, an exact index match, so the
  // comparison leaks nothing about stored keys through timing.
  if (!looksLikeApiKey(raw)) throw new ApiError('invalid_api_key');
  const hash = hashApiKey(raw);
  const now = deps.clock.now();
  let key = cacheable ? deps.keyCache.get(hash, Date.now()) : undefined;
  if (!key) {
    const row = await findKeyByHash(deps.sql, hash);
    if (!row || row.revokedAt) throw new ApiError('invalid_api_key');
    key = { id: row.id, accountId: row.accountId, lastUsedAt: row.lastUsedAt };
    if (cacheable) deps.keyCache.set(hash, key, Date.now());
  }
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await touchKey(deps.sql, key.id, now, LAST_USED_RESOLUTION_MS);
    key.lastUsedAt = now;
  }
  return { via: 'api_key', accountId: key.accountId, apiKeyId: key.id };
}
