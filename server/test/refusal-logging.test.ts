// Expected refusals (503 when the database is down or out of connections, 429) are each one short log line, without a
// stack: under load there are thousands of them. Was: 4,000 concurrent requests wrote 7,702 error lines with stacks
// (two per refused request: the error mapper's and pino-http's made-up "failed with status code 503").
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './support/harness.js';

type Line = Record<string, any>;

/** A port where nothing answers: the database is down. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Sends `count` requests at once, each with its own request id; answers the statuses and each request's log lines. */
async function burst(s: TestServer, count: number, path: string, headers: Record<string, string>) {
  const ids = Array.from({ length: count }, (_, i) => `burst-${Math.random().toString(36).slice(2)}-${i}`);
  const answers = await Promise.all(ids.map((id) => s.fetch(path, { headers: { ...headers, 'x-request-id': id } })));
  await new Promise((r) => setTimeout(r, 50)); // the last lines are written once the answers have finished
  const lines = s.logs.map((l) => JSON.parse(l) as Line);
  const byRequest = ids.map((id) => lines.filter((l) => l.req?.id === id || l.reqId === id));
  return { statuses: answers.map((r) => r.status), byRequest };
}

function expectOneShortLineEach(byRequest: Line[][], level: number, code: string): void {
  for (const own of byRequest) {
    expect(own).toHaveLength(1);
    expect(own[0]).toMatchObject({ level, error: { code } });
    expect(own[0]!.err).toBeUndefined();
    expect(JSON.stringify(own[0])).not.toMatch(/"stack"|\n\s+at /);
  }
}

describe('expected refusals in the logs', () => {
  it('database down: 300 concurrent requests answered 503 write one warn line each, naming the code, without a stack', async () => {
    const s = await startTestServer('embedded', { DATABASE_URL: `postgresql://nobody@127.0.0.1:${await deadPort()}/none` });
    try {
      const { statuses, byRequest } = await burst(s, 300, '/v1/account', { authorization: `Bearer ${await s.token('acct_down_logs')}` });
      expect(new Set(statuses)).toEqual(new Set([503]));
      expectOneShortLineEach(byRequest, 40, 'service_unavailable');
      expect(s.logs.map((l) => JSON.parse(l) as Line).filter((l) => l.level >= 50)).toEqual([]);
    } finally {
      await s.close();
    }
  }, 60_000);

  it('no free connection: 503s name the driver\'s cause, one warn line each, without a stack', async () => {
    const s = await startTestServer('embedded');
    try {
      const { key } = await s.createKey('acct_pool_logs');
      const held = await s.db.pool.connect(); // the embedded pool's only connection
      let result;
      try {
        result = await burst(s, 30, '/v1/account', { 'x-api-key': key });
      } finally {
        held.release();
      }
      expect(new Set(result.statuses)).toEqual(new Set([503]));
      expectOneShortLineEach(result.byRequest, 40, 'service_unavailable');
      for (const [line] of result.byRequest) expect(line!.error.cause).toEqual(expect.any(String));
    } finally {
      await s.close();
    }
  }, 60_000);

  it('429s over the plan\'s rate write one info line each', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'plans-')), 'plans.json');
    writeFileSync(file, JSON.stringify({ free: { heuPerMonth: 1000, requestsPerMinute: 1 }, starter: { heuPerMonth: 10000, requestsPerMinute: 120 } }));
    const s = await startTestServer('embedded', { PLANS_FILE: file });
    try {
      const { key } = await s.createKey('acct_rate_logs');
      const ids = Array.from({ length: 20 }, (_, i) => `rate-${i}`);
      const answers = await Promise.all(ids.map((id) => s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': key, 'x-request-id': id }, json: { document: { text: 'CAFE\nTOTAL 3.00' } } })));
      await new Promise((r) => setTimeout(r, 50));
      const lines = s.logs.map((l) => JSON.parse(l) as Line);
      const refused = ids.filter((_, i) => answers[i]!.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(19);
      expectOneShortLineEach(refused.map((id) => lines.filter((l) => l.req?.id === id)), 30, 'too_many_requests');
    } finally {
      await s.close();
    }
  }, 60_000);
});
