// The dashboard's local sign-in (development only): a session token for an account id, the API's error envelope for
// a bad one, and no such route in production.
import { startTestServer, type TestServer } from './support/harness.js';

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
