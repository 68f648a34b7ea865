-- CreateTable
CREATE TABLE "rate_windows" (
    "account_id" TEXT NOT NULL,
    "window_start" TIMESTAMP(3) NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "rate_windows_pkey" PRIMARY KEY ("account_id","window_start")
);

-- AddForeignKey
ALTER TABLE "rate_windows" ADD CONSTRAINT "rate_windows_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
