// A worker thread of the offline engine's pool (piscina): runs one extraction at a time, off the event loop that
// answers HTTP.
import { runLocalTask, type LocalTaskInput, type LocalTaskOutput } from './local-task.js';

export default function work(input: LocalTaskInput): LocalTaskOutput {
  return runLocalTask(input);
}
