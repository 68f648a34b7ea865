// Evidence through the SDK and the CLI: typed `evidence` and `withheld`, the request's options on every extract
// method, `docextract extract --evidence`, and confidence in the CLI's JSON and CSV outputs (offline engine).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocExtract } from '../src/index.js';
import { reviewInvoice } from '../examples/evidence.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { cli } from './run-cli.js';

const root = new URL('../..', import.meta.url).pathname;
const INVOICE = 'ACME LLC\nInvoice No: INV-7\nInvoice Date: 2026-04-18\nTotal due: $4,500.00';

/** Splits a CSV document into rows of fields (RFC 4180 quoting). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; }
    else if (c === '\n') { row.push(field); rows.push(row); row = []; field = ''; }
    else field += c;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  return rows;
}

describe('evidence in the SDK and the CLI', () => {
  let s: TestServer;
  let client: DocExtract;
  let env: Record<string, string>;
  let dir: string;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_sdk_evidence', plan: 'starter' } });
    key = (await s.createKey('acct_sdk_evidence')).key;
    client = new DocExtract({ baseUrl: s.baseUrl, apiKey: key });
    env = { DOCEXTRACT_API_KEY: key, DOCEXTRACT_BASE_URL: s.baseUrl };
    dir = mkdtempSync(join(tmpdir(), 'cli-evidence-'));
    writeFileSync(join(dir, 'invoice.txt'), INVOICE);
    mkdirSync(join(dir, 'inbox'));
    writeFileSync(join(dir, 'inbox', 'a.txt'), INVOICE);
    writeFileSync(join(dir, 'inbox', 'b.txt'), 'ORBIT "TRADING", LTD\nInvoice No: OR-12\nTotal due: €1.200,00');
  });
  afterAll(async () => { await s.close(); });

  it('answers evidence whose offsets reproduce each quote, and takes minConfidence and returnText on every extract method', async () => {
    const invoice = await client.extract.invoice(INVOICE, { returnText: true });
    expect(invoice.source.text).toBe(INVOICE);
    expect(Object.keys(invoice.evidence).length).toBeGreaterThan(0);
    for (const e of Object.values(invoice.evidence)) expect(INVOICE.slice(e.start, e.end)).toBe(e.quote);
    expect(invoice.evidence['/invoiceNumber']!.quote).toContain('INV-7');
    // Everything found is withheld at 1: null in data, listed with its confidence and quote.
    const strict = await client.extract.invoice(INVOICE, { minConfidence: 1 });
    expect(strict.data.invoiceNumber).toBeNull();
    expect(strict.evidence).toEqual({});
    expect(strict.withheld.find((w) => w.path === '/invoiceNumber')).toMatchObject({ value: 'INV-7', quote: invoice.evidence['/invoiceNumber']!.quote });
    const custom = await client.extract.custom('Spring Meetup\nCapacity: 120 places', { type: 'object', properties: { capacity: { type: 'integer' } } } as const, { minConfidence: 1 });
    expect(custom.data.capacity).toBeNull();
    expect(custom.withheld.map((w) => w.path)).toEqual(['/capacity']);
    const batch = await client.extract.batch([{ id: 'a', document: { text: INVOICE }, kind: 'invoice' }], { minConfidence: 1, returnText: true });
    const item = batch.results[0]!;
    expect(item.ok && item.withheld.length > 0 && item.source?.text === INVOICE).toBe(true);
    for (const method of ['receipt', 'contract', 'jobPosting', 'meetingNotes', 'renewal'] as const) {
      const answer = await client.extract[method](INVOICE, { minConfidence: 0, returnText: true });
      expect([method, answer.source.text, answer.withheld]).toEqual([method, INVOICE, []]);
    }
  });

  it('runs an extraction as one of the account\'s keys with a session token (keys.extract), as the dashboard does', async () => {
    const session = new DocExtract({ baseUrl: s.baseUrl, token: await s.token('acct_sdk_evidence') });
    const [k] = (await session.keys.list()).keys;
    const tried = await session.keys.extract(k!.id, { document: INVOICE, kind: 'invoice', returnText: true });
    expect(tried).toMatchObject({ kind: 'invoice', model: 'local-rules-1', source: { text: INVOICE } });
    expect(tried.data).toEqual((await client.extract.invoice(INVOICE)).data);
    const custom = await session.keys.extract(k!.id, { document: { text: 'Capacity: 120 places' }, schema: { type: 'object', properties: { capacity: { type: 'integer' } } } });
    expect(custom).toMatchObject({ kind: 'custom', data: { capacity: 120 } });
  });

  it("runs the README's evidence example, which is the example file verbatim", async () => {
    const readme = readFileSync(join(root, 'sdk/README.md'), 'utf8');
    expect(readme).toContain(readFileSync(join(root, 'sdk/examples/evidence.ts'), 'utf8').trimEnd());
    const lines = await reviewInvoice(s.baseUrl, key);
    // The invoice number is given with its quote, or withheld for review (which, depends on the calibration).
    expect(lines.some((l) => (l.startsWith('/invoiceNumber: "') || l.startsWith('review /invoiceNumber = ')) && l.includes('INV-7'))).toBe(true);
    expect(lines.every((l) => /^\/\S+: ".*" \(confidence [\d.]+(, derived)?\)$/.test(l) || /^review \/\S+ = .+ \(confidence [\d.]+\)$/.test(l))).toBe(true);
  });

  it('extract --evidence prints each value with its confidence, page and quote', async () => {
    const answer = await client.extract.invoice(INVOICE);
    const r = await cli(['extract', 'invoice', join(dir, 'invoice.txt'), '--evidence'], env);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^FIELD\s+VALUE\s+CONFIDENCE\s+PAGE\s+QUOTE$/);
    const row = lines.find((l) => l.startsWith('/invoiceNumber '))!;
    const e = answer.evidence['/invoiceNumber']!;
    // The CLI sends the file itself: a value read from a file names its page (a text file is one page).
    expect(row.split(/\s{2,}/)).toEqual(['/invoiceNumber', 'INV-7', e.confidence.toFixed(2), '1', JSON.stringify(e.quote)]);
    // Withheld values are listed, and say so.
    const strict = await cli(['extract', 'invoice', join(dir, 'invoice.txt'), '--evidence', '--min-confidence', '1'], env);
    expect(strict.stdout).toMatch(/^\/invoiceNumber\s+INV-7\s+[\d.]+ withheld\s+1\s+".*INV-7.*"$/m);
  });

  it('extract --confidence adds a confidence by field to the JSON; --format csv writes a row per value', async () => {
    const json = await cli(['extract', 'invoice', join(dir, 'invoice.txt'), '--confidence'], env);
    expect(json.code).toBe(0);
    const answer = JSON.parse(json.stdout);
    expect(answer.confidence['/invoiceNumber']).toBe(answer.evidence['/invoiceNumber'].confidence);
    const csv = await cli(['extract', 'invoice', join(dir, 'invoice.txt'), '--format', 'csv'], env);
    const rows = parseCsv(csv.stdout);
    expect(rows[0]).toEqual(['file', 'field', 'value']);
    expect(rows).toContainEqual(['invoice.txt', '/invoiceNumber', 'INV-7']);
    expect(rows).toContainEqual(['invoice.txt', '/total', '4500']);
    const withConfidence = parseCsv((await cli(['extract', 'invoice', join(dir, 'invoice.txt'), '--format', 'csv', '--confidence'], env)).stdout);
    expect(withConfidence[0]).toEqual(['file', 'field', 'value', 'confidence', 'withheld', 'page', 'quote']);
    const total = withConfidence.find((r) => r[1] === '/total')!;
    expect(total.slice(0, 3)).toEqual(['invoice.txt', '/total', '4500']);
    expect(Number(total[3])).toBe(answer.evidence['/total'].confidence);
    expect(total.slice(4)).toEqual(['false', '1', answer.evidence['/total'].quote]);
  });

  it('batch --format csv --confidence: one row per value of every document, withheld values marked; JSON lines carry confidence too', async () => {
    const out = join(dir, 'values.csv');
    const r = await cli(['batch', join(dir, 'inbox'), '--kind', 'invoice', '--format', 'csv', '--confidence', '--min-confidence', '0.999', '--out', out], env);
    expect(r.code).toBe(0);
    const rows = parseCsv(readFileSync(out, 'utf8'));
    expect(rows[0]).toEqual(['file', 'field', 'value', 'confidence', 'withheld', 'page', 'quote']);
    expect(rows.slice(1).every((row) => row.length === 7)).toBe(true);
    expect(new Set(rows.slice(1).map((row) => row[0]))).toEqual(new Set(['a.txt', 'b.txt']));
    expect(rows.some((row) => row[4] === 'true')).toBe(true);
    const jsonl = await cli(['batch', join(dir, 'inbox'), '--kind', 'invoice', '--confidence', '--min-confidence', '0'], env);
    const lines = jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0].confidence['/invoiceNumber']).toBe(lines[0].evidence['/invoiceNumber'].confidence);
    // Every value of the JSON lines is a CSV row, with its confidence and quote, whatever commas and quotes it holds.
    const b = lines.find((l) => l.id === 'b.txt');
    expect(b.data.vendor.name).toBe('ORBIT "TRADING", LTD');
    for (const [pointer, e] of Object.entries<{ confidence: number; quote: string }>(b.evidence)) {
      const row = rows.find((x) => x[0] === 'b.txt' && x[1] === pointer)!;
      expect([row[3], row[6]]).toEqual([String(e.confidence), e.quote]);
    }
  });

  it('refuses options that do not fit: exit code 2, nothing sent', async () => {
    for (const args of [['--min-confidence', '2'], ['--min-confidence', 'high'], ['--evidence', '--format', 'csv'], ['--format', 'xml']]) {
      const r = await cli(['extract', 'invoice', join(dir, 'invoice.txt'), ...args], env);
      expect([args, r.code]).toEqual([args, 2]);
    }
    const r = await cli(['batch', join(dir, 'inbox'), '--kind', 'invoice', '--evidence'], env);
    expect(r.code).toBe(2);
  });
});
