// The program of a reader process (spawned by reader-process.ts under rlimits): it loads the readers while it waits
// as a spare, takes ONE file over its IPC channel (a probe or a read; a probe may be followed by the read of the same
// file), answers and exits. A fresh process per file: nothing of one tenant's file (pdf.js caches, OCR state, heap)
// is left for the next.
import type { ReaderTask } from '../reader-task.js';
import type { ChildMessage, ChildReply } from './protocol.js';

const send = (reply: ChildReply, then: () => void = () => {}) => process.send!(reply, then);
const next = () => new Promise<ChildMessage>((resolve) => process.once('message', resolve));

// The service went away (its end of the channel closed): nothing to answer to.
process.on('disconnect', () => process.exit(0));

// Modules first (pdf.js and its worker, sharp, tesseract.js's client), then a PDF of our own probed and read: a task
// then starts on warm code.
const { runReaderTask } = await import('../reader-task.js');
// (pdf.js runs its "worker" in this thread under Node, importing this module on its first document.)
const pdfWorker = 'pdfjs-dist/legacy/build/pdf.worker.mjs';
await import(pdfWorker).catch(() => {});
const { warmUpTasks } = await import('./warm-up.js');
for (const task of warmUpTasks()) await runReaderTask(task).catch(() => {});

async function answer(task: ReaderTask): Promise<boolean> {
  try {
    const outcome = await runReaderTask(task);
    await new Promise<void>((resolve) => send({ done: outcome }, resolve));
    return outcome.ok;
  } catch (e) {
    // Not a problem the reader names (a damaged file it did not foresee, an allocation refused at the memory limit):
    // only the error's type goes back (a message may quote the file), and the file could not be read within limits.
    await new Promise<void>((resolve) => send({ failed: { type: e instanceof Error ? e.name : typeof e } }, resolve));
    return false;
  }
}

const first = next();
send({ ready: true });
const message = await first;
if ('task' in message) {
  const probed = await answer(message.task);
  // The read of the file just probed, when the service kept this process for it (the same bytes, not sent again).
  if (probed && message.keep) {
    const then = await next();
    if ('read' in then) await answer({ op: 'read', bytes: message.task.bytes, mediaType: message.task.mediaType, budgetMs: then.read.budgetMs });
  }
}
process.exit(0);
