import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { compiledWorker } from '../workers/compiled-worker.js';
import type { FileMediaType } from './media-types.js';
import type { FileFacts, FileText } from './read-file.js';
import type { ReaderOutcome, ReaderTask } from './reader-worker.js';

/** Probes and reads files: in worker threads when it can, else (a unit test on the sources alone) inline. */
export interface DocumentReader {
  probe(bytes: Uint8Array, mediaType: FileMediaType, signal?: AbortSignal): Promise<ReaderOutcome<FileFacts>>;
  read(bytes: Uint8Array, mediaType: FileMediaType, pages: number, signal: AbortSignal): Promise<ReaderOutcome<FileText>>;
  close(): Promise<void>;
}

/** Every thread busy and the queue full: the caller is told to come back (503). */
export class ReaderBusy extends Error {}
/** A file that took longer than its budget to read (the thread reading it was stopped). */
export class ReadOverBudget extends Error {}

/**
 * Reading budget: a probe is quick; a read gets 10 s a page (OCR takes 0.7 to 2.4 s a page here) and 10 s more,
 * counted by the thread from when it starts on the file (checked between pages), so a file queued behind others is
 * not failed for their time. The pool stops a thread only past that and QUEUE_ALLOWANCE_MS more (a page that hangs).
 */
const PROBE_BUDGET_MS = 15_000;
const budgetFor = (pages: number) => 10_000 + 10_000 * pages;
const QUEUE_ALLOWANCE_MS = 10 * 60_000;

/**
 * A bounded pool of threads (one less than the cores, at least one), apart from the offline engine's: a 50-page
 * scan is a minute of OCR, and an OCR thread holds about 240 MB, so threads and queue are bounded (memory stays
 * under 1 GB with four of the largest files in flight). Idle threads end, and their OCR worker with them.
 */
export function createDocumentReader(options: { threads?: number } = {}): DocumentReader {
  const threads = options.threads ?? Math.max(1, availableParallelism() - 1);
  const filename = threads > 0 ? compiledWorker(new URL('./reader-worker.js', import.meta.url)) : null;
  if (!filename) {
    // Inline (no compiled worker): loaded on first use only.
    const inline = () => import('./reader-worker.js').then((m) => m.runReaderTask);
    return {
      probe: async (bytes, mediaType) => (await inline())({ op: 'probe', bytes, mediaType }) as Promise<ReaderOutcome<FileFacts>>,
      read: async (bytes, mediaType) => (await inline())({ op: 'read', bytes, mediaType }) as Promise<ReaderOutcome<FileText>>,
      async close() {},
    };
  }
  const pool = new Piscina<ReaderTask, ReaderOutcome<FileFacts | FileText>>({ filename, minThreads: 0, maxThreads: threads, maxQueue: threads * 16, idleTimeout: 10_000 });
  // Probes (admission: is it a PDF, how many pages) have a thread of their own: queued behind a 50-page OCR read, a
  // request would wait a minute to be admitted, and outlive the probe's budget.
  const probes = new Piscina<ReaderTask, ReaderOutcome<FileFacts | FileText>>({ filename, minThreads: 0, maxThreads: 1, maxQueue: 64, idleTimeout: 10_000 });
  const run = async <T>(on: typeof pool, task: ReaderTask, budgetMs: number, signal?: AbortSignal): Promise<ReaderOutcome<T>> => {
    const budget = AbortSignal.timeout(budgetMs);
    try {
      return (await on.run(task, { signal: signal ? AbortSignal.any([signal, budget]) : budget })) as ReaderOutcome<T>;
    } catch (e) {
      if (signal?.aborted) throw signal.reason;
      if (budget.aborted) throw new ReadOverBudget();
      if (e instanceof Error && e.message === 'Task queue is at limit') throw new ReaderBusy();
      throw e;
    }
  };
  return {
    probe: (bytes, mediaType, signal) => run<FileFacts>(probes, { op: 'probe', bytes, mediaType }, PROBE_BUDGET_MS, signal),
    read: (bytes, mediaType, pages, signal) => run<FileText>(pool, { op: 'read', bytes, mediaType, budgetMs: budgetFor(pages) }, budgetFor(pages) + QUEUE_ALLOWANCE_MS, signal),
    close: async () => { await Promise.all([pool.destroy(), probes.destroy()]); },
  };
}
