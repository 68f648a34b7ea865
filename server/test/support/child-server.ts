// The service as `npm start` runs it (the compiled server in its own process), for tests that signal or kill it.
import { spawn, type ChildProcess } from 'node:child_process';

const root = new URL('../../..', import.meta.url).pathname;

export interface ChildServer {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `node server/dist/main.js` and answers once it logs that it listens (rejects if it exits first). */
export function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  return startChild('server/dist/main.js', env);
}

/** Starts a worker alone (`npm run worker`: `node server/dist/worker.js`), on a port of its own for its probes. */
export function startChildWorker(env: Record<string, string>): Promise<ChildServer> {
  return startChild('server/dist/worker.js', { WORKER_PORT: '0', ...env });
}

function startChild(script: string, env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, [script], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ENV_FILE: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => { out += d; });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no start within 30 s:\n${out}`)); }, 30_000);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /"port":(\d+)/.exec(out);
      if (m && !settled) {
        settled = true;
        clearTimeout(timer);
        const port = Number(m[1]);
        resolve({ child, port, baseUrl: `http://127.0.0.1:${port}`, output: () => out, exited });
      }
    });
    void exited.then(({ code }) => {
      clearTimeout(timer);
      if (!settled) reject(new Error(`exited ${code}:\n${out}`));
    });
  });
}
