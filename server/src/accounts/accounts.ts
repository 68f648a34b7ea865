import type { components } from '../../../generated/openapi.js';
import type { PlanTable } from '../config/plans.js';
import type { PrismaClient } from '../db/database.js';
import { utcTimestamp, type Sql } from '../db/sql.js';
import type { Account } from '../db/prisma-client/client.js';
import { monthStart } from '../time/clock.js';

export type AccountSummary = components['schemas']['AccountSummary'];

/**
 * The account for a verified dashboard subject; the first valid token creates it on `plan` (the configured plan of
 * new accounts: free as sold, starter on a development service). An existing account keeps its plan.
 */
export async function ensureAccount(prisma: PrismaClient, id: string, plan: Account['plan'] = 'free'): Promise<Account> {
  return prisma.account.upsert({ where: { id }, create: { id, plan }, update: {} });
}

interface SummaryRow {
  id: string;
  plan: Account['plan'];
  status: Account['status'];
  stripe_customer_id: string | null;
  current_period_end: Date | null;
  cancel_at: Date | null;
  prior_plan: Account['plan'] | null;
  subscription_ended_at: Date | null;
  created_at: Date;
  heu_used: number | null;
  active_key_count: number;
}

/** The account with this month's usage, in one statement (it is read on every `GET /v1/account`). */
export async function readAccountSummary(sql: Sql, accountId: string, plans: PlanTable, now: Date): Promise<AccountSummary | null> {
  const periodStart = monthStart(now);
  // Columns are UTC without a zone; AT TIME ZONE 'UTC' hands pg instants it parses without the process's zone.
  const [account] = await sql.rows<SummaryRow>('account_summary', `
    SELECT a.id, a.plan::text AS plan, a.status::text AS status, a.stripe_customer_id,
           a.current_period_end AT TIME ZONE 'UTC' AS current_period_end, a.cancel_at AT TIME ZONE 'UTC' AS cancel_at,
           a.prior_plan::text AS prior_plan, a.subscription_ended_at AT TIME ZONE 'UTC' AS subscription_ended_at,
           a.created_at AT TIME ZONE 'UTC' AS created_at, b.heu_used,
           (SELECT count(*)::int FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL) AS active_key_count
    FROM accounts a LEFT JOIN usage_buckets b ON b.account_id = a.id AND b.period_start = $2::timestamp(3)
    WHERE a.id = $1`, [accountId, utcTimestamp(periodStart)]);
  if (!account) return null;
  const plan = plans[account.plan];
  return {
    id: account.id,
    plan: account.plan,
    status: account.status,
    heuLimit: plan.heuPerMonth,
    heuUsed: account.heu_used ?? 0,
    periodStart: periodStart.toISOString(),
    requestsPerMinute: plan.requestsPerMinute,
    activeKeyCount: account.active_key_count,
    hasBillingCustomer: account.stripe_customer_id !== null,
    currentPeriodEnd: account.current_period_end?.toISOString() ?? null,
    cancelAt: account.cancel_at?.toISOString() ?? null,
    priorPlan: account.prior_plan,
    subscriptionEndedAt: account.subscription_ended_at?.toISOString() ?? null,
    createdAt: account.created_at.toISOString(),
  };
}
