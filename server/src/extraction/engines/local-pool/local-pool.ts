import { Piscina } from 'piscina';
import { compiledWorker } from '../../../workers/compiled-worker.js';
import { usableCores } from '../../../host/usable-cores.js';
import { runClassifyTask, type ClassifyOutput, type ClassifyTask } from '../../../classification/classify-task.js';
import { runLocalTask, type LocalTaskInput, type LocalTaskOutput } from './local-task.js';
import type { LocalWorkerInput } from './local-worker.js';
import { engineCaller, type EngineCaller } from './engine-turns.js';
import { FairTaskQueue } from './fair-task-queue.js';

/** Runs offline extractions: in worker threads when it can, else (a unit test on the sources alone) inline. */
export interface LocalRunner {
  run(input: LocalTaskInput, signal: AbortSignal): Promise<LocalTaskOutput>;
  /** Offline classification (and splitting pages into documents), in the same threads. */
  classify(task: ClassifyTask, signal: AbortSignal): Promise<ClassifyOutput>;
  close(): Promise<void>;
}


/**
 * A bounded pool of worker threads (one less than the cores this process may use, its cgroup's CPU quota included;
 * at least one): a 200,000-character document keeps a core busy for about 0.2 s and a batch holds twenty, which on the
 * event loop held every other request (a 20-item batch of such invoices blocked `/healthz` for 9.9 s). Tasks wait in the pool's queue; a caller that goes away, or a task past
 * its CPU budget, is aborted (its thread is replaced).
 */
export function createLocalRunner(options: { threads?: number; taskBudgetMs: number }): LocalRunner {
  const threads = options.threads ?? Math.max(1, usableCores() - 1);
  const filename = threads > 0 ? compiledWorker(new URL('./local-worker.js', import.meta.url)) : null;
  if (!filename) {
    return {
      async run(input, signal) {
        if (signal.aborted) throw signal.reason;
        return runLocalTask(input);
      },
      async classify(task, signal) {
        if (signal.aborted) throw signal.reason;
        return runClassifyTask(task);
      },
      async close() {},
    };
  }
  // The queue is bounded so that waiting in it stays far below a task's budget (a task is at most ~0.2 s of work on a
  // 200,000-character document): a budget is for a task that runs away, never for one that waited its turn. Idle
  // threads end after a while, so a quiet process (or a test) holds none.
  // Piscina is handed a task only when a thread is free: the rest wait here, in turns per lane and account
  // (fair-task-queue.ts). The queue is bounded as Piscina's was.
  const pool = new Piscina<LocalWorkerInput | ClassifyTask, LocalTaskOutput | ClassifyOutput>({ filename, minThreads: 0, maxThreads: threads, maxQueue: threads * QUEUE_PER_THREAD, idleTimeout: 10_000 });
  const turns = new Turns(threads, threads * QUEUE_PER_THREAD);
  const runTask = async <T>(message: LocalWorkerInput | ClassifyTask, signal: AbortSignal): Promise<T> => {
    const done = await turns.wait(engineCaller(), signal);
    // The budget runs from the task's start, not from its submission: waiting its turn never counts against it.
    const budget = AbortSignal.timeout(options.taskBudgetMs);
    try {
      return (await pool.run(message, { signal: AbortSignal.any([signal, budget]) })) as T;
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      if (budget.aborted) throw new LocalTaskOverBudget();
      if (e instanceof Error && e.message === 'Task queue is at limit') throw new LocalPoolFull();
      throw e;
    } finally {
      done();
    }
  };
  return {
    // A fixed route's schema stays here: the thread has its own (a copy per task would also be compiled per task).
    run: (input, signal) => runTask<LocalTaskOutput>(input.task.kind === 'custom' ? input : { task: input.task, text: input.text }, signal),
    classify: (task, signal) => runTask<ClassifyOutput>(task, signal),
    close: () => pool.destroy(),
  };
}

interface Waiting {
  caller: EngineCaller;
  start: () => void;
}

/** Who runs next on the pool's threads: `slots` tasks at once, the others waiting in a FairTaskQueue. */
class Turns {
  private running = 0;
  private readonly waiting = new FairTaskQueue<Waiting>();

  constructor(private readonly slots: number, private readonly maxWaiting: number) {}

  /** Resolves when the caller's task may start, with what to call when it ends; rejects when aborted meanwhile. */
  wait(caller: EngineCaller, signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    const done = () => this.next();
    if (this.running < this.slots && this.waiting.size === 0) {
      this.running++;
      return Promise.resolve(done);
    }
    if (this.waiting.size >= this.maxWaiting) return Promise.reject(new LocalPoolFull());
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.waiting.remove(entry);
        reject(signal.reason);
      };
      const entry: Waiting = { caller, start: () => { signal.removeEventListener('abort', onAbort); resolve(done); } };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(entry);
    });
  }

  private next(): void {
    this.running--;
    const entry = this.waiting.shift();
    if (!entry) return;
    this.running++;
    entry.start();
  }
}

/** A task that ran past its budget (the worker running it was stopped). */
export class LocalTaskOverBudget extends Error {}

/** Every thread busy and the queue full: the caller is told to come back (503), nothing waits without bound. */
export class LocalPoolFull extends Error {}

/** Tasks that may wait per thread: 64 of the largest documents are ~13 s of work, far below the default budget. */
const QUEUE_PER_THREAD = 64;
