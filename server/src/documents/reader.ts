import { compiledWorker } from '../workers/compiled-worker.js';
import { MAX_PAGES } from './limits.js';
import type { FileMediaType } from './media-types.js';
import { READER_DEFAULTS } from './reader-defaults.js';
import type { DocumentProblem } from './problems.js';
import type { FileFacts, FileText } from './read-file.js';
import type { ReaderOutcome, ReaderTask } from './reader-task.js';
import { FairScheduler, QueueFull, type SchedulerState } from './sandbox/fair-scheduler.js';
import { createLauncher, type Launcher } from './sandbox/launcher.js';
import type { ProcessFailure } from './sandbox/reader-process.js';
import { SpareProcesses } from './sandbox/spare-processes.js';

/** How the reader is sized (READER_* variables; defaults for 2 cores and a 1.5 GB service). */
export interface ReaderOptions {
  /** Reader processes reading at once, all accounts together. */
  processes?: number;
  /** The memory limit of each reader process, in MB. */
  memoryMb?: number;
  /** Probes and reads one account may run at once: below `processes`, so no account can take every process. */
  perAccount?: number;
  /** Processes started ahead of time (modules loaded), beyond `processes`. */
  spares?: number;
  log?: ReaderLog;
}


export interface ReaderLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

/** Whose file it is (fairness is per account), and the caller's connection (gone: the work stops). */
export interface ReadCaller {
  accountId: string;
  signal?: AbortSignal;
}

/** Probes and reads files, each in a fresh reader process under hard limits, accounts served fairly. */
export interface DocumentReader {
  probe(bytes: Uint8Array, mediaType: FileMediaType, caller: ReadCaller): Promise<ReaderOutcome<FileFacts>>;
  read(bytes: Uint8Array, mediaType: FileMediaType, pages: number, caller: ReadCaller): Promise<ReaderOutcome<FileText>>;
  /** Starts the spare processes now rather than on the first file. */
  warm(): void;
  /** What runs and waits, the reader processes alive (their pids), and the tasks they run. */
  state(): ReaderState;
  close(): Promise<void>;
}

export interface ReaderState extends SchedulerState {
  /** Every reader process alive: spares and those running a task. */
  pids: number[];
  /** The tasks running in a process now. */
  tasks: { pid: number; op: ReaderTask['op']; accountId: string }[];
}

/** Every process busy and the queue full, or a file waited too long: the caller is told to come back (503). */
export class ReaderBusy extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super('The document reader is busy');
  }
}

/**
 * Budgets, counted from when a process starts on the task (time queued does not count): a probe is quick (type,
 * pages, size); a read gets 10 s a page (OCR takes 0.7 to 2.4 s a page here) and 10 s more. Past it the process is
 * killed.
 */
export const PROBE_BUDGET_MS = 15_000;
export const readBudgetMs = (pages: number) => 10_000 + 10_000 * pages;

/** Waiting files: per account (a batch's items), and in all. Past either, 503. */
const QUEUE_PER_ACCOUNT = 32;
const QUEUE_TOTAL = 256;
/** The longest a file waits for a process before it is refused (503): the reader is saturated. */
const MAX_WAIT_MS = 120_000;

export function createDocumentReader(options: ReaderOptions = {}): DocumentReader {
  const processes = options.processes ?? READER_DEFAULTS.processes;
  const memoryMb = options.memoryMb ?? READER_DEFAULTS.memoryMb;
  const perAccount = Math.min(options.perAccount ?? READER_DEFAULTS.perAccount, processes);
  const scheduler = new FairScheduler({ slots: processes, perAccount, queuePerAccount: QUEUE_PER_ACCOUNT, queueTotal: QUEUE_TOTAL, maxWaitMs: MAX_WAIT_MS });
  const script = compiledWorker(new URL('./sandbox/reader-child.js', import.meta.url));
  const launcher: Launcher | null = script ? createLauncher(script, limitsFor(memoryMb)) : null;
  const spares = launcher ? new SpareProcesses(launcher, options.spares ?? READER_DEFAULTS.spares) : null;
  const running = new Set<ReaderState['tasks'][number]>();
  let announced = false;
  const announce = () => {
    if (announced) return;
    announced = true;
    options.log?.info({ reader: { processes, perAccount, spares: options.spares ?? READER_DEFAULTS.spares, memoryMb, ...(launcher ? launcher.describe() : { mode: 'inline: no compiled reader (sources only), no limits' }) } }, 'document reader: one process per file, under these limits');
  };

  const runTask = async <T>(task: ReaderTask, budgetMs: number, caller: ReadCaller): Promise<ReaderOutcome<T>> => {
    announce();
    try {
      return await scheduler.run(caller.accountId, async () => {
        if (!spares) {
          // Unit tests on the sources alone: the same functions, in this process, without limits.
          const { runReaderTask } = await import('./reader-task.js');
          return (await runReaderTask(task)) as ReaderOutcome<T>;
        }
        const started = Date.now();
        const process = await spares.take();
        const entry = { pid: process.pid ?? 0, op: task.op, accountId: caller.accountId };
        running.add(entry);
        const end = await process.run(task, budgetMs, caller.signal).finally(() => running.delete(entry));
        if (end.ok) return end.outcome as ReaderOutcome<T>;
        options.log?.warn({ reader: { op: task.op, mediaType: task.mediaType, bytes: task.bytes.byteLength, ms: Date.now() - started, failure: end.failure } }, 'a reader process stopped without reading the file');
        return { ok: false, problem: problemOf(end.failure) };
      }, caller.signal);
    } catch (e) {
      if (e instanceof QueueFull) throw new ReaderBusy(e.retryAfterSeconds);
      throw e;
    }
  };

  return {
    probe: (bytes, mediaType, caller) => runTask<FileFacts>({ op: 'probe', bytes, mediaType }, PROBE_BUDGET_MS, caller),
    read: (bytes, mediaType, pages, caller) => runTask<FileText>({ op: 'read', bytes, mediaType, budgetMs: readBudgetMs(pages) }, readBudgetMs(pages), caller),
    warm() {
      announce();
      spares?.warm();
    },
    state: () => ({ ...scheduler.state(), pids: spares?.pids() ?? [], tasks: [...running] }),
    async close() {
      scheduler.drain(new ReaderBusy(5));
      await spares?.close();
    },
  };
}

/**
 * The limits of each process from its memory: V8's heap gets under half (pdf.js's operator lists live there), the
 * rest is for OCR's WebAssembly memory, decoded images and canvases; CPU seconds cover the longest read's budget.
 */
function limitsFor(memoryMb: number) {
  return { memoryBytes: memoryMb * 2 ** 20, heapMb: Math.max(96, Math.floor(memoryMb * 0.45)), cpuSeconds: Math.ceil(readBudgetMs(MAX_PAGES) / 1000) + 10 };
}

function problemOf(failure: ProcessFailure): DocumentProblem {
  if (failure.kind === 'over_budget') {
    return { code: 'document_unreadable', message: `The file could not be read within the reader's limits: it took longer than ${Math.round(failure.budgetMs / 1000)} s.` };
  }
  return { code: 'document_unreadable', message: "The file could not be read within the reader's limits (memory and processing time)." };
}
