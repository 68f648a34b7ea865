// The model provider misbehaving in every way the fake can: each answered with the right status, a bounded number
// of calls, and nothing charged.
import { dataSchemaFor } from '../../src/extraction/schemas/contract-schemas.js';
import { emptyAnswer } from '../support/answers.js';
import { documentOf, FakeAnthropic, schemaOf, type Behaviour } from '../support/fake-anthropic.js';
import { startTestServer, type TestServer } from '../support/harness.js';

const MAX_RETRIES = 2;

describe('model provider faults (fake provider on 127.0.0.1)', () => {
  let fake: FakeAnthropic;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    fake = await new FakeAnthropic().start();
    s = await startTestServer('embedded', {
      ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_TIMEOUT_MS: '1500', ANTHROPIC_MAX_RETRIES: String(MAX_RETRIES),
    });
    await s.db.prisma.account.create({ data: { id: 'acct_faults', plan: 'starter' } });
    key = (await s.createKey('acct_faults')).key;
  });
  afterAll(async () => { await s.close(); await fake.stop(); });
  beforeEach(() => fake.reset());

  const extract = (route: string, body: unknown) => s.fetch(`/v1/extract/${route}`, { method: 'POST', headers: { 'x-api-key': key }, json: body });
  /** The account's bucket and every usage record: a refused call must leave the first alone and no reservation behind. */
  const ledger = async () => {
    const bucket = await s.db.prisma.usageBucket.findFirst({ where: { accountId: 'acct_faults' } });
    const reserved = await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_faults', state: 'reserved' } });
    return { heuUsed: bucket?.heuUsed ?? 0, reserved };
  };

  it.each<[string, Behaviour, number, string, number]>([
    // [what, behaviour on every call, status we answer, code, calls made]; https://platform.claude.com/docs/en/api/errors
    ['429 rate limited', { kind: 'status', status: 429 }, 503, 'service_unavailable', MAX_RETRIES + 1],
    ['429 spend limit (not retried)', { kind: 'spend_limit' }, 503, 'service_unavailable', 1],
    ['500 server error', { kind: 'status', status: 500 }, 502, 'upstream_error', MAX_RETRIES + 1],
    ['529 overloaded', { kind: 'status', status: 529 }, 503, 'service_unavailable', MAX_RETRIES + 1],
    ['connection reset', { kind: 'reset' }, 502, 'upstream_error', MAX_RETRIES + 1],
    ['400 invalid request (not retried)', { kind: 'status', status: 400 }, 502, 'upstream_rejected', 1],
    ['401 bad provider key (not retried)', { kind: 'status', status: 401 }, 502, 'upstream_rejected', 1],
    ['404 unknown model (not retried)', { kind: 'status', status: 404 }, 502, 'upstream_rejected', 1],
    ['a body that is not JSON', { kind: 'garbage' }, 502, 'upstream_error', 1],
    ['JSON that is not a Messages response', { kind: 'shapeless' }, 502, 'upstream_error', 1],
    ['text instead of the JSON answer (one repair turn)', { kind: 'text' }, 502, 'upstream_error', 2],
    ['an answer outside the schema (one repair turn)', { kind: 'answer', input: { nonsense: true } }, 502, 'upstream_error', 2],
    ['a refusal (no repair turn)', { kind: 'refusal' }, 502, 'upstream_error', 1],
    ['max_tokens twice (one larger retry)', { kind: 'max_tokens' }, 422, 'output_too_large', 2],
    ['no answer within the timeout', { kind: 'hang' }, 504, 'upstream_timeout', 1],
  ])('%s (%j): answers %i %s with the envelope, bounded calls, nothing charged', async (_what, behaviour, status, code, calls) => {
    fake.fallback = () => behaviour;
    const before = await ledger();
    const res = await extract('invoice', { document: { text: 'Invoice 12\nTotal: $5.00' } });
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toEqual({ error: { code, message: expect.any(String), details: null } });
    expect(JSON.stringify(body)).not.toMatch(/sk-ant|127\.0\.0\.1|at .*\.(ts|js)/);
    expect(fake.requests.length).toBeLessThanOrEqual(calls);
    expect(fake.requests.length).toBeGreaterThanOrEqual(1);
    expect(fake.refused).toEqual([]);
    expect(await ledger()).toEqual(before);
  });

  it('recovers from a slow answer inside the timeout, and charges exactly what it reports', async () => {
    fake.fallback = () => ({ kind: 'answer', input: emptyAnswer(dataSchemaFor('invoice')), delayMs: 600 });
    const before = await ledger();
    const res = await extract('invoice', { document: { text: 'Invoice 13\nTotal: $5.00' } });
    expect(res.status).toBe(200);
    const { usage } = await res.json();
    expect((await ledger()).heuUsed).toBe(before.heuUsed + usage.heu);
  });

  it('fails only the batch items whose calls fail, and charges only the ones that succeed', async () => {
    fake.fallback = (req) => {
      const text = documentOf(req);
      return text.includes('FAILS') ? { kind: 'status', status: 500 } : { kind: 'answer', input: emptyAnswer(schemaOf(req)) };
    };
    const before = await ledger();
    const res = await extract('batch', { items: [
      { id: 'a', kind: 'receipt', document: { text: 'Receipt A\nTOTAL 1.00' } },
      { id: 'b', kind: 'receipt', document: { text: 'Receipt B FAILS\nTOTAL 2.00' } },
      { id: 'c', kind: 'receipt', document: { text: 'Receipt C\nTOTAL 3.00' } },
    ] });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results.map((i: { id: string; ok: boolean }) => [i.id, i.ok])).toEqual([['a', true], ['b', false], ['c', true]]);
    expect(body.results[1].error).toMatchObject({ code: 'upstream_error' });
    const after = await ledger();
    expect(after.reserved).toBe(0);
    expect(after.heuUsed).toBe(before.heuUsed + body.usage.heu);
    expect(body.usage.heu).toBe(body.results[0].usage.heu + body.results[2].usage.heu);
  });
});
