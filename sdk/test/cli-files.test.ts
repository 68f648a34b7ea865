// The CLI with files: PDFs and images in a folder next to text files, each sent as the SDK's `file` input, a line and
// the bar per file, the summary as for text; `--kind auto` sending every file (Office files and e-mails too) to the
// service's classifier, a line per document found.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scanPng, textPdf } from '../../server/test/support/render-documents.js';
import { docxFile, emlFile, xlsxFile } from '../../server/test/support/office-files.js';
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

  it('batch --kind auto sends every file, PDFs and images too, to the service\'s classifier: a line a document, its kind and fields', async () => {
    const before = await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_cli_files', route: 'auto' } });
    const r = await cli(['batch', folder, '--kind', 'auto'], env);
    expect(r.code).toBe(0);
    const lines = linesOf(r.stdout);
    expect(lines.map((l) => [l.id, l.ok, l.kind, l.source?.mediaType])).toEqual([
      ['a-invoice.pdf', true, 'invoice', 'application/pdf'],
      ['b-invoice-scan.png', true, 'invoice', 'image/png'],
      ['c-receipt.txt', true, 'receipt', 'text/plain'],
      ['d-notes.md', true, 'meeting-notes', 'text/markdown'],
      ['e-invoice.html', true, 'invoice', 'text/html'],
    ]);
    expect(lines[0]!.data).toMatchObject({ invoiceNumber: 'INV-7731' });
    expect(lines[1]!.data).toMatchObject({ invoiceNumber: 'INV-7731' });
    expect(r.stderr).toMatch(/files   5\nok      5\nfailed  0\n/);
    for (const step of ['1/5', '2/5', '5/5']) expect(r.stderr).toContain(`${step} documents`);
    // One call a file, through /v1/extract/auto.
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_cli_files', route: 'auto' } })).toBe(before + 5);
  }, 90_000);

  it('batch --kind auto runs a mixed folder of DOCX, XLSX, CSV and e-mails end to end, a line per document found', async () => {
    const mixed = join(mkdtempSync(join(tmpdir(), 'cli-mixed-')), 'inbox');
    mkdirSync(mixed);
    const contract = 'CONSULTING SERVICES AGREEMENT\nThis Agreement is made on 3 February 2026 between Brightwater Energy plc ("Client") and Halden Advisory Ltd ("Consultant").\n1. Governing law. This Agreement is governed by the laws of England and Wales.';
    writeFileSync(join(mixed, 'a-contract.docx'), await docxFile(contract.split('\n')));
    writeFileSync(join(mixed, 'b-invoice.xlsx'), xlsxFile([{ name: 'Invoice', rows: INVOICE.split('\n').map((l) => [l]) }]));
    writeFileSync(join(mixed, 'c-receipt.csv'), 'CORNER SHOP,\n12:47,\nMilk,2.49\nBread,1.80\nEggs,2.95\nTOTAL,7.24\nCASH,10.00\nCHANGE,2.76\nThank you!,\n');
    writeFileSync(join(mixed, 'd-mail.eml'), await emlFile({ from: 'billing@northwind.test', to: 'ap@orbit.test', subject: 'Invoice INV-7731', text: 'Invoice attached.', attachments: [{ filename: 'INV-7731.pdf', contentType: 'application/pdf', content: await textPdf(INVOICE) }] }));
    const r = await cli(['batch', mixed, '--kind', 'auto'], env);
    expect(r.code).toBe(0);
    const lines = linesOf(r.stdout);
    expect(lines.map((l) => [l.id, l.ok, l.kind])).toEqual([
      ['a-contract.docx', true, 'contract'],
      ['b-invoice.xlsx', true, 'invoice'],
      ['c-receipt.csv', true, 'receipt'],
      ['d-mail.eml', true, 'other'],
      ['d-mail.eml#INV-7731.pdf#p1', true, 'invoice'],
    ]);
    expect(lines[4]!.data).toMatchObject({ invoiceNumber: 'INV-7731', total: 45 });
    expect(r.stderr).toMatch(/\[#+\] 4\/4 documents/);
    expect(r.stderr).toMatch(/files   4\nok      4\nfailed  0\n/);
  }, 90_000);

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
