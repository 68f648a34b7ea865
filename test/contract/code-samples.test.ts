// Every request sample the contract carries (`x-codeSamples`: TypeScript with our SDK, and Python with requests; shown
// in /docs beside the curl that Scalar writes) is run as the program it shows, against the service on the offline
// engine, with only the environment it documents (DOCEXTRACT_BASE_URL, DOCEXTRACT_API_KEY, DOCEXTRACT_TOKEN). What it
// prints must be what its last comment shows. The one change made to a source: the SDK import points at this
// checkout's SDK (the package is not installed here).
// Python: the first of `python3` and Debian's /usr/bin/python3 that has requests (.ci/run installs python3-requests
// when neither has); without one the Python samples are skipped, and say so, except under CI=true, where they fail.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';

type Json = Record<string, any>;
const doc: Json = JSON.parse(readFileSync(fileURLToPath(new URL('../../generated/openapi.json', import.meta.url)), 'utf8'));
const SDK = fileURLToPath(new URL('../../sdk/src/index.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const run = promisify(execFile);

interface Sample { operationId: string; lang: string; label: string; source: string }

const samples: Sample[] = Object.values<Json>(doc.paths).flatMap((item) =>
  Object.values<Json>(item).flatMap((op) => ((op['x-codeSamples'] ?? []) as Json[]).map((s) => ({ operationId: op.operationId, lang: s.lang, label: s.label, source: s.source }))),
);

const COMMENT: Record<string, string> = { TypeScript: '// ', Python: '# ' };

/** The lines of the sample's last run of comments: the output it shows. */
function shownOutput(sample: Sample): string[] {
  const lines = sample.source.trimEnd().split('\n');
  const mark = COMMENT[sample.lang]!;
  const shown: string[] = [];
  for (let i = lines.length - 1; i >= 0 && lines[i]!.startsWith(mark); i--) shown.unshift(lines[i]!.slice(mark.length));
  return shown;
}

function pythonWithRequests(): string | null {
  for (const python of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(python, ['-c', 'import requests'], { stdio: 'ignore' });
      return python;
    } catch { /* the next one */ }
  }
  return null;
}
const PYTHON = pythonWithRequests();
if (!PYTHON && !process.env.CI) console.warn('Python code samples skipped: no python3 with requests (apt-get install python3-requests); under CI=true they fail instead');

describe('the contract\'s code samples', () => {
  const SDK_OPERATIONS = ['extractBatch', 'extractContract', 'extractCustom', 'extractInvoice', 'extractJobPosting', 'extractMeetingNotes', 'extractReceipt', 'extractRenewal', 'getAccount', 'createKey', 'listKeys', 'revokeKey', 'classifyDocument', 'extractAuto', 'createJob', 'createWebhookEndpoint'].sort();

  it('cover every SDK operation in TypeScript and in Python, each showing its output', () => {
    for (const [lang, label] of [['TypeScript', 'TypeScript SDK'], ['Python', 'Python (requests)']] as const) {
      const ofLang = samples.filter((s) => s.lang === lang);
      expect(ofLang.map((s) => s.operationId).sort()).toEqual(SDK_OPERATIONS);
      for (const s of ofLang) {
        expect(s.label).toBe(label);
        expect(shownOutput(s).length).toBeGreaterThan(0);
      }
    }
    expect(samples).toHaveLength(2 * SDK_OPERATIONS.length);
    for (const s of samples.filter((x) => x.lang === 'TypeScript')) expect(s.source).toMatch(/^import \{ DocExtract \} from '@docextract\/sdk';\n/);
  });
});

describe('each sample prints what it shows', () => {
  let s: TestServer;
  let dir: string;
  beforeAll(async () => {
    s = await startTestServer();
    dir = mkdtempSync(join(tmpdir(), 'docextract-samples-'));
  });
  /** A new account for each sample (the free plan's 10 requests a minute hold per account), and its credentials. */
  const envFor = async (sample: Sample): Promise<NodeJS.ProcessEnv> => {
    const account = `acct_sample_${sample.lang}_${sample.operationId}`.toLowerCase();
    return { PATH: process.env.PATH, HOME: process.env.HOME, DOCEXTRACT_BASE_URL: s.baseUrl, DOCEXTRACT_API_KEY: (await s.createKey(account)).key, DOCEXTRACT_TOKEN: await s.token(account) };
  };
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(samples.filter((x) => x.lang === 'TypeScript').map((x) => [x.operationId, x] as const))('TypeScript: %s', async (operationId, sample) => {
    const source = sample.source.replace("from '@docextract/sdk'", `from ${JSON.stringify(SDK)}`);
    expect(source).not.toBe(sample.source);
    const file = join(dir, `${operationId}.mts`);
    writeFileSync(file, source);
    const { stdout } = await run(process.execPath, [TSX, file], { env: await envFor(sample), timeout: 60_000 });
    expect(stdout.trimEnd().split('\n')).toEqual(shownOutput(sample));
  }, 90_000);

  (PYTHON || process.env.CI ? it.each : it.skip.each)(samples.filter((x) => x.lang === 'Python').map((x) => [x.operationId, x] as const))('Python: %s', async (operationId, sample) => {
    const file = join(dir, `${operationId}.py`);
    writeFileSync(file, sample.source);
    expect(PYTHON).not.toBeNull();
    const { stdout } = await run(PYTHON!, [file], { env: await envFor(sample), timeout: 60_000 });
    expect(stdout.trimEnd().split('\n')).toEqual(shownOutput(sample));
  }, 90_000);
});
