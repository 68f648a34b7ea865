// An OpenAI-compatible server misbehaving in every way OpenAI documents (https://platform.openai.com/docs/guides/error-codes)
// and a self-hosted server can (down, hanging, answering garbage): each answered with the same envelope as the Claude
// engine's faults (provider-faults.test.ts), a bounded number of calls, and nothing charged.
import { createServer } from 'node:net';
import { dataSchemaFor } from '../../src/extraction/schemas/contract-schemas.js';
import { emptyAnswer } from '../support/answers.js';
import { documentOf, FakeOpenAI, schemaOf, type OpenAIBehaviour } from '../support/fake-openai.js';
import { startTestServer, type TestServer } from '../support/harness.js';

const MAX_RETRIES = 2;

/** A port nothing listens on: a local model server that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('OpenAI-compatible server faults (fake on 127.0.0.1)', () => {
  let fake: FakeOpenAI;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    fake = await new FakeOpenAI().start();
    s = await startTestServer('embedded', {
      EXTRACTION_ENGINE: 'openai', OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-test-openai', OPENAI_MODEL: 'gpt-4.1-mini',
      OPENAI_TIMEOUT_MS: '3000', OPENAI_MAX_RETRIES: String(MAX_RETRIES),
    });
    await s.db.prisma.account.create({ data: { id: 'acct_openai_faults', plan: 'starter' } });
    key = (await s.createKey('acct_openai_faults')).key;
  });
  afterAll(async () => { await s.close(); await fake.stop(); });
  beforeEach(() => fake.reset());

  const extract = (route: string, body: unknown) => s.fetch(`/v1/extract/${route}`, { method: 'POST', headers: { 'x-api-key': key }, json: body });
  const ledger = async () => {
    const bucket = await s.db.prisma.usageBucket.findFirst({ where: { accountId: 'acct_openai_faults' } });
    const reserved = await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_openai_faults', state: 'reserved' } });
    return { heuUsed: bucket?.heuUsed ?? 0, reserved };
  };

  it.each<[string, OpenAIBehaviour, number, string, number]>([
    // [what, behaviour on every call, status we answer, code, calls made]
    ['429 rate limit reached', { kind: 'status', status: 429 }, 503, 'service_unavailable', MAX_RETRIES + 1],
    ['429 insufficient_quota (not retried)', { kind: 'quota' }, 503, 'service_unavailable', 1],
    ['500 server error', { kind: 'status', status: 500 }, 502, 'upstream_error', MAX_RETRIES + 1],
    ['503 engine overloaded', { kind: 'status', status: 503 }, 503, 'service_unavailable', MAX_RETRIES + 1],
    ['connection reset', { kind: 'reset' }, 502, 'upstream_error', MAX_RETRIES + 1],
    ['400 invalid request (not retried)', { kind: 'status', status: 400 }, 502, 'upstream_rejected', 1],
    ['401 invalid authentication (not retried)', { kind: 'status', status: 401 }, 502, 'upstream_rejected', 1],
    ['403 country or region not supported (not retried)', { kind: 'status', status: 403 }, 502, 'upstream_rejected', 1],
    ['404 model not found (not retried)', { kind: 'status', status: 404 }, 502, 'upstream_rejected', 1],
    ['400 context_length_exceeded', { kind: 'context_length' }, 422, 'output_too_large', 1],
    ['a body that is not JSON', { kind: 'garbage' }, 502, 'upstream_error', 1],
    ['JSON that is not a chat completion', { kind: 'shapeless' }, 502, 'upstream_error', 1],
    ['text instead of the JSON answer (one repair turn)', { kind: 'text' }, 502, 'upstream_error', 2],
    ['an answer outside the schema (one repair turn)', { kind: 'answer', input: { nonsense: true }, raw: true }, 502, 'upstream_error', 2],
    ['a refusal (no repair turn)', { kind: 'refusal' }, 502, 'upstream_error', 1],
    ['finish_reason content_filter', { kind: 'content_filter' }, 502, 'upstream_error', 1],
    ['finish_reason length twice (one larger retry)', { kind: 'length' }, 422, 'output_too_large', 2],
    ['no answer within the timeout', { kind: 'hang' }, 504, 'upstream_timeout', 1],
  ])('%s (%j): answers %i %s with the envelope, bounded calls, nothing charged', async (_what, behaviour, status, code, calls) => {
    fake.fallback = () => behaviour;
    const before = await ledger();
    const res = await extract('invoice', { document: { text: 'Invoice 12\nTotal: $5.00' } });
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body).toEqual({ error: { code, message: expect.any(String), details: null } });
    expect(JSON.stringify(body)).not.toMatch(/sk-test|127\.0\.0\.1|at .*\.(ts|js)/);
    expect(fake.requests.length).toBeLessThanOrEqual(calls);
    expect(fake.requests.length).toBeGreaterThanOrEqual(1);
    expect(fake.refused).toEqual([]);
    expect(await ledger()).toEqual(before);
  });

  it('answers 503 with the Retry-After the server asked for, without holding the caller through a long wait', async () => {
    fake.fallback = () => ({ kind: 'status', status: 429, retryAfter: '120' });
    const res = await extract('receipt', { document: { text: 'BLUE DOOR CAFE' } });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('120');
    expect(fake.requests).toHaveLength(1);
  });

  it('says an exhausted quota to the operator in the log, and asks the caller to wait an hour', async () => {
    fake.fallback = () => ({ kind: 'quota' });
    const res = await extract('receipt', { document: { text: 'BLUE DOOR CAFE' } });
    expect(res.headers.get('retry-after')).toBe('3600');
    expect(s.logs.join('')).toContain('insufficient_quota');
    expect(s.logs.join('')).not.toContain('sk-test-openai');
  });

  it('recovers from a 429 then a 500 with the SDK\'s retries, and charges exactly what it reports', async () => {
    fake.next({ kind: 'status', status: 429 }, { kind: 'status', status: 500 });
    fake.fallback = () => ({ kind: 'answer', input: emptyAnswer(dataSchemaFor('invoice')) });
    const before = await ledger();
    const res = await extract('invoice', { document: { text: 'Invoice 13\nTotal: $5.00' } });
    expect(res.status).toBe(200);
    expect(fake.requests).toHaveLength(3);
    const { usage } = await res.json();
    expect((await ledger()).heuUsed).toBe(before.heuUsed + usage.heu);
  });

  it('fails only the batch items whose calls fail, and charges only the ones that succeed', async () => {
    fake.fallback = (req) => (documentOf(req).includes('FAILS') ? { kind: 'status', status: 400 } : { kind: 'answer', input: emptyAnswer(schemaOf(req)) });
    const before = await ledger();
    const res = await extract('batch', { items: [
      { id: 'a', kind: 'receipt', document: { text: 'Receipt A\nTOTAL 1.00' } },
      { id: 'b', kind: 'receipt', document: { text: 'Receipt B FAILS\nTOTAL 2.00' } },
      { id: 'c', kind: 'receipt', document: { text: 'Receipt C\nTOTAL 3.00' } },
    ] });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.results.map((i: { id: string; ok: boolean }) => [i.id, i.ok])).toEqual([['a', true], ['b', false], ['c', true]]);
    expect(body.results[1].error).toMatchObject({ code: 'upstream_rejected' });
    const after = await ledger();
    expect(after.reserved).toBe(0);
    expect(after.heuUsed).toBe(before.heuUsed + body.usage.heu);
  });
});

describe('a local model server that is down (connection refused)', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', {
      EXTRACTION_ENGINE: 'openai', OPENAI_BASE_URL: `http://127.0.0.1:${await closedPort()}/v1`, OPENAI_MODEL: 'llama3.1:8b', OPENAI_MAX_RETRIES: '1', OPENAI_TIMEOUT_MS: '3000',
    });
    await s.db.prisma.account.create({ data: { id: 'acct_openai_down', plan: 'starter' } });
    key = (await s.createKey('acct_openai_down')).key;
  });
  afterAll(async () => { await s.close(); });

  it('answers 502 upstream_error, says so in the log, and charges nothing', async () => {
    const res = await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: 'Invoice 1' } } });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: { code: 'upstream_error', message: 'The model server could not be reached.', details: null } });
    expect(s.logs.join('')).toContain('model server not reachable');
    const bucket = await s.db.prisma.usageBucket.findFirst({ where: { accountId: 'acct_openai_down' } });
    expect(bucket?.heuUsed ?? 0).toBe(0);
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_openai_down', state: 'reserved' } })).toBe(0);
  });
});
