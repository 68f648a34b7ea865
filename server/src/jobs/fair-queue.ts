/**
 * Accounts take turns: each job gets a tag, and workers start queued jobs in tag order (pg-boss fetches the highest
 * priority first, and a job's priority is minus its tag). An account's new jobs are tagged after its own queued
 * ones; an account with nothing queued gets the tag of the next job due (the lowest queued tag), and as ties go to
 * the older job, it starts right after that one. So one account's 1,000 queued jobs hold tags 1..1000 while another
 * account's single job, sent when job 100 is next, is tagged 100 and starts after one more of them, not after the
 * other 900 (start-time fair queuing, with the lowest queued tag as virtual time).
 *
 * This is the SQL of the base a request's jobs are tagged after (base + 1, base + 2, ...), computed in the statement
 * that inserts them (job-repository.ts).
 */
export function fairBaseSql(accountParam: string): string {
  return `GREATEST(
      COALESCE((SELECT min(tag) FROM jobs WHERE status = 'queued') - 1, 0),
      COALESCE((SELECT max(tag) FROM jobs WHERE account_id = ${accountParam} AND status = 'queued'), 0))`;
}

/** pg-boss's priority for a tag: an integer, higher first. */
export const priorityOf = (tag: number): number => -Math.min(tag, 2_147_483_647);
