// The OpenAI-compatible engine's configuration and start: OPENAI_MODEL required with EXTRACTION_ENGINE=openai (named
// with every other configuration problem), the price table an operator extends (MODEL_PRICES_FILE; a self-hosted model
// costs 0), the start log naming the engine and its price, and the start-time check of the key and model
// (GET /models/{model}: https://platform.openai.com/docs/api-reference/models/retrieve) with a clear log line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { ConfigError, loadConfig } from '../src/config/config.js';
import { checkOpenAIAccess } from '../src/extraction/engines/openai/access-check.js';
import { describeEngine, selectEngine } from '../src/extraction/engines/select-engine.js';
import { dataSchemaFor, FIXED_KINDS } from '../src/extraction/schemas/contract-schemas.js';
import { widenForAnswers } from '../src/extraction/schemas/custom-schema.js';
import { fromStrictAnswer, toStrictSchema } from '../src/extraction/engines/openai/strict-schema.js';
import { FakeOpenAI, strictRefusalOf } from './support/fake-openai.js';
import { OpenAIEngine } from '../src/extraction/engines/openai/openai-engine.js';
import { buildRequest } from '../src/extraction/engines/openai/request.js';
import { BUILT_IN_PRICES } from '../src/config/model-prices.js';

const base = { NODE_ENV: 'test', DATA_DIR: mkdtempSync(join(tmpdir(), 'openai-config-')), DASHBOARD_JWT_SECRET: 'x'.repeat(32) };
const dir = mkdtempSync(join(tmpdir(), 'prices-'));

function configError(env: Record<string, string>): string {
  try {
    loadConfig({ ...base, ...env });
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return '';
}

function logger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

describe('EXTRACTION_ENGINE=openai configuration', () => {
  it('requires OPENAI_MODEL, named with the other configuration problems in one message', () => {
    const message = configError({ EXTRACTION_ENGINE: 'openai', OPENAI_STRUCTURED_OUTPUTS: 'grammar', OPENAI_VISION: 'maybe' });
    expect(message).toContain('OPENAI_MODEL: required with EXTRACTION_ENGINE=openai');
    expect(message).toContain('OPENAI_STRUCTURED_OUTPUTS');
    expect(message).toContain('OPENAI_VISION');
  });

  it('takes OpenAI\'s address by default, and no key (a local server asks for none)', () => {
    const config = loadConfig({ ...base, EXTRACTION_ENGINE: 'openai', OPENAI_MODEL: 'gpt-4.1-mini' });
    expect(config.extraction.engine).toBe('openai');
    expect(config.extraction.openai).toMatchObject({ baseUrl: 'https://api.openai.com/v1', apiKey: undefined, model: 'gpt-4.1-mini', structuredOutputs: 'json_schema', vision: false });
  });

  it('names the model, its server and its price in the start log; a self-hosted model is counted at 0', () => {
    const hosted = describeEngine(selectEngine(loadConfig({ ...base, EXTRACTION_ENGINE: 'openai', OPENAI_MODEL: 'gpt-4.1-mini-2025-04-14' }).extraction));
    expect(hosted[0]).toMatchObject({ level: 'info', fields: { engine: 'openai', model: 'gpt-4.1-mini-2025-04-14', server: 'api.openai.com', priceInput: 0.4, priceOutput: 1.6, priced: true } });
    const local = describeEngine(selectEngine(loadConfig({ ...base, EXTRACTION_ENGINE: 'openai', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_MODEL: 'qwen2.5:7b' }).extraction));
    expect(local[0]!.fields).toMatchObject({ server: '127.0.0.1:11434', priceInput: 0, priceOutput: 0, priced: false });
    expect(local[0]!.message).toContain('no price known: counted at 0');
  });

  it('reads MODEL_PRICES_FILE over the built-in table, and names a file it cannot use', () => {
    const file = join(dir, 'prices.json');
    writeFileSync(file, JSON.stringify({ 'qwen2.5:7b': { input: 0.02, output: 0.05 }, 'gpt-4.1-mini': { input: 0.5, output: 2 } }));
    const config = loadConfig({ ...base, EXTRACTION_ENGINE: 'openai', OPENAI_MODEL: 'qwen2.5:7b', MODEL_PRICES_FILE: file });
    expect(config.extraction.openai.prices['qwen2.5:7b']).toEqual({ input: 0.02, output: 0.05 });
    expect(config.extraction.openai.prices['gpt-4.1-mini']).toEqual({ input: 0.5, output: 2 });
    expect(config.extraction.openai.prices['gpt-4.1']).toEqual({ input: 2, output: 8 });
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ 'qwen2.5:7b': { input: -1 } }));
    expect(configError({ EXTRACTION_ENGINE: 'openai', OPENAI_MODEL: 'qwen2.5:7b', MODEL_PRICES_FILE: bad })).toContain(`MODEL_PRICES_FILE ${bad}: qwen2.5:7b`);
    expect(configError({ MODEL_PRICES_FILE: join(dir, 'missing.json') })).toContain('cannot read it as JSON');
  });
});

describe('the start-time check of the key and model (GET /models/{model})', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => { fake = await new FakeOpenAI().start(); });
  afterAll(async () => { await fake.stop(); });
  beforeEach(() => fake.reset());

  it('says the model is available', async () => {
    const log = logger();
    expect(await checkOpenAIAccess({ apiKey: undefined, baseUrl: fake.url }, 'qwen2.5:7b-instruct', log)).toBe('ok');
    expect(fake.modelLookups).toEqual(['qwen2.5:7b-instruct']);
    expect(log.lines[0]).toMatchObject({ level: 'info', message: expect.stringContaining('model qwen2.5:7b-instruct available') });
  });

  it('names a model the server does not serve, and a refused key, without the key', async () => {
    const log = logger();
    expect(await checkOpenAIAccess({ apiKey: undefined, baseUrl: fake.url }, 'llama3.1:8b', log)).toBe('unknown_model');
    expect(log.lines[0]).toMatchObject({ level: 'error', message: expect.stringContaining('does not serve the model llama3.1:8b (404): fix OPENAI_MODEL') });
    fake.acceptedKeys = new Set(['sk-right']);
    expect(await checkOpenAIAccess({ apiKey: 'sk-wrong-key', baseUrl: fake.url }, 'gpt-4.1-mini', log)).toBe('key_refused');
    expect(log.lines[1]).toMatchObject({ level: 'error', message: expect.stringContaining('refused OPENAI_API_KEY (401)') });
    expect(JSON.stringify(log.lines)).not.toContain('sk-wrong-key');
  });

  it('says a server that is down is not reachable, and does not throw', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.address() as { port: number }).port;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const log = logger();
    expect(await checkOpenAIAccess({ apiKey: undefined, baseUrl: `http://127.0.0.1:${port}/v1` }, 'qwen2.5:7b', log)).toBe('unreachable');
    expect(log.lines[0]).toMatchObject({ level: 'warn', message: expect.stringContaining('not reachable at start (is it running? check OPENAI_BASE_URL)') });
  });
});

describe('the strict subset (https://platform.openai.com/docs/guides/structured-outputs#supported-schemas)', () => {
  it('the fake refuses a schema outside it, as the API does', async () => {
    const fake = await new FakeOpenAI().start();
    try {
      const ask = (schema: unknown) => fetch(`${fake.url}/chat/completions`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'x' }], response_format: { type: 'json_schema', json_schema: { name: 'extraction', strict: true, schema } } }),
      });
      const open = await ask({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] });
      expect(open.status).toBe(400);
      expect((await open.json()).error.message).toContain("'additionalProperties' is required to be supplied and to be false");
      const optional = await ask({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } }, required: ['a'], additionalProperties: false });
      expect((await optional.json()).error.message).toContain("Missing 'b'");
      const keyword = await ask({ type: 'object', properties: { a: { type: 'string', minLength: 2 } }, required: ['a'], additionalProperties: false });
      expect((await keyword.json()).error.message).toContain("'minLength' is not permitted");
    } finally {
      await fake.stop();
    }
  });

  it('reshapes every fixed route\'s contract schema and a custom schema with references into it, and the answer back', () => {
    for (const kind of FIXED_KINDS) {
      const strict = toStrictSchema(dataSchemaFor(kind));
      expect([kind, strict.unfit, strictRefusalOf(strict.schema)]).toEqual([kind, null, null]);
    }
    const custom = widenForAnswers({
      type: 'object',
      $defs: { party: { type: 'object', properties: { name: { type: 'string', maxLength: 80 } }, required: ['name'] } },
      properties: { buyer: { $ref: '#/$defs/party' }, seller: { $ref: '#/$defs/party' }, lines: { type: 'array', items: { type: 'string' }, uniqueItems: true } },
    });
    const strict = toStrictSchema(custom);
    expect(strict.unfit).toBeNull();
    expect(strictRefusalOf(strict.schema)).toBeNull();
    expect(JSON.stringify(strict.schema)).not.toContain('$ref');
    const answer = { buyer: { name: 'Ana' }, seller: null, lines: ['a'] };
    expect(fromStrictAnswer(custom, answer)).toEqual(answer);
    // An optional property of a schema that was not widened comes back left out when the model answered null.
    const plain = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['a'] };
    expect(toStrictSchema(plain).schema).toMatchObject({ required: ['a', 'b'], additionalProperties: false, properties: { b: { anyOf: [{ type: 'number' }, { type: 'null' }] } } });
    expect(fromStrictAnswer(plain, { a: 'x', b: null })).toEqual({ a: 'x' });
  });

  it('says why a schema does not fit: then the engine asks in JSON mode', () => {
    expect(toStrictSchema({ type: 'object', properties: { a: { oneOf: [{ type: 'string' }, { type: 'number' }] } } }).unfit).toBe('keyword oneOf');
    expect(toStrictSchema({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } } }).unfit).toBe('an object without properties (an open map)');
    expect(toStrictSchema({ type: 'array', items: { type: 'string' } }).unfit).toBe('the root is not an object');
  });
});

describe('OPENAI_STRUCTURED_OUTPUTS=none (a server with neither mode)', () => {
  it('sends no response_format, puts the schema in the prompt, and reads the JSON out of a fenced answer', async () => {
    const fake = await new FakeOpenAI().start();
    try {
      const engine = new OpenAIEngine({
        baseUrl: fake.url, apiKey: undefined, model: 'qwen2.5:7b-instruct', structuredOutputs: 'none', vision: false,
        timeoutMs: 5000, maxRetries: 0, maxTokens: 4096, retryMaxTokens: 16_384, prices: BUILT_IN_PRICES,
      });
      const schema = widenForAnswers({ type: 'object', properties: { eventName: { type: 'string' } } });
      fake.next({ kind: 'answer', input: { eventName: 'Spring Meetup' }, fenced: true });
      const answer = await engine.extract({ task: { kind: 'custom', schema }, text: 'Event: Spring Meetup', schema, signal: new AbortController().signal, budgetTokens: 40_000 });
      expect(answer).toMatchObject({ data: { eventName: 'Spring Meetup' }, model: 'qwen2.5:7b-instruct', usage: { inputTokens: 1200, outputTokens: 300 } });
      expect(answer.found!['/eventName']).toMatchObject({ quote: expect.stringContaining('Spring Meetup') });
      const sent = fake.requests[0]!.body;
      expect(sent.response_format).toBeUndefined();
      expect(JSON.stringify(sent.messages)).toContain('JSON Schema');
    } finally {
      await fake.stop();
    }
  });
});

describe('the output limit parameter (https://platform.openai.com/docs/api-reference/chat/create)', () => {
  it('is max_completion_tokens on OpenAI\'s API (max_tokens is deprecated there), max_tokens on any other server', () => {
    const mode = { kind: 'strict' as const, schema: { type: 'object', properties: {}, required: [], additionalProperties: false } };
    const hosted = buildRequest('gpt-4.1-mini', 'https://api.openai.com/v1', mode, 2048, []);
    expect(hosted).toMatchObject({ max_completion_tokens: 2048 });
    expect(hosted).not.toHaveProperty('max_tokens');
    const local = buildRequest('qwen2.5:7b', 'http://127.0.0.1:11434/v1', mode, 2048, []);
    expect(local).toMatchObject({ max_tokens: 2048 });
    expect(local).not.toHaveProperty('max_completion_tokens');
    expect(local).not.toHaveProperty('temperature');
  });
});
