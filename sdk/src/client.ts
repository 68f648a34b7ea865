import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { components, paths } from './contract.js';
import { DocExtractError, errorFromResponse } from './errors.js';
import { DEFAULT_RETRY, retryingFetch, type RetryPolicy } from './transport.js';
import { toContractDocument, type DocumentInput } from './files.js';

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
}

/** The request members an extract call sends from its options (none of the call's own). */
function requestOptions(opts: ExtractOptions = {}): Pick<Schemas['ExtractRequest'], 'minConfidence' | 'returnText' | 'model'> {
  return {
    ...(opts.minConfidence !== undefined ? { minConfidence: opts.minConfidence } : {}),
    ...(opts.returnText !== undefined ? { returnText: opts.returnText } : {}),
    ...(opts.model !== undefined ? { model: opts.model } : {}),
  };
}

/** Nullable every property: the service answers every property of a custom schema, `null` when not found. */
type Answered<T> = T extends Record<string, unknown> ? { [K in keyof T]-?: Exclude<T[K], undefined> | null } : Record<string, unknown>;

const isBrowser = () => typeof (globalThis as { window?: unknown }).window !== 'undefined' && typeof (globalThis as { document?: unknown }).document !== 'undefined';

/** The credential each operation takes, as the contract's security says. */
function credentialFor(method: string, schemaPath: string): 'apiKey' | 'bearer' | 'either' | 'none' {
  if (schemaPath.startsWith('/v1/extract/') || schemaPath === '/v1/classify') return 'apiKey';
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
