// What a reader process does with a file: probe it or read it, with the pure functions of read-file.ts. Everything
// that crosses the process boundary here is plain data (structured clone), so readers and fields added to
// FileFacts / FileText travel without changes to the sandbox.
import type { FileMediaType } from './media-types.js';
import { DocumentProblemError, type DocumentProblem } from './problems.js';
import { probeFile, readFile, type FileFacts, type FileText } from './read-file.js';

/** `budgetMs`: how long reading may take once a process starts on it (time spent queued does not count). */
export type ReaderTask = { op: 'probe' | 'read'; bytes: Uint8Array; mediaType: FileMediaType; budgetMs?: number };
export type ReaderOutcome<T> = { ok: true; value: T } | { ok: false; problem: DocumentProblem };

export async function runReaderTask(task: ReaderTask): Promise<ReaderOutcome<FileFacts | FileText>> {
  try {
    const value = task.op === 'probe' ? await probeFile(task.bytes, task.mediaType) : await readFile(task.bytes, task.mediaType, task.budgetMs === undefined ? Infinity : Date.now() + task.budgetMs);
    return { ok: true, value };
  } catch (e) {
    if (e instanceof DocumentProblemError) return { ok: false, problem: e.problem };
    throw e;
  }
}
