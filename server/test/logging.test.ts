import { startTestServer, type TestServer } from './support/harness.js';

describe('logs', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer('embedded'); });
  afterAll(async () => { await s.close(); });

  it('never contain API keys, tokens or request bodies', async () => {
    const token = await s.token('acct_logs');
    const { key } = await s.createKey('acct_logs');
    await s.fetch('/v1/account', { headers: { 'x-api-key': key } });
    await s.fetch('/v1/account', { headers: { 'x-api-key': `${key.slice(0, -1)}Q` } });
    await s.fetch('/v1/keys', { method: 'POST', headers: { authorization: `Bearer ${token}` }, json: { name: 'SECRET-NAME-IN-BODY' } });
    await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: 'CONFIDENTIAL DOCUMENT TEXT' } } });
    const all = s.logs.join('\n');
    expect(all.length).toBeGreaterThan(0);
    for (const secret of [key, key.slice(0, -1), token, 'SECRET-NAME-IN-BODY', 'CONFIDENTIAL DOCUMENT TEXT']) expect(all).not.toContain(secret);
  });
});
