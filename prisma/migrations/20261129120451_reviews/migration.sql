-- AlterTable
ALTER TABLE "webhook_deliveries" ALTER COLUMN "job_id" DROP NOT NULL;

-- CreateTable
CREATE TABLE "reviews" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "route" TEXT NOT NULL,
    "engine" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "job_id" TEXT,
    "min_confidence" DOUBLE PRECISION NOT NULL,
    "review_below" DOUBLE PRECISION NOT NULL,
    "withheld_count" INTEGER NOT NULL,
    "low_count" INTEGER NOT NULL,
    "answer" TEXT NOT NULL,
    "schema" TEXT,
    "document_text" TEXT NOT NULL,
    "media_type" TEXT NOT NULL,
    "filename" TEXT,
    "pages" TEXT NOT NULL,
    "file" BYTEA,
    "resolution" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "resolved_at" TIMESTAMP(3),

    CONSTRAINT "reviews_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "review_labels" (
    "review_id" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "engine" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,
    "correct" BOOLEAN NOT NULL,

    CONSTRAINT "review_labels_pkey" PRIMARY KEY ("review_id","path")
);

-- CreateTable
CREATE TABLE "account_calibrations" (
    "account_id" TEXT NOT NULL,
    "engine" TEXT NOT NULL,
    "route" TEXT NOT NULL,
    "map" TEXT NOT NULL,
    "value_count" INTEGER NOT NULL,
    "fitted_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "account_calibrations_pkey" PRIMARY KEY ("account_id","engine","route")
);

-- CreateTable
CREATE TABLE "evaluations" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "evaluations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "reviews_account_id_id_idx" ON "reviews"("account_id", "id" DESC);

-- CreateIndex
CREATE INDEX "reviews_account_id_status_id_idx" ON "reviews"("account_id", "status", "id" DESC);

-- CreateIndex
CREATE INDEX "reviews_expires_at_idx" ON "reviews"("expires_at");

-- CreateIndex
CREATE INDEX "review_labels_account_id_engine_route_idx" ON "review_labels"("account_id", "engine", "route");

-- CreateIndex
CREATE INDEX "evaluations_account_id_id_idx" ON "evaluations"("account_id", "id" DESC);

-- AddForeignKey
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "review_labels" ADD CONSTRAINT "review_labels_review_id_fkey" FOREIGN KEY ("review_id") REFERENCES "reviews"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "account_calibrations" ADD CONSTRAINT "account_calibrations_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "evaluations" ADD CONSTRAINT "evaluations_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
