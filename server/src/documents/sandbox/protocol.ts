import type { ReaderOutcome, ReaderTask } from '../reader-task.js';

/**
 * What the service sends a reader process: one task; with `keep`, a probe that succeeds is followed by `{ read }`, the
 * read of the same file (its bytes stay in the process), or by nothing (the process is killed).
 */
export type ChildMessage = { task: ReaderTask; keep?: boolean } | { read: { budgetMs: number } };

/** What a reader process answers: ready (modules loaded), a task's outcome, or the type of what it threw. */
export type ChildReply = { ready: true } | { done: ReaderOutcome<unknown> } | { failed: { type: string } };
