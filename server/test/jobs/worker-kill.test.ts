// Two workers on PostgreSQL, one killed with SIGKILL in the middle of a run (the bench does this with 500 jobs:
// scripts/bench-jobs.ts): every job still succeeds exactly once, the HEU charged are exactly those the results
// report, no reservation is left, and each account's endpoint received one signed job.succeeded per job.
import { createTestDatabase, dbModes } from '../support/databases.js';
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
      // The account buckets hold exactly the HEU charged (nothing reserved, nothing counted twice).
      const buckets = await fleet.query<{ n: string }>('SELECT COALESCE(sum(heu_used), 0) AS n FROM usage_buckets WHERE account_id = ANY($1)', [fleet.accounts.map((a) => a.id)]);
      expect(Number(buckets[0]!.n)).toBe(report.heuSettled);
    } finally {
      await fleet.stop();
      await database.drop();
    }
  }, 180_000);
});
