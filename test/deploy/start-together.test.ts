// `npm start` and two `npm run worker` started at the same moment, after the server's sources changed: each start
// finds the build stale, they build beside the old build and swap it in, and none deletes what another is loading.
// All three reach /readyz. Ten rounds in a row are scripts/bench-start-together.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, dbModes, type TestDatabase } from '../../server/test/support/databases.js';
import { builds, changeSources, copyForStart, startTogether, stopAll, type Started } from '../../server/test/support/start-together.js';

// Workers need PostgreSQL (the embedded database serves one process); CI always has it.
const withPostgres = dbModes().includes('postgres') ? describe : describe.skip;

withPostgres('an API and two workers started together', () => {
  let dir: string;
  let database: TestDatabase;
  beforeAll(async () => {
    dir = copyForStart();
    database = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await database?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({
    DATABASE_URL: database.databaseUrl!, DATA_DIR: database.dataDir, ENV_FILE: '',
    DASHBOARD_JWT_SECRET: 'start-together-secret-0123456789-0123456789',
  });

  async function round(mark: string): Promise<{ before: ReturnType<typeof builds>; after: ReturnType<typeof builds>; started: Started[] }> {
    const before = builds(dir);
    changeSources(dir, mark);
    const started = await startTogether(dir, env(), 2, 240_000);
    try {
      return { before, after: builds(dir), started };
    } finally {
      await stopAll(started);
    }
  }

  it('from no build at all (a fresh copy): all three reach /readyz, on one build', async () => {
    const { before, after, started } = await round('first start');
    expect(before).toEqual({ current: null, folders: [] });
    expect(started.map((s) => [s.name, s.readyz, s.readyz === 200 ? '' : s.output().slice(-3000)])).toEqual([['api', 200, ''], ['worker-1', 200, ''], ['worker-2', 200, '']]);
    // One build, linked; nothing half-made left beside it.
    expect(after.folders).toEqual([after.current]);
    expect(existsSync(join(dir, 'server/dist/main.js'))).toBe(true);
  }, 300_000);

  it('after the sources changed: all three reach /readyz on the new build, and the old build is still there', async () => {
    const { before, after, started } = await round('sources changed');
    expect(started.map((s) => [s.name, s.readyz, s.readyz === 200 ? '' : s.output().slice(-3000)])).toEqual([['api', 200, ''], ['worker-1', 200, ''], ['worker-2', 200, '']]);
    expect(after.current).not.toBe(before.current);
    expect(after.folders.sort()).toEqual([before.current, after.current].sort());
    // A start with nothing changed builds nothing: the build script finds the link current.
    const again = execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: dir, encoding: 'utf8' });
    expect(again).toContain(`server/dist is current (${after.current!.slice(6)})`);
    expect(builds(dir)).toEqual(after);
  }, 300_000);
});
