import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTVerifyGetKey } from 'jose';

export interface DashboardTokenSettings {
  jwtSecret: string | undefined;
  jwksUrl: string | undefined;
  issuer: string | undefined;
  audience: string | undefined;
}

export interface DashboardTokenVerifier {
  /** The account id (`sub`) of a valid token, or null. */
  verify(token: string): Promise<string | null>;
}

/**
 * The longest a dashboard session may last: 24 hours from its issue (`exp - iat`), and from now when it has no `iat`
 * (`exp - now`). A stolen token stays useful for a day at most, whoever minted it; identity providers issue access
 * tokens for an hour to a day (Auth0's default is 24 hours). The local sign-in and `npm run token` mint 12 hours.
 */
export const MAX_TOKEN_LIFETIME_S = 24 * 3600;
/** Clock skew allowed between the minter and this server. */
const CLOCK_SKEW_S = 60;
export const DEFAULT_TOKEN_TTL_S = 12 * 3600;

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** What an account id (a token's `sub`) may be: identity providers' subject ids (`auth0|...`, e-mail addresses) fit. */
export const ACCOUNT_ID = /^[A-Za-z0-9_.:@|-]{1,128}$/;

/**
 * Dashboard session tokens: HS256 with the shared secret, or the identity provider's keys (JWKS). `exp` and `sub`
 * are required; `alg: none` and any algorithm outside the expected family are refused by jose's allow-list. A token
 * that would last longer than MAX_TOKEN_LIFETIME_S (or says it was issued in the future) is refused.
 */
export function createDashboardTokenVerifier(settings: DashboardTokenSettings): DashboardTokenVerifier {
  const options = {
    issuer: settings.issuer,
    audience: settings.audience,
    requiredClaims: ['exp', 'sub'],
  };
  let verifyWith: (token: string) => Promise<{ payload: { sub?: string; exp?: number; iat?: number } }>;
  if (settings.jwksUrl) {
    const jwks: JWTVerifyGetKey = createRemoteJWKSet(new URL(settings.jwksUrl));
    verifyWith = (token) => jwtVerify(token, jwks, { ...options, algorithms: ASYMMETRIC });
  } else if (settings.jwtSecret) {
    const key = new TextEncoder().encode(settings.jwtSecret);
    verifyWith = (token) => jwtVerify(token, key, { ...options, algorithms: ['HS256'] });
  } else {
    verifyWith = () => Promise.reject(new Error('no dashboard token key configured'));
  }
  return {
    async verify(token) {
      try {
        const { payload } = await verifyWith(token);
        if (!withinLifetime(payload, Date.now() / 1000)) return null;
        return typeof payload.sub === 'string' && ACCOUNT_ID.test(payload.sub) ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}

/** Whether a verified token's `exp` lies within the longest lifetime of its `iat` (or of now), with `iat` not ahead. */
function withinLifetime(payload: { exp?: number; iat?: number }, nowS: number): boolean {
  if (typeof payload.exp !== 'number') return false;
  if (payload.exp - nowS > MAX_TOKEN_LIFETIME_S + CLOCK_SKEW_S) return false;
  if (payload.iat === undefined) return true;
  return typeof payload.iat === 'number' && payload.iat <= nowS + CLOCK_SKEW_S && payload.exp - payload.iat <= MAX_TOKEN_LIFETIME_S;
}

/** Signs a dashboard token with the local secret (development sign-in, scripts and tests); at most MAX_TOKEN_LIFETIME_S. */
export async function mintDashboardToken(
  secret: string,
  accountId: string,
  opts: { ttlSeconds?: number; issuer?: string; audience?: string } = {},
): Promise<string> {
  const ttl = opts.ttlSeconds ?? DEFAULT_TOKEN_TTL_S;
  if (!(ttl > 0 && ttl <= MAX_TOKEN_LIFETIME_S)) throw new RangeError(`a dashboard token lasts 1 to ${MAX_TOKEN_LIFETIME_S} seconds (24 hours)`);
  let jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(accountId).setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttl);
  if (opts.issuer) jwt = jwt.setIssuer(opts.issuer);
  if (opts.audience) jwt = jwt.setAudience(opts.audience);
  return jwt.sign(new TextEncoder().encode(secret));
}
