-- AlterTable
ALTER TABLE "vendor_renewals" ADD COLUMN     "cancelled_at" TIMESTAMP(3),
ADD COLUMN     "overrides" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "calendar_feeds" (
    "account_id" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "calendar_feeds_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "calendar_feeds_hash_key" ON "calendar_feeds"("hash");

-- AddForeignKey
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
