-- The PostgreSQL role KEDA's scaler connects as (base/worker-scaledobject.yaml). Its one query counts the jobs queued
-- or running (UNFINISHED_JOBS_SQL in server/src/jobs/job-repository.ts):
--   SELECT count(*) FROM jobs WHERE status IN ('queued', 'running')
-- so it may read the column jobs.status and nothing else: not a job's request or result (documents' values), not
-- accounts, keys or pg-boss's tables. Run once by the owner of docextract's tables (psql, connected to its database),
-- then give the role a password with psql's \password docextract_keda (it stays out of shell history and logs).
-- test/deploy/kubernetes.test.ts runs this file and the scaler's query as the role.
CREATE ROLE docextract_keda LOGIN CONNECTION LIMIT 3;
ALTER ROLE docextract_keda SET default_transaction_read_only = on;
ALTER ROLE docextract_keda SET statement_timeout = '5s';
GRANT USAGE ON SCHEMA public TO docextract_keda;
GRANT SELECT (status) ON TABLE jobs TO docextract_keda;
