import { compiledWorker } from '../workers/compiled-worker.js';
import { MAX_PAGES } from './limits.js';
import { kindOf, type FileMediaType } from './media-types.js';
import { READER_DEFAULTS } from './reader-defaults.js';
import type { DocumentProblem } from './problems.js';
import type { FileFacts, FileText } from './read-file.js';
import type { ReaderOutcome, ReaderTask } from './reader-task.js';
import { FairScheduler, QueueFull, type SchedulerState } from './sandbox/fair-scheduler.js';
import { createLauncher, type Launcher } from './sandbox/launcher.js';
import type { ChildMessage } from './sandbox/protocol.js';
import type { ProcessFailure, ReaderProcess } from './sandbox/reader-process.js';
import { SpareProcesses } from './sandbox/spare-processes.js';
import { probeTextFile, readPlainTextFile } from './text-file.js';

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

/**
 * The process that probed a file, kept (with its slot) for the read of that file: one process per file instead of
 * two. Read once, or released (killed); released by itself after LEASE_MS, or when the probe's caller goes.
 */
export interface ReadLease {
  read(pages: number, caller: ReadCaller): Promise<ReaderOutcome<FileText>>;
  release(): void;
}

/** Probes and reads files, each in a fresh reader process under hard limits, accounts served fairly. */
export interface DocumentReader {
  /** With `keep`, a file that passes its probe comes with a lease on the process that probed it, for its read. */
  probe(bytes: Uint8Array, mediaType: FileMediaType, caller: ReadCaller, keep?: boolean): Promise<{ outcome: ReaderOutcome<FileFacts>; lease?: ReadLease }>;
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
 * pages, size); a read gets 10 s a page (OCR takes 0.7 to 2.4 s a page here) and 20 s more, since every read that
 * needs OCR starts its own OCR engine (0.5 s alone, over 5 s on a machine loaded 10 times over). Past it the process
 * is killed.
 */
export const PROBE_BUDGET_MS = 15_000;
export const readBudgetMs = (pages: number) => 20_000 + 10_000 * pages;

/** Waiting files: per account (a batch's items), and in all. Past either, 503. */
const QUEUE_PER_ACCOUNT = 32;
const QUEUE_TOTAL = 256;
/** The longest a file waits for a process before it is refused (503): the reader is saturated. */
const MAX_WAIT_MS = 120_000;
/**
 * Work done in the service itself, without a process: one linear pass over bytes already in memory, no parser, as
 * bounded as `document.text` sent in JSON (which the service parses too): checking that a text file (plain,
 * Markdown, HTML) is UTF-8 without binary control characters, and reading a plain-text file (decode, line ends).
 * Markdown and HTML are read in a process (their readers run regular expressions and an HTML parser over the file),
 * as is every other kind.
 */
const inService = (task: ReaderTask) => {
  const kind = kindOf(task.mediaType);
  return task.op === 'probe' ? kind === 'text' || kind === 'markdown' || kind === 'html' : kind === 'text';
};

/**
 * How long a probe's process is kept for the read of its file (admission is one statement in between): past it, or
 * when the probe's caller hangs up, it is killed and its slot freed; the read, if it comes, takes a fresh process.
 */
const LEASE_MS = 10_000;

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

  /** One message to a process, its end told as an outcome (a process that stopped: a problem, and a warn line). */
  const exchange = async <T>(process: ReaderProcess, message: ChildMessage, task: ReaderTask, budgetMs: number, caller: ReadCaller): Promise<ReaderOutcome<T>> => {
    const started = Date.now();
    const entry = { pid: process.pid ?? 0, op: task.op, accountId: caller.accountId };
    running.add(entry);
    const end = await process.run(message, budgetMs, caller.signal).finally(() => running.delete(entry));
    if (end.ok) return end.outcome as ReaderOutcome<T>;
    options.log?.warn({ reader: { op: task.op, mediaType: task.mediaType, bytes: task.bytes.byteLength, ms: Date.now() - started, failure: end.failure } }, 'a reader process stopped without reading the file');
    return { ok: false, problem: problemOf(end.failure) };
  };

  /**
   * A task in a fresh process, once the account is granted a slot. With `keep`, a successful probe's process and slot
   * are held by a lease for the read of the same file (`then` receives it; the slot is freed when the lease ends).
   */
  const runTask = async <T>(task: ReaderTask, budgetMs: number, caller: ReadCaller, keep?: (lease: ReadLease) => void): Promise<ReaderOutcome<T>> => {
    announce();
    // The answer is given as soon as the task ends; the slot is given back when the job ends (for a kept probe, when
    // its lease does).
    let deliver!: (outcome: ReaderOutcome<T>) => void;
    let fail!: (e: unknown) => void;
    const answer = new Promise<ReaderOutcome<T>>((resolve, reject) => { deliver = resolve; fail = reject; });
    scheduler.run(caller.accountId, async () => {
      if (!spares) {
        // Unit tests on the sources alone: the same functions, in this process, without limits.
        const { runReaderTask } = await import('./reader-task.js');
        return deliver((await runReaderTask(task)) as ReaderOutcome<T>);
      }
      const process = await spares.take();
      let outcome: ReaderOutcome<T>;
      try {
        outcome = await exchange<T>(process, { task, ...(keep ? { keep: true } : {}) }, task, budgetMs, caller);
      } catch (e) {
        process.kill();
        throw e;
      }
      if (!keep || !outcome.ok) {
        process.kill();
        return deliver(outcome);
      }
      await new Promise<void>((ended) => {
        let used = false;
        const end = () => {
          clearTimeout(timer);
          caller.signal?.removeEventListener('abort', release);
          process.kill();
          ended();
        };
        const release = () => {
          if (used) return;
          used = true;
          end();
        };
        const timer = setTimeout(release, LEASE_MS);
        timer.unref();
        caller.signal?.addEventListener('abort', release, { once: true });
        keep({
          read: async (pages, readCaller) => {
            if (used) throw new Error('a read lease is used once');
            used = true;
            clearTimeout(timer);
            const read: ReaderTask = { op: 'read', bytes: task.bytes, mediaType: task.mediaType, budgetMs: readBudgetMs(pages) };
            try {
              return await exchange<FileText>(process, { read: { budgetMs: readBudgetMs(pages) } }, read, readBudgetMs(pages), readCaller);
            } finally {
              end();
            }
          },
          release,
        });
        deliver(outcome);
      });
    }, caller.signal).catch(fail);
    try {
      return await answer;
    } catch (e) {
      if (e instanceof QueueFull) throw new ReaderBusy(e.retryAfterSeconds);
      throw e;
    }
  };

  return {
    async probe(bytes, mediaType, caller, keep = false) {
      if (inService({ op: 'probe', bytes, mediaType })) return { outcome: probeTextFile(bytes, mediaType) };
      let lease: ReadLease | undefined;
      const outcome = await runTask<FileFacts>({ op: 'probe', bytes, mediaType }, PROBE_BUDGET_MS, caller, keep ? (l) => { lease = l; } : undefined);
      return lease ? { outcome, lease } : { outcome };
    },
    read: (bytes, mediaType, pages, caller) => {
      const task: ReaderTask = { op: 'read', bytes, mediaType, budgetMs: readBudgetMs(pages) };
      return inService(task) ? Promise.resolve(readPlainTextFile(bytes)) : runTask<FileText>(task, readBudgetMs(pages), caller);
    },
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
