-- AlterTable
ALTER TABLE "stored_documents" ADD COLUMN     "byte_size" INTEGER;
