// Every model of the capability table, every route, against the fake that refuses what each model's documentation
// says it refuses (support/fake-anthropic.ts, MODEL_RULES): no request may be refused, and each answer meets the
// contract. An unknown model gets the most conservative request.
import { AnthropicEngine, type AnthropicSettings } from '../src/extraction/engines/anthropic/anthropic-engine.js';
import { MODEL_TABLE, capabilitiesOf } from '../src/extraction/engines/anthropic/models.js';
import { reshapeForStructuredOutput } from '../src/extraction/engines/anthropic/structured-schema.js';
import type { ExtractionTask } from '../src/extraction/engines/engine.js';
import { dataSchemaFor, FIXED_KINDS } from '../src/extraction/schemas/contract-schemas.js';
import { prepareCustomSchema } from '../src/extraction/schemas/custom-schema.js';
import { checkAnswer } from '../src/extraction/schemas/answer-checker.js';
import { emptyAnswer } from './support/answers.js';
import { complexity, FakeAnthropic, refusalOf, MODEL_RULES, schemaOf } from './support/fake-anthropic.js';

const settings = (model: string, url: string): AnthropicSettings => ({
  apiKey: 'sk-ant-test', model, baseUrl: url, timeoutMs: 2000, maxRetries: 0, maxTokens: 4096, retryMaxTokens: 16384, thinking: 'off', effort: 'low',
});

describe('the capability table against the documented refusals', () => {
  let fake: FakeAnthropic;
  beforeAll(async () => { fake = await new FakeAnthropic().start(); });
  afterAll(async () => { await fake.stop(); });
  beforeEach(() => {
    fake.reset();
    fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)) });
  });

  const custom = { type: 'object', properties: { eventName: { type: 'string' }, capacity: { type: 'integer' } } };
  const tasks: Array<[string, ExtractionTask, Record<string, unknown>]> = [
    ...FIXED_KINDS.map((k): [string, ExtractionTask, Record<string, unknown>] => [k, { kind: k }, dataSchemaFor(k)]),
    ['custom', { kind: 'custom', schema: custom }, prepareCustomSchema(custom)],
  ];

  it.each(MODEL_TABLE.map((m) => m.id))('%s: every route is answered, nothing refused, answers meet the contract', async (model) => {
    const engine = new AnthropicEngine(settings(model, fake.url));
    for (const [, task, schema] of tasks) {
      const answer = await engine.extract({ task, text: 'Invoice 1\nTotal: $5.00', schema, signal: new AbortController().signal, budgetTokens: 100_000 });
      expect(checkAnswer(schema, answer.data).ok).toBe(true);
    }
    expect(fake.refused).toEqual([]);
    expect(fake.requests).toHaveLength(tasks.length);
    for (const r of fake.requests) {
      expect(r.body.tool_choice?.type ?? 'auto').toBe('auto');
      expect(r.body.temperature).toBeUndefined();
    }
  });

  it('the fake refuses what the docs say: forced tool choice on Sonnet 5.5, Opus 5.5 and Fable 5.1 (their migration guides)', () => {
    const forced = { model: 'x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], tool_choice: { type: 'tool', name: 't' } };
    for (const id of ['claude-sonnet-5-5', 'claude-opus-5-5', 'claude-fable-5-1']) expect(refusalOf(forced, MODEL_RULES[id]!)).toMatch(/tool_choice/);
    expect(refusalOf({ ...forced, tool_choice: { type: 'any' } }, MODEL_RULES['claude-sonnet-5-5']!)).toMatch(/tool_choice/);
    expect(refusalOf(forced, MODEL_RULES['claude-haiku-4-5']!)).toBeNull();
  });

  it('the fake refuses thinking disabled on Sonnet 5.5 and Opus 5.5, and sampling parameters on 5.x (Sonnet 5.5 migration guide)', () => {
    const base = { model: 'x', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    expect(refusalOf({ ...base, thinking: { type: 'disabled' } }, MODEL_RULES['claude-sonnet-5-5']!)).toMatch(/disabled/);
    expect(refusalOf({ ...base, thinking: { type: 'disabled' } }, MODEL_RULES['claude-opus-5-5']!)).toMatch(/disabled/);
    expect(refusalOf({ ...base, thinking: { type: 'enabled', budget_tokens: 1024 } }, MODEL_RULES['claude-sonnet-5-5']!)).toMatch(/enabled/);
    expect(refusalOf({ ...base, temperature: 0 }, MODEL_RULES['claude-sonnet-5-5']!)).toMatch(/temperature/);
    expect(refusalOf({ ...base, thinking: { type: 'between_tools' }, output_config: { effort: 'max' } }, MODEL_RULES['claude-sonnet-5-5']!)).toMatch(/between_tools/);
  });

  it('every fixed route fits the structured-outputs limits once reshaped (https://platform.claude.com/docs/en/build-with-claude/structured-outputs)', () => {
    for (const kind of FIXED_KINDS) {
      const reshaped = reshapeForStructuredOutput(dataSchemaFor(kind));
      expect(reshaped.unfit).toBeNull();
      const counted = complexity(reshaped.schema);
      expect(counted.optional).toBeLessThanOrEqual(24);
      expect(counted.unions).toBeLessThanOrEqual(16);
      // As the contract sends them, several would not fit (every field is a union with null).
      expect(complexity(dataSchemaFor(kind)).unions).toBeGreaterThan(0);
    }
    expect(complexity(dataSchemaFor('renewal')).unions).toBeGreaterThan(16);
  });

  it('an unknown model id gets no thinking, effort, structured output or cache marks, and the tool path', async () => {
    expect(capabilitiesOf('claude-future-9').known).toBe(false);
    const engine = new AnthropicEngine(settings('claude-future-9', fake.url));
    await expect(engine.extract({ task: { kind: 'invoice' }, text: 'x', schema: dataSchemaFor('invoice'), signal: new AbortController().signal, budgetTokens: 100_000 }))
      .rejects.toMatchObject({ code: 'upstream_rejected' });
    const sent = fake.requests[0]!.body;
    expect(sent.thinking).toBeUndefined();
    expect(sent.output_config).toBeUndefined();
    expect(sent.tool_choice).toEqual({ type: 'auto' });
    expect(sent.system![0]!.cache_control).toBeUndefined();
    expect(sent.max_tokens).toBeLessThanOrEqual(8192);
  });

  it('sizes max_tokens to the budget left, and refuses to call when even a small answer would not fit', async () => {
    const engine = new AnthropicEngine(settings('claude-sonnet-5-5', fake.url));
    const input = { task: { kind: 'invoice' } as ExtractionTask, text: 'Invoice 1', schema: dataSchemaFor('invoice'), signal: new AbortController().signal };
    const plan = engine.plan(input);
    await engine.extract({ ...input, budgetTokens: plan.least + 100 });
    expect(fake.requests[0]!.body.max_tokens).toBe(512 + 100);
    await expect(engine.extract({ ...input, budgetTokens: plan.least - 100 })).rejects.toMatchObject({ code: 'output_too_large' });
    expect(fake.requests).toHaveLength(1);
  });
});
