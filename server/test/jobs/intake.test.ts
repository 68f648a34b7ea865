// Job intake without opening files: a job's files are stored with its request and probed by the worker, so a batch is
// accepted at once (202) however many files it holds; a file the reader refuses fails its job with the reader's
// error, uncharged; the reservation made from a file's size is set to the synchronous route's once the file is open;
// and the request is counted for the rate limit at acceptance, files refused or not, as the synchronous routes count.
import { dbModes } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { decoyJpeg, pdfWith } from '../support/hostile-files.js';
import { textPdf } from '../support/render-documents.js';

type Json = Record<string, any>;

const INVOICE = 'ACME LLC\nInvoice No: INV-7\nInvoice Date: 2026-04-18\nTotal due: $4,500.00';
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const pdfDoc = (bytes: Uint8Array) => ({ content: b64(bytes), mediaType: 'application/pdf' });

describe.each(dbModes())('job intake (%s database)', (mode) => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    // No worker at first: what acceptance stored is read before anything runs (`startWorker`).
    s = await startTestServer(mode, { JOB_POLL_INTERVAL_MS: '100' }, undefined, { worker: false });
    await s.db.prisma.account.create({ data: { id: 'acct_intake', plan: 'starter' } });
    ({ key } = await s.createKey('acct_intake'));
  }, 60_000);
  afterAll(async () => { await s?.close(); });

  const post = (path: string, json: unknown, k = key) => s.fetch(path, { method: 'POST', headers: { 'x-api-key': k }, json });
  const get = (path: string, k = key) => s.fetch(path, { headers: { 'x-api-key': k } });
  const heuUsed = async (account: string) => (await s.db.prisma.usageBucket.findMany({ where: { accountId: account } })).reduce((n, b) => n + b.heuUsed, 0);
  const rateCount = async (account: string) => (await s.db.prisma.rateWindow.findMany({ where: { accountId: account } })).reduce((n, w) => n + w.count, 0);
  async function finished(id: string, k = key): Promise<Json> {
    for (let i = 0; i < 1200; i++) {
      const job = await (await get(`/v1/jobs/${id}`, k)).json();
      if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`job ${id} did not finish`);
  }
  let workerStarted = false;
  const startWorker = async () => {
    if (!workerStarted) await s.jobs.start({ worker: true });
    workerStarted = true;
  };

  it('accepts a batch of 1,000 text items: 1,000 queued jobs stored with their requests, one request counted, their estimates reserved', async () => {
    const heu = await heuUsed('acct_intake');
    const counted = await rateCount('acct_intake');
    const res = await post('/v1/jobs/batch', { route: 'invoice', items: Array.from({ length: 1000 }, (_, i) => ({ document: { text: `${INVOICE}\nLine ${i}` } })) });
    expect(res.status).toBe(202);
    const { jobs } = await res.json();
    expect(jobs).toHaveLength(1000);
    const rows = await s.db.prisma.job.findMany({ where: { id: { in: jobs.map((j: Json) => j.id) } } });
    expect(rows).toHaveLength(1000);
    expect(rows.every((r) => r.status === 'queued' && r.request !== null && r.reservedHeu > 0)).toBe(true);
    expect(JSON.parse(rows.find((r) => r.id === jobs[999].id)!.request!).document.text).toBe(`${INVOICE}\nLine 999`);
    const reserved = rows.reduce((n, r) => n + r.reservedHeu, 0);
    expect(await heuUsed('acct_intake')).toBe(heu + reserved);
    expect(await rateCount('acct_intake')).toBe(counted + 1);
    // Cancelled, so the worker started later does not spend its time on them.
    for (const j of jobs) await s.fetch(`/v1/jobs/${j.id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
    expect(await heuUsed('acct_intake')).toBe(heu);
  }, 120_000);

  it('accepts a batch of files without opening them: the files stored in the jobs\' requests, reserved from their size', async () => {
    const pdf = await textPdf(INVOICE);
    const corrupt = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(300_000, 7)]);
    // Two files of 600 KB (800,000 characters of base64): stored by more than one statement, tagged as one.
    const large = [1, 2].map((n) => Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(600_000, n)]));
    const files = [pdf, corrupt, ...large];
    const before = s.documents.readerState();
    const res = await post('/v1/jobs/batch', { route: 'invoice', items: files.map((f) => ({ document: pdfDoc(f) })) });
    expect(res.status).toBe(202);
    const { jobs } = await res.json();
    expect(jobs.map((j: Json) => j.status)).toEqual(['queued', 'queued', 'queued', 'queued']);
    const rows = await Promise.all(jobs.map((j: Json) => s.db.prisma.job.findUniqueOrThrow({ where: { id: j.id } })));
    expect(rows.map((r) => JSON.parse(r.request!).document.content)).toEqual(files.map(b64));
    const tags = rows.map((r) => Number(r.tag));
    expect(tags).toEqual([tags[0], tags[0]! + 1, tags[0]! + 2, tags[0]! + 3]);
    // Reserved from the size: one page per started 100 KB (the corrupt file's 300 KB are 3 pages, the large ones 6).
    expect(rows[1]!.reservedHeu).toBeGreaterThan(rows[0]!.reservedHeu);
    expect(rows[2]!.reservedHeu).toBeGreaterThan(rows[1]!.reservedHeu);
    // Not a file was opened: the reader was never started, or did no probe.
    expect(s.documents.readerState()).toEqual(before);
    for (const j of jobs) await s.fetch(`/v1/jobs/${j.id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
  });

  it('fails a job whose file the reader refuses with the reader\'s error, exactly the synchronous answer\'s, and charges nothing', async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_intake_refused', plan: 'starter' } });
    const { key: k } = await s.createKey('acct_intake_refused');
    const corrupt = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2_000, 7)]);
    const huge = await decoyJpeg(8000);
    const accepted = await post('/v1/jobs/batch', { route: 'invoice', items: [{ document: pdfDoc(corrupt) }, { document: { content: b64(huge), mediaType: 'image/jpeg' } }] }, k);
    expect(accepted.status).toBe(202);
    const { jobs } = await accepted.json();
    expect(await heuUsed('acct_intake_refused')).toBeGreaterThan(0);
    await startWorker();
    const done = await Promise.all(jobs.map((j: Json) => finished(j.id, k)));
    const syncCorrupt = await (await post('/v1/extract/invoice', { document: pdfDoc(corrupt) }, k)).json();
    const syncHuge = await post('/v1/extract/invoice', { document: { content: b64(huge), mediaType: 'image/jpeg' } }, k);
    expect(syncHuge.status).toBe(413);
    expect(done.map((j) => j.status)).toEqual(['failed', 'failed']);
    expect(done[0].error).toEqual({ ...syncCorrupt.error, details: syncCorrupt.error.details ?? null });
    expect(done[0].error.code).toBe('document_unreadable');
    const hugeError = (await syncHuge.json()).error;
    expect(done[1].error).toEqual({ ...hugeError, details: hugeError.details ?? null });
    // Uncharged: both reservations released, the bucket back to nothing.
    expect(await heuUsed('acct_intake_refused')).toBe(0);
    const records = await s.db.prisma.usageRecord.findMany({ where: { accountId: 'acct_intake_refused', route: 'jobs:invoice' } });
    expect(records.map((r) => [r.state, r.heu])).toEqual([['released', 0], ['released', 0]]);
  }, 120_000);

  it('runs a file job as the synchronous route runs it: the reservation set to the route\'s once the file is open, the result the route\'s answer', async () => {
    await startWorker();
    const pdf = await textPdf(INVOICE);
    const accepted = await (await post('/v1/jobs', { route: 'invoice', document: pdfDoc(pdf) })).json();
    const job = await finished(accepted.id);
    const sync = await (await post('/v1/extract/invoice', { document: pdfDoc(pdf) })).json();
    expect(job.status).toBe('succeeded');
    expect(job.result).toEqual(sync);
    const row = await s.db.prisma.job.findUniqueOrThrow({ where: { id: accepted.id } });
    const syncRecord = await s.db.prisma.usageRecord.findFirstOrThrow({ where: { accountId: 'acct_intake', route: { not: { startsWith: 'jobs:' } } }, orderBy: { createdAt: 'desc' } });
    expect(row.reservedHeu).toBeGreaterThanOrEqual(sync.usage.heu);
    const record = await s.db.prisma.usageRecord.findUniqueOrThrow({ where: { id: row.usageRecordId } });
    expect(record).toMatchObject({ state: 'settled', heu: sync.usage.heu });
    expect(syncRecord.heu).toBe(sync.usage.heu);
  }, 120_000);

  it('fails a job whose file, once open, needs more than its size said and more than the bucket holds: 402, uncharged', async () => {
    await startWorker();
    await s.db.prisma.account.create({ data: { id: 'acct_intake_poor', plan: 'free' } });
    const { key: poor } = await s.createKey('acct_intake_poor');
    // 40 blank pages in a few KB: reserved as one page when accepted, 40 once opened.
    const pages = pdfWith(Array.from({ length: 40 }, () => ({ width: 612, height: 792, content: Buffer.from('0 0 1 1 re f\n') })));
    const res = await post('/v1/jobs', { route: 'invoice', document: pdfDoc(pages) }, poor);
    expect(res.status).toBe(202);
    const job = await finished((await res.json()).id, poor);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'plan_limit_exceeded', details: { plan: 'free' } });
    expect(job.error.message).toMatch(/^Once opened, the file needs \d+ HEU/);
    expect(await heuUsed('acct_intake_poor')).toBe(0);
  }, 120_000);

  it('counts a job request holding a file when it is accepted or refused, as the synchronous routes count an opened file', async () => {
    await s.db.prisma.account.create({ data: { id: 'acct_intake_rate', plan: 'free' } });
    const { key: k } = await s.createKey('acct_intake_rate');
    // The free plan's 10 requests a minute, used by files refused at acceptance (an empty file: 422).
    for (let i = 0; i < 10; i++) {
      const res = await post('/v1/jobs', { route: 'invoice', document: { content: '', mediaType: 'application/pdf' } }, k);
      expect((await res.json()).error.code).toBe('document_unreadable');
    }
    const after = await post('/v1/jobs', { route: 'invoice', document: { text: INVOICE } }, k);
    expect(after.status).toBe(429);
    expect((await after.json()).error.details.reason).toBe('rate_limit');
    expect(await s.db.prisma.job.count({ where: { accountId: 'acct_intake_rate' } })).toBe(0);
    expect(await heuUsed('acct_intake_rate')).toBe(0);
  });
});
