// `npm start` and two `npm run worker` started at the same moment on a new, empty database, after the server's sources
// changed: each start finds the build stale, they build beside the old build and swap it in, none deletes what another
// is loading, and they take turns migrating and installing the job queue. All three answer /readyz 200 and start their
// job queue. Ten rounds in a row are scripts/bench-start-together.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dbModes } from '../../server/test/support/databases.js';
import { builds, changeSources, copyForStart, emptyDatabase, startTogether, stopAll, type Started } from '../../server/test/support/start-together.js';

// Workers need PostgreSQL (the embedded database serves one process); CI always has it.
const withPostgres = dbModes().includes('postgres') ? describe : describe.skip;

withPostgres('an API and two workers started together', () => {
  let dir: string;
  let dataDir: string;
  beforeAll(() => {
    dir = copyForStart();
    dataDir = mkdtempSync(join(tmpdir(), 'start-together-data-'));
  });
  afterAll(() => {
    for (const d of [dir, dataDir]) if (d) rmSync(d, { recursive: true, force: true });
  });

  async function round(mark: string): Promise<{ before: ReturnType<typeof builds>; after: ReturnType<typeof builds>; started: Started[] }> {
    const database = await emptyDatabase(process.env.TEST_PG_URL!);
    const before = builds(dir);
    changeSources(dir, mark);
    const env = { DATABASE_URL: database.url, DATA_DIR: dataDir, ENV_FILE: '', DASHBOARD_JWT_SECRET: 'start-together-secret-0123456789-0123456789' };
    const started = await startTogether(dir, env, 2, 240_000);
    try {
      return { before, after: builds(dir), started };
    } finally {
      await stopAll(started);
      await database.drop();
    }
  }

  /** Each process: its name, whether it was ready, and its output's end when it was not. */
  const readiness = (started: Started[]) => started.map((s) => [s.name, s.ready, s.ready ? '' : s.output().slice(-3000)]);
  const allReady = [['api', true, ''], ['worker-1', true, ''], ['worker-2', true, '']];

  it('from no build at all (a fresh copy): all three are ready, on one build', async () => {
    const { before, after, started } = await round('first start');
    expect(before).toEqual({ current: null, folders: [] });
    expect(readiness(started)).toEqual(allReady);
    // One build, linked; nothing half-made left beside it.
    expect(after.folders).toEqual([after.current]);
    expect(existsSync(join(dir, 'server/dist/main.js'))).toBe(true);
  }, 300_000);

  it('after the sources changed: all three are ready on the new build, and the old build is still there', async () => {
    const { before, after, started } = await round('sources changed');
    expect(readiness(started)).toEqual(allReady);
    expect(after.current).not.toBe(before.current);
    expect(after.folders.sort()).toEqual([before.current, after.current].sort());
    // A start with nothing changed builds nothing: the build script finds the link current.
    const again = execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(again).toContain(`server/dist is current (${after.current!.slice(6)})`);
    expect(builds(dir)).toEqual(after);
  }, 300_000);
});
