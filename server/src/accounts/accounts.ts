import type { components } from '../../../generated/openapi.js';
import type { PlanTable } from '../config/plans.js';
import type { PrismaClient } from '../db/database.js';
import { utcTimestamp, type Sql } from '../db/sql.js';
import type { Account } from '../db/prisma-client/client.js';
import { monthStart } from '../time/clock.js';

export type AccountSummary = components['schemas']['AccountSummary'];

/**
 * The account for a verified dashboard subject; the first valid token creates it on `plan` (the configured plan of
 * new accounts, NEW_ACCOUNT_PLAN: free unless set). An existing account keeps its plan.
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
export async function readAccountSummary(sql: Sql, accountId: string, plans: PlanTable, now: Date): Promise<Omit<AccountSummary, 'calibratedRoutes'> | null> {
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

/** What an operator sees of an account (`npm run admin -- list-accounts`). */
export interface AccountListing {
  id: string;
  plan: Account['plan'];
  status: Account['status'];
  activeKeyCount: number;
  /** Whether a Stripe subscription sets its plan (Stripe's next event for it would undo an operator's change). */
  stripeSubscriptionId: string | null;
  createdAt: Date;
}

/**
 * Creates an account on `plan` (an operator's, before its first session): true, or false when the id is taken, in
 * which case nothing changes.
 */
export async function createAccount(prisma: PrismaClient, id: string, plan: Account['plan']): Promise<boolean> {
  const { count } = await prisma.account.createMany({ data: [{ id, plan }], skipDuplicates: true });
  return count === 1;
}

const LISTING = {
  id: true, plan: true, status: true, stripeSubscriptionId: true, createdAt: true,
  _count: { select: { apiKeys: { where: { revokedAt: null } } } },
} as const;

function toListing({ _count, ...row }: { _count: { apiKeys: number } } & Omit<AccountListing, 'activeKeyCount'>): AccountListing {
  return { ...row, activeKeyCount: _count.apiKeys };
}

/** Every account, oldest first, with its keys not revoked. */
export async function listAccounts(prisma: PrismaClient): Promise<AccountListing[]> {
  const rows = await prisma.account.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: LISTING });
  return rows.map(toListing);
}

/** One account as listed, or null. */
export async function findAccount(prisma: PrismaClient, id: string): Promise<AccountListing | null> {
  const row = await prisma.account.findUnique({ where: { id }, select: LISTING });
  return row ? toListing(row) : null;
}

/**
 * Moves an account to `plan` (an operator's decision, beside Stripe's events): the account as it now stands and its
 * plan before, or null when there is no such account. The limits follow at once: every request reads the plan from
 * the database.
 */
export async function setAccountPlan(prisma: PrismaClient, id: string, plan: Account['plan']): Promise<{ before: Account['plan']; account: AccountListing } | null> {
  const before = await findAccount(prisma, id);
  if (!before) return null;
  if (before.plan === plan) return { before: before.plan, account: before };
  await prisma.account.update({ where: { id }, data: { plan } });
  return { before: before.plan, account: { ...before, plan } };
}
