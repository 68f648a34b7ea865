import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { loadPlans, type PlanName, type PlanTable } from './plans.js';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from '../http/server-limits.js';
import { READER_DEFAULTS } from '../documents/reader-defaults.js';
import { DEFAULT_POOL, type PoolSettings } from '../db/pool-settings.js';

const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
const optionalUrl = z.preprocess(emptyAsUndefined, z.url().optional());

const env = z.object({
  NODE_ENV: z.preprocess(emptyAsUndefined, z.enum(['development', 'production', 'test']).default('development')),
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(8080)),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./.data')),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL').optional()),
  // The pool of PostgreSQL connections (db/database.ts; pg-boss keeps its own): its size, and how long a request waits
  // for a connection, for a statement to run (on the server) and for an answer (on the client), and how long a session
  // may sit idle inside a transaction before the server ends it. 0 turns a server-side one off (PgBouncer: see deploy.md).
  DATABASE_POOL_MAX: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1000).default(DEFAULT_POOL.max)),
  DATABASE_CONNECT_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(600_000).default(DEFAULT_POOL.connectTimeoutMs)),
  DATABASE_STATEMENT_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(3_600_000).default(DEFAULT_POOL.statementTimeoutMs)),
  DATABASE_QUERY_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(3_600_000).default(DEFAULT_POOL.queryTimeoutMs)),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(3_600_000).default(DEFAULT_POOL.idleInTransactionTimeoutMs)),
  DASHBOARD_JWT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, 'must be at least 32 characters').optional()),
  DASHBOARD_JWKS_URL: optionalUrl,
  DASHBOARD_JWT_ISSUER: optionalString,
  DASHBOARD_JWT_AUDIENCE: optionalString,
  DASHBOARD_LOCAL_SIGN_IN: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).optional()),
  // By default the address this service is served at (HOST and PORT): see defaultPublicUrl.
  PUBLIC_URL: optionalUrl,
  PLANS_FILE: optionalString,
  // The plan an account starts on when its first dashboard session creates it (default: free, as sold).
  NEW_ACCOUNT_PLAN: z.preprocess(emptyAsUndefined, z.enum(['free', 'starter']).optional()),
  LOG_LEVEL: z.preprocess(emptyAsUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  VALIDATE_RESPONSES: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).optional()),
  SHUTDOWN_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).default(10_000)),
  HTTP_HEADERS_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).default(DEFAULT_SERVER_LIMITS.headersTimeoutMs)),
  HTTP_REQUEST_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).default(DEFAULT_SERVER_LIMITS.requestTimeoutMs)),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).default(DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs)),
  HTTP_MAX_HEADER_BYTES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1024).max(1024 * 1024).default(DEFAULT_SERVER_LIMITS.maxHeaderBytes)),
  EXTRACTION_ENGINE: z.preprocess(emptyAsUndefined, z.enum(['local', 'anthropic']).optional()),
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_MODEL: z.preprocess(emptyAsUndefined, z.string().default('claude-sonnet-5-5')),
  // Models a request (`model`) or a route may choose besides ANTHROPIC_MODEL: comma-separated ids.
  ANTHROPIC_ALLOWED_MODELS: z.preprocess(emptyAsUndefined, z.string().regex(/^[\w.-]+(,[\w.-]+)*$/, 'must be comma-separated model ids').optional()),
  // Each route's default model, `route=model` comma-separated (`invoice=claude-haiku-5-5,renewal=claude-sonnet-5-5`).
  ANTHROPIC_ROUTE_MODELS: z.preprocess(emptyAsUndefined, z.string().regex(/^[a-z-]+=[\w.-]+(,[a-z-]+=[\w.-]+)*$/, 'must be route=model pairs, comma-separated').optional()),
  ANTHROPIC_BASE_URL: optionalUrl,
  ANTHROPIC_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).default(120_000)),
  ANTHROPIC_MAX_RETRIES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(10).default(2)),
  // Extraction answers are short: 4,096 output tokens hold ~100 invoice lines; one retry may use 16,384 (docs/claude.md).
  ANTHROPIC_MAX_TOKENS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(512).max(128_000).default(4096)),
  ANTHROPIC_RETRY_MAX_TOKENS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(512).max(128_000).default(16_384)),
  ANTHROPIC_THINKING: z.preprocess(emptyAsUndefined, z.enum(['off', 'model_default']).default('off')),
  ANTHROPIC_EFFORT: z.preprocess(emptyAsUndefined, z.enum(['low', 'medium', 'high', 'xhigh', 'max', 'model_default']).default('low')),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_STARTER: optionalString,
  STRIPE_API_BASE: optionalUrl,
  // The offline engine's worker threads (default: one less than the usable cores, a cgroup's CPU quota included, at
  // least one; 0 runs it on the event loop) and the most a task may run before it is stopped.
  OFFLINE_THREADS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(64).optional()),
  OFFLINE_TASK_BUDGET_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).default(60_000)),
  BATCH_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(20).default(5)),
  // The document reader (server/src/documents/reader.ts): processes reading files at once, each one's memory limit,
  // probes and reads one account may run at once (below READER_PROCESSES), and processes kept started ahead.
  READER_PROCESSES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(2).max(64).default(READER_DEFAULTS.processes)),
  READER_MEMORY_MB: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(256).max(16_384).default(READER_DEFAULTS.memoryMb)),
  READER_ACCOUNT_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(63).default(READER_DEFAULTS.perAccount)),
  READER_SPARES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(16).default(READER_DEFAULTS.spares)),
  BATCH_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).default(180_000)),
  // Production refuses the embedded database (one process, fsync off) unless this says the operator means it.
  ALLOW_EMBEDDED_DATABASE: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false')),
  // Jobs (server/src/jobs): whether this process also runs a worker, how many jobs it runs at once, how long results
  // are kept, how soon a job whose worker died is run again, and how often a worker looks for jobs when idle.
  START_WORKER: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('true')),
  JOB_CONCURRENCY: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(256).default(8)),
  JOB_RETENTION_HOURS: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(24 * 365).default(168)),
  REVIEW_RETENTION_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().positive().max(3650).default(30)),
  JOB_HEARTBEAT_SECONDS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(10).max(3600).default(30)),
  JOB_MAX_ATTEMPTS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(20).default(3)),
  JOB_POLL_INTERVAL_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(50).max(60_000).default(500)),
  // The worker process's own port (npm run worker): /healthz, /readyz and /metrics only.
  WORKER_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(65535).default(8081)),
  // Webhooks: endpoints on private addresses (tests, a private network), the retry schedule in seconds after each
  // failed attempt (the Standard Webhooks schedule by default), and each attempt's time limit.
  WEBHOOK_ALLOW_PRIVATE_URLS: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).default('false')),
  WEBHOOK_RETRY_SCHEDULE: z.preprocess(emptyAsUndefined, z.string().regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'must be seconds, comma-separated').optional()),
  WEBHOOK_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(120_000).default(15_000)),
  // GET /metrics answers only with this bearer token when it is set.
  METRICS_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(16, 'must be at least 16 characters').optional()),
});

/**
 * The Standard Webhooks specification's example schedule: a failed delivery is tried again after 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (about 3 days in all).
 * https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md#deliverability-and-reliability
 */
export const STANDARD_WEBHOOKS_RETRY_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400];

/** Every variable the configuration reads (`.env.example` lists each; a test holds them equal). */
export const CONFIG_VARIABLES: readonly string[] = [...Object.keys(env.shape), 'ENV_FILE'];

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The PostgreSQL pool's size and time limits (the embedded database always has one connection and none of them). */
  pool: PoolSettings;
  /**
   * Where callers reach the service, without a trailing slash (the upgrade link in 402 answers, checkout's return
   * pages): PUBLIC_URL, else the address served (defaultPublicUrl). With PORT=0 the port is known only once the
   * server listens: main.ts then sets it with `withBoundPort`.
   */
  publicUrl: string;
  /** Whether publicUrl is PUBLIC_URL (kept as set) rather than derived from HOST and PORT. */
  publicUrlIsExplicit: boolean;
  plans: PlanTable;
  /**
   * The plan an account starts on when its first dashboard session creates it: `free`, as sold, whatever NODE_ENV
   * says (a partner trying a local service meets the limits and the upgrade flow a customer meets); NEW_ACCOUNT_PLAN
   * sets another. An operator moves one account with `npm run admin -- set-plan`.
   */
  newAccountPlan: PlanName;
  logLevel: string;
  /** Validate every answer against the contract too (on in tests, so a drifting handler fails the suite). */
  validateResponses: boolean;
  shutdownTimeoutMs: number;
  /** Slow and oversized clients: header size and the time to receive a request (http/server-limits.ts). */
  http: ServerLimits;
  extraction: {
    /** The engine every extraction uses: Claude when a key is set (or forced), else the offline rules. */
    engine: 'local' | 'anthropic';
    anthropic: {
      apiKey: string | undefined; model: string; baseUrl: string | undefined; timeoutMs: number; maxRetries: number;
      /** Every model a request or route may use: ANTHROPIC_MODEL first, then ANTHROPIC_ALLOWED_MODELS. */
      allowedModels: string[];
      /** A route's own default model (else `model`), each one of `allowedModels`. */
      routeModels: Record<string, string>;
      /** `max_tokens` of the first call, and of the one retry after a `max_tokens` stop. */
      maxTokens: number; retryMaxTokens: number;
      /** `off`: the model's documented lowest thinking setting where it has one; `model_default`: send none. */
      thinking: 'off' | 'model_default';
      effort: 'low' | 'medium' | 'high' | 'xhigh' | 'max' | 'model_default';
    };
    /** The offline engine's worker threads (undefined: one less than the cores) and each task's time budget. */
    local: { threads: number | undefined; taskBudgetMs: number };
    batchConcurrency: number;
    /** A batch's overall deadline: items still running then fail alone with upstream_timeout. */
    batchTimeoutMs: number;
  };
  /** The document reader: each file probed and read in its own process under these limits, accounts served fairly. */
  reader: { processes: number; memoryMb: number; perAccount: number; spares: number };
  jobs: {
    /** Whether this process runs a worker besides the API (`START_WORKER`; the worker process always does). */
    startWorker: boolean;
    /** Jobs one worker runs at once. */
    concurrency: number;
    /** How long a finished job and its result are kept. */
    retentionMs: number;
    /** How long a review and its document are kept after it was made (`REVIEW_RETENTION_DAYS`). */
    reviewRetentionMs: number;
    /** A running job's heartbeat: a job whose worker stopped beating this long is run again. */
    heartbeatSeconds: number;
    /** Runs a job may start (the first and those after its worker died) before it fails. */
    maxAttempts: number;
    /** How often an idle worker asks for jobs. */
    pollIntervalMs: number;
    /** The worker process's port (probes and metrics). */
    workerPort: number;
  };
  webhooks: {
    allowPrivateUrls: boolean;
    /** Seconds to wait after each failed attempt; its length is the number of retries. */
    retryScheduleSeconds: number[];
    timeoutMs: number;
  };
  metricsToken: string | undefined;
  billing: {
    secretKey: string | undefined;
    webhookSecret: string | undefined;
    priceStarter: string | undefined;
    /** Another Stripe API endpoint (tests point it at a local fake). */
    apiBase: string | undefined;
  };
  dashboard: {
    jwtSecret: string | undefined;
    jwksUrl: string | undefined;
    issuer: string | undefined;
    audience: string | undefined;
    /**
     * The dashboard's local sign-in (a token for any account id): outside production, only when the service listens
     * on loopback unless DASHBOARD_LOCAL_SIGN_IN says otherwise, so a service reachable from a network never offers it
     * by default.
     */
    localSignIn: boolean;
  };
}

export class ConfigError extends Error {}

/** The routes a default model can be set for (ANTHROPIC_ROUTE_MODELS). */
const ROUTES = ['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal', 'custom', 'batch'];

type Env = z.infer<typeof env>;

/**
 * The process the configuration is for: the service (`api`: `npm start`, which may run a worker too) or a worker
 * alone (`worker`: `npm run worker`), which serves no dashboard and so needs no dashboard secret, but needs PostgreSQL.
 */
export type ProcessRole = 'api' | 'worker';

/**
 * Each variable on its own: a bad one is named in `issues` and left out, so the checks between variables still run
 * on the others and every problem is reported in the same message.
 */
function parseEach(source: NodeJS.ProcessEnv, issues: string[]): Partial<Env> {
  const parsed: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(env.shape)) {
    const result = (schema as z.ZodType).safeParse(source[name]);
    if (result.success) parsed[name] = result.data;
    else issues.push(...result.error.issues.map((i) => `${[name, ...i.path].join('.')}: ${i.message}`));
  }
  return parsed as Partial<Env>;
}

/**
 * Reads and checks the environment once, at start. Every problem is named in one message (a ConfigError), never one
 * per start: each variable's own value first, then the checks between variables on those that parsed.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env, options: { role?: ProcessRole } = {}): Config {
  const role = options.role ?? 'api';
  const issues: string[] = [];
  const bad = (name: string, message: string) => issues.push(`${name}: ${message}`);
  const p = parseEach(source, issues);
  const production = p.NODE_ENV === 'production';
  // Set (a bad value is named above already), as opposed to unset or empty.
  const given = (name: string) => source[name] !== undefined && source[name] !== '';
  if (role === 'api' && production && !given('DASHBOARD_JWT_SECRET') && !given('DASHBOARD_JWKS_URL')) {
    bad('DASHBOARD_JWT_SECRET', 'required in production (or set DASHBOARD_JWKS_URL)');
  }
  if (p.EXTRACTION_ENGINE === 'anthropic' && !p.ANTHROPIC_API_KEY) bad('EXTRACTION_ENGINE', 'anthropic needs ANTHROPIC_API_KEY');
  if (p.HTTP_HEADERS_TIMEOUT_MS !== undefined && p.HTTP_REQUEST_TIMEOUT_MS !== undefined && p.HTTP_HEADERS_TIMEOUT_MS > p.HTTP_REQUEST_TIMEOUT_MS) {
    bad('HTTP_HEADERS_TIMEOUT_MS', 'must not be more than HTTP_REQUEST_TIMEOUT_MS');
  }
  if (p.READER_ACCOUNT_CONCURRENCY !== undefined && p.READER_PROCESSES !== undefined && p.READER_ACCOUNT_CONCURRENCY >= p.READER_PROCESSES) {
    bad('READER_ACCOUNT_CONCURRENCY', 'must be less than READER_PROCESSES (so one account cannot hold every reader process)');
  }
  const databaseUrlParsed = 'DATABASE_URL' in p;
  if (role === 'worker' && databaseUrlParsed && !p.DATABASE_URL) {
    bad('DATABASE_URL', 'a separate worker needs PostgreSQL (the embedded database serves one process; `npm start` runs a worker beside the API)');
  } else if (production && databaseUrlParsed && !p.DATABASE_URL && p.ALLOW_EMBEDDED_DATABASE !== 'true') {
    bad('DATABASE_URL', 'required in production (the embedded database is one process with fsync off); set ALLOW_EMBEDDED_DATABASE=true to run on it anyway');
  }
  if (p.DATABASE_STATEMENT_TIMEOUT_MS && p.DATABASE_QUERY_TIMEOUT_MS !== undefined && p.DATABASE_QUERY_TIMEOUT_MS < p.DATABASE_STATEMENT_TIMEOUT_MS) {
    bad('DATABASE_QUERY_TIMEOUT_MS', 'must not be less than DATABASE_STATEMENT_TIMEOUT_MS (the server stops a slow statement first, and says so)');
  }
  if (p.STRIPE_SECRET_KEY && !p.STRIPE_PRICE_STARTER) bad('STRIPE_PRICE_STARTER', 'required with STRIPE_SECRET_KEY (the price of the starter plan)');
  const allowedModels = [...new Set([p.ANTHROPIC_MODEL ?? '', ...(p.ANTHROPIC_ALLOWED_MODELS?.split(',') ?? [])])];
  const routeModels = Object.fromEntries((p.ANTHROPIC_ROUTE_MODELS?.split(',') ?? []).map((pair) => pair.split('=') as [string, string]));
  for (const [route, model] of Object.entries(routeModels)) {
    if (!ROUTES.includes(route)) bad('ANTHROPIC_ROUTE_MODELS', `${route} is not an extraction route (${ROUTES.join(', ')})`);
    else if (p.ANTHROPIC_MODEL !== undefined && !allowedModels.includes(model)) bad('ANTHROPIC_ROUTE_MODELS', `${model} (for ${route}) is not ANTHROPIC_MODEL nor in ANTHROPIC_ALLOWED_MODELS`);
  }
  let publicUrl = p.PUBLIC_URL?.replace(/\/$/, '');
  if (publicUrl === undefined && 'PUBLIC_URL' in p && p.HOST !== undefined && p.PORT !== undefined) {
    publicUrl = defaultPublicUrl(p.HOST, p.PORT);
    if (!URL.canParse(publicUrl)) bad('PUBLIC_URL', `required, as HOST (${p.HOST}) does not make a URL`);
  }
  let plans: PlanTable | undefined;
  try {
    plans = loadPlans(p.PLANS_FILE);
  } catch (err) {
    issues.push((err as Error).message);
  }
  if (issues.length > 0 || !plans || publicUrl === undefined) {
    throw new ConfigError(`Invalid configuration:\n${issues.map((i) => `  ${i}`).join('\n')}`);
  }
  const e = p as Env;
  const dataDir = resolve(e.DATA_DIR);
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    pool: {
      max: e.DATABASE_POOL_MAX,
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      queryTimeoutMs: e.DATABASE_QUERY_TIMEOUT_MS,
      idleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    publicUrl,
    publicUrlIsExplicit: e.PUBLIC_URL !== undefined,
    plans,
    newAccountPlan: e.NEW_ACCOUNT_PLAN ?? 'free',
    logLevel: e.LOG_LEVEL,
    validateResponses: e.VALIDATE_RESPONSES ? e.VALIDATE_RESPONSES === 'true' : e.NODE_ENV === 'test',
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    http: {
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxHeaderBytes: e.HTTP_MAX_HEADER_BYTES,
    },
    extraction: {
      engine: e.EXTRACTION_ENGINE ?? (e.ANTHROPIC_API_KEY ? 'anthropic' : 'local'),
      anthropic: {
        apiKey: e.ANTHROPIC_API_KEY, model: e.ANTHROPIC_MODEL, baseUrl: e.ANTHROPIC_BASE_URL, timeoutMs: e.ANTHROPIC_TIMEOUT_MS, maxRetries: e.ANTHROPIC_MAX_RETRIES,
        allowedModels, routeModels,
        maxTokens: e.ANTHROPIC_MAX_TOKENS, retryMaxTokens: Math.max(e.ANTHROPIC_RETRY_MAX_TOKENS, e.ANTHROPIC_MAX_TOKENS), thinking: e.ANTHROPIC_THINKING, effort: e.ANTHROPIC_EFFORT,
      },
      local: { threads: e.OFFLINE_THREADS, taskBudgetMs: e.OFFLINE_TASK_BUDGET_MS },
      batchConcurrency: e.BATCH_CONCURRENCY,
      batchTimeoutMs: e.BATCH_TIMEOUT_MS,
    },
    reader: { processes: e.READER_PROCESSES, memoryMb: e.READER_MEMORY_MB, perAccount: e.READER_ACCOUNT_CONCURRENCY, spares: e.READER_SPARES },
    jobs: {
      startWorker: e.START_WORKER === 'true',
      concurrency: e.JOB_CONCURRENCY,
      retentionMs: Math.round(e.JOB_RETENTION_HOURS * 3_600_000),
      reviewRetentionMs: Math.round(e.REVIEW_RETENTION_DAYS * 86_400_000),
      heartbeatSeconds: e.JOB_HEARTBEAT_SECONDS,
      maxAttempts: e.JOB_MAX_ATTEMPTS,
      pollIntervalMs: e.JOB_POLL_INTERVAL_MS,
      workerPort: e.WORKER_PORT,
    },
    webhooks: {
      allowPrivateUrls: e.WEBHOOK_ALLOW_PRIVATE_URLS === 'true',
      retryScheduleSeconds: e.WEBHOOK_RETRY_SCHEDULE ? e.WEBHOOK_RETRY_SCHEDULE.split(',').map(Number) : STANDARD_WEBHOOKS_RETRY_SECONDS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
    },
    metricsToken: e.METRICS_TOKEN,
    billing: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, priceStarter: e.STRIPE_PRICE_STARTER, apiBase: e.STRIPE_API_BASE },
    dashboard: {
      // A worker alone serves no dashboard: it neither needs the secret nor writes a local one.
      jwtSecret: e.DASHBOARD_JWT_SECRET ?? (e.NODE_ENV === 'production' || role === 'worker' ? undefined : localSecret(dataDir)),
      jwksUrl: e.DASHBOARD_JWKS_URL,
      issuer: e.DASHBOARD_JWT_ISSUER,
      audience: e.DASHBOARD_JWT_AUDIENCE,
      localSignIn: e.NODE_ENV !== 'production' && (e.DASHBOARD_LOCAL_SIGN_IN ? e.DASHBOARD_LOCAL_SIGN_IN === 'true' : isLoopbackHost(e.HOST)),
    },
  };
}

/** Whether a listen address is reachable from this machine only. */
function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * The URL of the address a server listens on, for a caller on this machine: `http://HOST:PORT`, an IPv6 host in
 * brackets, and a wildcard (0.0.0.0, ::), which no one can connect to, as the loopback address of its family. A
 * service behind a proxy or reached by another name sets PUBLIC_URL.
 */
export function defaultPublicUrl(host: string, port: number): string {
  let h = host.trim();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h === '' || h === '0.0.0.0') h = '127.0.0.1';
  else if (isIPv6(h) && /^[0:]+$/.test(h)) h = '::1';
  // (A link-local address with its zone, fe80::1%eth0, makes no URL: loadConfig then asks for PUBLIC_URL.)
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/** The configuration once the server listens on `port`: a derived publicUrl follows the port actually bound (PORT=0). */
export function withBoundPort(config: Config, port: number): Config {
  if (port === config.port) return config;
  return { ...config, port, publicUrl: config.publicUrlIsExplicit ? config.publicUrl : defaultPublicUrl(config.host, port) };
}

/** Outside production, a dashboard secret is generated once and kept in DATA_DIR so tokens survive restarts. */
function localSecret(dataDir: string): string {
  const file = join(dataDir, 'dashboard-jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (e) {
    // Another process started at the same moment and wrote it first: use theirs.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw e;
  }
}
