// The CLI's commands for one file and for a folder of mixed kinds: `extract` and `classify` refuse a file of a type
// the service does not read before anything is sent (as `batch` skips it), `--evidence` shows whole values and quotes,
// `classify` says what each document is, and `jobs --kind auto` sends each file as a job of the kind it was classified.
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evidenceTable } from '../src/cli-evidence.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { cli } from './run-cli.js';

const INVOICE = 'NORTHWIND OFFICE SUPPLY LTD\n\nINVOICE\nInvoice No: INV-7731\nInvoice Date: 2026-03-02\nBill To: Orbit Ltd\nDue Date: 2026-04-01\n\nTotal due (GBP): 45.00';
const RECEIPT = 'CORNER SHOP\n12:47\nMilk 2.49\nTOTAL 2.49\nCASH\nThank you!';
const PAYSLIP = 'PAYSLIP\nEmployer: Wattle & Finch Pty Ltd\nEmployee: J. Thompson\nGross pay: $3,120.00\nNet pay: $2,480.00';

describe('docextract extract, classify and jobs --kind auto', () => {
  let s: TestServer;
  let env: Record<string, string>;
  let dir: string;
  const account = 'acct_cli_commands';
  const charged = () => s.db.prisma.usageRecord.count({ where: { accountId: account } });

  beforeAll(async () => {
    s = await startTestServer('embedded', { JOB_POLL_INTERVAL_MS: '100' }, undefined, { worker: true });
    await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
    env = { DOCEXTRACT_API_KEY: (await s.createKey(account)).key, DOCEXTRACT_BASE_URL: s.baseUrl, DOCEXTRACT_POLL_MS: '100' };
    dir = mkdtempSync(join(tmpdir(), 'cli-commands-'));
    writeFileSync(join(dir, 'invoice.txt'), INVOICE);
    writeFileSync(join(dir, 'printout.ps'), `%!PS-Adobe-3.0\n/Helvetica findfont 12 scalefont setfont\n(${INVOICE.split('\n')[3]}) show\nshowpage\n`);
    mkdirSync(join(dir, 'inbox'));
    writeFileSync(join(dir, 'inbox', 'a-invoice.txt'), INVOICE);
    writeFileSync(join(dir, 'inbox', 'b-receipt.txt'), RECEIPT);
    writeFileSync(join(dir, 'inbox', 'c-payslip.txt'), PAYSLIP);
    writeFileSync(join(dir, 'inbox', 'd-printout.ps'), '%!PS-Adobe-3.0\nshowpage\n');
  }, 90_000);
  afterAll(async () => { await s.close(); });

  it('extract refuses a file of a type the service does not read (a .ps) before sending it: nothing is charged', async () => {
    const before = await charged();
    const r = await cli(['extract', 'invoice', join(dir, 'printout.ps')], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('docextract: not sending printout.ps: the service reads .pdf .png');
    expect(r.stderr).toContain('(nothing was sent or charged)');
    expect(await charged()).toBe(before);
    // classify refuses it alike.
    const c = await cli(['classify', join(dir, 'printout.ps')], env);
    expect(c.code).toBe(2);
    expect(c.stderr).toContain('not sending printout.ps');
    expect(await charged()).toBe(before);
  });

  it('classify <file> prints the classification; classify <folder> a line a file, skipping other types', async () => {
    const one = await cli(['classify', join(dir, 'invoice.txt')], env);
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ kind: 'invoice', confidence: expect.any(Number), alternatives: expect.any(Array), model: 'local-rules-1' });
    const folder = await cli(['classify', join(dir, 'inbox')], env);
    expect(folder.code).toBe(0);
    const lines = folder.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.id, l.ok, l.kind])).toEqual([['a-invoice.txt', true, 'invoice'], ['b-receipt.txt', true, 'receipt'], ['c-payslip.txt', true, 'other']]);
    expect(folder.stderr).toContain('skipping 1 file of another type (d-printout.ps)');
    // Restricted to the kinds given.
    const kinds = await cli(['classify', join(dir, 'invoice.txt'), '--kinds', 'receipt,contract'], env);
    expect(['receipt', 'contract', 'other']).toContain(JSON.parse(kinds.stdout).kind);
    expect((await cli(['classify', join(dir, 'invoice.txt'), '--kinds', 'passport'], env)).code).toBe(2);
  });

  it('jobs --kind auto classifies each file and sends it as a job of its kind; a file of no kind fails unless --fallback-kind', async () => {
    const out = join(dir, 'auto.jsonl');
    const r = await cli(['jobs', join(dir, 'inbox'), '--kind', 'auto', '--out', out], env);
    // The payslip is of no fixed kind: its line says so and the run exits 1.
    expect(r.code).toBe(1);
    const lines = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).sort((a, b) => a.file.localeCompare(b.file));
    expect(lines.map((l) => [l.file, l.ok, l.kind])).toEqual([['a-invoice.txt', true, 'invoice'], ['b-receipt.txt', true, 'receipt'], ['c-payslip.txt', false, 'other']]);
    expect(lines[0].data.invoiceNumber).toBe('INV-7731');
    expect(lines[1].data.total).toBe(2.49);
    expect(lines[2].error.code).toBe('unclassified');
    const jobs = await s.db.prisma.job.findMany({ where: { accountId: account }, orderBy: { createdAt: 'asc' } });
    expect(jobs.map((j) => j.route).sort()).toEqual(['invoice', 'receipt']);
    expect(r.stderr).toMatch(/files\s+3\nok\s+2\nfailed\s+1\nHEU\s+\d+/);
    // With a fallback, the payslip goes as a receipt.
    const fallback = await cli(['jobs', join(dir, 'inbox'), '--kind', 'auto', '--fallback-kind', 'receipt'], env);
    expect(fallback.code).toBe(0);
    const payslip = fallback.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((l) => l.file === 'c-payslip.txt');
    expect(payslip).toMatchObject({ ok: true, kind: 'receipt' });
    expect(fallback.stderr).toContain('c-payslip.txt: other, sent as receipt (--fallback-kind)');
    expect((await cli(['jobs', join(dir, 'inbox'), '--kind', 'invoice', '--fallback-kind', 'receipt'], env)).code).toBe(2);
  }, 120_000);
});

describe('extract --evidence as a table for people', () => {
  const long = 'Consulting services for the migration of the accounts payable ledger to the new platform, phase two of three';
  const quote = `Description            Qty   Unit Price    Amount\n${long}   1   £1,800.00   £1,800.00`;
  const answer = {
    data: { description: long, invoiceNumber: 'INV-7' },
    evidence: {
      '/description': { quote, start: 0, end: quote.length, page: 1, confidence: 0.91 },
      '/invoiceNumber': { quote: 'Invoice No: INV-7', start: 0, end: 17, page: 1, confidence: 0.97 },
    },
    withheld: [],
  } as unknown as Parameters<typeof evidenceTable>[0];

  it('shows a value whole (wrapped in its column, never cut at 40 characters) within the width', () => {
    const table = evidenceTable(answer, 100);
    const lines = table.split('\n');
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(100);
    // Every word of the value is there, in order, across the row's lines.
    const start = lines.findIndex((l) => l.startsWith('/description'));
    let end = start + 1;
    while (end < lines.length && lines[end]!.startsWith(' ')) end++;
    const rowLines = lines.slice(start, end);
    expect(rowLines.length).toBeGreaterThan(1);
    const at = lines[0]!.indexOf('VALUE');
    const width = lines[0]!.indexOf('CONFIDENCE') - at - 2;
    expect(rowLines.map((l) => l.slice(at, at + width).trim()).join(' ')).toBe(long);
    expect(table).not.toContain('…');
  });

  it('does not pad quotes with runs of spaces: a quote\'s own spacing shows as one space, a short value takes a narrow column', () => {
    const table = evidenceTable(answer, 100);
    const quoteText = table.split('\n').map((l) => l.slice(table.split('\n')[0]!.indexOf('QUOTE'))).filter(Boolean).join(' ');
    expect(quoteText).toContain('"Description Qty Unit Price Amount Consulting');
    expect(quoteText).not.toMatch(/\S {3,}\S/);
    // Between a short row's value and its confidence, at most the value column's width: two fifths of the room.
    const row = table.split('\n').find((l) => l.startsWith('/invoiceNumber'))!;
    expect(row).toMatch(/^\/invoiceNumber +INV-7 +0\.97 +1 +"Invoice No: INV-7"$/);
    expect(row.match(/INV-7( +)0\.97/)![1]!.length).toBeLessThan(40);
  });
});
