// Two workers on PostgreSQL, one killed with SIGKILL in the middle of a run (the bench does this with 500 jobs:
// scripts/bench-jobs.ts): every job still succeeds exactly once, the HEU charged are exactly those the results
// report, no reservation is left, and each account's endpoint received one signed job.succeeded per job.
import { createTestDatabase, dbModes } from '../support/databases.js';
import type { ChildServer } from '../support/child-server.js';
import { JobFleet } from '../support/job-fleet.js';

const JOBS_PER_ACCOUNT = 40;
const receipt = (account: number, i: number) => `CORNER SHOP ${account}\n03/15/2026\nItem ${i} 2.00\nTOTAL ${(2 + i / 100).toFixed(2)}\nCASH`;

(dbModes().includes('postgres') ? describe : describe.skip)('workers on PostgreSQL, one killed mid-run', () => {
  it('runs every job once, charges exactly what the results report, and sends one signed event per job', async () => {
    const database = await createTestDatabase('postgres');
    const fleet = await JobFleet.start({ databaseUrl: database.databaseUrl!, dataDir: database.dataDir, workers: 2, accounts: 3, providerDelayMs: 300, concurrency: 4 });
    try {
      const byAccount = new Map<string, string[]>();
      await Promise.all(fleet.accounts.map(async (a, n) => {
        byAccount.set(a.id, await fleet.submitBatch(a, Array.from({ length: JOBS_PER_ACCOUNT }, (_, i) => receipt(n, i))));
      }));
      const ids = [...byAccount.values()].flat();
      // Kill one worker once a quarter of the jobs are done, while it holds running jobs.
      for (let i = 0; i < 600 && (await fleet.ended(ids)) < ids.length / 4; i++) await new Promise((r) => setTimeout(r, 50));
      const running = await fleet.query<{ n: string }>(`SELECT count(*) AS n FROM jobs WHERE id = ANY($1) AND status = 'running'`, [ids]);
      expect(Number(running[0]!.n)).toBeGreaterThan(0);
      const victim = fleet.workers[0]!;
      victim.child.kill('SIGKILL');
      expect((await victim.exited).signal).toBe('SIGKILL');

      await fleet.waitEnded(ids, 120_000);
      await fleet.waitDelivered(byAccount, 30_000);
      const report = await fleet.report(byAccount);
      expect(report).toMatchObject({ jobs: 3 * JOBS_PER_ACCOUNT, succeeded: 3 * JOBS_PER_ACCOUNT, failed: 0, stillReserved: 0 });
      // The killed worker's jobs ran again elsewhere, and were charged once.
      expect(report.rerun).toBeGreaterThan(0);
      expect(report.heuSettled).toBe(report.heuReported);
      expect(report.heuSettled).toBeGreaterThanOrEqual(3 * JOBS_PER_ACCOUNT);
      for (const w of report.webhooks) {
        expect(w.badSignatures).toBe(0);
        expect(w.jobsCovered).toBe(JOBS_PER_ACCOUNT);
        // One event per job: retries of a delivery (a worker killed while sending it) carry the same webhook-id.
        expect(w.distinct).toBe(JOBS_PER_ACCOUNT);
      }
      // The account buckets hold exactly the HEU charged (nothing reserved, nothing counted twice), with what jobs
      // ending together gave back while the bucket's row was busy (folded in within a second) counted.
      const buckets = await fleet.query<{ n: string }>(`SELECT COALESCE(sum(heu_used), 0)
        + (SELECT COALESCE(sum(heu), 0) FROM usage_bucket_deltas WHERE account_id = ANY($1)) AS n FROM usage_buckets WHERE account_id = ANY($1)`, [fleet.accounts.map((a) => a.id)]);
      expect(Number(buckets[0]!.n)).toBe(report.heuSettled);
    } finally {
      await fleet.stop();
      await database.drop();
    }
  }, 180_000);

  it('a worker given SIGTERM says how many jobs it handed back; every job still succeeds once, and each has its log lines', async () => {
    const database = await createTestDatabase('postgres');
    // Jobs take 3 s of the provider's time; the worker's grace is 300 ms: what it runs at SIGTERM is handed back.
    const fleet = await JobFleet.start({ databaseUrl: database.databaseUrl!, dataDir: database.dataDir, workers: 2, accounts: 1, providerDelayMs: 3_000, concurrency: 4, env: { SHUTDOWN_TIMEOUT_MS: '300' } });
    const logLines = (p: ChildServer) => p.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
    try {
      const account = fleet.accounts[0]!;
      const ids = await fleet.submitBatch(account, Array.from({ length: 8 }, (_, i) => receipt(0, i)));
      const victim = fleet.workers[0]!;
      const startedBy = (p: ChildServer) => logLines(p).filter((l) => l.msg === 'job started').map((l) => l.jobId as string);
      for (let i = 0; i < 300 && startedBy(victim).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(startedBy(victim).length).toBeGreaterThan(0);
      victim.child.kill('SIGTERM');
      expect((await victim.exited).code).toBe(0);
      const victimLines = logLines(victim);
      const ended = victimLines.filter((l) => /^job (succeeded|failed)$/.test(l.msg)).length;
      const stopped = victimLines.find((l) => /^worker stopped, \d+ jobs? handed back$/.test(l.msg));
      const handedBack = startedBy(victim).length - ended;
      expect(handedBack).toBeGreaterThan(0);
      expect(stopped).toMatchObject({ level: 30, signal: 'SIGTERM', handedBack, running: handedBack, finished: 0, msg: `worker stopped, ${handedBack} job${handedBack === 1 ? '' : 's'} handed back` });

      await fleet.waitEnded(ids, 60_000);
      const report = await fleet.report(new Map([[account.id, ids]]));
      expect(report).toMatchObject({ jobs: 8, succeeded: 8, failed: 0, stillReserved: 0 });
      // Each job: accepted once by the API; started (again, for those handed back) and succeeded once by a worker.
      const apiLines = logLines(fleet.api);
      const workerLines = fleet.workers.flatMap(logLines);
      for (const id of ids) {
        expect(apiLines.filter((l) => l.jobId === id).map((l) => l.msg)).toEqual(['job accepted']);
        expect(workerLines.filter((l) => l.jobId === id && l.msg === 'job succeeded')).toHaveLength(1);
      }
    } finally {
      await fleet.stop();
      await database.drop();
    }
  }, 120_000);
});
