import { jest } from '@jest/globals';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { quickstart } from '../examples/quickstart.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { cli } from './run-cli.js';

const root = new URL('../..', import.meta.url).pathname;


describe('docextract CLI and the README example', () => {
  let s: TestServer;
  let env: Record<string, string>;
  let dir: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_cli', plan: 'starter' } });
    env = { DOCEXTRACT_API_KEY: (await s.createKey('acct_cli')).key, DOCEXTRACT_BASE_URL: s.baseUrl };
    dir = mkdtempSync(join(tmpdir(), 'cli-'));
    writeFileSync(join(dir, 'invoice.txt'), 'ACME LLC\nInvoice INV-9\nTotal: $10.00');
    writeFileSync(join(dir, 'schema.json'), JSON.stringify({ type: 'object', properties: { eventName: { type: 'string' } } }));
    mkdirSync(join(dir, 'receipts'));
    for (let i = 0; i < 23; i++) writeFileSync(join(dir, 'receipts', `r${String(i).padStart(2, '0')}.txt`), `SHOP ${i}\nTOTAL ${i}.00`);
  });
  afterAll(async () => { await s.close(); });

  it('extract <kind> <file> prints the answer as JSON', async () => {
    const r = await cli(['extract', 'invoice', join(dir, 'invoice.txt')], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ model: 'local-rules-1', data: expect.any(Object) });
  });

  it('extract custom --schema', async () => {
    const r = await cli(['extract', 'custom', join(dir, 'invoice.txt'), '--schema', join(dir, 'schema.json')], env);
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout).data)).toEqual(['eventName']);
  });

  it('batch <folder> --kind sends chunks of at most 20, small enough that the bar moves ten times, and writes JSON lines', async () => {
    const out = join(dir, 'results.jsonl');
    const r = await cli(['batch', join(dir, 'receipts'), '--kind', 'receipt', '--out', out], env);
    expect(r.code).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(23);
    expect(lines.every((l) => l.ok)).toBe(true);
    expect(lines[0].id).toBe('r00.txt');
    // 23 files go 3 a call: the bar moves per call (3/23, 6/23, ...), not from 0 to 23 at once.
    for (const step of ['3/23', '6/23', '21/23', '23/23']) expect(r.stderr).toContain(`${step} documents`);
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_cli', route: 'batch' } })).toBe(8);
    // A summary at the end: files, ok, failed, and the HEU the batches cost.
    const heu = lines.reduce((sum, l) => sum + l.usage.heu, 0);
    expect(r.stderr).toContain(`files   23\nok      23\nfailed  0\nHEU     ${heu}`);
  });

  it('names the service it calls: the local one by default, and the URL in an error', async () => {
    const r = await cli(['account'], { DOCEXTRACT_API_KEY: env.DOCEXTRACT_API_KEY! });
    expect(r.stderr.split('\n')[0]).toBe('docextract: using http://127.0.0.1:8080 (set DOCEXTRACT_BASE_URL for another service)');
    const down = await cli(['account'], { ...env, DOCEXTRACT_BASE_URL: 'http://127.0.0.1:9' });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^docextract: network_error from http:\/\/127\.0\.0\.1:9: /m);
  });

  it('prints an error on a line of its own, not on the progress bar', async () => {
    const r = await cli(['batch', join(dir, 'receipts'), '--kind', 'receipt'], { ...env, DOCEXTRACT_API_KEY: `dx_live_${'B'.repeat(43)}` });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\] 0\/23 documents\ndocextract: invalid_api_key \(HTTP 401\)/);
  });

  it('batch --kind auto picks each file\'s route from its words and reports it on its line', async () => {
    const mixed = join(dir, 'mixed');
    mkdirSync(mixed);
    const docs: Record<string, [string, string]> = {
      'a.txt': ['INVOICE\nInvoice No: 77\nBill To: Orbit Ltd\nDue Date: 2026-05-01\nTotal: $10.00', 'invoice'],
      'b.txt': ['CORNER SHOP\n12:47\nMilk 2.49\nTOTAL 2.49\nCASH\nThank you!', 'receipt'],
      'c.txt': ['Weekly sync\nAttendees: Ana, Ben\nAction items:\n- Ben to ship the fix', 'meeting-notes'],
      'd.txt': ['ORDER FORM\nSubscription: 20 seats\nThis order renews automatically unless notice is given.', 'renewal'],
      'e.txt': ['MUTUAL NON-DISCLOSURE AGREEMENT between the parties, governed by the laws of England and Wales.', 'contract'],
      'f.txt': ['Senior Engineer\nFull-time, remote\nRequirements:\n- TypeScript\nSalary: $150,000 a year', 'job-posting'],
    };
    for (const [name, [text]] of Object.entries(docs)) writeFileSync(join(mixed, name), text);
    const r = await cli(['batch', mixed, '--kind', 'auto'], env);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.id, l.kind, l.ok])).toEqual(Object.entries(docs).map(([name, [, kind]]) => [name, kind, true]));
  });

  it('account prints the account', async () => {
    const r = await cli(['account'], env);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).id).toBe('acct_cli');
  });

  it('fails with one clear line and a non-zero code', async () => {
    const bad = await cli(['account'], { ...env, DOCEXTRACT_API_KEY: `dx_live_${'A'.repeat(43)}` });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('invalid_api_key (HTTP 401)');
    const noKey = await cli(['account'], { DOCEXTRACT_BASE_URL: s.baseUrl });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('DOCEXTRACT_API_KEY');
    const usage = await cli(['extract', 'passport', join(dir, 'invoice.txt')], env);
    expect(usage.code).toBe(2);
    const missing = await cli(['extract', 'invoice', join(dir, 'nope.txt')], env);
    expect(missing.code).toBe(2);
  });

  it("runs the README's example, which is the example file verbatim", async () => {
    const readme = readFileSync(join(root, 'sdk/README.md'), 'utf8');
    expect(readme).toContain(readFileSync(join(root, 'sdk/examples/quickstart.ts'), 'utf8').trimEnd());
    const log = jest.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await quickstart(s.baseUrl, await s.token('acct_cli'))).toMatch(/^local-rules-1 /);
    } finally {
      log.mockRestore();
    }
  });
});
