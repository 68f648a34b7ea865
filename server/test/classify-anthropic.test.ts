// Classification on Claude, against the fake Messages API (support/fake-anthropic.ts): the engine's request building
// (the model's row of the capability table: structured outputs, thinking at its lowest, no forced tool), the answer
// checked (a kind not asked for, or unsure, is `other`), metered by tokens, and nothing charged on a provider failure.
import { emptyAnswer } from './support/answers.js';
import { FakeAnthropic, schemaOf, type RecordedRequest } from './support/fake-anthropic.js';
import { startTestServer, type TestServer } from './support/harness.js';

const DOCS = 'https://platform.claude.com/docs/en';
const INVOICE = 'ACME CLOUD SUPPLY LLC\nINVOICE\nInvoice No: INV-77\nDate: 2026-04-18\nTotal due: $4,500.00';

const isClassification = (req: RecordedRequest) => Boolean((schemaOf(req).properties as Record<string, unknown> | undefined)?.alternatives);

describe('classification on Claude (fake provider on 127.0.0.1)', () => {
  let fake: FakeAnthropic;
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    fake = await (new FakeAnthropic()).start();
    s = await startTestServer('embedded', { ANTHROPIC_API_KEY: 'sk-ant-test-key', ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_TIMEOUT_MS: '1500', ANTHROPIC_MAX_RETRIES: '0', PLANS_FILE: '' });
    await s.db.prisma.account.create({ data: { id: 'acct_claude_classify', plan: 'starter' } });
    key = (await s.createKey('acct_claude_classify')).key;
  });
  afterAll(async () => { await s.close(); await fake.stop(); });
  beforeEach(() => {
    fake.reset();
    fake.fallback = (req) => (isClassification(req)
      ? { kind: 'answer', input: { kind: 'invoice', confidence: 0.93, alternatives: [{ kind: 'receipt', confidence: 0.05 }] }, usage: { input_tokens: 900, output_tokens: 40 } }
      : { kind: 'answer', input: emptyAnswer(schemaOf(req)) });
  });

  const post = (path: string, body: unknown) => s.fetch(path, { method: 'POST', headers: { 'x-api-key': key }, json: body });
  const heuUsed = async () => (await (await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).json()).heuUsed as number;

  it(`asks through structured outputs with the classification prompt, thinking at its lowest (${DOCS}/build-with-claude/structured-outputs)`, async () => {
    const before = await heuUsed();
    const res = await post('/v1/classify', { document: { text: INVOICE } });
    const body = await res.json();
    expect(fake.refused).toEqual([]);
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ kind: 'invoice', confidence: 0.93, alternatives: [{ kind: 'receipt', confidence: 0.05 }], model: 'claude-sonnet-5-5' });
    expect(body.usage).toMatchObject({ inputTokens: 900, outputTokens: 40, heu: 1, classificationHeu: 1 });
    expect(await heuUsed()).toBe(before + 1);
    const sent = fake.requests[0]!.body;
    expect(sent.system![0]!.text).toMatch(/^You classify business documents/);
    expect(sent.thinking).toEqual({ type: 'between_tools' });
    expect(sent.tools).toBeUndefined();
    expect(sent.tool_choice).toBeUndefined();
    expect(sent.max_tokens).toBeLessThanOrEqual(1024);
    const schema = sent.output_config!.format!.schema as { properties: { kind: { enum: string[] } }; additionalProperties: boolean };
    expect(schema.properties.kind.enum).toEqual(['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal', 'other']);
    expect(schema.additionalProperties).toBe(false);
    // The document goes as a plain-text document block, data from an outside party.
    const first = sent.messages[0]!.content as Array<{ type: string; source?: { data?: string } }>;
    expect(first[0]).toMatchObject({ type: 'document', source: { data: INVOICE } });
  });

  it('answers other for a kind not asked for, or a confidence under 0.5', async () => {
    const restricted = await (await post('/v1/classify', { document: { text: INVOICE }, kinds: ['receipt'] })).json();
    expect(restricted.kind).toBe('other');
    expect(restricted.alternatives[0]).toEqual({ kind: 'invoice', confidence: 0.93 });
    fake.next({ kind: 'answer', input: { kind: 'contract', confidence: 0.3, alternatives: [] } });
    const unsure = await (await post('/v1/classify', { document: { text: 'Some text' } })).json();
    expect(unsure).toMatchObject({ kind: 'other', confidence: 0.7, alternatives: [{ kind: 'contract', confidence: 0.3 }] });
  });

  it('a provider failure is 502 and nothing is charged; an answer outside the schema too', async () => {
    const before = await heuUsed();
    fake.next({ kind: 'status', status: 500 });
    expect((await post('/v1/classify', { document: { text: INVOICE } })).status).toBe(502);
    fake.next({ kind: 'answer', input: { kind: 'passport', confidence: 1, alternatives: [] } });
    expect((await post('/v1/classify', { document: { text: INVOICE } })).status).toBe(502);
    expect(await heuUsed()).toBe(before);
  });

  it('/v1/extract/auto classifies each part with Claude and extracts it with Claude', async () => {
    const res = await post('/v1/extract/auto', { document: { text: INVOICE } });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.parts).toHaveLength(1);
    expect(body.parts[0]).toMatchObject({ kind: 'invoice', confidence: 0.93, result: { model: 'claude-sonnet-5-5' } });
    expect(fake.requests.map(isClassification)).toEqual([true, false]);
    expect(body.usage.classificationHeu).toBe(1);
  });
});
