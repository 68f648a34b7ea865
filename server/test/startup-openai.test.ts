// `npm start` with EXTRACTION_ENGINE=openai: the engine, its server and price named in the start log, and the model
// checked once with GET /v1/models/{model} (https://platform.openai.com/docs/api-reference/models/retrieve): a model the
// server does not serve is said in one error line, the service still serves, and nothing is billed at start.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeOpenAI } from './support/fake-openai.js';

const root = new URL('../..', import.meta.url).pathname;

function start(dataDir: string, extraEnv: Record<string, string>): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => { out += d; });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no start within 30 s:\n${out}`)); }, 30_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /"port":(\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolve({ child, port: Number(m[1]), output: () => out }); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`exited ${code}:\n${out}`)); });
  });
}

describe('npm start with EXTRACTION_ENGINE=openai', () => {
  it('names the engine, checks the model at start and logs a model the server does not serve; it still serves', async () => {
    const fake = await new FakeOpenAI().start();
    const dataDir = mkdtempSync(join(tmpdir(), 'start-openai-'));
    try {
      const s = await start(dataDir, { EXTRACTION_ENGINE: 'openai', OPENAI_BASE_URL: fake.url, OPENAI_MODEL: 'llama3.1:8b' });
      const deadline = Date.now() + 15_000;
      while (!s.output().includes('does not serve the model') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const lines = s.output().split('\n');
      const check = lines.find((l) => l.includes('does not serve the model'))!;
      expect(JSON.parse(check)).toMatchObject({ level: 50, provider: 'openai', model: 'llama3.1:8b', status: 404, errorCode: 'model_not_found' });
      expect(JSON.parse(lines.find((l) => l.includes('"engine":"openai"') && l.includes('extraction engine'))!)).toMatchObject({ model: 'llama3.1:8b', priced: false, priceInput: 0 });
      expect(s.output()).toContain('OpenAI-compatible (llama3.1:8b)');
      expect(fake.modelLookups).toEqual(['llama3.1:8b']);
      expect(fake.requests).toEqual([]); // no completion at start: nothing billed
      expect((await fetch(`http://127.0.0.1:${s.port}/healthz`)).status).toBe(200);
      const stopped = new Promise((resolve) => s.child.once('exit', resolve));
      s.child.kill('SIGTERM');
      expect(await stopped).toBe(0);
    } finally {
      await fake.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
