// The Claude engine against what Anthropic's documentation says (issue 30, items 8 and 15-19), each case naming its
// page: the fake provider (support/fake-anthropic.ts) behaves as the page says, and the engine must fit it.
import { Writable } from 'node:stream';
import pino from 'pino';
import { createCanvas } from '@napi-rs/canvas';
import { AnthropicEngine, type AnthropicSettings } from '../src/extraction/engines/anthropic/anthropic-engine.js';
import { checkAnthropicAccess } from '../src/extraction/engines/anthropic/access-check.js';
import { capabilitiesOf, dollarsFor, MODEL_TABLE } from '../src/extraction/engines/anthropic/models.js';
import { describeEngine } from '../src/extraction/engines/select-engine.js';
import type { EngineInput, ExtractionTask } from '../src/extraction/engines/engine.js';
import { billedTokens } from '../src/metering/heu.js';
import { dataSchemaFor } from '../src/extraction/schemas/contract-schemas.js';
import { emptyAnswer } from './support/answers.js';
import { textPdf } from './support/render-documents.js';
import { FakeAnthropic, MODEL_RULES, refusalOf, schemaOf } from './support/fake-anthropic.js';

const DOCS = 'https://platform.claude.com/docs/en';
const settings = (model: string, url: string, extra: Partial<AnthropicSettings> = {}): AnthropicSettings => ({
  apiKey: 'sk-ant-test', model, baseUrl: url, timeoutMs: 5000, maxRetries: 2, maxTokens: 4096, retryMaxTokens: 16384, thinking: 'off', effort: 'low', ...extra,
});

/** A logger whose lines the test reads. */
function capture(): { log: pino.Logger; lines: () => Array<Record<string, any>>; text: () => string } {
  const out: string[] = [];
  const log = pino({ level: 'debug' }, new Writable({ write(chunk, _e, cb) { out.push(String(chunk)); cb(); } }));
  return { log, lines: () => out.map((l) => JSON.parse(l)), text: () => out.join('') };
}

async function png(width: number, height: number): Promise<Uint8Array> {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = '#fff';
  g.fillRect(0, 0, width, height);
  g.fillStyle = '#000';
  g.font = '60px sans-serif';
  g.fillText('Invoice INV-77  Total due: $4,500.00', 40, 120);
  return new Uint8Array(await canvas.encode('png'));
}

describe("the Claude engine against Anthropic's documentation", () => {
  let fake: FakeAnthropic;
  beforeAll(async () => { fake = await new FakeAnthropic().start(); });
  afterAll(async () => { await fake.stop(); });
  beforeEach(() => {
    fake.reset();
    fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)) });
  });
  const invoice = { task: { kind: 'invoice' } as ExtractionTask, text: '', schema: dataSchemaFor('invoice'), signal: new AbortController().signal };

  describe(`images and PDF pages are reserved at what the model bills (${DOCS}/build-with-claude/vision, ${DOCS}/build-with-claude/pdf-support)`, () => {
    it('reserves up to 4,784 tokens an image on the high-resolution models and 1,600 on Haiku 4.5', () => {
      for (const m of MODEL_TABLE) expect([m.id, m.imageTokens]).toEqual([m.id, m.id === 'claude-haiku-4-5' ? 1600 : 4784]);
      expect(capabilitiesOf('claude-some-future-model').imageTokens).toBe(4784);
      const file = { mediaType: 'image/png', byteSize: 100_000, pages: 1, width: 2400, height: 3000 };
      const sonnet = new AnthropicEngine(settings('claude-sonnet-5-5', fake.url)).plan({ ...invoice, file });
      const haiku45 = new AnthropicEngine(settings('claude-haiku-4-5', fake.url)).plan({ ...invoice, file });
      expect(sonnet.least - haiku45.least).toBe(4784 - 1600);
    });

    it('a large image on Sonnet 5.5 is billed 4,784 tokens and stays within the least reservation, so its HEU follow the formula', async () => {
      const bytes = await png(2400, 3000);
      const engine = new AnthropicEngine(settings('claude-sonnet-5-5', fake.url));
      const file = { mediaType: 'image/png', byteSize: bytes.byteLength, pages: 1, width: 2400, height: 3000, bytes };
      const plan = engine.plan({ ...invoice, file });
      const answer = await engine.extract({ ...invoice, file, budgetTokens: plan.least });
      expect(fake.refused).toEqual([]);
      expect(answer.usage.inputTokens).toBe(1200 + 4784);
      expect(billedTokens(answer.usage)).toBeLessThanOrEqual(plan.least);
    });

    it('each PDF page is reserved as an image of the model plus its text', async () => {
      const bytes = await textPdf(Array.from({ length: 3 }, (_, i) => `Invoice page ${i + 1}\n${'Line item  1  $5.00\n'.repeat(60)}`).join('\f'));
      const engine = new AnthropicEngine(settings('claude-opus-5-5', fake.url));
      const pages = (Buffer.from(bytes).toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;
      const file = { mediaType: 'application/pdf', byteSize: bytes.byteLength, pages, bytes };
      const plan = engine.plan({ ...invoice, file });
      const answer = await engine.extract({ ...invoice, file, budgetTokens: plan.least });
      expect(answer.usage.inputTokens).toBe(1200 + pages * 4784);
      expect(billedTokens(answer.usage)).toBeLessThanOrEqual(plan.least);
    });
  });

  describe(`Haiku 5.5 accepts thinking disabled only at effort low to high (${DOCS}/models/haiku-5-5/migration-guide)`, () => {
    it('the fake refuses disabled with xhigh and max, as the page says', () => {
      const base = { model: 'claude-haiku-5-5', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }], thinking: { type: 'disabled' } };
      for (const effort of ['xhigh', 'max']) expect(refusalOf({ ...base, output_config: { effort } }, MODEL_RULES['claude-haiku-5-5']!)).toMatch(/disabled/);
      expect(refusalOf({ ...base, output_config: { effort: 'high' } }, MODEL_RULES['claude-haiku-5-5']!)).toBeNull();
    });

    it.each(['xhigh', 'max'] as const)('at effort %s it keeps the effort and leaves thinking on, and is answered; the start log says so', async (effort) => {
      const engine = new AnthropicEngine(settings('claude-haiku-5-5', fake.url, { effort }));
      await engine.extract({ ...invoice, text: 'Invoice 1', budgetTokens: 100_000 });
      expect(fake.refused).toEqual([]);
      expect(fake.requests[0]!.body.thinking).toBeUndefined();
      expect(fake.requests[0]!.body.output_config?.effort).toBe(effort);
      const [said] = describeEngine(engine);
      expect(said).toMatchObject({ level: 'warn', message: expect.stringContaining(`thinking cannot be turned off at effort ${effort}`) });
    });

    it('at effort high and below it still turns thinking off', async () => {
      const engine = new AnthropicEngine(settings('claude-haiku-5-5', fake.url, { effort: 'high' }));
      await engine.extract({ ...invoice, text: 'Invoice 1', budgetTokens: 100_000 });
      expect(fake.requests[0]!.body.thinking).toEqual({ type: 'disabled' });
      expect(describeEngine(engine)[0]!.level).toBe('info');
    });
  });

  it(`model_context_window_exceeded gets no repair turn: one call, 422 output_too_large (${DOCS}/build-with-claude/handling-stop-reasons)`, async () => {
    const engine = new AnthropicEngine(settings('claude-sonnet-5-5', fake.url));
    fake.next({ kind: 'context_window' });
    await expect(engine.extract({ ...invoice, text: 'Invoice 1', budgetTokens: 2_000_000 })).rejects.toMatchObject({ code: 'output_too_large' });
    expect(fake.requests).toHaveLength(1);
  });

  it(`a 402 billing_error is the operator's account: not retried, 503 with an hour's Retry-After, logged with its cause (${DOCS}/api/errors)`, async () => {
    const engine = new AnthropicEngine(settings('claude-sonnet-5-5', fake.url));
    const { log, lines } = capture();
    fake.next({ kind: 'status', status: 402 });
    await expect(engine.extract({ ...invoice, text: 'Invoice 1', budgetTokens: 100_000, log })).rejects.toMatchObject({ code: 'service_unavailable', status: 503, headers: { 'Retry-After': '3600' } });
    expect(fake.requests).toHaveLength(1);
    expect(lines()).toContainEqual(expect.objectContaining({ level: 50, status: 402, errorType: 'billing_error', msg: expect.stringContaining('billing error') }));
  });

  describe(`cache reads priced and the 512-token cache minimum applied (${DOCS}/models/opus-5-5/overview, ${DOCS}/models/fable-5-1/overview, ${DOCS}/models/haiku-5-5/overview)`, () => {
    it('prices cache reads of Opus 5.5 at $0.20 and Fable 5.1 at $0.25 a million tokens', () => {
      const million = { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 1_000_000 };
      expect(dollarsFor(capabilitiesOf('claude-opus-5-5'), million)).toBeCloseTo(0.2, 10);
      expect(dollarsFor(capabilitiesOf('claude-fable-5-1'), million)).toBeCloseTo(0.25, 10);
      expect(dollarsFor(capabilitiesOf('claude-sonnet-5-5'), million)).toBeCloseTo(0.1, 10);
    });

    it.each(['claude-opus-5-5', 'claude-haiku-5-5', 'claude-fable-5-1'])('%s caches the system prompt (512-token minimum): a write, then reads', async (model) => {
      expect(capabilitiesOf(model).cacheMinTokens).toBe(512);
      const engine = new AnthropicEngine(settings(model, fake.url));
      const first = await engine.extract({ ...invoice, text: 'Invoice 1', budgetTokens: 100_000 });
      const second = await engine.extract({ ...invoice, text: 'Invoice 2', budgetTokens: 100_000 });
      expect(fake.requests[0]!.body.system![0]!.cache_control).toEqual({ type: 'ephemeral' });
      expect(first.usage.cacheCreationInputTokens).toBeGreaterThan(0);
      expect(second.usage.cacheReadInputTokens).toBe(first.usage.cacheCreationInputTokens);
    });
  });

  describe(`ANTHROPIC_API_KEY is checked at start with the Models API (${DOCS}/api/models/retrieve)`, () => {
    it('a refused key is logged once with its cause (401 authentication_error), never the key', async () => {
      fake.acceptedKeys = new Set(['sk-ant-good']);
      const { log, lines, text } = capture();
      const outcome = await checkAnthropicAccess({ apiKey: 'sk-ant-wrong-key-123', baseUrl: fake.url }, ['claude-sonnet-5-5', 'claude-haiku-5-5'], log);
      expect(outcome).toEqual({ 'claude-sonnet-5-5': 'key_refused', 'claude-haiku-5-5': 'key_refused' });
      expect(fake.modelLookups).toEqual([]); // refused before the lookup, as the API does
      expect(lines()).toEqual([expect.objectContaining({ level: 50, status: 401, errorType: 'authentication_error', message: 'invalid x-api-key', msg: expect.stringContaining('refused ANTHROPIC_API_KEY') })]);
      expect(text()).not.toContain('sk-ant-wrong-key-123');
    });

    it('a good key: each model looked up; an unknown model is named', async () => {
      fake.acceptedKeys = new Set(['sk-ant-good']);
      const { log, lines } = capture();
      const outcome = await checkAnthropicAccess({ apiKey: 'sk-ant-good', baseUrl: fake.url }, ['claude-sonnet-5-5', 'claude-sonnet-9'], log);
      expect(outcome).toEqual({ 'claude-sonnet-5-5': 'ok', 'claude-sonnet-9': 'unknown_model' });
      expect(fake.modelLookups).toEqual(['claude-sonnet-5-5', 'claude-sonnet-9']);
      expect(lines().map((l) => l.level)).toEqual([30, 50]);
      expect(fake.requests).toEqual([]); // no Messages call, nothing billed
    });

    it('unreachable: a warning, never a failed start', async () => {
      const { log, lines } = capture();
      const outcome = await checkAnthropicAccess({ apiKey: 'sk-ant-good', baseUrl: 'http://127.0.0.1:9' }, ['claude-sonnet-5-5'], log);
      expect(outcome).toEqual({ 'claude-sonnet-5-5': 'unreachable' });
      expect(lines()[0]).toMatchObject({ level: 40 });
    });

    it('a key refused at request time logs its cause, never the key', async () => {
      fake.acceptedKeys = new Set(['sk-ant-good']);
      const engine = new AnthropicEngine(settings('claude-sonnet-5-5', fake.url, { apiKey: 'sk-ant-wrong-key-456' }));
      const { log, lines, text } = capture();
      await expect(engine.extract({ ...invoice, text: 'Invoice 1', budgetTokens: 100_000, log })).rejects.toMatchObject({ code: 'upstream_rejected' });
      expect(lines()).toContainEqual(expect.objectContaining({ level: 50, status: 401, errorType: 'authentication_error', message: 'invalid x-api-key', msg: expect.stringContaining('refused ANTHROPIC_API_KEY') }));
      expect(text()).not.toContain('sk-ant-wrong-key-456');
    });
  });
});
