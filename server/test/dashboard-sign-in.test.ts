// The dashboard's local sign-in (development only): a session token for an account id, the API's error envelope for
// a bad one, and no such route in production.
import { request } from 'node:http';
import { startTestServer, type TestServer } from './support/harness.js';

/** A POST with the Host and Origin a browser or a proxy would send (fetch does not let a caller set Host). */
function rawPost(baseUrl: string, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('dashboard local sign-in', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer('embedded'); });
  afterAll(async () => { await s?.close(); });

  it('mints a session token that the API accepts', async () => {
    const res = await s.fetch('/dashboard/dev-session', { method: 'POST', json: { accountId: 'acct_sign_in' } });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };
    const account = await s.fetch('/v1/account', { headers: { authorization: `Bearer ${token}` } });
    expect(account.status).toBe(200);
    expect(((await account.json()) as { id: string }).id).toBe('acct_sign_in');
  });

  it.each([
    ['no account id', {}],
    ['an empty one', { accountId: '' }],
    ['one with a space', { accountId: 'acct one' }],
    ['a number', { accountId: 42 }],
  ])('answers %s with the 400 envelope and its request id', async (_name, body) => {
    const res = await s.fetch('/dashboard/dev-session', { method: 'POST', json: body, headers: { 'x-request-id': 'sign-in-test-1' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('x-request-id')).toBe('sign-in-test-1');
    expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: 'accountId must be 1-128 letters, digits or ._:@|-', details: null } });
  });

  it.each([
    ['on a wildcard address', { HOST: '0.0.0.0' }, 404],
    ['on a network address', { HOST: '192.0.2.10' }, 404],
    ['on a wildcard address when DASHBOARD_LOCAL_SIGN_IN=true', { HOST: '0.0.0.0', DASHBOARD_LOCAL_SIGN_IN: 'true' }, 200],
    ['on loopback when DASHBOARD_LOCAL_SIGN_IN=false', { DASHBOARD_LOCAL_SIGN_IN: 'false' }, 404],
  ])('is offered only on loopback unless configured: %s', async (_name, env, status) => {
    const other = await startTestServer('embedded', { PUBLIC_URL: 'http://127.0.0.1:8080', ...env });
    try {
      const res = await other.fetch('/dashboard/dev-session', { method: 'POST', json: { accountId: 'acct_sign_in' } });
      expect(res.status).toBe(status);
      expect((await other.fetch('/dashboard')).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  // DNS rebinding (a page of evil.example resolving to 127.0.0.1) or a proxy in front: the listener is loopback, the
  // request is not addressed to this machine. Was: 200 and a token for any account.
  describe('only for requests addressed to this machine', () => {
    const body = JSON.stringify({ accountId: 'acct_rebound' });
    const port = () => new URL(s.baseUrl).port;
    it.each([
      ['a Host of another site', () => ({ host: `evil.example:${port()}` })],
      ['a Host of another site on port 80', () => ({ host: 'evil.example' })],
      ['an Origin of another site', () => ({ host: `127.0.0.1:${port()}`, origin: 'http://evil.example' })],
      ['an Origin of another port', () => ({ host: `127.0.0.1:${port()}`, origin: 'http://127.0.0.1:1' })],
      ['Origin null', () => ({ host: `localhost:${port()}`, origin: 'null' })],
      ['an Origin on another scheme', () => ({ host: `localhost:${port()}`, origin: `ftp://localhost:${port()}` })],
    ])('refuses %s with 400, minting nothing', async (_name, headers) => {
      const res = await rawPost(s.baseUrl, '/dashboard/dev-session', headers(), body);
      expect(res.status).toBe(400);
      const answer = JSON.parse(res.body);
      expect(answer.error.code).toBe('invalid_request');
      expect(answer.token).toBeUndefined();
      expect(answer.error.details.errors[0].path).toMatch(/^\/header\/(host|origin)$/);
    });

    it.each([
      ['127.0.0.1 without an Origin (curl)', () => ({ host: `127.0.0.1:${port()}` })],
      ['localhost with its own Origin (the dashboard page)', () => ({ host: `localhost:${port()}`, origin: `http://localhost:${port()}` })],
      ['a *.localhost name', () => ({ host: `app.localhost:${port()}`, origin: `http://app.localhost:${port()}` })],
      ['[::1]', () => ({ host: `[::1]:${port()}` })],
    ])('answers %s with a token', async (_name, headers) => {
      const res = await rawPost(s.baseUrl, '/dashboard/dev-session', headers(), body);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body).token).toEqual(expect.any(String));
    });

    it('takes the host of PUBLIC_URL where the operator turned it on for a network address', async () => {
      const other = await startTestServer('embedded', { HOST: '0.0.0.0', DASHBOARD_LOCAL_SIGN_IN: 'true', PUBLIC_URL: 'http://devbox.example:8080' });
      try {
        const ok = await rawPost(other.baseUrl, '/dashboard/dev-session', { host: 'devbox.example:8080', origin: 'http://devbox.example:8080' }, body);
        expect(ok.status).toBe(200);
        const evil = await rawPost(other.baseUrl, '/dashboard/dev-session', { host: 'evil.example:8080' }, body);
        expect(evil.status).toBe(400);
      } finally {
        await other.close();
      }
    });
  });

  it('does not exist in production', async () => {
    const prod = await startTestServer('embedded', { NODE_ENV: 'production' });
    try {
      const res = await prod.fetch('/dashboard/dev-session', { method: 'POST', json: { accountId: 'acct_sign_in' } });
      expect(res.status).toBe(404);
    } finally {
      await prod.close();
    }
  });
});

// A person without a session must learn where one comes from: the local sign-in, the identity provider, or (a
// production service signing its own sessions) an operator with the admin command (docs/deploy.md).
describe('the sign-in page names where a session comes from', () => {
  it.each([
    ['local', {}],
    ['operator', { NODE_ENV: 'production' }],
    ['identity-provider', { NODE_ENV: 'production', DASHBOARD_JWKS_URL: 'https://idp.example/.well-known/jwks.json' }],
  ])('%s', async (source, env) => {
    const s = await startTestServer('embedded', env);
    try {
      const page = await (await s.fetch('/dashboard')).text();
      expect(page).toContain(`data-sessions="${source}"`);
      expect(page).toContain(`data-local-sign-in="${source === 'local'}"`);
      if (source === 'operator') {
        // What the page then says (the bundle's text; dashboard.test.ts drives the page itself in Chromium).
        const app = await (await s.fetch('/dashboard/assets/app.js')).text();
        expect(app).toContain('npm run admin -- mint-session ACCOUNT');
        expect(app).toContain('First key and first session in production');
      }
    } finally {
      await s.close();
    }
  });
});
