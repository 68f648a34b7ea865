import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { components, paths } from './contract.js';
import { DocExtractError, errorFromResponse } from './errors.js';
import { DEFAULT_RETRY, retryingFetch, type RetryPolicy } from './transport.js';
import { toContractDocument, type DocumentInput } from './files.js';
import type { WebhookEvent } from './webhooks.js';

type Schemas = components['schemas'];
export type { DocumentInput } from './files.js';
/** A batch item whose document may also be a `file`. */
export type BatchItemInput = Schemas['BatchItem'] extends infer I ? (I extends unknown ? Omit<I, 'document'> & { document: DocumentInput } : never) : never;
export type Usage = Schemas['Usage'];
/** The text a value was read from, where it stands (offsets; page and box for a file), and how sure the service is. */
export type Evidence = Schemas['Evidence'];
/** A value found below `minConfidence`: `null` in `data`, listed here for review. */
export type WithheldValue = Schemas['WithheldValue'];
/** An extraction answer: its data, the model and usage, what was read, each value's evidence and the values withheld. */
export type Extraction<T> = { data: T; model: string; usage: Usage; source: Schemas['DocumentSource']; evidence: Record<string, Evidence>; withheld: WithheldValue[] };
/** An extraction run as one of your keys (a dashboard session): a document with a fixed route's `kind` or a `schema`. */
export type KeyExtractInput = Schemas['KeyExtractRequest'] extends infer R ? (R extends unknown ? Omit<R, 'document'> & { document: string | DocumentInput } : never) : never;
export type Classification = Schemas['Classification'];
export type AutoExtraction = Schemas['AutoExtraction'];
export type AutoPart = Schemas['AutoPart'];
export type ExtractionKind = Schemas['ExtractionKind'];
/** What `classify` and `extract.auto` may choose among, and the model. */
export interface ClassifyOptions extends CallOptions { kinds?: ExtractionKind[]; model?: string }
/** `extract.auto`: also a schema for the parts of kind `other` (without it they have no `result`). */
export interface AutoOptions extends ClassifyOptions { schema?: Schemas['JsonSchemaObject'] }
/** A key as first created: the raw key is here, once. */
export type CreatedKey = Schemas['ApiKey'] & { key: string; idempotent: false };
/** The replay of a creation with the same idempotency key: the same record, never the raw key again. */
export type ReplayedKey = Schemas['ApiKey'] & { key?: undefined; idempotent: true };

export type VendorRenewal = Schemas['VendorRenewal'];
export type VendorRenewalDetail = Schemas['VendorRenewalDetail'];
export type VendorRenewalList = Schemas['VendorRenewalList'];
export type RenewalUpdate = Schemas['RenewalUpdate'];
export type StoredDocument = Schemas['StoredDocument'];
export type Job = Schemas['Job'];
export type JobRoute = Schemas['JobRoute'];
export type JobStatus = Schemas['JobStatus'];
/** What a job's `result` is for each route: the synchronous route's answer. */
export type JobResultOf<R extends JobRoute> =
  R extends 'invoice' ? Schemas['InvoiceExtraction'] : R extends 'receipt' ? Schemas['ReceiptExtraction'] : R extends 'contract' ? Schemas['ContractExtraction']
    : R extends 'job-posting' ? Schemas['JobPostingExtraction'] : R extends 'meeting-notes' ? Schemas['MeetingNotesExtraction']
      : R extends 'renewal' ? Schemas['RenewalExtraction'] : Schemas['CustomExtraction'];
/** A job of route `R`: its `result`, once succeeded, typed as that route's answer. */
export type JobOf<R extends JobRoute> = Omit<Job, 'result' | 'route'> & { route: R; result?: JobResultOf<R> };
/** Omit over each member of a union (a fixed route's request, or custom's with its schema). */
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** The member of a request union that takes route `R`, with `route` narrowed to it. */
type ForRoute<U, R> = U extends { route: infer X } ? (R extends X ? Omit<U, 'route'> & { route: R } : never) : never;
/** A job to create: the route and what it takes (the document may also be a `file`; `custom` needs `schema`), and your labels. */
export type JobRequest<R extends JobRoute = JobRoute> = R extends JobRoute
  ? DistributiveOmit<ForRoute<Schemas['CreateJobRequest'], R>, 'document'> & { document: string | DocumentInput } : never;
/** A batch: one route for every document, and what the route takes besides the document, shared. */
export type JobBatchRequest<R extends JobRoute = JobRoute> = R extends JobRoute
  ? DistributiveOmit<ForRoute<Schemas['CreateJobBatchRequest'], R>, 'items'> & { items: Array<{ document: string | DocumentInput; metadata?: Schemas['JobMetadata'] }> } : never;
/** Filters of the job list. */
export type JobQuery = { status?: JobStatus; route?: JobRoute };
export interface WaitOptions {
  signal?: AbortSignal;
  /** The longest to wait, in all; default 10 minutes. Then it throws a `timeout` DocExtractError. */
  timeoutMs?: number;
  /** The first poll comes after this, and each later one 1.5 times later, up to `maxPollIntervalMs`. Default 500 ms. */
  pollIntervalMs?: number;
  /** Default 10 s. */
  maxPollIntervalMs?: number;
}
const FINAL: ReadonlyArray<JobStatus> = ['succeeded', 'failed', 'cancelled'];

/** Filters of the renewal list: a status, and a range of cancellation deadlines (`YYYY-MM-DD`, both ends included). */
export type RenewalQuery = { status?: Schemas['DeadlineStatus']; deadlineFrom?: string; deadlineTo?: string };

export interface ClientOptions {
  /** An API key (`dx_live_...`), for extraction and reads. Keep it on servers. */
  apiKey?: string;
  /** A dashboard session token, for key management and billing. */
  token?: string;
  /** Default `https://api.docextract.dev`. */
  baseUrl?: string;
  /** Retries (429 always; 502/503/504 and network errors for reads, revocation and key creation). `0` turns them off. */
  maxRetries?: number;
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>;
  /**
   * The longest one wait before a retry may be (a `Retry-After` or a backoff); a longer one is not waited for: the
   * call fails at once with the error, whose details say when to come back. Default 60 s.
   */
  maxRetryWaitMs?: number;
  /** Per attempt; default 120 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
  /** Allow an API key in a browser. Don't: anyone who opens the page can read it. */
  dangerouslyAllowBrowser?: boolean;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** A deadline for this call, retries included. */
  timeoutMs?: number;
}

/** What every extract method may add to its call: the request's options, then the call's own (`signal`, `timeoutMs`). */
export interface ExtractOptions extends CallOptions {
  /**
   * Values with a confidence below this come back `null` in `data` and are listed in `withheld` instead (0 to 1;
   * `0` returns every value found; the service's default is 0.5). The charge is the same either way.
   */
  minConfidence?: number;
  /** Return the text the service read as `source.text`, so every evidence offset can be checked against it. */
  returnText?: boolean;
  /** The model to extract with, instead of the route's default: one the server allows. */
  model?: string;
  /** Keep the extraction for review when a value is withheld or under `reviewBelow` (see `reviews`). */
  review?: boolean;
  /** With `review`: returned values under this are reviewed too (default: `minConfidence`). */
  reviewBelow?: number;
}

/** The request members an extract call sends from its options (none of the call's own). */
function requestOptions(opts: ExtractOptions = {}): Pick<Schemas['ExtractRequest'], 'minConfidence' | 'returnText' | 'model' | 'review' | 'reviewBelow'> {
  return {
    ...(opts.minConfidence !== undefined ? { minConfidence: opts.minConfidence } : {}),
    ...(opts.review !== undefined ? { review: opts.review } : {}),
    ...(opts.reviewBelow !== undefined ? { reviewBelow: opts.reviewBelow } : {}),
    ...(opts.returnText !== undefined ? { returnText: opts.returnText } : {}),
    ...(opts.model !== undefined ? { model: opts.model } : {}),
  };
}

/** Nullable every property: the service answers every property of a custom schema, `null` when not found. */
type Answered<T> = T extends Record<string, unknown> ? { [K in keyof T]-?: Exclude<T[K], undefined> | null } : Record<string, unknown>;

const isBrowser = () => typeof (globalThis as { window?: unknown }).window !== 'undefined' && typeof (globalThis as { document?: unknown }).document !== 'undefined';

/** The credential each operation takes, as the contract's security says. */
function credentialFor(method: string, schemaPath: string): 'apiKey' | 'bearer' | 'either' | 'none' {
  if (schemaPath.startsWith('/v1/extract/') || schemaPath === '/v1/classify' || schemaPath.startsWith('/v1/jobs')) return 'apiKey';
  if (schemaPath.startsWith('/v1/webhook-endpoints') || schemaPath.startsWith('/v1/reviews')) return 'either';
  if (schemaPath.startsWith('/v1/evaluations')) return 'apiKey';
  if ((schemaPath === '/v1/keys' && method === 'POST') || schemaPath === '/v1/keys/{id}' || schemaPath === '/v1/keys/{id}/extract' || schemaPath === '/v1/billing/checkout') return 'bearer';
  if (schemaPath === '/v1/renewals/calendar-feed' && method !== 'GET') return 'bearer';
  if (schemaPath === '/v1/keys' || schemaPath === '/v1/account') return 'either';
  // The calendar feed itself takes its token in the URL, never a header.
  if (schemaPath === '/v1/renewals/calendar.ics') return 'none';
  if (schemaPath.startsWith('/v1/renewals') || schemaPath === '/v1/documents/{id}') return 'either';
  return 'none';
}


/**
 * The docextract API client. `client.raw` is the typed openapi-fetch client over the contract; the rest is a thin
 * layer that throws `DocExtractError`s and unwraps answers.
 */
export class DocExtract {
  readonly raw: Client<paths>;

  constructor(private readonly options: ClientOptions = {}) {
    if (options.apiKey && isBrowser() && !options.dangerouslyAllowBrowser) {
      throw new Error('docextract: refusing to use an API key in a browser, where anyone can read it. Call the API from your server, or pass dangerouslyAllowBrowser: true.');
    }
    const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY.maxRetries, maxRetryWaitMs: options.maxRetryWaitMs ?? DEFAULT_RETRY.maxRetryWaitMs };
    const base = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.raw = createClient<paths>({
      baseUrl: (options.baseUrl ?? 'https://api.docextract.dev').replace(/\/$/, ''),
      fetch: retryingFetch(base, policy, options.timeoutMs ?? 120_000),
    });
    this.raw.use(this.authMiddleware());
  }

  private authMiddleware(): Middleware {
    const { apiKey, token } = this.options;
    return {
      onRequest({ request, schemaPath }) {
        const need = credentialFor(request.method, schemaPath);
        if ((need === 'apiKey' || need === 'either') && apiKey) request.headers.set('x-api-key', apiKey);
        else if ((need === 'bearer' || need === 'either') && token) request.headers.set('authorization', `Bearer ${token}`);
        return request;
      },
    };
  }

  /** An extraction: the document (a file read and encoded first), then the call. */
  private extraction<T>(document: string | DocumentInput, run: (doc: Schemas['DocumentInput'], init: { signal?: AbortSignal }) => Promise<{ data?: T; error?: unknown; response: Response }>, opts?: CallOptions): Promise<T> {
    return toContractDocument(document).then((doc) => this.call<T>((init) => run(doc, init), opts));
  }

  /** Runs one call: the typed answer, or a thrown DocExtractError. */
  private async call<T>(run: (init: { signal?: AbortSignal }) => Promise<{ data?: T; error?: unknown; response: Response }>, opts: CallOptions = {}): Promise<T> {
    const deadline = opts.timeoutMs ? AbortSignal.timeout(opts.timeoutMs) : undefined;
    const signal = deadline && opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline ?? opts.signal;
    try {
      const { data, error, response } = await run(signal ? { signal } : {});
      if (!response.ok) throw errorFromResponse(response, error);
      return data as T;
    } catch (e) {
      if (deadline?.aborted && !opts.signal?.aborted) throw new DocExtractError(0, 'timeout', `The call took longer than ${opts.timeoutMs} ms.`, null, null);
      throw e;
    }
  }

  readonly extract = {
    invoice: (document: string | DocumentInput, opts?: ExtractOptions) =>
      this.extraction<Schemas['InvoiceExtraction']>(document, (doc, init) => this.raw.POST('/v1/extract/invoice', { body: { document: doc, ...requestOptions(opts) }, ...init }), opts),
    receipt: (document: string | DocumentInput, opts?: ExtractOptions) =>
      this.extraction<Schemas['ReceiptExtraction']>(document, (doc, init) => this.raw.POST('/v1/extract/receipt', { body: { document: doc, ...requestOptions(opts) }, ...init }), opts),
    contract: (document: string | DocumentInput, opts?: ExtractOptions) =>
      this.extraction<Schemas['ContractExtraction']>(document, (doc, init) => this.raw.POST('/v1/extract/contract', { body: { document: doc, ...requestOptions(opts) }, ...init }), opts),
    jobPosting: (document: string | DocumentInput, opts?: ExtractOptions) =>
      this.extraction<Schemas['JobPostingExtraction']>(document, (doc, init) => this.raw.POST('/v1/extract/job-posting', { body: { document: doc, ...requestOptions(opts) }, ...init }), opts),
    meetingNotes: (document: string | DocumentInput, opts?: ExtractOptions) =>
      this.extraction<Schemas['MeetingNotesExtraction']>(document, (doc, init) => this.raw.POST('/v1/extract/meeting-notes', { body: { document: doc, ...requestOptions(opts) }, ...init }), opts),
    renewal: (document: string | DocumentInput, opts?: ExtractOptions) =>
      this.extraction<Schemas['RenewalExtraction']>(document, (doc, init) => this.raw.POST('/v1/extract/renewal', { body: { document: doc, ...requestOptions(opts) }, ...init }), opts),
    /** With a schema written `as const`, `data` is typed from it (every property present, `null` when not found). */
    custom: <const S extends JSONSchema & { type: 'object' }>(document: string | DocumentInput, schema: S, opts?: ExtractOptions) =>
      this.extraction<Extraction<Answered<FromSchema<S>>>>(
        document,
        (doc, init) => this.raw.POST('/v1/extract/custom', { body: { document: doc, schema: schema as unknown as Schemas['JsonSchemaObject'], ...requestOptions(opts) }, ...init }) as never,
        opts,
      ),
    /**
     * One input holding several documents (a PDF packet, an e-mail with attachments, a DOCX): its parts, each
     * classified and extracted with its route (`result` is that route's answer for the part alone).
     */
    auto: (document: string | DocumentInput, opts: AutoOptions = {}) =>
      this.extraction<AutoExtraction>(document, (doc, init) => this.raw.POST('/v1/extract/auto', {
        body: { document: doc, ...(opts.kinds ? { kinds: opts.kinds } : {}), ...(opts.schema ? { schema: opts.schema } : {}), ...(opts.model ? { model: opts.model } : {}) }, ...init,
      }), opts),
    /** Items whose document is a `file` are read and encoded first. The options hold for every item. */
    batch: (items: BatchItemInput[], opts?: ExtractOptions) =>
      Promise.all(items.map(async (item) => ({ ...item, document: await toContractDocument(item.document) }) as Schemas['BatchItem']))
        .then((contractItems) => this.call<Schemas['BatchExtraction']>((init) => this.raw.POST('/v1/extract/batch', { body: { items: contractItems, ...requestOptions(opts) }, ...init }), opts)),
  };

  /** What kind of document this is: one of the fixed routes, or `other`, with the confidence and the kinds weighed. */
  classify(document: string | DocumentInput, opts: ClassifyOptions = {}): Promise<Classification> {
    return this.extraction<Classification>(document, (doc, init) => this.raw.POST('/v1/classify', {
      body: { document: doc, ...(opts.kinds ? { kinds: opts.kinds } : {}), ...(opts.model ? { model: opts.model } : {}) }, ...init,
    }), opts);
  }

  readonly keys = {
    /**
     * Creates a key. Without an idempotency key of yours the SDK sends a new one, so a retried creation makes one key,
     * and the answer is the first one, with the raw `key`. With yours, a repeat of an earlier creation answers its
     * replay (`idempotent: true`, no raw key: it is never kept).
     */
    create: ((body: Schemas['CreateApiKeyRequest'] = {}, opts: CallOptions & { idempotencyKey?: string } = {}) =>
      this.call<CreatedKey | ReplayedKey>((init) => this.raw.POST('/v1/keys', {
        body,
        params: { header: { 'x-idempotency-key': opts.idempotencyKey ?? globalThis.crypto.randomUUID() } },
        ...init,
      }) as never, opts).then((created) => {
        // Only the SDK's own retry can replay a key it named itself: the key exists, but its raw value was lost with
        // the first answer. Say so rather than answer a key without its secret.
        if (!opts.idempotencyKey && created.idempotent) {
          throw new DocExtractError(200, 'internal_error', `The key ${created.id} was created but its answer was lost; revoke it and create another.`, null, null);
        }
        return created;
      })) as {
      (body?: Schemas['CreateApiKeyRequest'], opts?: CallOptions & { idempotencyKey?: undefined }): Promise<CreatedKey>;
      (body: Schemas['CreateApiKeyRequest'], opts: CallOptions & { idempotencyKey: string }): Promise<CreatedKey | ReplayedKey>;
    },
    list: (query: { limit?: number; cursor?: string } = {}, opts?: CallOptions) =>
      this.call<Schemas['ApiKeyList']>((init) => this.raw.GET('/v1/keys', { params: { query }, ...init }), opts),
    /** Every key, newest first, fetching pages as the loop needs them. */
    listAll: (pageSize = 100): AsyncGenerator<Schemas['ApiKey']> => this.allKeys(pageSize),
    /** The pages of the key list, newest first, each fetched as the loop asks for it. */
    pages: (pageSize = 100): AsyncGenerator<Schemas['ApiKeyList']> => this.keyPages(pageSize),
    revoke: (id: string, opts?: CallOptions) =>
      this.call<Schemas['ApiKey']>((init) => this.raw.DELETE('/v1/keys/{id}', { params: { path: { id } }, ...init }), opts),
    /**
     * Runs an extraction as one of your keys, with a session token (the dashboard holds no raw key): metered exactly
     * as `/v1/extract/*` with that key, answered as that route answers, its `kind` named.
     */
    extract: (id: string, request: KeyExtractInput, opts?: CallOptions) =>
      toContractDocument(request.document).then((document) => this.call<Schemas['KeyExtraction']>((init) =>
        this.raw.POST('/v1/keys/{id}/extract', { params: { path: { id } }, body: { ...request, document } as Schemas['KeyExtractRequest'], ...init }), opts)),
  };

  private async *keyPages(pageSize: number): AsyncGenerator<Schemas['ApiKeyList']> {
    let cursor: string | undefined;
    do {
      const page = await this.keys.list({ limit: pageSize, ...(cursor ? { cursor } : {}) });
      yield page;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  private async *allKeys(pageSize: number): AsyncGenerator<Schemas['ApiKey']> {
    for await (const page of this.keyPages(pageSize)) yield* page.keys;
  }

  readonly renewals = {
    /** One page of vendor renewals, soonest cancellation deadline first. */
    list: (query: RenewalQuery & { limit?: number; cursor?: string } = {}, opts?: CallOptions) =>
      this.call<VendorRenewalList>((init) => this.raw.GET('/v1/renewals', { params: { query }, ...init }), opts),
    /** The pages of the list, each fetched as the loop asks for it. */
    pages: (query: RenewalQuery = {}, pageSize = 100): AsyncGenerator<VendorRenewalList> => this.renewalPages(query, pageSize),
    /** Every vendor renewal matching the filters, soonest deadline first, fetching pages as the loop needs them. */
    listAll: (query: RenewalQuery = {}, pageSize = 100): AsyncGenerator<VendorRenewal> => this.allRenewals(query, pageSize),
    /** A vendor renewal with its documents, newest first. */
    get: (id: string, opts?: CallOptions) =>
      this.call<VendorRenewalDetail>((init) => this.raw.GET('/v1/renewals/{id}', { params: { path: { id } }, ...init }), opts),
    /** Sets or clears manual overrides (`null` clears one), or the cancelled mark. */
    update: (id: string, body: RenewalUpdate, opts?: CallOptions) =>
      this.call<VendorRenewal>((init) => this.raw.PATCH('/v1/renewals/{id}', { params: { path: { id } }, body, ...init }), opts),
    /** Marks the renewal cancelled (`false` takes the mark back). */
    cancel: (id: string, cancelled = true, opts?: CallOptions) => this.renewals.update(id, { cancelled }, opts),
    /** The calendar feed's token: its state, a new one (the old one stops working), or none. */
    calendarFeed: {
      get: (opts?: CallOptions) => this.call<Schemas['CalendarFeed']>((init) => this.raw.GET('/v1/renewals/calendar-feed', init), opts),
      reset: (opts?: CallOptions) => this.call<Schemas['CreatedCalendarFeed']>((init) => this.raw.POST('/v1/renewals/calendar-feed', init), opts),
      revoke: (opts?: CallOptions) => this.call<Schemas['CalendarFeed']>((init) => this.raw.DELETE('/v1/renewals/calendar-feed', init), opts),
    },
  };

  private async *renewalPages(query: RenewalQuery, pageSize: number): AsyncGenerator<VendorRenewalList> {
    let cursor: string | undefined;
    do {
      const page = await this.renewals.list({ ...query, limit: pageSize, ...(cursor ? { cursor } : {}) });
      yield page;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  private async *allRenewals(query: RenewalQuery, pageSize: number): AsyncGenerator<VendorRenewal> {
    for await (const page of this.renewalPages(query, pageSize)) yield* page.renewals;
  }

  /** Jobs waited for by `jobs.wait`, told at once when an event about them reaches `jobs.notify`. */
  private readonly waiters = new Map<string, Set<(job: Job) => void>>();

  readonly jobs = {
    /**
     * Queues a job and answers it at once (`status: 'queued'`). An `Idempotency-Key` is always sent (yours, or a new
     * one), so a retried call makes one job.
     */
    create: async <R extends JobRoute>(request: JobRequest<R> & { route: R }, opts: CallOptions & { idempotencyKey?: string } = {}): Promise<JobOf<R>> => {
      const document = await toContractDocument(request.document);
      const body = { ...request, document } as Schemas['CreateJobRequest'];
      return this.call<JobOf<R>>((init) => this.raw.POST('/v1/jobs', {
        body, params: { header: { 'Idempotency-Key': opts.idempotencyKey ?? globalThis.crypto.randomUUID() } }, ...init,
      }) as never, opts);
    },
    /** Queues up to 1,000 documents of one route, each its own job; answers them in the order of `items`. */
    createBatch: async <R extends JobRoute>(request: JobBatchRequest<R> & { route: R }, opts: CallOptions & { idempotencyKey?: string } = {}): Promise<Array<JobOf<R>>> => {
      const items = await Promise.all(request.items.map(async (item) => ({ ...item, document: await toContractDocument(item.document) })));
      const body = { ...request, items } as Schemas['CreateJobBatchRequest'];
      const answer = await this.call<Schemas['JobBatch']>((init) => this.raw.POST('/v1/jobs/batch', {
        body, params: { header: { 'Idempotency-Key': opts.idempotencyKey ?? globalThis.crypto.randomUUID() } }, ...init,
      }), opts);
      return answer.jobs as Array<JobOf<R>>;
    },
    /** A job, with its `result` once it succeeded (or `error` once it failed). */
    get: (id: string, opts?: CallOptions) =>
      this.call<Job>((init) => this.raw.GET('/v1/jobs/{id}', { params: { path: { id } }, ...init }), opts),
    /** One page of the account's jobs, newest first, without their results. */
    list: (query: JobQuery & { limit?: number; cursor?: string } = {}, opts?: CallOptions) =>
      this.call<Schemas['JobList']>((init) => this.raw.GET('/v1/jobs', { params: { query }, ...init }), opts),
    /** Every job matching the filters, newest first, fetching pages as the loop needs them. */
    listAll: (query: JobQuery = {}, pageSize = 100): AsyncGenerator<Job> => this.allJobs(query, pageSize),
    /** Cancels a job that has not finished (nothing is charged); a finished one is a 409 `job_not_cancellable`. */
    cancel: (id: string, opts?: CallOptions) =>
      this.call<Job>((init) => this.raw.DELETE('/v1/jobs/{id}', { params: { path: { id } }, ...init }), opts),
    /**
     * Waits until the job has finished (succeeded, failed or cancelled) and answers it. It polls, first after
     * `pollIntervalMs` then backing off 1.5 times each poll; and it returns at once when your webhook handler passes an
     * event about the job to `jobs.notify`.
     */
    wait: <R extends JobRoute = JobRoute>(id: string, opts: WaitOptions = {}): Promise<JobOf<R>> => this.waitFor(id, opts) as Promise<JobOf<R>>,
    /**
     * Hands a verified webhook event (from `verifyWebhook`) to the `wait`s of this client: a wait for its job returns
     * with the event's job, without another poll. Answers whether one was waiting.
     */
    notify: (event: WebhookEvent): boolean => {
      const waiting = this.waiters.get(event.data.job.id);
      if (!waiting || !FINAL.includes(event.data.job.status)) return false;
      for (const resolve of [...waiting]) resolve(event.data.job);
      return true;
    },
  };

  private async waitFor(id: string, opts: WaitOptions): Promise<Job> {
    const timeoutMs = opts.timeoutMs ?? 600_000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
    let notified: ((job: Job) => void) | undefined;
    const event = new Promise<Job>((resolve) => { notified = resolve; });
    let waiting = this.waiters.get(id);
    if (!waiting) this.waiters.set(id, (waiting = new Set()));
    waiting.add(notified!);
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(deadline.aborted && !opts.signal?.aborted ? new DocExtractError(0, 'timeout', `The job ${id} did not finish within ${timeoutMs} ms.`, null, null) : signal.reason);
      if (signal.aborted) fail();
      signal.addEventListener('abort', fail, { once: true });
    });
    aborted.catch(() => {});
    try {
      let interval = opts.pollIntervalMs ?? 500;
      for (;;) {
        const job = await Promise.race([this.jobs.get(id, { signal }), event, aborted]);
        if (FINAL.includes(job.status)) return job;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const slept = await Promise.race([new Promise<null>((r) => { timer = setTimeout(() => r(null), interval); }), event, aborted]).finally(() => clearTimeout(timer));
        if (slept) return slept;
        interval = Math.min(interval * 1.5, opts.maxPollIntervalMs ?? 10_000);
      }
    } finally {
      waiting.delete(notified!);
      if (waiting.size === 0) this.waiters.delete(id);
    }
  }

  private async *allJobs(query: JobQuery, pageSize: number): AsyncGenerator<Job> {
    let cursor: string | undefined;
    do {
      const page = await this.jobs.list({ ...query, limit: pageSize, ...(cursor ? { cursor } : {}) });
      yield* page.jobs;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  readonly webhookEndpoints = {
    /** Adds an endpoint; its signing secret (`whsec_...`) is in this answer only. */
    create: (body: Schemas['CreateWebhookEndpointRequest'], opts?: CallOptions) =>
      this.call<Schemas['CreatedWebhookEndpoint']>((init) => this.raw.POST('/v1/webhook-endpoints', { body, ...init }), opts),
    list: (opts?: CallOptions) => this.call<Schemas['WebhookEndpointList']>((init) => this.raw.GET('/v1/webhook-endpoints', init), opts),
    get: (id: string, opts?: CallOptions) =>
      this.call<Schemas['WebhookEndpoint']>((init) => this.raw.GET('/v1/webhook-endpoints/{id}', { params: { path: { id } }, ...init }), opts),
    delete: (id: string, opts?: CallOptions) =>
      this.call<Schemas['WebhookEndpoint']>((init) => this.raw.DELETE('/v1/webhook-endpoints/{id}', { params: { path: { id } }, ...init }), opts),
    /** An endpoint's deliveries, newest first, each with every attempt. */
    deliveries: (id: string, query: { status?: Schemas['WebhookDeliveryStatus']; limit?: number; cursor?: string } = {}, opts?: CallOptions) =>
      this.call<Schemas['WebhookDeliveryList']>((init) => this.raw.GET('/v1/webhook-endpoints/{id}/deliveries', { params: { path: { id }, query }, ...init }), opts),
    /**
     * A new signing secret (in this answer only); the previous one keeps signing beside it for `overlapSeconds`
     * (24 hours by default), so `verifyWebhook` with either secret passes meanwhile.
     */
    rotateSecret: (id: string, body: Schemas['RotateWebhookSecretRequest'] = {}, opts?: CallOptions) =>
      this.call<Schemas['RotatedWebhookSecret']>((init) => this.raw.POST('/v1/webhook-endpoints/{id}/rotate-secret', { params: { path: { id } }, body, ...init }), opts),
    /** Enables an endpoint disabled by `410 Gone`: it takes new events again. */
    enable: (id: string, opts?: CallOptions) =>
      this.call<Schemas['WebhookEndpoint']>((init) => this.raw.POST('/v1/webhook-endpoints/{id}/enable', { params: { path: { id } }, ...init }), opts),
    /** Sends a delivery's event again (same `webhook-id`): answers the new delivery, queued. */
    redeliver: (id: string, deliveryId: string, opts?: CallOptions) =>
      this.call<Schemas['WebhookDelivery']>((init) => this.raw.POST('/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver', { params: { path: { id, deliveryId } }, ...init }), opts),
  };

  readonly reviews = {
    /** One page of the account's reviews, newest first (filters: `status`, `route`). */
    list: (query: { status?: Schemas['ReviewStatus']; route?: Schemas['JobRoute']; limit?: number; cursor?: string } = {}, opts?: CallOptions) =>
      this.call<Schemas['ReviewList']>((init) => this.raw.GET('/v1/reviews', { params: { query }, ...init }), opts),
    /** A review: the answer, the values to check, and the document's text and pages. */
    get: (id: string, opts?: CallOptions) =>
      this.call<Schemas['Review']>((init) => this.raw.GET('/v1/reviews/{id}', { params: { path: { id } }, ...init }), opts),
    /** Resolves a review with the corrected `data`: each value recorded as confirmed, corrected, added or removed. */
    resolve: (id: string, data: Record<string, unknown>, opts?: CallOptions) =>
      this.call<Schemas['Review']>((init) => this.raw.POST('/v1/reviews/{id}/resolve', { params: { path: { id } }, body: { data }, ...init }), opts),
    /** Deletes a review and its document. */
    delete: (id: string, opts?: CallOptions) =>
      this.call<Schemas['ReviewSummary']>((init) => this.raw.DELETE('/v1/reviews/{id}', { params: { path: { id } }, ...init }), opts),
  };

  readonly evaluations = {
    /**
     * Scores the engine on labelled documents: `examples` (at most 50 a call; `evaluationId` adds more to an earlier
     * evaluation), or without them the account's resolved reviews. Charged as extraction.
     */
    create: (body: Schemas['CreateEvaluationRequest'] = {}, opts?: CallOptions) =>
      this.call<Schemas['Evaluation']>((init) => this.raw.POST('/v1/evaluations', { body, ...init }), opts),
    get: (id: string, opts?: CallOptions) =>
      this.call<Schemas['Evaluation']>((init) => this.raw.GET('/v1/evaluations/{id}', { params: { path: { id } }, ...init }), opts),
  };

  readonly documents = {
    /** A stored renewal document: metadata and extraction, never the text. */
    get: (id: string, opts?: CallOptions) =>
      this.call<StoredDocument>((init) => this.raw.GET('/v1/documents/{id}', { params: { path: { id } }, ...init }), opts),
  };

  readonly account = {
    get: (opts?: CallOptions) => this.call<Schemas['AccountSummary']>((init) => this.raw.GET('/v1/account', init), opts),
  };

  readonly billing = {
    /** The Stripe Checkout page for a paid plan. */
    checkout: (plan: Schemas['PaidPlan'], opts?: CallOptions) =>
      this.call<Schemas['CheckoutSession']>((init) => this.raw.POST('/v1/billing/checkout', { body: { plan }, ...init }), opts),
  };
}
