-- The PostgreSQL role KEDA's scaler connects as (base/worker-scaledobject.yaml). Its one query counts the jobs queued
-- or running (UNFINISHED_JOBS_SQL in server/src/jobs/job-repository.ts):
--   SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')
-- and the webhook delivery attempts due now (DUE_DELIVERIES_SQL in server/src/webhooks/endpoint-repository.ts):
--   SELECT count(*) FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now() AT TIME ZONE 'UTC'
-- so it may read the columns jobs.status, webhook_deliveries.status and .next_attempt_at and nothing else: not a job's request or result (documents' values), not
-- accounts, keys or pg-boss's tables. Run once by the owner of docextract's tables (psql, connected to its database),
-- then give the role a password with psql's \password docextract_keda (it stays out of shell history and logs).
-- test/deploy/kubernetes.test.ts runs this file and the scaler's query as the role.
CREATE ROLE docextract_keda LOGIN CONNECTION LIMIT 3;
ALTER ROLE docextract_keda SET default_transaction_read_only = on;
ALTER ROLE docextract_keda SET statement_timeout = '5s';
GRANT USAGE ON SCHEMA public TO docextract_keda;
GRANT SELECT (status) ON TABLE jobs TO docextract_keda;
GRANT SELECT (status, next_attempt_at) ON TABLE webhook_deliveries TO docextract_keda;
