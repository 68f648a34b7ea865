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
import { FakeOpenAI } from './support/fake-openai.js';

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
