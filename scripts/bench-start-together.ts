// `npm run bench:start`: an API (`npm start`) and two workers (`npm run worker`) started together, ten rounds in a row,
// in a copy of this checkout (server/test/support/start-together.ts) on a throw-away PostgreSQL cluster (127.0.0.1).
// The first round starts with no build at all (a fresh clone before its first start); every later one after the
// server's sources changed, so each start finds the build stale. A round passes when all three answer /readyz 200.
// Prints a line per round (time until the last /readyz 200, and the build it ran) and exits 1 if any round failed.
import { rmSync } from 'node:fs';
import pg from 'pg';
import { startCluster, stopCluster } from '../server/test/support/postgres-cluster.js';
import { builds, changeSources, copyForStart, startTogether, stopAll } from '../server/test/support/start-together.js';

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const cluster = await startCluster();
const dir = copyForStart();
let failed = 0;
try {
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  await admin.query('CREATE DATABASE start_together');
  await admin.end();
  const env = {
    DATABASE_URL: cluster.url('start_together'), DATA_DIR: dir, ENV_FILE: '',
    DASHBOARD_JWT_SECRET: 'start-together-secret-0123456789-0123456789',
  };
  for (let round = 1; round <= ROUNDS; round++) {
    if (round > 1) changeSources(dir, `round ${round}`);
    const t0 = Date.now();
    const started = await startTogether(dir, env, 2, 240_000);
    const ms = Date.now() - t0;
    const ok = started.every((s) => s.readyz === 200);
    if (!ok) failed++;
    console.log(`round ${round}: ${ok ? 'all ready' : 'FAILED'} in ${ms} ms; ${started.map((s) => `${s.name} ${s.readyz}`).join(', ')}; build ${builds(dir).current}`);
    if (!ok) for (const s of started.filter((x) => x.readyz !== 200)) console.log(`--- ${s.name}\n${s.output().slice(-3000)}`);
    await stopAll(started);
  }
  console.log(`${ROUNDS - failed} of ${ROUNDS} rounds: all three processes reached /readyz; builds beside the link: ${builds(dir).folders.length}`);
} finally {
  stopCluster(cluster.dir);
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
