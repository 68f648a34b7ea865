-- Every id a caller sees is a UUID (the interface document): rewrite the prefixed ids of earlier versions
-- (key_..., vr_..., doc_...) as UUID version 7 built from each row's creation time, so that keys still list newest
-- first and cursors keep working. Data only; the schema does not change.
CREATE TEMP TABLE "uuid_id_map" ("old_id" TEXT PRIMARY KEY, "new_id" TEXT NOT NULL);

INSERT INTO "uuid_id_map" ("old_id", "new_id")
SELECT "id",
       substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-7' || substr(r, 1, 3) || '-'
       || substr('89ab', 1 + (get_byte(decode(r, 'hex'), 15) % 4), 1) || substr(r, 4, 3) || '-' || substr(r, 7, 12)
FROM (
  SELECT "id",
         lpad(to_hex(floor(extract(epoch FROM "created_at") * 1000)::bigint), 12, '0') AS h,
         md5("id" || random()::text || clock_timestamp()::text) AS r
  FROM (
    SELECT "id", "created_at" FROM "api_keys" WHERE "id" !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    UNION ALL
    SELECT "id", "created_at" FROM "vendor_renewals" WHERE "id" !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    UNION ALL
    SELECT "id", "created_at" FROM "stored_documents" WHERE "id" !~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
  ) AS old_rows
) AS parts;

UPDATE "api_keys" k SET "id" = m."new_id" FROM "uuid_id_map" m WHERE k."id" = m."old_id";
UPDATE "idempotency_records" i SET "api_key_id" = m."new_id" FROM "uuid_id_map" m WHERE i."api_key_id" = m."old_id";
-- stored_documents.vendor_renewal_id follows by its foreign key (ON UPDATE CASCADE).
UPDATE "vendor_renewals" v SET "id" = m."new_id" FROM "uuid_id_map" m WHERE v."id" = m."old_id";
UPDATE "stored_documents" d SET "id" = m."new_id" FROM "uuid_id_map" m WHERE d."id" = m."old_id";

DROP TABLE "uuid_id_map";
