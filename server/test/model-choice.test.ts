// A request (`model`) or a route (ANTHROPIC_ROUTE_MODELS) may choose another model, within the list the server allows
// (ANTHROPIC_MODEL and ANTHROPIC_ALLOWED_MODELS); any other model is 400 before anything is reserved or called.
import { loadConfig, ConfigError } from '../src/config/config.js';
import { emptyAnswer } from './support/answers.js';
import { FakeAnthropic, schemaOf } from './support/fake-anthropic.js';
import { startTestServer, type TestServer } from './support/harness.js';

describe('choosing the model', () => {
  let fake: FakeAnthropic;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    fake = await (new FakeAnthropic()).start();
    s = await startTestServer('embedded', {
      ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: fake.url,
      ANTHROPIC_ALLOWED_MODELS: 'claude-haiku-5-5', ANTHROPIC_ROUTE_MODELS: 'receipt=claude-haiku-5-5',
    });
    await s.db.prisma.account.create({ data: { id: 'acct_models', plan: 'starter' } });
    key = (await s.createKey('acct_models')).key;
  });
  afterAll(async () => { await s.close(); await fake.stop(); });
  beforeEach(() => {
    fake.reset();
    fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)) });
  });
  const extract = (route: string, body: unknown) => s.fetch(`/v1/extract/${route}`, { method: 'POST', headers: { 'x-api-key': key }, json: body });

  it('uses the model a request names, the route default otherwise, and the server default for the rest', async () => {
    const chosen = await extract('invoice', { document: { text: 'Invoice INV-1' }, model: 'claude-haiku-5-5' });
    expect(chosen.status).toBe(200);
    expect((await chosen.json()).model).toBe('claude-haiku-5-5');
    expect((await extract('receipt', { document: { text: 'TOTAL 1.00' } })).status).toBe(200);
    expect((await extract('contract', { document: { text: 'An agreement' } })).status).toBe(200);
    expect(fake.requests.map((r) => r.body.model)).toEqual(['claude-haiku-5-5', 'claude-haiku-5-5', 'claude-sonnet-5-5']);
    expect(fake.refused).toEqual([]);
  });

  it('serves every item of a batch with the batch model', async () => {
    const res = await extract('batch', { model: 'claude-haiku-5-5', items: [{ id: 'a', kind: 'invoice', document: { text: 'x' } }, { id: 'b', kind: 'contract', document: { text: 'y' } }] });
    expect(res.status).toBe(200);
    expect((await res.json()).results.map((r: { model: string }) => r.model)).toEqual(['claude-haiku-5-5', 'claude-haiku-5-5']);
    expect(fake.requests.map((r) => r.body.model)).toEqual(['claude-haiku-5-5', 'claude-haiku-5-5']);
  });

  it('refuses a model the server does not allow with 400, calling and charging nothing', async () => {
    const before = await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_models' } });
    const res = await extract('invoice', { document: { text: 'Invoice INV-1' }, model: 'claude-opus-5-5' });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe('invalid_request');
    expect(error.details.errors).toEqual([{ path: '/body/model', message: 'must be one of claude-sonnet-5-5, claude-haiku-5-5' }]);
    expect(fake.requests).toHaveLength(0);
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_models' } })).toBe(before);
  });

  it('is checked at start: a route default outside the allowed list stops the service', () => {
    expect(() => loadConfig({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_ROUTE_MODELS: 'invoice=claude-opus-5-5' })).toThrow(ConfigError);
    expect(() => loadConfig({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_ROUTE_MODELS: 'invoices=claude-sonnet-5-5' })).toThrow(/not an extraction route/);
  });
});

describe('the offline engine', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    key = (await s.createKey('acct_models_offline')).key;
  });
  afterAll(async () => { await s.close(); });

  it('offers local-rules-1 only', async () => {
    const ok = await s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: 'TOTAL 1.00' }, model: 'local-rules-1' } });
    expect([ok.status, (await ok.json()).model]).toEqual([200, 'local-rules-1']);
    const other = await s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: 'TOTAL 1.00' }, model: 'claude-haiku-5-5' } });
    expect(other.status).toBe(400);
    expect((await other.json()).error.details.errors[0].path).toBe('/body/model');
  });
});
