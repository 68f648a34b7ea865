// deploy/Dockerfile checked and replayed without a container daemon. The build context is listed as Docker would
// send it (.dockerignore applied, by @balena/dockerignore, a port of Docker's own matcher, to this checkout as a
// developer has it: node_modules, builds, perhaps a .env and .data), and must hold no secret, database, .git or test.
// Then both stages are replayed: the context copied to a folder, the build stage's RUN steps run there as written,
// the runtime stage's COPY lines copied into an empty folder, its RUN steps run, and its command started there until
// /readyz answers: what the runtime stage copies is enough to run, and nothing more is there.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { createTestDatabase, dbModes } from '../../server/test/support/databases.js';

const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');

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

/** A COPY's flags, sources and destination. */
function copyOf(step: Instruction): { flags: string[]; sources: string[]; dest: string } {
  const words = step.args.split(' ');
  const flags = words.filter((w) => w.startsWith('--'));
  const paths = words.filter((w) => !w.startsWith('--'));
  return { flags, sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

// CommonJS (module.exports is the factory).
const dockerignore = createRequire(import.meta.url)('@balena/dockerignore') as typeof import('@balena/dockerignore').default;
const ignoreText = readFileSync(join(root, '.dockerignore'), 'utf8');
const ig = dockerignore().add(ignoreText);
/** Folders a `!` line re-includes something under: they are walked even when excluded. */
const exceptions = ignoreText.split('\n').filter((l) => l.startsWith('!')).map((l) => l.slice(1).trim());

/** Every file Docker would send from `dir` as the build context (paths relative to it). */
function contextOf(dir: string, rel = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, rel))) {
    const path = rel ? `${rel}/${name}` : name;
    const stat = lstatSync(join(dir, path));
    if (stat.isDirectory()) {
      if (ig.ignores(path) && !exceptions.some((e) => e.startsWith(`${path}/`))) continue;
      out.push(...contextOf(dir, path));
    } else if (!ig.ignores(path)) {
      out.push(path);
    }
  }
  return out;
}

/** Every path under `dir` but inside node_modules folders (packages' own files). */
function filesOf(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel)).flatMap((name) => {
    const path = rel ? `${rel}/${name}` : name;
    if (name === 'node_modules') return [path];
    return lstatSync(join(dir, path)).isDirectory() ? [path, ...filesOf(dir, path)] : [path];
  });
}

/** What no image may hold: secrets and the development database, git's history, tests, the contract's sources. */
const FORBIDDEN = /(^|\/)\.env($|\.)|(^|\/)\.data(\/|$)|(^|\/)\.git(\/|$)|(^|\/)node_modules\/|^(server\/|sdk\/)?test\/|^spec\//;

describe('the build context .dockerignore lets through', () => {
  const context = contextOf(root);

  it('holds the sources the build needs', () => {
    for (const needed of ['package.json', 'package-lock.json', 'tsconfig.base.json', 'tsconfig.json', 'scripts/build-server.mjs', 'scripts/build-sdk.mjs',
      'server/package.json', 'server/src/main.ts', 'server/src/worker.ts', 'server/dashboard/src/main.ts', 'sdk/package.json', 'sdk/src/index.ts',
      'prisma/schema.prisma', 'prisma/migrations/migration_lock.toml', 'generated/openapi.yaml', 'generated/openapi.d.ts',
      'vendor/scalar-api-reference/standalone.js', 'server/models/calibration.json', 'server/models/ranker.json']) {
      expect([needed, context.includes(needed)]).toEqual([needed, true]);
    }
  });

  it('sends no .env, .data, .git, node_modules, tests or spec from this checkout', () => {
    expect(context.filter((p) => FORBIDDEN.test(p))).toEqual([]);
    // Nor what the build makes for itself (it builds its own).
    expect(context.filter((p) => /^server\/(dist|\.dist-)|^sdk\/dist|^server\/dashboard\/dist|prisma-client/.test(p))).toEqual([]);
  });

  it('leaves out what a developer may have here (paths checked whether or not they exist now)', () => {
    const developers = ['.env', '.env.local', '.env.production', 'server/.env', 'sdk/.env', '.data/pglite/PG_VERSION', '.data/dashboard-jwt-secret',
      '.git', '.git/config', 'node_modules/jest/package.json', 'server/node_modules/ajv/package.json', 'server/test/auth.test.ts', 'sdk/test/sdk.test.ts',
      'test/deploy/dockerfile.test.ts', 'spec/main.tsp', 'server/dist', 'server/dist/main.js', 'server/.dist-0123456789abcdef/main.js',
      'coverage/lcov.info', 'scratch/notes.md', 'test-output/report.xml', 'npm-debug.log', 'server/src/db/prisma-client/client.ts', 'sdk/dist/index.js'];
    expect(developers.filter((p) => !ig.ignores(p))).toEqual([]);
  });

  it('leaves out everything git ignores here (the two ignore files agree)', () => {
    const ignoredByGit = execFileSync('git', ['ls-files', '--others', '--ignored', '--exclude-standard', '--directory'], { cwd: root, encoding: 'utf8' })
      .split('\n').filter(Boolean).map((p) => p.replace(/\/$/, ''));
    expect(ignoredByGit.length).toBeGreaterThan(0);
    expect(ignoredByGit.filter((p) => !ig.ignores(p))).toEqual([]);
  });
});

describe('deploy/Dockerfile', () => {
  const stages = parseDockerfile(readFileSync(join(root, 'deploy/Dockerfile'), 'utf8'));
  const [build, runtime] = stages;

  it('is two stages on Debian slim Node 20, the runtime as a user without privileges', () => {
    expect(stages.map((s) => [s.from, s.name])).toEqual([['node:20-bookworm-slim', 'build'], ['node:20-bookworm-slim', 'runtime']]);
    expect(runtime!.steps.find((s) => s.op === 'USER')?.args).toBe('node');
    expect(envOf(runtime!)).toMatchObject({ NODE_ENV: 'production', PORT: '8080', WORKER_PORT: '8081' });
    expect(JSON.parse(runtime!.steps.find((s) => s.op === 'CMD')!.args)).toEqual(['node', '--enable-source-maps', 'server/dist/main.js']);
  });

  it('copies the context into the build stage only, and into the runtime only what runs, from the build stage', () => {
    expect(build!.steps.filter((s) => s.op === 'COPY' || s.op === 'ADD').map((s) => s.args)).toEqual(['. .']);
    const copies = runtime!.steps.filter((s) => s.op === 'COPY' || s.op === 'ADD').map((s) => ({ op: s.op, ...copyOf(s) }));
    expect(copies.every((c) => c.op === 'COPY' && c.flags.includes('--from=build'))).toBe(true);
    expect(copies.flatMap((c) => c.sources).sort()).toEqual([
      '/app/generated/openapi.json', '/app/generated/openapi.yaml', '/app/node_modules', '/app/package.json', '/app/prisma',
      '/app/scripts/build-server.mjs', '/app/server/dashboard/dist', '/app/server/dist', '/app/server/models', '/app/server/node_modules', '/app/server/package.json', '/app/vendor',
    ]);
  });

  it('replayed: builds from the context, the runtime stage holds only what runs, and /readyz answers 200', async () => {
    const app = mkdtempSync(join(tmpdir(), 'docker-build-'));
    const image = mkdtempSync(join(tmpdir(), 'docker-runtime-'));
    const database = await createTestDatabase(dbModes().includes('postgres') ? 'postgres' : 'embedded');
    let child: ReturnType<typeof spawn> | undefined;
    const sh = (script: string, cwd: string) => execFileSync('bash', ['-c', script], { cwd, stdio: 'pipe', env: { PATH: process.env.PATH, HOME: process.env.HOME, npm_config_prefer_offline: 'true' } });
    try {
      // COPY . . : the build context, as listed above.
      for (const file of contextOf(root)) {
        mkdirSync(dirname(join(app, file)), { recursive: true });
        cpSync(join(root, file), join(app, file));
      }
      for (const step of build!.steps) {
        if (step.op !== 'RUN') continue;
        // The image installs npm 11 over the base's npm 10; here npm 11 is already the one on PATH.
        const pinned = /^npm install -g npm@(\d+)/.exec(step.args);
        if (pinned) {
          expect(execFileSync('npm', ['-v'], { encoding: 'utf8' }).split('.')[0]).toBe(pinned[1]);
          continue;
        }
        sh(step.args, app);
      }
      // The runtime stage: its COPY lines (Docker's rules: a folder's contents go into the destination; several
      // sources go into a destination folder), then its RUN steps, in an empty folder standing for /app.
      for (const step of runtime!.steps) {
        if (step.op === 'COPY') {
          const { sources, dest } = copyOf(step);
          for (const source of sources) {
            const from = join(app, source.replace(/^\/app\//, ''));
            const to = join(image, dest.replace(/^\/app\/?/, ''), dest.endsWith('/') ? source.split('/').at(-1)! : '');
            cpSync(from, to, { recursive: true, verbatimSymlinks: true });
          }
        } else if (step.op === 'RUN') {
          sh(step.args, image);
        }
      }

      // What the image holds: top-level and under server/, nothing but what runs.
      expect(readdirSync(image).sort()).toEqual(['.data', 'generated', 'node_modules', 'package.json', 'prisma', 'scripts', 'server', 'vendor']);
      expect(readdirSync(join(image, 'server')).sort()).toEqual(['dashboard', 'dist', 'models', 'node_modules', 'package.json']);
      expect(readdirSync(join(image, '.data'))).toEqual([]);
      expect(statSync(join(image, '.data')).uid).toBe(1000);
      expect(lstatSync(join(image, 'server/dist')).isDirectory()).toBe(true);
      for (const dev of ['jest', '@typespec/compiler', '@redocly/cli', 'playwright-core', 'esbuild', 'tsx']) expect([dev, existsSync(join(image, 'node_modules', dev))]).toEqual([dev, false]);
      for (const built of ['server/dist/main.js', 'server/dist/worker.js', 'server/dist/db/prisma-client/client.js', 'server/dashboard/dist/index.html', 'generated/openapi.yaml', 'prisma/migrations/migration_lock.toml', 'server/models/ranker.json']) {
        expect([built, existsSync(join(image, built))]).toEqual([built, true]);
      }
      const held = filesOf(image).filter((p) => p !== '.data');
      expect(held.filter((p) => FORBIDDEN.test(p) || /^(server\/src|sdk|spec|test)(\/|$)/.test(p))).toEqual([]);
      // `npm start` in the image: its build step finds no sources and keeps the compiled server.
      expect(execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: image, encoding: 'utf8' })).toContain('no sources here: kept');

      const [command, ...args] = JSON.parse(runtime!.steps.find((s) => s.op === 'CMD')!.args) as string[];
      child = spawn(command === 'node' ? process.execPath : command!, args, {
        cwd: image,
        env: {
          PATH: process.env.PATH, ...envOf(runtime!),
          // Loopback and any free port here, where the image listens on 0.0.0.0:8080.
          HOST: '127.0.0.1', PORT: '0', DATA_DIR: database.dataDir,
          DASHBOARD_JWT_SECRET: 'docker-replay-secret-0123456789-0123456789',
          ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : { ALLOW_EMBEDDED_DATABASE: 'true' }),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout!.on('data', (d) => { out += d; });
      child.stderr!.on('data', (d) => { out += d; });
      let port: string | undefined;
      for (let i = 0; i < 1800 && !port && child.exitCode === null; i++) {
        port = /"port":(\d+)/.exec(out)?.[1];
        if (!port) await new Promise((r) => setTimeout(r, 100));
      }
      expect([port !== undefined, port ? '' : out.slice(-3000)]).toEqual([true, '']);
      let ready: Response | undefined;
      for (let i = 0; i < 100; i++) {
        ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        if (ready?.status === 200) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(ready?.status).toBe(200);
      expect(await ready!.json()).toEqual({ ready: true, database: 'up' });
      // The API reference page and the dashboard are served from what was copied.
      expect((await fetch(`http://127.0.0.1:${port}/docs`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/dashboard`)).status).toBe(200);
    } finally {
      if (child && child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child!.once('exit', r));
      }
      await database.drop();
      rmSync(app, { recursive: true, force: true });
      rmSync(image, { recursive: true, force: true });
    }
  }, 900_000);
});
