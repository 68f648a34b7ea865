import { Router, type Request, type Response } from 'express';
import type { components } from '../../../generated/openapi.js';
import { principalOf } from '../auth/authenticate.js';
import { ApiError } from '../http/api-error.js';
import { refuseUnknownMembers } from './closed-members.js';
import { cursorParam } from '../http/cursor.js';
import { rateHeaders } from '../metering/meter.js';
import type { JobStatus } from './job-repository.js';
import type { Caller, JobService } from './job-service.js';
import { jobLog } from './job-log.js';
import { jobView } from './job-view.js';

type Schemas = components['schemas'];

/** The API key behind a job request (jobs take no dashboard session: a job belongs to the key that sent it). */
function callerOf(req: Request, res: Response): Caller {
  const principal = principalOf(res);
  if (principal.via !== 'api_key') throw new ApiError('unauthorized');
  return { accountId: principal.accountId, apiKeyId: principal.apiKeyId, requestId: req.id === undefined ? undefined : String(req.id) };
}

const idempotencyKeyOf = (req: Request) => req.header('idempotency-key');

export function jobRoutes(service: JobService): Router {
  const router = Router();

  router.post('/v1/jobs', async (req, res) => {
    refuseUnknownMembers(req.body, false);
    const { jobs, replayed, rate } = await service.create(callerOf(req, res), req.body as Schemas['CreateJobRequest'], idempotencyKeyOf(req));
    if (!replayed) jobLog.accepted(req.log, jobs);
    const job = jobView(jobs[0]!);
    res.status(202).setHeader('Location', `/v1/jobs/${job.id}`);
    // Counted against the minute's rate as a synchronous extraction is, and answered with the same headers.
    for (const [name, value] of Object.entries(rateHeaders(rate))) res.setHeader(name, value);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.json(job);
  });

  router.post('/v1/jobs/batch', async (req, res) => {
    refuseUnknownMembers(req.body, true);
    const { jobs, replayed, rate } = await service.createBatch(callerOf(req, res), req.body as Schemas['CreateJobBatchRequest'], idempotencyKeyOf(req));
    if (!replayed) jobLog.accepted(req.log, jobs);
    for (const [name, value] of Object.entries(rateHeaders(rate))) res.setHeader(name, value);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(202).json({ jobs: jobs.map(jobView) } satisfies Schemas['JobBatch']);
  });

  router.get('/v1/jobs', async (req, res) => {
    const q = req.query as { status?: JobStatus; route?: string; limit?: string; cursor?: string };
    const { rows, nextCursor } = await service.list(callerOf(req, res).accountId, { status: q.status, route: q.route, limit: q.limit ? Number(q.limit) : 100, cursor: cursorParam(q.cursor, 'id') });
    res.json({ jobs: rows.map(jobView), nextCursor } satisfies Schemas['JobList']);
  });

  router.get('/v1/jobs/:id', async (req, res) => {
    res.json(jobView(await service.get(callerOf(req, res).accountId, req.params.id!)));
  });

  router.delete('/v1/jobs/:id', async (req, res) => {
    res.json(jobView(await service.cancel(callerOf(req, res).accountId, req.params.id!)));
  });

  return router;
}
