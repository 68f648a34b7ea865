import { SignJWT, generateKeyPair, UnsecuredJWT } from 'jose';
import { mintDashboardToken } from '../src/auth/dashboard-tokens.js';
import { dbModes } from './support/databases.js';
import { startTestServer, TEST_SECRET, type TestServer } from './support/harness.js';

const secret = new TextEncoder().encode(TEST_SECRET);
const in1h = () => Math.floor(Date.now() / 1000) + 3600;
const nowS = () => Math.floor(Date.now() / 1000);

describe.each(dbModes())('authentication (%s database)', (mode) => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer(mode); });
  afterAll(async () => { await s.close(); });

  const account = (headers: Record<string, string>) => s.fetch('/v1/account', { headers });

  describe('API keys', () => {
    it('refuses a missing credential with the unauthorized envelope', async () => {
      const res = await account({});
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String), details: null } });
    });

    it.each([
      ['a malformed key', 'nope'],
      ['an unknown key of the right shape', `dx_live_${'A'.repeat(43)}`],
      ['an unknown key that shares a real prefix', ''],
    ])('answers {error: "invalid_api_key"} for %s', async (_label, raw) => {
      let key = raw;
      if (!key) {
        const real = (await s.createKey('acct_prefix')).key;
        key = real.slice(0, 12) + 'Z'.repeat(real.length - 12);
      }
      const res = await account({ 'x-api-key': key });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: 'invalid_api_key' });
    });

    it('writes lastUsedAt at most once a minute', async () => {
      const { key, id } = await s.createKey('acct_lastused');
      const lastUsed = async () => (await s.db.prisma.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt?.toISOString() ?? null;
      expect(await lastUsed()).toBeNull();
      await account({ 'x-api-key': key });
      const first = await lastUsed();
      expect(first).toBe(s.clock.now().toISOString());
      s.clock.advance(30_000);
      await account({ 'x-api-key': key });
      expect(await lastUsed()).toBe(first);
      s.clock.advance(31_000);
      await account({ 'x-api-key': key });
      expect(await lastUsed()).toBe(s.clock.now().toISOString());
    });

    it('refuses an API key on a bearer-only route, and a bearer token on an extraction route', async () => {
      const { key } = await s.createKey('acct_kinds');
      const create = await s.fetch('/v1/keys', { method: 'POST', headers: { 'x-api-key': key }, json: {} });
      expect(create.status).toBe(401);
      expect((await create.json()).error.code).toBe('unauthorized');
      const extract = await s.fetch('/v1/extract/invoice', {
        method: 'POST',
        headers: { authorization: `Bearer ${await s.token('acct_kinds')}` },
        json: { document: { text: 'Invoice 1' } },
      });
      expect(extract.status).toBe(401);
      expect((await extract.json()).error.code).toBe('unauthorized');
    });
  });

  describe('dashboard tokens', () => {
    it('creates the account on the free plan with the first valid token', async () => {
      expect(await s.db.prisma.account.findUnique({ where: { id: 'acct_new_user' } })).toBeNull();
      const res = await account({ authorization: `Bearer ${await s.token('acct_new_user')}` });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: 'acct_new_user', plan: 'free', status: 'active' });
      expect(await s.db.prisma.account.count({ where: { id: 'acct_new_user' } })).toBe(1);
    });

    const forged: Array<[string, () => Promise<string>]> = [
      ['the wrong secret', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct_x').setExpirationTime(in1h()).sign(new TextEncoder().encode('another-secret-another-secret-another-secret'))],
      ['alg none', async () => new UnsecuredJWT({ sub: 'acct_x', exp: in1h() }).encode()],
      ['an unexpected algorithm (HS512)', () => new SignJWT({}).setProtectedHeader({ alg: 'HS512' }).setSubject('acct_x').setExpirationTime(in1h()).sign(secret)],
      ['an RS256 token', async () => {
        const { privateKey } = await generateKeyPair('RS256');
        return new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setSubject('acct_x').setExpirationTime(in1h()).sign(privateKey);
      }],
      ['no exp', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct_x').sign(secret)],
      ['an expired token', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct_x').setExpirationTime(Math.floor(Date.now() / 1000) - 60).sign(secret)],
      ['no sub', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(in1h()).sign(secret)],
      ['garbage', async () => 'not.a.token'],
      // Longer than the longest session (24 hours): was accepted for as long as it said.
      ['a token that expires in 100 years', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct_x').setIssuedAt().setExpirationTime(nowS() + 100 * 365 * 86400).sign(secret)],
      ['a token issued for 25 hours', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct_x').setIssuedAt().setExpirationTime(nowS() + 25 * 3600).sign(secret)],
      ['a token without iat that expires in 25 hours', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct_x').setExpirationTime(nowS() + 25 * 3600).sign(secret)],
      ['a token issued in the future', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct_x').setIssuedAt(nowS() + 100 * 365 * 86400).setExpirationTime(nowS() + 100 * 365 * 86400 + 3600).sign(secret)],
    ];
    it.each([
      ['the 12 hours the local sign-in and npm run token mint', () => s.token('acct_lifetime_ok')],
      ['exactly 24 hours', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct_lifetime_ok').setIssuedAt().setExpirationTime(nowS() + 24 * 3600).sign(secret)],
      ['24 hours without iat', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct_lifetime_ok').setExpirationTime(nowS() + 24 * 3600).sign(secret)],
    ])('accepts %s', async (_label, make) => {
      expect((await account({ authorization: `Bearer ${await make()}` })).status).toBe(200);
    });

    it('mints no token longer than the longest session (npm run token --ttl, tests)', async () => {
      await expect(mintDashboardToken(TEST_SECRET, 'acct_x', { ttlSeconds: 24 * 3600 + 1 })).rejects.toThrow(RangeError);
      await expect(mintDashboardToken(TEST_SECRET, 'acct_x', { ttlSeconds: 0 })).rejects.toThrow(RangeError);
    });

    it.each(forged)('refuses %s with 401 and creates no account', async (_label, make) => {
      const res = await account({ authorization: `Bearer ${await make()}` });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('unauthorized');
      expect(await s.db.prisma.account.count({ where: { id: 'acct_x' } })).toBe(0);
    });
  });
});
