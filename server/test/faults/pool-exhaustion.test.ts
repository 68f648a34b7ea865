// Every connection of the pool busy for longer than its connection timeout (the embedded database has one): requests
// that need the database answer 503 service_unavailable with Retry-After, as for a database that is down, not 500.
import { startTestServer, type TestServer } from '../support/harness.js';

describe('a pool with no free connection', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer('embedded'); });
  afterAll(async () => { await s.close(); });

  it('answers 503 service_unavailable with Retry-After, and serves again once a connection is free', async () => {
    const { key } = await s.createKey('acct_pool');
    const held = await s.db.pool.connect(); // the embedded pool's only connection
    let res: Response;
    try {
      res = await s.fetch('/v1/account', { headers: { 'x-api-key': key } });
    } finally {
      held.release();
    }
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toEqual(expect.stringMatching(/^\d+$/));
    expect((await res.json()).error.code).toBe('service_unavailable');
    expect((await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).status).toBe(200);
  }, 30_000);
});
