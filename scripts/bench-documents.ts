// Reading files, measured through the running service (offline engine):
//   a one-page text PDF adds under 100 ms to the same document sent as text; a one-page scan is read in under 3 s;
//   /healthz stays fast (p99 under 100 ms) while 20-page PDFs and scans are read; memory with 4 maximum-size files in
//   flight; and hostile files: the flate bomb (422 within its budget, under 1.5 GB, another account's PDF answered
//   meanwhile), a caller hanging up (its reader process gone), 8 streams of refused files from a free account beside
//   another account's PDF, and the three pixel bypasses. Memory is the service's resident memory AND its reader
//   processes' (the tree under the service's pid, from /proc). Every figure is labelled with the load average then:
//   the machine is shared.
//   npx tsx scripts/bench-documents.ts            (builds the server first; a child process on 127.0.0.1; stops by itself)
//   BENCH_ONLY=memory | hostile                   (one part alone)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { mintDashboardToken } from '../server/src/auth/dashboard-tokens.js';
import pg from 'pg';
import { postgresBinDir, startCluster, stopCluster } from '../server/test/support/postgres-cluster.js';
import { scanPdf, scanPng, textPdf } from '../server/test/support/render-documents.js';
import { decoyJpeg, duplicateTagTiff, flateBombPdf, hugePagePdf } from '../server/test/support/hostile-files.js';
import { PDFDocument } from 'pdf-lib';

const root = fileURLToPath(new URL('..', import.meta.url));
const SECRET = 'bench-documents-secret-bench-documents-0123';
execFileSync(process.execPath, [join(root, 'scripts/build-server.mjs')], { stdio: 'ignore' });

// shared/ sits beside the repository (one level up from a git worktree under wt/, two).
const INVOICE = readFileSync([join(root, '../shared'), join(root, '../../shared')].map((d) => join(d, 'corpus/invoice/p-acme-cloud.txt')).find((f) => existsSync(f))!, 'utf8');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

// On PostgreSQL, as in production, when Debian's binaries are here: the embedded database (PGlite, in the process)
// holds 450-700 MB of the service's own resident memory, which would hide what reading files costs.
const cluster = postgresBinDir() ? await startCluster() : null;
let databaseUrl = '';
if (cluster) {
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE bench_documents');
  await admin.end();
  databaseUrl = cluster.url('bench_documents');
}

async function startService(): Promise<{ base: string; key: string; child: ChildProcess; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-documents-'));
  const plans = join(dataDir, 'plans.json');
  // The free plan keeps its 10 requests a minute (the refusing streams of case 7); the bench's own account is made
  // starter (no limit that matters) on PostgreSQL.
  writeFileSync(plans, JSON.stringify({ free: { heuPerMonth: 1e9, requestsPerMinute: cluster ? 10 : 1e9 }, starter: { heuPerMonth: 1e9, requestsPerMinute: 1e9 } }));
  const child = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: root, detached: true, stdio: ['ignore', 'pipe', 'inherit'],
    env: { PATH: process.env.PATH!, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', DASHBOARD_JWT_SECRET: SECRET, PLANS_FILE: plans, NODE_ENV: 'production', EXTRACTION_ENGINE: 'local', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => { out += d; const m = /"port":(\d+)/.exec(out); if (m) { child.stdout!.removeAllListeners('data'); child.stdout!.resume(); resolve(Number(m[1])); } });
    child.once('exit', (code) => reject(new Error(`the service exited ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const key = await keyFor(base, 'acct_bench_documents');
  if (cluster) await sql(`UPDATE accounts SET plan = 'starter' WHERE id = 'acct_bench_documents'`);
  return { base, key, child, dataDir };
}

async function keyFor(base: string, accountId: string): Promise<string> {
  const token = await mintDashboardToken(SECRET, accountId);
  return ((await (await fetch(`${base}/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: '{}' })).json()) as { key: string }).key;
}

async function sql(statement: string): Promise<void> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  await c.query(statement);
  await c.end();
}

const svc = await startService();
const send = async (document: Record<string, unknown>, key = svc.key, signal?: AbortSignal) => {
  const started = performance.now();
  const res = await fetch(`${svc.base}/v1/extract/invoice`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ document }), ...(signal ? { signal } : {}) });
  const body = await res.json() as { source?: { method: string }; error?: { code: string; message: string } };
  return { status: res.status, body, ms: performance.now() - started };
};
const extract = async (document: Record<string, unknown>, key = svc.key) => {
  const r = await send(document, key);
  if (r.status !== 200) throw new Error(`answered ${r.status}: ${JSON.stringify(r.body)}`);
  return { ms: r.ms, method: r.body.source?.method };
};
const statusRss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const rssMb = () => statusRss(svc.child.pid!);
/** The processes under the service (its reader processes: spares and those reading). */
const descendants = (pid: number): number[] => {
  const out: number[] = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) out.push(Number(c), ...descendants(Number(c)));
    }
  } catch { /* gone */ }
  return out;
};
/** The service and its reader processes together, in MB. */
const treeMb = () => [svc.child.pid!, ...descendants(svc.child.pid!)].reduce((n, pid) => { try { return n + statusRss(pid); } catch { return n; } }, 0);
const load = () => `load ${loadavg().map((x) => x.toFixed(1)).join(' ')}`;
/** Samples the tree's resident memory every 100 ms until stopped: the peak, in MB. */
const sampleTree = () => {
  let peak = treeMb(), peakService = rssMb();
  const timer = setInterval(() => { try { peak = Math.max(peak, treeMb()); peakService = Math.max(peakService, rssMb()); } catch { /* gone */ } }, 100);
  return () => { clearInterval(timer); return { peak, peakService }; };
};

const lines: string[] = [];
const report = (line: string) => { lines.push(line); console.log(line); };
try {
  report(`machine: ${cpus().length} x ${cpus()[0]?.model}, Node ${process.version}; database: ${cluster ? 'PostgreSQL' : 'embedded'}; resident at start ${rssMb().toFixed(0)} MB (service), ${treeMb().toFixed(0)} MB with its reader processes; ${load()}`);

  if (!process.env.BENCH_ONLY) await latencyCases();
  if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'memory') await memoryCase();
  if (!process.env.BENCH_ONLY || process.env.BENCH_ONLY === 'hostile') await hostileCases();
} finally {
  try { process.kill(-svc.child.pid!, 'SIGTERM'); } catch { /* gone */ }
  await new Promise((r) => setTimeout(r, 1000)); // the service's last writes to its data folder
  rmSync(svc.dataDir, { recursive: true, force: true, maxRetries: 5 });
  if (cluster) stopCluster(cluster.dir);
}

async function latencyCases(): Promise<void> {
  // 1. A one-page text PDF against the same text: paced (a file every 3 s, the spare processes ready, as when files
  // are not arriving faster than processes start), then back to back (each file takes a fresh process, which probes
  // and reads it, so files in a row wait for processes to start: the reader's throughput).
  const pdf = b64(await textPdf(INVOICE));
  await extract({ content: pdf, mediaType: 'application/pdf' });
  const asText: number[] = [], paced: number[] = [];
  const pacedLoad = load();
  for (let i = 0; i < 10; i++) {
    await new Promise((r) => setTimeout(r, 3000));
    asText.push((await extract({ text: INVOICE })).ms);
    paced.push((await extract({ content: pdf, mediaType: 'application/pdf' })).ms);
  }
  report(`1. one-page invoice, a file every 3 s: as text ${median(asText).toFixed(1)} ms, as a text PDF ${median(paced).toFixed(1)} ms (median of 10): the PDF adds ${(median(paced) - median(asText)).toFixed(1)} ms (target < 100 ms); ${pacedLoad}`);
  const backToBack: number[] = [];
  const started = performance.now();
  const rowLoad = load();
  for (let i = 0; i < 20; i++) backToBack.push((await extract({ content: pdf, mediaType: 'application/pdf' })).ms);
  report(`   back to back: ${median(backToBack).toFixed(1)} ms a text PDF (median of 20), ${(20 / ((performance.now() - started) / 1000)).toFixed(1)} files a second; ${rowLoad}`);
  report(`   resident after 1: ${rssMb().toFixed(0)} MB (service), ${treeMb().toFixed(0)} MB with its reader processes`);

  // 2. A one-page 300-dpi scan.
  const scan = b64(await scanPng(INVOICE, { dpi: 300 }));
  const first = await extract({ content: scan, mediaType: 'image/png' }).catch((e: Error) => { report(`   the first scan: ${e.message.slice(0, 200)}`); return { ms: NaN }; });
  const scans: number[] = [];
  const scanLoad = load();
  for (let i = 0; i < 5; i++) {
    const r = await send({ content: scan, mediaType: 'image/png' });
    if (r.status === 200) scans.push(r.ms);
    else report(`   a scan answered ${r.status}: ${r.body.error?.message ?? ''}`);
  }
  report(`   resident after 2: ${rssMb().toFixed(0)} MB (service), ${treeMb().toFixed(0)} MB with its reader processes`);
  report(`2. one-page 300-dpi scan: ${(median(scans) / 1000).toFixed(2)} s (median of 5; the first ${(first.ms / 1000).toFixed(2)} s; every read starts its own OCR worker now; target < 3 s); ${scanLoad}`);

  // 3. Liveness while 20-page PDFs (text layer) and a 5-page scanned PDF are read back to back by two clients.
  const long = b64(await textPdf(Array.from({ length: 20 }, () => INVOICE).join('\n'.repeat(40))));
  const scanned = b64(await scanPdf(INVOICE, { dpi: 200 }));
  let running = true, files = 0;
  const client = async (document: Record<string, unknown>) => { while (running) { if ((await send(document)).status === 200) files++; } };
  const clients = [client({ content: long, mediaType: 'application/pdf' }), client({ content: scanned, mediaType: 'application/pdf' })];
  await new Promise((r) => setTimeout(r, 500));
  const liveLoad = load();
  const live = await autocannon({ url: `${svc.base}/healthz`, connections: 4, duration: 10 });
  running = false;
  await Promise.all(clients);
  report(`3. GET /healthz while two clients send a 20-page text PDF and a scanned PDF back to back: p50 ${live.latency.p50} ms, p99 ${live.latency.p99} ms, ${live.non2xx + live.errors} errors; ${files} files read meanwhile (target p99 < 100 ms); ${liveLoad}`);

  report(`   resident after 3: ${rssMb().toFixed(0)} MB (service), ${treeMb().toFixed(0)} MB with its reader processes; after 15 s idle: ${await new Promise<string>((r) => setTimeout(() => r(`${rssMb().toFixed(0)} MB, ${treeMb().toFixed(0)} MB`), 15_000))}`);

}

async function memoryCase(): Promise<void> {
  // 4. Resident memory with 4 maximum-size files in flight: ~10 MB PDFs of scanned pages (OCR on every page), each
  // page its own image (pdf-lib stores one image once, however many pages show it).
  // Pages are added while the PDF stays within the 10 MB limit (pdf-lib stores a PNG's pixels re-compressed).
  // The file takes minutes to make on a busy machine: kept in the temporary folder between runs.
  const cached = join(tmpdir(), 'bench-documents-10mb-scans.pdf');
  let file: Uint8Array = existsSync(cached) ? new Uint8Array(readFileSync(cached)) : new Uint8Array();
  if (file.byteLength === 0) {
    const pages: Uint8Array[] = [];
    for (let seed = 1; pages.length < 50; seed++) {
      const next = [...pages, await scanPng(INVOICE, { dpi: 300, seed })];
      const candidate = await scanPdfPages(next);
      if (candidate.byteLength > 10 * 2 ** 20) break;
      pages.push(next[next.length - 1]!);
      file = candidate;
    }
    writeFileSync(cached, file);
  }
  const { PDFDocument: Doc } = await import('pdf-lib');
  const pagesPerFile = (await Doc.load(file)).getPageCount();
  const big = b64(file);
  const before = treeMb();
  const memoryLoad = load();
  const stop = sampleTree();
  const started = performance.now();
  // Four accounts, one file each (one account's files are read one at a time: READER_ACCOUNT_CONCURRENCY).
  const keys = [svc.key, ...(await Promise.all([1, 2, 3].map((i) => keyFor(svc.base, `acct_bench_memory_${i}`))))];
  const results = await Promise.allSettled(keys.map((key) => extract({ content: big, mediaType: 'application/pdf' }, key)));
  const { peak, peakService } = stop();
  const ok = results.filter((r) => r.status === 'fulfilled').length;
  for (const r of results) if (r.status === 'rejected') report(`   refused: ${String((r.reason as Error).message).slice(0, 200)}`);
  report(`4. 4 files of ${(Buffer.byteLength(big, 'base64') / 2 ** 20).toFixed(1)} MB (${pagesPerFile} scanned pages each) at once, from 4 accounts: ${ok}/4 answered in ${((performance.now() - started) / 1000).toFixed(0)} s; resident ${before.toFixed(0)} MB before, at peak ${peak.toFixed(0)} MB for the service and its readers (the service alone ${peakService.toFixed(0)} MB) (target < 1.5 GB); ${memoryLoad}`);
}

async function hostileCases(): Promise<void> {
  const honestKey = await keyFor(svc.base, 'acct_bench_honest');
  if (cluster) await sql(`UPDATE accounts SET plan = 'starter' WHERE id = 'acct_bench_honest'`);
  const honestPdf = { content: b64(await textPdf(INVOICE)), mediaType: 'application/pdf' };
  await new Promise((r) => setTimeout(r, 3000)); // spares ready

  // 5. The flate bomb, and another account's text PDF sent a second later.
  {
    const hostileKey = await keyFor(svc.base, 'acct_bench_hostile');
    const caseLoad = load();
    const stop = sampleTree();
    const bomb = send({ content: b64(flateBombPdf()), mediaType: 'application/pdf' }, hostileKey);
    await new Promise((r) => setTimeout(r, 1000));
    const honest = await send(honestPdf, honestKey);
    const answered = await bomb;
    const { peak, peakService } = stop();
    report(`5. flate bomb (195 KB, 100 MB of operators): ${answered.status} ${answered.body.error?.code ?? ''} in ${(answered.ms / 1000).toFixed(1)} s (read budget 30 s; ${answered.body.error?.message ?? ''}); peak ${peak.toFixed(0)} MB service + readers (service alone ${peakService.toFixed(0)} MB; target < 1.5 GB); another account's text PDF sent 1 s later: ${honest.status} in ${(honest.ms / 1000).toFixed(2)} s (target < 10 s); ${caseLoad}`);
  }

  // 6. A caller that hangs up while its file is read: how long until its reader process is gone.
  {
    const caseLoad = load();
    const before = new Set(descendants(svc.child.pid!));
    const caller = new AbortController();
    const request = send({ content: b64(flateBombPdf()), mediaType: 'application/pdf' }, svc.key, caller.signal).catch(() => null);
    // The read has started once a process is busy for a few seconds (the probe takes about 1 s): wait 5 s.
    await new Promise((r) => setTimeout(r, 5000));
    // The reading process is the one that grew (the bomb's operators fill its heap); spares stay near 110 MB.
    const rss = (pid: number) => { try { return statusRss(pid); } catch { return -1; } };
    const busy = descendants(svc.child.pid!).sort((a, b) => rss(b) - rss(a))[0]!;
    void before;
    const hungUp = performance.now();
    caller.abort();
    await request;
    while (existsSync(`/proc/${busy}`) && performance.now() - hungUp < 10_000) await new Promise((r) => setTimeout(r, 5));
    report(`6. a caller hangs up 5 s into reading the bomb: its reader process (pid ${busy}) gone ${(performance.now() - hungUp).toFixed(0)} ms later (target < 1 s); ${caseLoad}`);
  }

  // 7. 8 parallel streams of refused files (51 pages: 413 once opened) from one free account, and another account's
  // text PDF meanwhile.
  if (cluster) {
    const freeKey = await keyFor(svc.base, 'acct_bench_free');
    const doc = await PDFDocument.create();
    for (let i = 0; i < 51; i++) doc.addPage();
    const refused = { content: b64(await doc.save()), mediaType: 'application/pdf' };
    const statuses: number[] = [];
    const caseLoad = load();
    const streams = Array.from({ length: 8 }, async () => { for (let i = 0; i < 4; i++) statuses.push((await send(refused, freeKey)).status); });
    await new Promise((r) => setTimeout(r, 200));
    const honest = await send(honestPdf, honestKey);
    await Promise.all(streams);
    const count = (s: number) => statuses.filter((x) => x === s).length;
    report(`7. 8 streams of refused 51-page PDFs from a free account (32 requests): ${count(413)} x 413, ${count(429)} x 429, ${statuses.length - count(413) - count(429)} other; another account's text PDF meanwhile: ${honest.status} in ${(honest.ms / 1000).toFixed(2)} s (target < 5 s); ${caseLoad}`);
  } else {
    report('7. (skipped: needs PostgreSQL, to keep the free plan\'s rate)');
  }

  // 8. The pixel bypasses.
  for (const [name, document] of [
    ['JPEG with a decoy SOF behind a fill byte (8000x8000)', { content: b64(await decoyJpeg(8000)), mediaType: 'image/jpeg' }],
    ['TIFF with duplicate width/height tags (20000x20000)', { content: b64(duplicateTagTiff(20_000)), mediaType: 'image/tiff' }],
    ['582-byte PDF with a 7000-point page', { content: b64(hugePagePdf(7000)), mediaType: 'application/pdf' }],
  ] as const) {
    const caseLoad = load();
    const stop = sampleTree();
    const r = await send(document, honestKey);
    const { peak } = stop();
    report(`8. ${name}: ${r.status} ${r.body.error?.code ?? ''} in ${(r.ms / 1000).toFixed(2)} s, peak ${peak.toFixed(0)} MB service + readers (target < 1.5 GB); ${caseLoad}`);
  }
}

/** A PDF of scanned page images (no text layer). */
async function scanPdfPages(pngs: Uint8Array[]): Promise<Uint8Array> {
  const { PDFDocument } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  for (const png of pngs) doc.addPage([612, 792]).drawImage(await doc.embedPng(png), { x: 0, y: 0, width: 612, height: 792 });
  return doc.save();
}
