// Untrusted files are read in reader processes under hard limits: a hostile file is killed and answered 422 while the
// service and other accounts' files carry on; a caller that hangs up stops its work; one account cannot take the
// reader from the others; what OCR reads is bounded in pixels however the file lies about its size.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { mintDashboardToken } from '../../src/auth/dashboard-tokens.js';
import { OCR_PIXELS } from '../../src/documents/limits.js';
import { renderScale } from '../../src/documents/render-page.js';
import { startChildServer, type ChildServer } from '../support/child-server.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/harness.js';
import { decoyJpeg, duplicateTagTiff, flateBombPdf, hugePagePdf } from '../support/hostile-files.js';
import { textPdf } from '../support/render-documents.js';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const INVOICE = 'NORTHWIND OFFICE SUPPLY LTD\nInvoice No: INV-7731\nInvoice Date: 2026-03-02\nTotal due (GBP): 105.00';
const LIMIT_BYTES = 1.5 * 2 ** 30;
/** A read's budget is 30 s for one page, and the machine may be shared: generous per-test timeouts. */
const SLOW = 180_000;

const waitFor = async <T>(what: string, probe: () => T | undefined | null | false | Promise<T | false>, timeoutMs = 60_000): Promise<T> => {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe('pixel budget of a page drawn for OCR', () => {
  it('draws a Letter page at 3x, and a 7000-point page scaled down to the OCR pixel budget (not 441 megapixels)', () => {
    expect(renderScale(612, 792)).toBe(3);
    const s = renderScale(7000, 7000);
    expect(Math.floor(7000 * s) ** 2).toBeLessThanOrEqual(OCR_PIXELS);
    expect(Math.floor(7000 * s) ** 2).toBeGreaterThan(OCR_PIXELS * 0.99);
    // A long strip is bounded by its longest side too.
    expect(14_400 * renderScale(14_400, 10)).toBeLessThanOrEqual(16_384);
  });
});

describe('reader processes in the service (in-process harness)', () => {
  let s: TestServer;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    s = await startTestServer('embedded');
    for (const [id, plan] of [['acct_sb_one', 'starter'], ['acct_sb_other', 'starter'], ['acct_sb_free', 'free']] as const) {
      await s.db.prisma.account.create({ data: { id, plan } });
      keys[id] = (await s.createKey(id)).key;
    }
  }, SLOW);
  afterAll(async () => { await s.close(); });

  const send = (account: string, document: unknown, signal?: AbortSignal) =>
    s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': keys[account]! }, json: { document }, ...(signal ? { signal } : {}) });
  const bomb = { content: b64(flateBombPdf()), mediaType: 'application/pdf' };

  it('kills the reader process of a caller that hangs up mid-read (gone within 1 s), and charges nothing', async () => {
    const heu = async () => (await s.db.prisma.usageBucket.findMany({ where: { accountId: 'acct_sb_one' } })).reduce((n, b) => n + b.heuUsed, 0);
    const heuBefore = await heu();
    const caller = new AbortController();
    const request = send('acct_sb_one', bomb, caller.signal).catch((e: unknown) => e);
    const task = await waitFor('the bomb being read', () => s.documents.readerState()?.tasks.find((t) => t.op === 'read' && t.accountId === 'acct_sb_one'));
    expect(existsSync(`/proc/${task.pid}`)).toBe(true);
    caller.abort();
    expect(await request).toMatchObject({ name: 'AbortError' });
    await new Promise((r) => setTimeout(r, 1000));
    expect(existsSync(`/proc/${task.pid}`)).toBe(false);
    expect(s.documents.readerState()).toMatchObject({ running: 0, waiting: 0, tasks: [] });
    // Its reservation is released: nothing charged, nothing held.
    await waitFor('the reservation released', async () => (await heu()) === heuBefore);
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_sb_one', state: 'reserved' } })).toBe(0);
  }, SLOW);

  it('drops a file waiting to be probed when its caller hangs up (the probe is tied to the connection too)', async () => {
    const first = new AbortController();
    const reading = send('acct_sb_one', bomb, first.signal).catch(() => null);
    await waitFor('the bomb being read', () => s.documents.readerState()?.tasks.find((t) => t.accountId === 'acct_sb_one' && t.op === 'read'));
    // The account's one process is busy: its next file waits for its probe.
    const second = new AbortController();
    const waiting = send('acct_sb_one', { content: b64(await textPdf(INVOICE)), mediaType: 'application/pdf' }, second.signal).catch(() => null);
    await waitFor('the second file queued', () => s.documents.readerState()?.accounts.acct_sb_one?.waiting === 1);
    second.abort();
    await waiting;
    await waitFor('the queued probe dropped', () => s.documents.readerState()?.accounts.acct_sb_one?.waiting === 0);
    first.abort();
    await reading;
    await waitFor('the reader idle', () => s.documents.readerState()?.running === 0);
  }, SLOW);

  it('reads a file in the process that probed it, and gives that process back when admission refuses the request', async () => {
    const pdf = { content: b64(await textPdf(INVOICE)), mediaType: 'application/pdf' };
    const read = await send('acct_sb_other', pdf);
    expect(read.status).toBe(200);
    // The bucket used up: the file is probed (its process kept for the read), then admission refuses (429).
    const { monthStart } = await import('../../src/time/clock.js');
    await s.db.prisma.usageBucket.upsert({
      where: { accountId_periodStart: { accountId: 'acct_sb_other', periodStart: monthStart(s.clock.now()) } },
      create: { accountId: 'acct_sb_other', periodStart: monthStart(s.clock.now()), heuUsed: 10_000 },
      update: { heuUsed: 10_000 },
    });
    const refused = await send('acct_sb_other', pdf);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.details.reason).toBe('heu_bucket');
    // The kept process is released with the answer, not 10 s later: the slot is free.
    expect(s.documents.readerState()).toMatchObject({ running: 0, waiting: 0, tasks: [] });
    await s.db.prisma.usageBucket.updateMany({ where: { accountId: 'acct_sb_other' }, data: { heuUsed: 0 } });
  }, SLOW);

  it('8 parallel streams of refused files from one free account: 429s once its 10 requests are counted, and another account is served', async () => {
    // A 51-page PDF is refused at the probe (413): before, such refusals were not counted, and 8 streams of them
    // starved the reader.
    const doc = await PDFDocument.create();
    for (let i = 0; i < 51; i++) doc.addPage();
    const refused = { content: b64(await doc.save()), mediaType: 'application/pdf' };
    const statuses: number[] = [];
    let running = true;
    const stream = async () => {
      for (let i = 0; i < 4 && running; i++) statuses.push((await send('acct_sb_free', refused)).status);
    };
    const streams = Array.from({ length: 8 }, stream);
    // Meanwhile another account's valid PDF.
    const valid = await send('acct_sb_other', { content: b64(await textPdf(INVOICE)), mediaType: 'application/pdf' });
    expect(valid.status).toBe(200);
    expect((await valid.json()).data.invoiceNumber).toBe('INV-7731');
    await Promise.all(streams);
    running = false;
    expect(statuses).toHaveLength(32);
    // Every request was counted before its file was opened: at most the plan's 10 were opened, the rest are 429.
    expect(statuses.filter((x) => x === 413).length).toBe(10);
    expect(statuses.filter((x) => x === 429).length).toBe(22);
    const window = await s.db.prisma.rateWindow.findMany({ where: { accountId: 'acct_sb_free' } });
    expect(window.reduce((n, w) => n + w.count, 0)).toBe(10);
  }, SLOW);
});

/** The resident memory of a process and all its descendants (the service and its reader processes), in bytes. */
function treeRss(pid: number): number {
  let total = 0;
  const visit = (p: number) => {
    try {
      total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) * 1024;
      for (const tid of readdirSync(`/proc/${p}/task`)) {
        for (const child of readFileSync(`/proc/${p}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) visit(Number(child));
      }
    } catch {
      // gone meanwhile
    }
  };
  visit(pid);
  return total;
}

describe('hostile files against the compiled service (its resident memory and its readers sampled from /proc)', () => {
  let db: TestDatabase;
  let server: ChildServer;
  let peak = 0;
  let sampler: NodeJS.Timeout;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    // PostgreSQL when the run has it (as in production): the embedded database holds 450-700 MB of the service's own.
    db = await createTestDatabase(process.env.TEST_PG_URL ? 'postgres' : 'embedded');
    server = await startChildServer({ NODE_ENV: 'test', DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl ?? '', DASHBOARD_JWT_SECRET: TEST_SECRET });
    sampler = setInterval(() => { peak = Math.max(peak, treeRss(server.child.pid!)); }, 100);
    for (const id of ['acct_hostile', 'acct_honest']) {
      const res = await fetch(`${server.baseUrl}/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${await mintDashboardToken(TEST_SECRET, id)}`, 'content-type': 'application/json' }, body: '{}' });
      keys[id] = ((await res.json()) as { key: string }).key;
    }
  }, SLOW);
  afterAll(async () => {
    clearInterval(sampler);
    server.child.kill('SIGTERM');
    await server.exited;
    await db.drop();
  }, SLOW);

  const send = async (account: string, document: unknown) => {
    const res = await fetch(`${server.baseUrl}/v1/extract/invoice`, { method: 'POST', headers: { 'x-api-key': keys[account]!, 'content-type': 'application/json' }, body: JSON.stringify({ document }) });
    return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string; details: unknown }; data?: Record<string, unknown> } };
  };
  const heuUsed = async (account: string) => ((await (await fetch(`${server.baseUrl}/v1/account`, { headers: { 'x-api-key': keys[account]! } })).json()) as { heuUsed: number }).heuUsed;

  it('answers the 195 KB flate bomb 422 within its read budget, under 1.5 GB, while another account\'s PDF is answered 200', async () => {
    const file = flateBombPdf();
    expect(file.length).toBeLessThan(256 * 1024);
    peak = 0;
    const hostile = send('acct_hostile', { content: b64(file), mediaType: 'application/pdf' });
    await new Promise((r) => setTimeout(r, 2000));
    const honest = await send('acct_honest', { content: b64(await textPdf(INVOICE)), mediaType: 'application/pdf' });
    expect(honest.status).toBe(200);
    expect(honest.body.data?.invoiceNumber).toBe('INV-7731');
    const bomb = await hostile;
    expect(bomb.status).toBe(422);
    expect(bomb.body.error).toMatchObject({ code: 'document_unreadable', message: expect.stringMatching(/could not be read within the reader's limits/) });
    expect(await heuUsed('acct_hostile')).toBe(0);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(LIMIT_BYTES);
    // The service survived the kill and keeps answering.
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  }, SLOW);

  it('refuses a JPEG whose decoy SOF (behind a fill byte) claims 100x100: its real frame is 8000x8000 (413, the decoder\'s size)', async () => {
    peak = 0;
    const res = await send('acct_hostile', { content: b64(await decoyJpeg(8000)), mediaType: 'image/jpeg' });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: 'payload_too_large', details: { limit: 25_000_000 } });
    expect(peak).toBeLessThan(LIMIT_BYTES);
  }, SLOW);

  it('refuses a TIFF whose duplicate width/height tags claim 100x100 after the real 20000x20000 (413)', async () => {
    peak = 0;
    const res = await send('acct_hostile', { content: b64(duplicateTagTiff(20_000)), mediaType: 'image/tiff' });
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: 'payload_too_large', details: { limit: 25_000_000 } });
    expect(peak).toBeLessThan(LIMIT_BYTES);
  }, SLOW);

  it('reads a 582-byte PDF with a 7000-point page within the pixel budget (a blank page: 422 no legible text), under 1.5 GB', async () => {
    peak = 0;
    const file = hugePagePdf(7000);
    expect(file.length).toBeLessThan(600);
    const res = await send('acct_hostile', { content: b64(file), mediaType: 'application/pdf' });
    expect(res.status).toBe(422);
    // Read (a blank page: no legible text), or on a machine loaded many times over stopped at its 30 s budget: either
    // way bounded, where drawing it at 441 megapixels took 4.1 GB.
    expect(res.body.error).toMatchObject({ code: 'document_unreadable', message: expect.stringMatching(/^(No legible text was found in the file\.|The file could not be read within the reader's limits: it took longer than 30 s\.)$/) });
    expect(peak).toBeLessThan(LIMIT_BYTES);
    expect(await heuUsed('acct_hostile')).toBe(0);
  }, SLOW);
});
