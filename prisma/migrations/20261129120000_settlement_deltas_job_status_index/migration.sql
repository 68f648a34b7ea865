-- CreateTable
CREATE TABLE "usage_bucket_deltas" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "period_start" TIMESTAMP(3) NOT NULL,
    "heu" INTEGER NOT NULL,

    CONSTRAINT "usage_bucket_deltas_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "usage_bucket_deltas_account_id_period_start_idx" ON "usage_bucket_deltas"("account_id", "period_start");

-- CreateIndex
CREATE INDEX "jobs_account_id_status_id_idx" ON "jobs"("account_id", "status", "id" DESC);

-- AddForeignKey
ALTER TABLE "usage_bucket_deltas" ADD CONSTRAINT "usage_bucket_deltas_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
