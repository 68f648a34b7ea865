// A worker thread of the document reader's pool (piscina): opens PDFs, reads text layers, renders pages and runs OCR,
// one file at a time, off the event loop that answers HTTP.
import type { FileMediaType } from './media-types.js';
import { DocumentProblemError, type DocumentProblem } from './problems.js';
import { probeFile, readFile, type FileFacts, type FileText } from './read-file.js';

/** `budgetMs`: how long reading may take once this thread starts on it (time spent queued does not count). */
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

export default runReaderTask;
