// deploy/Dockerfile replayed without a container daemon: a fresh checkout of the commit (what `COPY . .` copies), the
// build stage's RUN steps run in it as written, then the runtime stage's command started with its environment, until
// /readyz answers. The image's promises are checked on the result: dev packages pruned, the OCR data present, a
// non-root user, and both processes' entry points built.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, dbModes } from '../../server/test/support/databases.js';

const root = new URL('../..', import.meta.url).pathname;

interface Instruction { op: string; args: string }
interface Stage { from: string; name: string | undefined; steps: Instruction[] }

/** The Dockerfile as stages of instructions (comments dropped, `\` continuations joined). */
function parseDockerfile(text: string): Stage[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (op!.toUpperCase() === 'FROM') {
      const [from, , name] = args!.split(/\s+/);
      stages.push({ from: from!, name, steps: [] });
    } else {
      stages.at(-1)!.steps.push({ op: op!.toUpperCase(), args: args!.replace(/\s+/g, ' ') });
    }
  }
  return stages;
}

/** ENV instructions as a map (`ENV A=1 B=2`). */
const envOf = (stage: Stage) => Object.fromEntries(stage.steps.filter((s) => s.op === 'ENV').flatMap((s) => s.args.split(' ').map((kv) => kv.split('=') as [string, string])));

describe('deploy/Dockerfile, replayed in a fresh checkout', () => {
  const stages = parseDockerfile(readFileSync(join(root, 'deploy/Dockerfile'), 'utf8'));
  const [build, runtime] = stages;

  it('is two stages on Debian slim Node 20, the runtime as a user without privileges', () => {
    expect(stages.map((s) => [s.from, s.name])).toEqual([['node:20-bookworm-slim', 'build'], ['node:20-bookworm-slim', 'runtime']]);
    expect(runtime!.steps.find((s) => s.op === 'USER')?.args).toBe('node');
    expect(runtime!.steps.find((s) => s.op === 'COPY')?.args).toBe('--from=build --chown=node:node /app /app');
    expect(envOf(runtime!)).toMatchObject({ NODE_ENV: 'production', PORT: '8080', WORKER_PORT: '8081' });
    expect(JSON.parse(runtime!.steps.find((s) => s.op === 'CMD')!.args)).toEqual(['node', '--enable-source-maps', 'server/dist/main.js']);
  });

  it('builds and starts: /readyz answers 200', async () => {
    const app = mkdtempSync(join(tmpdir(), 'docker-replay-'));
    const database = await createTestDatabase(dbModes().includes('postgres') ? 'postgres' : 'embedded');
    let child: ReturnType<typeof spawn> | undefined;
    try {
      // COPY . . : the committed tree, as a clone would have it.
      execFileSync('bash', ['-c', `git -C ${JSON.stringify(root)} archive --format=tar HEAD | tar -x -C ${JSON.stringify(app)}`]);
      for (const step of build!.steps) {
        if (step.op !== 'RUN') continue;
        // The image installs npm 11 over the base's npm 10; here npm 11 is already the one on PATH.
        const pinned = /^npm install -g npm@(\d+)/.exec(step.args);
        if (pinned) {
          expect(execFileSync('npm', ['-v'], { encoding: 'utf8' }).split('.')[0]).toBe(pinned[1]);
          continue;
        }
        execFileSync('bash', ['-c', step.args], { cwd: app, stdio: 'pipe', env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_prefer_offline: 'true' } });
      }
      // Dev packages pruned (TypeScript stays: Prisma's client names it as a peer).
      for (const dev of ['jest', '@typespec/compiler', '@redocly/cli', 'playwright-core']) expect([dev, existsSync(join(app, 'node_modules', dev))]).toEqual([dev, false]);
      for (const built of ['server/dist/main.js', 'server/dist/worker.js', 'server/dashboard/dist', 'server/src/db/prisma-client']) expect([built, existsSync(join(app, built))]).toEqual([built, true]);

      const [command, ...args] = JSON.parse(runtime!.steps.find((s) => s.op === 'CMD')!.args) as string[];
      child = spawn(command === 'node' ? process.execPath : command!, args, {
        cwd: app,
        env: {
          PATH: process.env.PATH, ...envOf(runtime!),
          // Loopback and any free port here, where the image listens on 0.0.0.0:8080.
          HOST: '127.0.0.1', PORT: '0', DATA_DIR: database.dataDir, ENV_FILE: '',
          DASHBOARD_JWT_SECRET: 'docker-replay-secret-0123456789-0123456789',
          ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : { ALLOW_EMBEDDED_DATABASE: 'true' }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d) => { out += d; });
      child.stderr!.on('data', (d) => { out += d; });
      let port: string | undefined;
      for (let i = 0; i < 600 && !port; i++) {
        port = /"port":(\d+)/.exec(out)?.[1];
        if (!port) await new Promise((r) => setTimeout(r, 100));
      }
      expect([port !== undefined, out.slice(-2000)]).toEqual([true, expect.any(String)]);
      let ready: Response | undefined;
      for (let i = 0; i < 100; i++) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        if (ready?.status === 200) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(ready?.status).toBe(200);
      expect(await ready!.json()).toEqual({ ready: true, database: 'up' });
    } finally {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child!.once('exit', r));
      }
      await database.drop();
      rmSync(app, { recursive: true, force: true });
    }
  }, 900_000);
});
