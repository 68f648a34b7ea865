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

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const ACCOUNT_ID = /^[A-Za-z0-9_.:@|-]{1,128}$/;

/**
 * Dashboard session tokens: HS256 with the shared secret, or the identity provider's keys (JWKS). `exp` and `sub`
 * are required; `alg: none` and any algorithm outside the expected family are refused by jose's allow-list.
 */
export function createDashboardTokenVerifier(settings: DashboardTokenSettings): DashboardTokenVerifier {
  const options = {
    issuer: settings.issuer,
    audience: settings.audience,
    requiredClaims: ['exp', 'sub'],
  };
  let verifyWith: (token: string) => Promise<{ payload: { sub?: string } }>;
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
        return typeof payload.sub === 'string' && ACCOUNT_ID.test(payload.sub) ? payload.sub : null;
      } catch {
        return null;
      }
    },
  };
}

/** Signs a dashboard token with the local secret (development sign-in, scripts and tests). */
export async function mintDashboardToken(
  secret: string,
  accountId: string,
  opts: { ttlSeconds?: number; issuer?: string; audience?: string } = {},
): Promise<string> {
  let jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setSubject(accountId).setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + (opts.ttlSeconds ?? 12 * 3600));
  if (opts.issuer) jwt = jwt.setIssuer(opts.issuer);
  if (opts.audience) jwt = jwt.setAudience(opts.audience);
  return jwt.sign(new TextEncoder().encode(secret));
}
