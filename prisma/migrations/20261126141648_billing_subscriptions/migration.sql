-- CreateTable
CREATE TABLE "billing_subscriptions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "created_at" TIMESTAMP(3),
    "first_seen_at" TIMESTAMP(3) NOT NULL,
    "status" TEXT,
    "status_at" TIMESTAMP(3),
    "status_stage" INTEGER,
    "status_event_id" TEXT,
    "object_at" TIMESTAMP(3),
    "object_stage" INTEGER,
    "object_event_id" TEXT,
    "cancel_at" TIMESTAMP(3),
    "current_period_end" TIMESTAMP(3),
    "ended_at" TIMESTAMP(3),

    CONSTRAINT "billing_subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "billing_subscriptions_account_id_idx" ON "billing_subscriptions"("account_id");

-- AddForeignKey
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backfill: the subscription each account already follows, as its columns describe it, so that the first event after
-- this migration derives the plan from it too. Stages as in server/src/billing/subscription-state.ts; an empty event
-- id, so that any real event of the same second wins a tie.
INSERT INTO "billing_subscriptions" ("id", "account_id", "created_at", "first_seen_at", "status", "status_at", "status_stage", "status_event_id", "object_at", "object_stage", "object_event_id", "cancel_at", "current_period_end", "ended_at")
SELECT a."stripe_subscription_id", a."id", NULL, COALESCE(a."subscription_state_at", a."created_at"),
       s.status, COALESCE(a."subscription_state_at", a."created_at"), s.stage, '',
       COALESCE(a."subscription_state_at", a."created_at"), s.stage, '',
       a."cancel_at", a."current_period_end", a."subscription_ended_at"
FROM "accounts" a
CROSS JOIN LATERAL (
  SELECT st AS status,
         CASE st WHEN 'incomplete' THEN 0 WHEN 'trialing' THEN 1 WHEN 'active' THEN 2 WHEN 'past_due' THEN 3
                 WHEN 'unpaid' THEN 4 WHEN 'paused' THEN 5 ELSE 6 END AS stage
  FROM (SELECT CASE WHEN a."subscription_ended_at" IS NOT NULL THEN 'canceled' ELSE a."status"::text END AS st) x
) s
WHERE a."stripe_subscription_id" IS NOT NULL
ON CONFLICT ("id") DO NOTHING;
