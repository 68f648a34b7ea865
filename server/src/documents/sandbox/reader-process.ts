import { spawn, type ChildProcess } from 'node:child_process';
import type { ReaderOutcome } from '../reader-task.js';
import type { Launcher } from './launcher.js';
import type { ChildMessage, ChildReply } from './protocol.js';

/** How one task in a reader process ended, when it did not answer. */
export type ProcessFailure =
  | { kind: 'over_budget'; budgetMs: number }
  /** Ended by a signal or an exit code before answering: the memory or CPU limit, or a crash on the file. */
  | { kind: 'crashed'; signal: NodeJS.Signals | null; code: number | null }
  /** Threw something the reader does not name (its type only: a message may quote the file). */
  | { kind: 'error'; type: string };

export type TaskEnd = { ok: true; outcome: ReaderOutcome<unknown> } | { ok: false; failure: ProcessFailure };

type Reply = ChildReply;

/** How long a spare may take to load its modules before it is given up (a machine under heavy load: generous). */
const START_TIMEOUT_MS = 60_000;

/**
 * One reader process: spawned under the launcher's limits, ready once its modules are loaded, then given one file (a
 * task, and for a kept probe the read that follows) and killed (SIGKILL) the moment a budget ends or its caller goes;
 * it exits by itself after answering.
 */
export class ReaderProcess {
  readonly ready: Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private replies: ((reply: Reply) => void) | null = null;
  private isReady = false;

  constructor(launcher: Launcher) {
    const { command, args } = launcher.command();
    // No environment: the service's secrets (API keys, DATABASE_URL) are not the reader's to see. Node adds the
    // IPC channel's variables itself. stdout/stderr are dropped: a reader's warnings may quote the file.
    this.child = spawn(command, args, { stdio: ['ignore', 'ignore', 'ignore', 'ipc'], serialization: 'advanced', env: {} });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    this.child.on('error', () => {}); // a failed spawn also emits 'exit' (or never starts: the start timeout ends it)
    this.child.on('message', (reply: Reply) => this.replies?.(reply));
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(new Error('a reader process did not start in time'));
      }, START_TIMEOUT_MS);
      timer.unref();
      this.replies = (reply) => {
        if (!('ready' in reply)) return;
        clearTimeout(timer);
        this.isReady = true;
        resolve();
      };
      void this.exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`a reader process ended before it was ready (${signal ?? `exit ${code}`})`));
      });
    });
    this.ready.catch(() => {});
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get started(): boolean {
    return this.isReady;
  }

  /**
   * Sends the process its task (or the read that follows a kept probe). Resolves with the answer, or how it failed:
   * past `budgetMs` it is killed (over_budget). When `signal` aborts it is killed at once and the promise rejects with
   * the signal's reason.
   */
  run(message: ChildMessage, budgetMs: number, signal?: AbortSignal): Promise<TaskEnd> {
    return new Promise<TaskEnd>((resolve, reject) => {
      let settled = false;
      const finish = (end: TaskEnd | { abort: unknown }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.replies = null;
        if ('abort' in end) reject(end.abort);
        else resolve(end);
      };
      const timer = setTimeout(() => {
        this.kill();
        finish({ ok: false, failure: { kind: 'over_budget', budgetMs } });
      }, budgetMs);
      const onAbort = () => {
        this.kill();
        finish({ abort: signal!.reason });
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.replies = (reply) => {
        if ('done' in reply) finish({ ok: true, outcome: reply.done });
        else if ('failed' in reply) finish({ ok: false, failure: { kind: 'error', type: reply.failed.type } });
      };
      void this.exited.then(({ code, signal: killedBy }) => finish({ ok: false, failure: { kind: 'crashed', signal: killedBy, code } }));
      try {
        this.child.send(message, (e) => {
          if (e) {
            this.kill();
            finish({ ok: false, failure: { kind: 'crashed', signal: null, code: null } });
          }
        });
      } catch {
        this.kill();
        finish({ ok: false, failure: { kind: 'crashed', signal: null, code: null } });
      }
    });
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
