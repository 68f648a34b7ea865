import { createServer, type Server } from 'node:net';
import { startTestServer, type TestServer } from './support/harness.js';

/** A port where nothing answers: the database is down. */
async function deadPort(): Promise<number> {
  const s: Server = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('database down', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer('embedded', { DATABASE_URL: `postgresql://nobody@127.0.0.1:${await deadPort()}/none` });
  });
  afterAll(async () => { await s.close(); });

  it('/healthz stays up while /readyz reports the database down with 503', async () => {
    expect((await s.fetch('/healthz')).status).toBe(200);
    const ready = await s.fetch('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ ready: false, database: 'down' });
  });

  it('logs each 503 of /readyz as one warn line naming the cause, without a stack (a probe asks every few seconds)', async () => {
    const ids = ['probe-1', 'probe-2', 'probe-3'];
    for (const id of ids) expect((await s.fetch('/readyz', { headers: { 'x-request-id': id } })).status).toBe(503);
    await new Promise((r) => setTimeout(r, 50)); // the last line is written once the answer has finished
    const lines = s.logs.map((l) => JSON.parse(l) as Record<string, any>);
    for (const id of ids) {
      const own = lines.filter((l) => l.req?.id === id);
      expect(own).toHaveLength(1);
      expect(own[0]).toMatchObject({ level: 40, req: { path: '/readyz' }, res: { statusCode: 503 }, error: { code: 'database_down', cause: 'ECONNREFUSED' } });
      expect(own[0]!.err).toBeUndefined();
      expect(JSON.stringify(own[0])).not.toMatch(/"stack"|\n\s+at /);
    }
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });

  it('answers API calls that need it with 503 service_unavailable, no stack trace', async () => {
    const res = await s.fetch('/v1/account', { headers: { authorization: `Bearer ${await s.token('acct_down')}` } });
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body).toEqual({ error: { code: 'service_unavailable', message: expect.any(String), details: null } });
    expect(JSON.stringify(body)).not.toMatch(/at .*\.ts|ECONNREFUSED|127\.0\.0\.1/);
  });
});
