// `docextract jobs <folder>`: a large folder sent as jobs (up to 1,000 documents and 10 MB of files a call), then
// followed to the end, each document with its own progress bar (queued, running, done) and the folder's below.
import type { DocExtract, Job, JobRoute } from './client.js';
import { planCalls, type FolderFile } from './cli-files.js';
import type { components } from './contract.js';
import { DocExtractError } from './errors.js';

type Schemas = components['schemas'];

export interface JobsCommand {
  route: JobRoute;
  schema?: Schemas['JsonSchemaObject'];
  files: FolderFile[];
  /** A results line (JSON) per document, in the order they finish. */
  emit(line: string): void;
  /** A progress line. */
  say(line: string): void;
  /** Each file's route, when they differ (`jobs --kind auto`): `route` is then unused, and each line names its kind. */
  routeOf?: (file: FolderFile) => Exclude<JobRoute, 'custom'>;
  /** How often to look at the jobs still running. */
  pollIntervalMs?: number;
}

/** The most files one call carries: the batch route's 1,000, and 10 MB of files (their base64 fits the 15 MB body). */
const FILES_PER_CALL = 1000;
const FILE_BYTES_PER_CALL = 10 * 1024 * 1024;
const STEPS: Record<Job['status'], number> = { queued: 1, running: 2, succeeded: 3, failed: 3, cancelled: 3 };

/** One document's bar: three steps (queued, running, done) and its state. */
export function documentBar(name: string, status: Job['status'], width: number): string {
  const done = STEPS[status];
  return `[${'#'.repeat(done)}${'-'.repeat(3 - done)}] ${name.padEnd(width)}  ${status}`;
}

/** The folder's bar. */
export function folderBar(finished: number, total: number): string {
  const filled = Math.round((finished / total) * 30);
  return `[${'#'.repeat(filled)}${'-'.repeat(30 - filled)}] ${finished}/${total} documents`;
}

/** Sends the folder as jobs and follows them to their end; answers how many failed (or could not be sent). */
export async function runJobs(client: DocExtract, cmd: JobsCommand): Promise<{ failed: number; heu: number }> {
  const width = Math.min(40, Math.max(...cmd.files.map((f) => f.name.length)));
  const jobs = new Map<string, { name: string; status: Job['status']; kind?: JobRoute }>();
  let failed = 0;
  let heu = 0;
  let finished = 0;
  const total = cmd.files.length;
  const show = (name: string, status: Job['status']) => cmd.say(documentBar(name, status, width));

  // The files by route (one route unless `routeOf` says otherwise), each route's in calls.
  const byRoute = new Map<JobRoute, FolderFile[]>();
  for (const f of cmd.files) {
    const route = cmd.routeOf ? cmd.routeOf(f) : cmd.route;
    byRoute.set(route, [...(byRoute.get(route) ?? []), f]);
  }
  const calls = [...byRoute].flatMap(([route, files]) => planCalls(files, FILES_PER_CALL, FILE_BYTES_PER_CALL).map((call) => ({ route, call })));
  for (const { route, call } of calls) {
    try {
      const items = call.map((f) => ({ document: { file: f.path, filename: f.name }, metadata: { file: f.name.slice(0, 500) } }));
      const made = route === 'custom'
        ? await client.jobs.createBatch({ route: 'custom', schema: cmd.schema!, items })
        : await client.jobs.createBatch({ route, items });
      made.forEach((job, i) => {
        jobs.set(job.id, { name: call[i]!.name, status: job.status, ...(cmd.routeOf ? { kind: route } : {}) });
        show(call[i]!.name, job.status);
      });
    } catch (e) {
      // A call refused as a whole (a file over its limits, the bucket): its documents fail, the folder goes on.
      if (!(e instanceof DocExtractError) || e.status === 401) throw e;
      for (const f of call) {
        failed++;
        finished++;
        cmd.emit(JSON.stringify({ file: f.name, ok: false, ...(cmd.routeOf ? { kind: route } : {}), error: { code: e.code, message: e.message } }));
        show(f.name, 'failed');
      }
    }
  }
  cmd.say(folderBar(finished, total));

  // Follow the jobs still going: a few reads at a time, each job once per round, until all have ended.
  const pending = () => [...jobs.entries()].filter(([, j]) => STEPS[j.status] < 3);
  while (pending().length) {
    await new Promise((r) => setTimeout(r, cmd.pollIntervalMs ?? 1000));
    const round = pending();
    for (let i = 0; i < round.length; i += 8) {
      await Promise.all(round.slice(i, i + 8).map(async ([id, entry]) => {
        const job = await client.jobs.get(id);
        if (job.status === entry.status) return;
        entry.status = job.status;
        show(entry.name, job.status);
        if (STEPS[job.status] < 3) return;
        finished++;
        if (job.status === 'succeeded') {
          heu += job.result?.usage.heu ?? 0;
          cmd.emit(JSON.stringify({ file: entry.name, ok: true, jobId: id, ...(entry.kind ? { kind: entry.kind } : {}), ...job.result }));
        } else {
          failed++;
          cmd.emit(JSON.stringify({ file: entry.name, ok: false, jobId: id, ...(entry.kind ? { kind: entry.kind } : {}), error: job.error ?? { code: 'cancelled', message: 'The job was cancelled.' } }));
        }
      }));
    }
    cmd.say(folderBar(finished, total));
  }
  return { failed, heu };
}
