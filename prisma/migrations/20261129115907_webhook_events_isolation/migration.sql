-- Webhook deliveries isolated per endpoint, and a job's event stored once: the body moves from each delivery to a
-- webhook_events row its deliveries share (existing deliveries keep theirs: one event row per event id).

-- AlterTable
ALTER TABLE "webhook_endpoints" ADD COLUMN     "consecutive_timeouts" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "webhook_events" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "job_id" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("id")
);

-- The events of the deliveries there are (one body per event id: every delivery of an event holds the same one).
INSERT INTO "webhook_events" ("id", "account_id", "type", "job_id", "payload", "created_at")
SELECT DISTINCT ON ("event_id") "event_id", "account_id", "event_type", "job_id", "payload", "created_at"
FROM "webhook_deliveries" ORDER BY "event_id", "created_at";

-- AlterTable
-- The body now lives once in webhook_events; the column stays (nullable, no longer written) so that the previous
-- version keeps working during a rolling upgrade; a later release drops it.
ALTER TABLE "webhook_deliveries" ALTER COLUMN "payload" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "webhook_events_created_at_idx" ON "webhook_events"("created_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_account_id_status_idx" ON "webhook_deliveries"("account_id", "status");

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- AddForeignKey
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_fkey" FOREIGN KEY ("event_id") REFERENCES "webhook_events"("id") ON DELETE CASCADE ON UPDATE CASCADE;
