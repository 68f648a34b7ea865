// The program of a reader process (spawned by reader-process.ts under rlimits): it loads the readers while it waits
// as a spare, takes exactly ONE task over its IPC channel, answers it and exits. A fresh process per task: nothing of
// one tenant's file (pdf.js caches, OCR state, heap) is left for the next.
import type { ReaderTask } from '../reader-task.js';

type Reply = { ready: true } | { done: unknown } | { failed: { type: string } };
const send = (reply: Reply, then: () => void = () => {}) => process.send!(reply, then);

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

process.once('message', (task: ReaderTask) => {
  runReaderTask(task).then(
    (outcome) => send({ done: outcome }, () => process.exit(0)),
    (e: unknown) => {
      // Not a problem the reader names (a damaged file it did not foresee, an allocation refused at the memory limit):
      // only the error's type goes back (a message may quote the file), and the file could not be read within limits.
      send({ failed: { type: e instanceof Error ? e.name : typeof e } }, () => process.exit(0));
    },
  );
});
send({ ready: true });
