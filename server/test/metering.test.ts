import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicEngine } from '../src/extraction/engines/anthropic/anthropic-engine.js';
import { reservationFor } from '../src/metering/heu.js';
import { dataSchemaFor } from '../src/extraction/schemas/contract-schemas.js';
import { Meter } from '../src/metering/meter.js';
import { emptyAnswer } from './support/answers.js';
import { createTestDatabase, dbModes } from './support/databases.js';
import { FakeAnthropic, schemaOf } from './support/fake-anthropic.js';
import { startTestServer, TestClock, TEST_SECRET, type TestServer } from './support/harness.js';
import { mintDashboardToken } from '../src/auth/dashboard-tokens.js';

const TEXT = 'INVOICE 1\nTotal $10.00';
/** What an invoice reserves on the default model and settings: its worst case, and the least it can run with. */
const { wanted: ESTIMATE, least: LEAST } = reservationFor(new AnthropicEngine({
  apiKey: 'x', model: 'claude-sonnet-5-5', baseUrl: undefined, timeoutMs: 1000, maxRetries: 0, maxTokens: 4096, retryMaxTokens: 16384, thinking: 'off', effort: 'low',
}).plan({ task: { kind: 'invoice' }, text: TEXT, schema: dataSchemaFor('invoice') }));

function plansFile(free: { heuPerMonth: number; requestsPerMinute: number }): string {
  const file = join(mkdtempSync(join(tmpdir(), 'plans-')), 'plans.json');
  writeFileSync(file, JSON.stringify({ free, starter: { heuPerMonth: 10000, requestsPerMinute: 120 } }));
  return file;
}

/** The fake model reports usage worth exactly the estimate, so the bucket fits a known number of requests. */
function answerAtEstimate(fake: FakeAnthropic, delayMs = 50): void {
  fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)), delayMs, usage: { input_tokens: ESTIMATE * 1000 - 10, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } });
}

describe.each(dbModes())('metering (%s database)', (mode) => {
  let fake: FakeAnthropic;
  beforeAll(async () => { fake = await (new FakeAnthropic()).start(); });
  afterAll(async () => { await fake.stop(); });
  beforeEach(() => fake.reset());

  const server = (free: { heuPerMonth: number; requestsPerMinute: number }, clock?: TestClock) =>
    startTestServer(mode, { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.url, PLANS_FILE: plansFile(free) }, clock);
  const invoice = (s: TestServer, key: string) => s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: TEXT } } });
  const account = async (s: TestServer, key: string) => (await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).json();

  it('lets exactly as many of 50 concurrent extractions through as the bucket fits, and the ledger agrees', async () => {
    const s = await server({ heuPerMonth: 20 * ESTIMATE, requestsPerMinute: 1000 });
    try {
      answerAtEstimate(fake);
      const { key } = await s.createKey('acct_burst');
      const answers = await Promise.all(Array.from({ length: 50 }, () => invoice(s, key)));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((x) => x === 200)).toHaveLength(20);
      expect(statuses.filter((x) => x !== 200).every((x) => x === 402 || x === 429)).toBe(true);
      const charged = (await Promise.all(answers.filter((r) => r.status === 200).map((r) => r.json()))).reduce((n, b) => n + b.usage.heu, 0);
      const summary = await account(s, key);
      expect(summary.heuUsed).toBe(charged);
      expect(summary.heuUsed).toBe(20 * ESTIMATE);
      const settled = await s.db.prisma.usageRecord.aggregate({ where: { accountId: 'acct_burst', state: 'settled' }, _sum: { heu: true } });
      expect(settled._sum.heu).toBe(charged);
      expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_burst', state: 'reserved' } })).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('answers 429 heu_bucket with Retry-After to next month when the bucket is used up, and 402 with details when it cannot cover the least the request needs', async () => {
    const clock = new TestClock(new Date('2026-11-30T23:59:00.000Z'));
    const s = await server({ heuPerMonth: ESTIMATE + 1, requestsPerMinute: 1000 }, clock);
    try {
      answerAtEstimate(fake, 0);
      const { key } = await s.createKey('acct_full');
      expect((await invoice(s, key)).status).toBe(200);
      const short = await invoice(s, key);
      expect(short.status).toBe(402);
      expect(await short.json()).toEqual({ error: { code: 'plan_limit_exceeded', message: expect.any(String), details: { plan: 'free', bucketHeu: 1, requestedHeu: LEAST, upgradeUrl: 'http://127.0.0.1:8080/dashboard/billing?plan=starter' } } });
      await s.db.prisma.usageBucket.updateMany({ where: { accountId: 'acct_full' }, data: { heuUsed: ESTIMATE + 1 } });
      const used = await invoice(s, key);
      expect(used.status).toBe(429);
      expect(used.headers.get('retry-after')).toBe('60');
      expect(await used.json()).toEqual({ error: { code: 'too_many_requests', message: expect.any(String), details: { reason: 'heu_bucket', limit: ESTIMATE + 1, resetAt: '2026-12-01T00:00:00.000Z' } } });
      expect(fake.requests).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  // Was: 150 concurrent 1-HEU requests on a 100-HEU plan, 100 answers "This month's 100 HEU are used up" with
  // Retry-After to the month's end (384,556 s), while the bucket ended at 50/100 once the requests in flight settled.
  it('answers 429 heu_in_flight with a short Retry-After, never "used up", while reservations rather than settled usage fill the bucket', async () => {
    const clock = new TestClock(new Date('2026-11-26T12:00:00.000Z'));
    const s = await server({ heuPerMonth: 5 * ESTIMATE, requestsPerMinute: 1000 }, clock);
    try {
      // Each request reserves its worst case (ESTIMATE) and costs 1 HEU; the model answers after a second.
      fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)), delayMs: 1000, usage: { input_tokens: 400, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } });
      const { key } = await s.createKey('acct_in_flight');
      const answers = await Promise.all(Array.from({ length: 30 }, () => invoice(s, key)));
      const ok = answers.filter((r) => r.status === 200);
      const refused = answers.filter((r) => r.status !== 200);
      const settled = (await Promise.all(ok.map((r) => r.json()))).reduce((n, b) => n + b.usage.heu, 0);
      expect(settled).toBe(ok.length);
      expect(settled).toBeLessThan(5 * ESTIMATE);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) {
        expect(r.status).toBe(429);
        const retryAfter = Number(r.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(30);
        const body = await r.json();
        expect(body.error.message).not.toMatch(/used up/);
        expect(body.error.message).toContain('in use by requests in flight');
        expect(body.error.details).toEqual({ reason: 'heu_in_flight', limit: 5 * ESTIMATE, resetAt: new Date(clock.now().getTime() + retryAfter * 1000).toISOString(), inFlightHeu: expect.any(Number) });
        expect(body.error.details.inFlightHeu).toBeGreaterThan(0);
      }
      // Once they have settled, the bucket holds what they cost, and the next request runs.
      expect((await account(s, key)).heuUsed).toBe(settled);
      fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)), delayMs: 0, usage: { input_tokens: 400, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } });
      expect((await invoice(s, key)).status).toBe(200);
    } finally {
      await s.close();
    }
  }, 90_000);

  it('runs a request on a short bucket with the HEU left, its max_tokens sized to them, so heuUsed never passes heuLimit', async () => {
    // Issue 18 measured 20 HEU used on a 5 HEU plan: nothing bounded the output. Here the model writes all it may.
    const s = await server({ heuPerMonth: LEAST + 2, requestsPerMinute: 1000 });
    try {
      fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)), usage: { input_tokens: 1200, output_tokens: req.body.max_tokens, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 } });
      const { key } = await s.createKey('acct_short');
      const res = await invoice(s, key);
      expect(res.status).toBe(200);
      expect(fake.requests[0]!.body.max_tokens).toBeLessThan(4096);
      const { usage } = await res.json();
      expect(usage.heu).toBeLessThanOrEqual(LEAST + 2);
      const summary = await account(s, key);
      expect(summary.heuUsed).toBeLessThanOrEqual(summary.heuLimit);
      expect(summary.heuUsed).toBe(usage.heu);
      expect(usage.inputTokens + usage.outputTokens).toBeLessThanOrEqual((LEAST + 2) * 1000);
    } finally {
      await s.close();
    }
  });

  it("starts a new bucket each UTC month: last month's usage does not count", async () => {
    const clock = new TestClock(new Date('2026-10-31T23:59:30.000Z'));
    const s = await server({ heuPerMonth: 1000, requestsPerMinute: 1000 }, clock);
    try {
      answerAtEstimate(fake, 0);
      const { key } = await s.createKey('acct_months');
      expect((await invoice(s, key)).status).toBe(200);
      expect(await account(s, key)).toMatchObject({ heuUsed: ESTIMATE, periodStart: '2026-10-01T00:00:00.000Z' });
      clock.set('2026-11-01T00:00:30.000Z');
      expect(await account(s, key)).toMatchObject({ heuUsed: 0, periodStart: '2026-11-01T00:00:00.000Z' });
      expect((await invoice(s, key)).status).toBe(200);
      expect((await account(s, key)).heuUsed).toBe(ESTIMATE);
    } finally {
      await s.close();
    }
  });

  it("enforces the plan's requests per minute with 429 rate_limit, Retry-After and RateLimit headers", async () => {
    const clock = new TestClock(new Date('2026-11-22T10:00:15.000Z'));
    const s = await server({ heuPerMonth: 1000, requestsPerMinute: 3 }, clock);
    try {
      answerAtEstimate(fake, 0);
      const { key } = await s.createKey('acct_rate');
      const remaining: string[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await invoice(s, key);
        expect(r.status).toBe(200);
        expect(r.headers.get('ratelimit-limit')).toBe('3');
        expect(r.headers.get('ratelimit-reset')).toBe('45');
        remaining.push(r.headers.get('ratelimit-remaining')!);
        // The current IETF draft's fields, for the same window (draft-ietf-httpapi-ratelimit-headers-10).
        expect(r.headers.get('ratelimit-policy')).toBe('"minute";q=3;w=60');
        expect(r.headers.get('ratelimit')).toBe(`"minute";r=${2 - i};t=45`);
      }
      expect(remaining).toEqual(['2', '1', '0']);
      const limited = await invoice(s, key);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('45');
      expect(await limited.json()).toEqual({ error: { code: 'too_many_requests', message: expect.any(String), details: { reason: 'rate_limit', limit: 3, resetAt: '2026-11-22T10:01:00.000Z' } } });
      clock.advance(46_000);
      expect((await invoice(s, key)).status).toBe(200);
    } finally {
      await s.close();
    }
  });

  it('refuses a batch whose estimate exceeds the bucket as a whole, running nothing', async () => {
    const s = await server({ heuPerMonth: 3 * ESTIMATE, requestsPerMinute: 1000 });
    try {
      answerAtEstimate(fake, 0);
      const { key } = await s.createKey('acct_batch');
      const items = Array.from({ length: 4 }, (_, i) => ({ id: `i${i}`, document: { text: TEXT }, kind: 'invoice' }));
      const res = await s.fetch('/v1/extract/batch', { method: 'POST', headers: { 'x-api-key': key }, json: { items } });
      expect(res.status).toBe(402);
      expect((await res.json()).error.details.requestedHeu).toBe(4 * ESTIMATE);
      expect(fake.requests).toHaveLength(0);
      expect((await account(s, key)).heuUsed).toBe(0);
    } finally {
      await s.close();
    }
  });

  it('gives back reservations whose request died, once they expire', async () => {
    const clock = new TestClock(new Date('2026-11-22T10:00:00.000Z'));
    const s = await server({ heuPerMonth: 1000, requestsPerMinute: 1000 }, clock);
    try {
      const { key } = await s.createKey('acct_crash');
      const meter = new Meter(s.db.sql, s.config.plans, 'http://x');
      await meter.admit('acct_crash', 7, 'invoice', undefined, clock.now());
      expect((await account(s, key)).heuUsed).toBe(7);
      await meter.releaseExpired(new Date('2026-11-22T10:10:00.000Z'));
      expect((await account(s, key)).heuUsed).toBe(7);
      await meter.releaseExpired(new Date('2026-11-22T10:16:00.000Z'));
      expect((await account(s, key)).heuUsed).toBe(0);
    } finally {
      await s.close();
    }
  });
});

describe('metering across two server processes on one PostgreSQL', () => {
  const run = process.env.TEST_PG_URL ? it : it.skip;
  run('lets exactly as many of 50 concurrent extractions through as the bucket fits', async () => {
    const fake = await (new FakeAnthropic()).start();
    answerAtEstimate(fake);
    const db = await createTestDatabase('postgres');
    const children: ChildProcess[] = [];
    try {
      const env = {
        PATH: process.env.PATH!, DATABASE_URL: db.databaseUrl!, DATA_DIR: db.dataDir, PORT: '0', NODE_ENV: 'test', LOG_LEVEL: 'info',
        DASHBOARD_JWT_SECRET: TEST_SECRET, ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.url,
        PLANS_FILE: plansFile({ heuPerMonth: 20 * ESTIMATE, requestsPerMinute: 1000 }),
      };
      const ports = await Promise.all([0, 1].map(() => new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, ['server/dist/main.js'], { cwd: new URL('../..', import.meta.url).pathname, env, stdio: ['ignore', 'pipe', 'pipe'] });
        children.push(child);
        let out = '';
        child.stdout!.on('data', (d) => { out += d; const m = /"port":(\d+)/.exec(out); if (m) resolve(Number(m[1])); });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      })));
      const token = await mintDashboardToken(TEST_SECRET, 'acct_two');
      const created = await fetch(`http://127.0.0.1:${ports[0]}/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' });
      const { key } = await created.json();
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => fetch(`http://127.0.0.1:${ports[i % 2]}/v1/extract/invoice`, {
        method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ document: { text: TEXT } }),
      })));
      expect(answers.filter((r) => r.status === 200)).toHaveLength(20);
      expect(answers.every((r) => [200, 402, 429].includes(r.status))).toBe(true);
      const summary = await (await fetch(`http://127.0.0.1:${ports[1]}/v1/account`, { headers: { 'x-api-key': key } })).json();
      expect(summary.heuUsed).toBe(20 * ESTIMATE);
    } finally {
      for (const c of children) c.kill('SIGTERM');
      await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
      await db.drop();
      await fake.stop();
    }
  }, 60_000);
});
