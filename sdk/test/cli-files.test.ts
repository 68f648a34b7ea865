// The CLI with files: PDFs and images in a folder next to text files, each sent as the SDK's `file` input, a line and
// the bar per file, the summary as for text; `--kind auto` guessing text files and needing --fallback-kind for the rest.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanPng, textPdf } from '../../server/test/support/render-documents.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { cli } from './run-cli.js';

const INVOICE = 'NORTHWIND OFFICE SUPPLY LTD\n\nINVOICE\nInvoice No: INV-7731\nInvoice Date: 2026-03-02\nBill To: Orbit Ltd\nDue Date: 2026-04-01\n\nTotal due (GBP): 45.00';
const RECEIPT = 'CORNER SHOP\n12:47\nMilk 2.49\nTOTAL 2.49\nCASH\nThank you!';
const NOTES = '# Weekly sync\n\nAttendees: Ana, Ben\n\nAction items:\n\n- Ben to ship the fix';

type Line = { id: string; ok: boolean; kind?: string | null; source?: { mediaType: string; method: string }; data?: Record<string, unknown>; error?: { code: string; message: string } };
const linesOf = (stdout: string): Line[] => stdout.trim().split('\n').map((l) => JSON.parse(l));

describe('docextract CLI with PDFs and images', () => {
  let s: TestServer;
  let env: Record<string, string>;
  let folder: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_cli_files', plan: 'starter' } });
    env = { DOCEXTRACT_API_KEY: (await s.createKey('acct_cli_files')).key, DOCEXTRACT_BASE_URL: s.baseUrl };
    folder = join(mkdtempSync(join(tmpdir(), 'cli-files-')), 'inbox');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a-invoice.pdf'), await textPdf(INVOICE));
    writeFileSync(join(folder, 'b-invoice-scan.png'), await scanPng(INVOICE));
    writeFileSync(join(folder, 'c-receipt.txt'), RECEIPT);
    writeFileSync(join(folder, 'd-notes.md'), NOTES);
    writeFileSync(join(folder, 'e-invoice.html'), `<html><body><h1>INVOICE</h1><p>Invoice No: H-19</p><p>Bill To: Orbit Ltd</p><p>Due Date: 2026-05-01</p><p>Total: $80.00</p></body></html>`);
    writeFileSync(join(folder, 'results.json'), '{}');
  }, 60_000);
  afterAll(async () => { await s.close(); });

  const batchRecords = () => s.db.prisma.usageRecord.count({ where: { accountId: 'acct_cli_files', route: 'batch' } });

  it('extract <kind> <file.pdf> sends the PDF and prints the answer with its source', async () => {
    const r = await cli(['extract', 'invoice', join(folder, 'a-invoice.pdf')], env);
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.source).toEqual({ mediaType: 'application/pdf', pages: 1, method: 'pdf_text' });
    expect(answer.data.invoiceNumber).toBe('INV-7731');
  });

  it('batch --kind sends PDFs, images and text files, a line each, the bar per call, and skips other files', async () => {
    const r = await cli(['batch', folder, '--kind', 'invoice'], env);
    expect(r.code).toBe(0);
    const lines = linesOf(r.stdout);
    expect(lines.map((l) => [l.id, l.ok, l.source?.mediaType, l.source?.method])).toEqual([
      ['a-invoice.pdf', true, 'application/pdf', 'pdf_text'],
      ['b-invoice-scan.png', true, 'image/png', 'ocr'],
      ['c-receipt.txt', true, 'text/plain', 'text'],
      ['d-notes.md', true, 'text/markdown', 'text'],
      ['e-invoice.html', true, 'text/html', 'text'],
    ]);
    expect(lines[0]!.data).toMatchObject({ invoiceNumber: 'INV-7731' });
    expect(lines[1]!.data).toMatchObject({ invoiceNumber: 'INV-7731' });
    expect(r.stderr).toContain('docextract: skipping 1 file of another type (results.json)');
    for (const step of ['1/5', '2/5', '5/5']) expect(r.stderr).toContain(`${step} documents`);
    expect(r.stderr).toMatch(/files   5\nok      5\nfailed  0\nHEU     \d+/);
  }, 60_000);

  it('batch --kind auto guesses text files; PDFs and images fail with auto_needs_text, are not sent, and the exit code is 1', async () => {
    const before = await batchRecords();
    const r = await cli(['batch', folder, '--kind', 'auto'], env);
    expect(r.code).toBe(1);
    const lines = linesOf(r.stdout);
    expect(lines.map((l) => [l.id, l.ok, l.kind, l.error?.code])).toEqual([
      ['a-invoice.pdf', false, null, 'auto_needs_text'],
      ['b-invoice-scan.png', false, null, 'auto_needs_text'],
      ['c-receipt.txt', true, 'receipt', undefined],
      ['d-notes.md', true, 'meeting-notes', undefined],
      ['e-invoice.html', true, 'invoice', undefined],
    ]);
    expect(lines[0]!.error!.message).toMatch(/--fallback-kind/);
    expect(r.stderr).toMatch(/files   5\nok      3\nfailed  2\n/);
    // Said once, before anything is sent: which files, why, and the flag that sends them (issue 30).
    expect(r.stderr).toContain('docextract: --kind auto guesses a kind from a file\'s words, and PDFs and images are read only by the service: 2 files (a-invoice.pdf, b-invoice-scan.png) will not be sent. Pass --fallback-kind <kind> to send them as that kind (e.g. --fallback-kind invoice), or send them with --kind <kind>.');
    expect(r.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
    // The text files went in one call each; the PDF and the image were never sent.
    expect(await batchRecords()).toBe(before + 3);
  }, 60_000);

  it('batch --kind auto --fallback-kind sends PDFs and images with the kind given', async () => {
    const r = await cli(['batch', folder, '--kind', 'auto', '--fallback-kind', 'invoice'], env);
    expect(r.code).toBe(0);
    const lines = linesOf(r.stdout);
    expect(lines.slice(0, 2).map((l) => [l.id, l.ok, l.kind, l.data?.invoiceNumber])).toEqual([
      ['a-invoice.pdf', true, 'invoice', 'INV-7731'],
      ['b-invoice-scan.png', true, 'invoice', 'INV-7731'],
    ]);
    const misuse = await cli(['batch', folder, '--kind', 'invoice', '--fallback-kind', 'receipt'], env);
    expect(misuse.code).toBe(2);
    expect(misuse.stderr).toContain('--fallback-kind goes with --kind auto');
  }, 60_000);

  it('a file over the 10 MB limit goes alone and fails with the service\'s 413; the other files go on', async () => {
    const big = join(mkdtempSync(join(tmpdir(), 'cli-big-')), 'inbox');
    mkdirSync(big);
    writeFileSync(join(big, 'a.txt'), RECEIPT);
    writeFileSync(join(big, 'b-huge.txt'), Buffer.alloc(10 * 1024 * 1024 + 1, 'a'));
    writeFileSync(join(big, 'c.txt'), RECEIPT);
    const r = await cli(['batch', big, '--kind', 'receipt'], env);
    expect(r.code).toBe(1);
    const lines = linesOf(r.stdout);
    expect(lines.map((l) => [l.id, l.ok, l.error?.code])).toEqual([['a.txt', true, undefined], ['b-huge.txt', false, 'payload_too_large'], ['c.txt', true, undefined]]);
    expect(r.stderr).toMatch(/files   3\nok      2\nfailed  1\n/);
  }, 60_000);
});
