// The offline engine runs in worker threads (a bounded pool), off the event loop that answers HTTP: the answers are
// the rules' own, a task past its budget is stopped (504, nothing charged), and OFFLINE_THREADS=0 runs it inline.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runLocalTask } from '../src/extraction/engines/local-pool/local-task.js';
import { dataSchemaFor } from '../src/extraction/schemas/contract-schemas.js';
import { startTestServer, type TestServer } from './support/harness.js';

const CORPUS = '/work/shared/corpus';
const kinds = ['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes'] as const;
const documents = kinds.flatMap((kind) => readdirSync(join(CORPUS, kind)).filter((f) => f.endsWith('.txt')).slice(0, 2)
  .map((f) => [kind, f, readFileSync(join(CORPUS, kind, f), 'utf8')] as const));

describe.each([['in worker threads', {}], ['inline (OFFLINE_THREADS=0)', { OFFLINE_THREADS: '0' }]])('the offline engine %s', (_name, env) => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', env);
    await s.db.prisma.account.create({ data: { id: 'acct_pool', plan: 'starter' } });
    key = (await s.createKey('acct_pool')).key;
  });
  afterAll(async () => { await s.close(); });

  it.each(documents)('answers %s %s exactly as the rules read it', async (kind, _file, text) => {
    // Nothing withheld (minConfidence 0): the answer is the rules' whole reading, whatever the calibration says of it.
    const res = await s.fetch(`/v1/extract/${kind}`, { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text }, minConfidence: 0 } });
    expect(res.status).toBe(200);
    const expected = runLocalTask({ task: { kind }, text, schema: dataSchemaFor(kind) });
    expect(expected.ok).toBe(true);
    expect((await res.json()).data).toEqual((expected as { data: unknown }).data);
  });
});

describe('a task past its budget', () => {
  let s: TestServer;
  beforeAll(async () => { s = await startTestServer('embedded', { OFFLINE_TASK_BUDGET_MS: '1' }); });
  afterAll(async () => { await s.close(); });

  it('is stopped: 504 upstream_timeout, nothing charged, and the next request is served', async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_budget', plan: 'starter' } });
    const { key } = await s.createKey('acct_budget');
    const text = documents[0]![2].repeat(200).slice(0, 190_000);
    const res = await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text } } });
    expect(res.status).toBe(504);
    expect((await res.json()).error.code).toBe('upstream_timeout');
    const account = await (await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).json();
    expect(account.heuUsed).toBe(0);
    expect((await s.fetch('/healthz')).status).toBe(200);
  });
});
