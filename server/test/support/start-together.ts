// Processes started together the way an operator starts them: `npm start` and `npm run worker` at the same moment, in
// a copy of the repository whose server sources changed since its last build (so each start finds the build stale).
// Used by test/deploy/start-together.test.ts (a round or two) and scripts/bench-start-together.ts (ten in a row).
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import pg from 'pg';

const root = new URL('../../..', import.meta.url).pathname;

/**
 * A copy of what `npm start` needs from this checkout (package.json, scripts, the server's sources and the built
 * dashboard, prisma, generated, vendor), with the installed node_modules linked in rather than copied. No server build.
 */
export function copyForStart(): string {
  const dir = mkdtempSync(join(tmpdir(), 'start-together-'));
  const skip = new Set(['server/test', 'server/dist', 'server/node_modules']);
  for (const top of ['package.json', 'scripts', 'server', 'prisma', 'generated', 'vendor']) {
    cpSync(join(root, top), join(dir, top), {
      recursive: true,
      filter: (from) => {
        const rel = relative(root, from);
        return !skip.has(rel) && !rel.startsWith('server/.dist-');
      },
    });
  }
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  if (existsSync(join(root, 'server/node_modules'))) symlinkSync(join(root, 'server/node_modules'), join(dir, 'server/node_modules'));
  return dir;
}

/** Changes the server's sources (a comment), so the next start finds its build stale. */
export function changeSources(dir: string, mark: string): void {
  appendFileSync(join(dir, 'server/src/main.ts'), `\n// ${mark}\n`);
}

/** The build server/dist links to, and every build folder beside it. */
export function builds(dir: string): { current: string | null; folders: string[] } {
  const folders = readdirSync(join(dir, 'server')).filter((f) => f.startsWith('.dist-')).sort();
  return { current: existsSync(join(dir, 'server/dist')) ? readlinkSync(join(dir, 'server/dist')) : null, folders };
}

/** A new, empty database on the cluster `adminUrl` reaches (its `postgres` database): a first start migrates it. */
export async function emptyDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `start_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  return { url: adminUrl.replace(/\/postgres$/, `/${name}`), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export interface Started {
  name: string;
  child: ChildProcess;
  output: () => string;
  /** /readyz's status once it answered 200, or the last status seen (0: no answer) when the time ran out. */
  readyz: number;
  /** Whether it said its job queue started (the API: "job queue started"; a worker: "worker taking jobs"). */
  queue: boolean;
  /** Ready: /readyz 200, the queue started, and still running then. */
  ready: boolean;
}

/**
 * Starts `npm start` (the API) and `npm run worker` `workers` times, all at once, and waits until each answers
 * /readyz with 200 and says its job queue started (or exits, or `timeoutMs` passes). The caller stops them (`stopAll`).
 */
export async function startTogether(dir: string, env: Record<string, string>, workers: number, timeoutMs: number): Promise<Started[]> {
  const base = { PATH: process.env.PATH!, HOME: process.env.HOME ?? dir, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env };
  const specs = [
    { name: 'api', args: ['start'], env: { ...base, PORT: '0' } },
    ...Array.from({ length: workers }, (_, i) => ({ name: `worker-${i + 1}`, args: ['run', 'worker'], env: { ...base, WORKER_PORT: '0' } })),
  ];
  const started = specs.map((spec) => {
    // Its own process group: npm, its shell and node are stopped together.
    const child = spawn('npm', spec.args, { cwd: dir, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let out = '';
    child.stdout!.on('data', (d) => { out += d; });
    child.stderr!.on('data', (d) => { out += d; });
    return { name: spec.name, child, output: () => out, readyz: 0, queue: false, ready: false };
  });
  const end = Date.now() + timeoutMs;
  const running = (s: Started) => s.child.exitCode === null && s.child.signalCode === null;
  await Promise.all(started.map(async (s) => {
    while (Date.now() < end && running(s)) {
      const port = /"port":(\d+)/.exec(s.output())?.[1];
      if (port && s.readyz !== 200) s.readyz = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status, () => 0);
      s.queue = /"msg":"(job queue started|worker taking jobs)/.test(s.output());
      if (s.readyz === 200 && s.queue) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  }));
  for (const s of started) s.ready = s.readyz === 200 && s.queue && running(s);
  return started;
}

/** SIGTERM to each process group, then waits until every process has exited. */
export async function stopAll(started: Started[]): Promise<void> {
  await Promise.all(started.map(async (s) => {
    if (s.child.exitCode !== null || s.child.signalCode !== null) return;
    const exited = new Promise((r) => s.child.once('exit', r));
    try {
      process.kill(-s.child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const killer = setTimeout(() => { try { process.kill(-s.child.pid!, 'SIGKILL'); } catch { /* gone */ } }, 30_000);
    await exited;
    clearTimeout(killer);
  }));
}
