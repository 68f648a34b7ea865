import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { Config } from './config/config.js';
import type { Database } from './db/database.js';
import { authenticate } from './auth/authenticate.js';
import { KeyCache } from './auth/key-cache.js';
import { createDashboardTokenVerifier } from './auth/dashboard-tokens.js';
import { accountRoutes } from './accounts/account-routes.js';
import { keyRoutes } from './keys/key-routes.js';
import { docsRoutes } from './meta/docs.js';
import { landingRoutes } from './meta/landing-routes.js';
import { dashboardRoutes } from './meta/dashboard-routes.js';
import { metaRoutes } from './meta/meta-routes.js';
import { contractPreflight } from './meta/published-contract.js';
import { ApiError } from './http/api-error.js';
import { errorMapper } from './http/error-mapper.js';
import { jsonBody } from './http/json-body.js';
import { multipartBody } from './http/multipart-body.js';
import { paramGuard } from './http/input-guard.js';
import { httpLogger } from './http/logger.js';
import { resolveRoute } from './http/resolve-route.js';
import { requireSchema } from './http/require-schema.js';
import { SchemaReadiness } from './db/schema-readiness.js';
import { contractValidator } from './http/validate.js';
import { systemClock, type Clock } from './time/clock.js';
import { extractRoutes } from './extraction/extract-routes.js';
import { classifyRoutes } from './classification/classify-routes.js';
import { autoRoutes } from './extraction/auto/auto-route.js';
import { RevocationWatcher } from './extraction/request-guard.js';
import type { ExtractionEngine } from './extraction/engines/engine.js';
import { selectEngine } from './extraction/engines/select-engine.js';
import { Meter } from './metering/meter.js';
import { renewalRoutes } from './renewals/renewal-routes.js';
import { calendarRoutes } from './renewals/calendar/calendar-routes.js';
import { Documents } from './documents/documents.js';
import { checkoutRoute, webhookRoute } from './billing/billing-routes.js';
import { createStripeClient } from './billing/stripe-client.js';
import type Stripe from 'stripe';
import { JobSystem } from './jobs/job-system.js';
import { jobRoutes } from './jobs/job-routes.js';
import { jobCountsOf, Metrics } from './metrics/metrics.js';
import { metricsRoute } from './metrics/metrics-route.js';
import { countReaderKills } from './metrics/reader-kills.js';
import { endpointRoutes } from './webhooks/endpoint-routes.js';
import { reviewRoutes } from './reviews/review-routes.js';
import { evaluationRoutes } from './evaluations/evaluation-routes.js';

export interface AppDeps {
  config: Config;
  db: Database;
  logger: Logger;
  clock?: Clock;
  /** The extraction engine; by default the configured one. */
  engine?: ExtractionEngine;
  meter?: Meter;
  /** Reads files (PDFs, images, HTML); by default a reader sized by the configuration (READER_*). */
  documents?: Documents;
  /** Whether the schema is current; until it is, routes that need the database answer 503. Ready by default. */
  schema?: SchemaReadiness;
  stripe?: Stripe | null;
  /** Jobs and webhooks; by default a job system whose queue starts on first use (main.ts starts its own). */
  jobs?: JobSystem;
  metrics?: Metrics;
}

/**
 * The HTTP pipeline: request id and log line; pages outside the contract (docs); then for API routes the contract's
 * operation (404/405), the credential it needs (401), the body (a file form on the single-document extraction routes, else JSON), validation against the contract (400), the
 * handler; and last, the one error mapper.
 */
export function createApp({ config, db, logger, clock = systemClock, engine = selectEngine(config.extraction), meter, documents = new Documents({ ...config.reader, log: logger }), stripe = createStripeClient(config.billing), schema = new SchemaReadiness().markReady(), metrics, jobs }: AppDeps): Express {
  const appMetrics = metrics ?? new Metrics(jobCountsOf(db.sql));
  const usageMeter = meter ?? new Meter(db.sql, config.plans, `${config.publicUrl}/dashboard/billing?plan=starter`, (heu) => appMetrics.heuSettled.inc(heu));
  countReaderKills(documents, appMetrics);
  const jobSystem = jobs ?? new JobSystem({ config, db, engine, documents, meter: usageMeter, clock, logger, metrics: appMetrics });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.use(httpLogger(logger));
  app.use(appMetrics.httpTimer());
  app.use((_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'no-store');
    next();
  });
  app.use(landingRoutes());
  app.use(docsRoutes());
  app.use(dashboardRoutes(config));
  app.use(contractPreflight);
  // For operators, outside the API contract (like the dashboard): Prometheus' text format.
  app.use(metricsRoute(appMetrics, config.metricsToken));

  const tokens = createDashboardTokenVerifier(config.dashboard);
  app.use(resolveRoute);
  app.use(requireSchema(schema));
  const keyCache = new KeyCache();
  app.use(authenticate({ prisma: db.prisma, sql: db.sql, tokens, clock, keyCache, newAccountPlan: config.newAccountPlan }));
  const billing = { prisma: db.prisma, stripe, billing: config.billing, publicUrl: config.publicUrl, clock };
  app.use(webhookRoute(billing));
  app.use(multipartBody);
  app.use(jsonBody);
  app.use(paramGuard);
  app.use(contractValidator(config.validateResponses));

  app.use(metaRoutes(db.pool, schema));
  const revocations = new RevocationWatcher(db.sql);
  app.use(keyRoutes(db.prisma, clock, keyCache, revocations));
  app.use(accountRoutes(db.sql, config.plans, clock, (accountId) => jobSystem.reviews.calibrations.list(accountId)));
  app.use(checkoutRoute(billing));
  app.use(calendarRoutes(db.prisma, clock, config.publicUrl));
  app.use(renewalRoutes(db.prisma, clock));
  app.use(jobRoutes(jobSystem.service));
  app.use(endpointRoutes(db, jobSystem.queue, clock, { allowPrivate: config.webhooks.allowPrivateUrls, allowHttp: config.webhooks.allowPrivateUrls || config.nodeEnv !== 'production' }));
  app.use(reviewRoutes(jobSystem.reviews));
  const extractDeps = { prisma: db.prisma, sql: db.sql, revocations, engine, documents, meter: usageMeter, clock, config: config.extraction, reviews: jobSystem.reviews };
  app.use(extractRoutes(extractDeps));
  app.use(autoRoutes(extractDeps));
  app.use(evaluationRoutes(extractDeps));
  app.use(classifyRoutes(extractDeps));

  app.use(() => {
    throw new ApiError('not_found');
  });
  app.use(errorMapper);
  return app;
}
