import type { components } from '../../../generated/openapi.js';
import type { PlanTable } from '../config/plans.js';
import type { PrismaClient } from '../db/database.js';
import type { Account } from '../db/prisma-client/client.js';
import { monthStart } from '../time/clock.js';

export type AccountSummary = components['schemas']['AccountSummary'];

/** The account for a verified dashboard subject; the first valid token creates it on the free plan. */
export async function ensureAccount(prisma: PrismaClient, id: string): Promise<Account> {
  return prisma.account.upsert({ where: { id }, create: { id }, update: {} });
}

export async function readAccountSummary(prisma: PrismaClient, accountId: string, plans: PlanTable, now: Date): Promise<AccountSummary | null> {
  const periodStart = monthStart(now);
  const account = await prisma.account.findUnique({
    where: { id: accountId },
    include: { usageBuckets: { where: { periodStart } } },
  });
  if (!account) return null;
  const plan = plans[account.plan];
  return {
    id: account.id,
    plan: account.plan,
    status: account.status,
    heuLimit: plan.heuPerMonth,
    heuUsed: account.usageBuckets[0]?.heuUsed ?? 0,
    periodStart: periodStart.toISOString(),
    requestsPerMinute: plan.requestsPerMinute,
    hasBillingCustomer: account.stripeCustomerId !== null,
    currentPeriodEnd: account.currentPeriodEnd?.toISOString() ?? null,
    cancelAt: account.cancelAt?.toISOString() ?? null,
    priorPlan: account.priorPlan,
    subscriptionEndedAt: account.subscriptionEndedAt?.toISOString() ?? null,
    createdAt: account.createdAt.toISOString(),
  };
}
