// `npm run bench:start`: an API (`npm start`) and two workers (`npm run worker`) started together, ten rounds in a row,
// in a copy of this checkout (server/test/support/start-together.ts) on a throw-away PostgreSQL cluster (127.0.0.1).
// Each round runs on a new, empty database (the three take turns migrating it and installing the job queue). The
// first round starts with no build at all (a fresh clone before its first start); every later one after the server's
// sources changed, so each start finds the build stale. A round passes when all three answer /readyz 200, say their
// job queue started, and are still running. Prints a line per round (time until the last was ready, and the build it
// ran) and exits 1 if any round failed.
import { rmSync } from 'node:fs';
import { startCluster, stopCluster } from '../server/test/support/postgres-cluster.js';
import { builds, changeSources, copyForStart, emptyDatabase, startTogether, stopAll } from '../server/test/support/start-together.js';

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const cluster = await startCluster();
const dir = copyForStart();
let failed = 0;
try {
  for (let round = 1; round <= ROUNDS; round++) {
    if (round > 1) changeSources(dir, `round ${round}`);
    const database = await emptyDatabase(cluster.url('postgres'));
    const env = { DATABASE_URL: database.url, DATA_DIR: dir, ENV_FILE: '', DASHBOARD_JWT_SECRET: 'start-together-secret-0123456789-0123456789' };
    const t0 = Date.now();
    const started = await startTogether(dir, env, 2, 240_000);
    const ms = Date.now() - t0;
    const ok = started.every((s) => s.ready);
    if (!ok) failed++;
    console.log(`round ${round}: ${ok ? 'all ready' : 'FAILED'} in ${ms} ms; ${started.map((s) => `${s.name} /readyz ${s.readyz}${s.queue ? ', queue started' : ''}${s.ready ? '' : ', NOT READY'}`).join('; ')}; build ${builds(dir).current}`);
    if (!ok) for (const s of started.filter((x) => !x.ready)) console.log(`--- ${s.name}\n${s.output().slice(-3000)}`);
    await stopAll(started);
    await database.drop();
  }
  console.log(`${ROUNDS - failed} of ${ROUNDS} rounds: all three processes ready; builds beside the link: ${builds(dir).folders.length}`);
} finally {
  stopCluster(cluster.dir);
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
