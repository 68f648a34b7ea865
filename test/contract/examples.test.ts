// Every example the contract shows (the `@opExample`s in spec/, rendered by /docs) is replayed against the service on
// the offline engine, and the service must answer it exactly as shown. What the service cannot repeat byte for byte
// is matched by form only, and only these: ids it creates (UUIDs), a raw key and its prefix (random), the checkout
// URL's session id (Stripe's), and the published documents themselves (an example cannot hold the whole document).
import { appendFileSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Stripe from 'stripe';
import { FakeStripe } from '../../server/test/support/fake-stripe.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import type { ExtractionEngine } from '../../server/src/extraction/engines/engine.js';
import { selectEngine } from '../../server/src/extraction/engines/select-engine.js';
import { loadConfig } from '../../server/src/config/config.js';

type Json = Record<string, any>;
const doc: Json = JSON.parse(readFileSync(fileURLToPath(new URL('../../generated/openapi.json', import.meta.url)), 'utf8'));

interface Example {
  operationId: string;
  method: string;
  path: string;
  title: string;
  request: unknown;
  status: number;
  response: unknown;
}

/** Each example of the document: the request body and the answer that share its title. */
function examples(): Example[] {
  const out: Example[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(item)) {
      const requests = Object.values<Json>(op.requestBody?.content ?? {})[0]?.examples ?? {};
      for (const [status, response] of Object.entries<Json>(op.responses)) {
        for (const [title, ex] of Object.entries<Json>(Object.values<Json>(response.content ?? {})[0]?.examples ?? {})) {
          out.push({ operationId: op.operationId, method: method.toUpperCase(), path, title, request: requests[title]?.value, status: Number(status), response: ex.value });
        }
      }
    }
  }
  return out;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The answer with what is random replaced by the example's value once its form is checked: a UUID where the example
 * has one (the same actual id always maps to the same example id), the raw key and its prefix, a checkout URL.
 */
function alignRandom(actual: unknown, example: unknown, ids = new Map<string, string>()): unknown {
  if (typeof example === 'string' && UUID.test(example) && typeof actual === 'string' && UUID.test(actual)) {
    if (!ids.has(actual)) ids.set(actual, example);
    return ids.get(actual);
  }
  if (Array.isArray(example) && Array.isArray(actual)) return actual.map((a, i) => alignRandom(a, example[i], ids));
  if (example && typeof example === 'object' && actual && typeof actual === 'object' && !Array.isArray(actual)) {
    const a = actual as Json, e = example as Json;
    const out: Json = {};
    for (const [k, v] of Object.entries(a)) {
      if (k === 'key' && typeof v === 'string' && /^dx_live_[A-Za-z0-9]{43}$/.test(v) && typeof e.key === 'string') out[k] = e.key;
      else if (k === 'prefix' && typeof v === 'string' && /^dx_live_[A-Za-z0-9]{4}$/.test(v) && (a.key === undefined || a.key.startsWith(v))) out[k] = e.prefix;
      else if (k === 'url' && typeof v === 'string' && /^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\w+$/.test(v)) out[k] = e.url;
      // A calendar feed token (random), its prefix, and the feed address holding that very token.
      else if (k === 'token' && typeof v === 'string' && /^dxcal_[A-Za-z0-9]{43}$/.test(v) && typeof e.token === 'string') out[k] = e.token;
      else if (k === 'prefix' && typeof v === 'string' && /^dxcal_[A-Za-z0-9]{6}$/.test(v) && (a.token === undefined || a.token.startsWith(v))) out[k] = e.prefix;
      else if (k === 'url' && typeof v === 'string' && typeof a.token === 'string' && v === `http://127.0.0.1:8080/v1/renewals/calendar.ics?token=${a.token}`) out[k] = e.url;
      // A webhook endpoint's signing secret (random).
      else if (k === 'secret' && typeof v === 'string' && /^whsec_[A-Za-z0-9+/]{43}=$/.test(v) && typeof e.secret === 'string') out[k] = e.secret;
      else out[k] = alignRandom(v, e[k], ids);
    }
    return out;
  }
  return actual;
}

/** A text answer with the UUIDs it holds replaced by the example's, in order of appearance (ids the service creates). */
function alignText(actual: string, example: string): string {
  const shown = example.match(new RegExp(UUID.source.slice(1, -1), 'g')) ?? [];
  const ids = new Map<string, string>();
  return actual.replace(new RegExp(UUID.source.slice(1, -1), 'g'), (id) => {
    if (!ids.has(id)) ids.set(id, shown[ids.size] ?? id);
    return ids.get(id)!;
  });
}

describe('every example in the contract is what the service answers', () => {
  let s: TestServer;
  let stripe: FakeStripe;
  const WEBHOOK_SECRET = 'whsec_examples';
  // The offline engine, told when it has answered: a job example's run then moves the clock to the `finishedAt` it shows.
  let afterExtract: (() => void) | undefined;
  const observed = (base: ExtractionEngine): ExtractionEngine => ({
    name: base.name,
    plan: (input) => base.plan(input),
    readsNatively: (file) => base.readsNatively?.(file) ?? false,
    classifier: () => base.classifier(),
    async extract(input) {
      const answer = await base.extract(input);
      afterExtract?.();
      return answer;
    },
  });
  beforeAll(async () => {
    stripe = await new FakeStripe().start();
    s = await startTestServer('embedded', {
      STRIPE_SECRET_KEY: 'sk_test_examples',
      STRIPE_PRICE_STARTER: 'price_starter_1',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
    }, undefined, { engine: observed(selectEngine(loadConfig({ DATA_DIR: '/tmp', EXTRACTION_ENGINE: 'local' }).extraction)) });
  });
  afterAll(async () => { await s.close(); await stripe.stop(); });

  const bearer = async (account: string) => ({ authorization: `Bearer ${await s.token(account)}` });
  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    s.fetch(path, { method, headers, ...(body === undefined ? {} : { json: body }) });

  /** How each operation's example is replayed: the state it shows, then the call. */
  const replay: Record<string, (ex: Example) => Promise<Response>> = {
    async getLiveness(ex) { return send(ex.method, ex.path, {}); },
    async getReadiness(ex) { return send(ex.method, ex.path, {}); },
    async getOpenapiJson(ex) { return send(ex.method, ex.path, {}); },
    async getOpenapiYaml(ex) { return send(ex.method, ex.path, {}); },
    async getDocs(ex) { return send(ex.method, ex.path, {}); },
    async createKey(ex) {
      s.clock.set((ex.response as Json).createdAt);
      return send('POST', ex.path, { ...(await bearer('acct_example_create')), 'x-idempotency-key': 'create-ci-key-1' }, ex.request);
    },
    async listKeys(ex) {
      // The page shows the newest two of three keys: a revoked "Default key" and a used "CI server".
      const [ci, dflt] = (ex.response as Json).keys as Json[];
      const account = 'acct_example_list';
      const auth = await bearer(account);
      s.clock.set('2026-11-19T08:00:00.000Z');
      await s.createKey(account, 'Oldest key');
      s.clock.set(dflt!.createdAt);
      const old = await s.createKey(account, dflt!.name);
      s.clock.set(dflt!.revokedAt);
      await send('DELETE', `/v1/keys/${old.id}`, auth);
      s.clock.set(ci!.createdAt);
      const used = await s.createKey(account, ci!.name);
      s.clock.set(ci!.lastUsedAt);
      expect((await send('GET', '/v1/account', { 'x-api-key': used.key })).status).toBe(200);
      return send('GET', `${ex.path}?limit=2`, auth);
    },
    async revokeKey(ex) {
      const shown = ex.response as Json;
      const account = 'acct_example_revoke';
      s.clock.set(shown.createdAt);
      const made = await s.createKey(account, shown.name);
      s.clock.set(shown.lastUsedAt);
      expect((await send('GET', '/v1/account', { 'x-api-key': made.key })).status).toBe(200);
      s.clock.set(shown.revokedAt);
      return send('DELETE', `/v1/keys/${made.id}`, await bearer(account));
    },
    async extractWithKey(ex) {
      // The dashboard runs the example's extraction as one of its keys: the key it names is the one just created.
      const account = 'acct_example_key_extract';
      await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
      const made = await s.createKey(account, 'dashboard');
      return send('POST', ex.path.replace('{id}', made.id), await bearer(account), ex.request);
    },
    async getAccount(ex) {
      const shown = ex.response as Json;
      await s.db.prisma.account.create({
        data: {
          id: shown.id, plan: shown.plan, status: shown.status, stripeCustomerId: 'cus_example', currentPeriodEnd: new Date(shown.currentPeriodEnd),
          createdAt: new Date(shown.createdAt),
        },
      });
      s.clock.set(shown.createdAt);
      const keys = [];
      for (let i = 0; i < shown.activeKeyCount; i++) keys.push(await s.createKey(shown.id));
      s.clock.set(new Date(new Date(shown.periodStart).getTime() + 9 * 86_400_000));
      await s.db.prisma.usageBucket.create({ data: { accountId: shown.id, periodStart: new Date(shown.periodStart), heuUsed: shown.heuUsed } });
      return send('GET', ex.path, { 'x-api-key': keys[0]!.key });
    },
    // The renewal-tracking examples follow the renewal example's document, sent at the time its record shows.
    async listRenewals() {
      const { auth } = await renewalAccount('acct_example_renewals_list');
      return send('GET', '/v1/renewals?status=window_closing&deadlineFrom=2026-11-22&deadlineTo=2026-12-31&limit=10', auth);
    },
    async getRenewal() {
      const { auth, stored } = await renewalAccount('acct_example_renewals_get');
      return send('GET', `/v1/renewals/${stored.vendor_renewal_id}`, auth);
    },
    async getDocument() {
      const { auth, stored } = await renewalAccount('acct_example_documents_get');
      return send('GET', `/v1/documents/${stored.document_id}`, auth);
    },
    async updateRenewal(ex) {
      const { auth, stored } = await renewalAccount('acct_example_renewals_update');
      s.clock.set((ex.response as Json).terms.renewalDate.override.setAt);
      return send('PATCH', `/v1/renewals/${stored.vendor_renewal_id}`, auth, ex.request);
    },
    async getRenewalCalendar() {
      await renewalAccount('acct_example_calendar');
      const { token } = await (await send('POST', '/v1/renewals/calendar-feed', await bearer('acct_example_calendar'))).json();
      return send('GET', `/v1/renewals/calendar.ics?token=${token}`, {});
    },
    async getCalendarFeed(ex) {
      const account = 'acct_example_feed_get';
      s.clock.set((ex.response as Json).createdAt);
      await send('POST', '/v1/renewals/calendar-feed', await bearer(account));
      return send('GET', ex.path, await bearer(account));
    },
    async createCalendarFeed(ex) {
      s.clock.set((ex.response as Json).createdAt);
      return send('POST', ex.path, await bearer('acct_example_feed_create'));
    },
    async revokeCalendarFeed(ex) {
      const auth = await bearer('acct_example_feed_revoke');
      await send('POST', ex.path, auth);
      return send('DELETE', ex.path, auth);
    },
    async createCheckoutSession(ex) { return send('POST', ex.path, await bearer('acct_example_checkout'), ex.request); },
    // Jobs: no worker runs in this server; a job the example shows done is run here, at the times it shows.
    async createJob(ex) {
      const shown = ex.response as Json;
      s.clock.set(shown.createdAt);
      return send('POST', ex.path, { ...(await apiKey('acct_example_jobs_create')), 'idempotency-key': 'po-1042-invoice' }, ex.request);
    },
    async createJobBatch(ex) {
      s.clock.set((ex.response as Json).jobs[0].createdAt);
      return send('POST', ex.path, await apiKey('acct_example_jobs_batch'), ex.request);
    },
    async getJob(ex) {
      const auth = await apiKey('acct_example_jobs_get');
      const id = await runJob(auth, ex.response as Json);
      return send('GET', `/v1/jobs/${id}`, auth);
    },
    async listJobs(ex) {
      const [later, done] = (ex.response as Json).jobs as Json[];
      const auth = await apiKey('acct_example_jobs_list');
      await runJob(auth, done!);
      s.clock.set(later!.createdAt);
      expect((await send('POST', '/v1/jobs', auth, { route: 'invoice', document: { text: 'Invoice No: INV-8\nTotal due: $90.00' } })).status).toBe(202);
      return send('GET', '/v1/jobs?route=invoice&limit=10', auth);
    },
    async cancelJob(ex) {
      const shown = ex.response as Json;
      const auth = await apiKey('acct_example_jobs_cancel');
      s.clock.set(shown.createdAt);
      const { id } = await (await send('POST', '/v1/jobs', auth, jobExample().request)).json() as Json;
      s.clock.set(shown.finishedAt);
      return send('DELETE', `/v1/jobs/${id}`, auth);
    },
    async createWebhookEndpoint(ex) {
      s.clock.set((ex.response as Json).createdAt);
      return send('POST', ex.path, await apiKey('acct_example_hooks_create'), ex.request);
    },
    async listWebhookEndpoints(ex) {
      const auth = await apiKey('acct_example_hooks_list');
      await endpoint(auth, (ex.response as Json).endpoints[0]);
      return send('GET', ex.path, auth);
    },
    async getWebhookEndpoint(ex) {
      const auth = await apiKey('acct_example_hooks_get');
      const { id } = await endpoint(auth, ex.response as Json);
      return send('GET', `/v1/webhook-endpoints/${id}`, auth);
    },
    async deleteWebhookEndpoint(ex) {
      const auth = await apiKey('acct_example_hooks_delete');
      const { id } = await endpoint(auth, ex.response as Json);
      return send('DELETE', `/v1/webhook-endpoints/${id}`, auth);
    },
    async listWebhookDeliveries(ex) {
      // The endpoint of the other examples, then the job of "A succeeded invoice job": its run records the event. The
      // attempts the example shows (the receiver is not reachable from a test) are written as the sender writes them.
      const auth = await apiKey('acct_example_hooks_deliveries');
      const shownEndpoint = (examples().find((e) => e.operationId === 'getWebhookEndpoint')!.response) as Json;
      const { id } = await endpoint(auth, shownEndpoint);
      const delivery = (ex.response as Json).deliveries[0] as Json;
      await runJob(auth, delivery.event.data.job);
      const row = await s.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId: id } });
      for (const a of delivery.attempts as Json[]) {
        await s.db.prisma.webhookAttempt.create({ data: { deliveryId: row.id, attempt: a.attempt, attemptedAt: new Date(a.attemptedAt), statusCode: a.statusCode, error: a.error, durationMs: a.durationMs } });
      }
      await s.db.prisma.webhookDelivery.update({ where: { id: row.id }, data: { status: delivery.status, attemptCount: delivery.attempts.length, nextAttemptAt: delivery.nextAttemptAt } });
      return send('GET', `/v1/webhook-endpoints/${id}/deliveries?limit=10`, auth);
    },
    async rotateWebhookEndpointSecret(ex) {
      // Rotated half an hour after it was made: the previous secret signs until 24 hours after that.
      const auth = await apiKey('acct_example_hooks_rotate');
      const shown = ex.response as Json;
      const { id } = await endpoint(auth, shown);
      s.clock.set(new Date(new Date(shown.previousSecretExpiresAt).getTime() - (ex.request as Json).overlapSeconds * 1000).toISOString());
      return send('POST', `/v1/webhook-endpoints/${id}/rotate-secret`, auth, ex.request);
    },
    async enableWebhookEndpoint(ex) {
      // The endpoint as a 410 Gone left it: disabled.
      const auth = await apiKey('acct_example_hooks_enable');
      const { id } = await endpoint(auth, ex.response as Json);
      await s.db.prisma.webhookEndpoint.update({ where: { id }, data: { disabledAt: new Date('2026-11-22T10:00:00.000Z') } });
      return send('POST', `/v1/webhook-endpoints/${id}/enable`, auth);
    },
    async redeliverWebhookDelivery(ex) {
      // The delivery of "Delivered on the second attempt", sent again at the time the new delivery shows.
      const auth = await apiKey('acct_example_hooks_redeliver');
      const shownEndpoint = (examples().find((e) => e.operationId === 'getWebhookEndpoint')!.response) as Json;
      const { id } = await endpoint(auth, shownEndpoint);
      const shown = ex.response as Json;
      await runJob(auth, shown.event.data.job);
      const row = await s.db.prisma.webhookDelivery.findFirstOrThrow({ where: { endpointId: id } });
      await s.db.prisma.webhookDelivery.update({ where: { id: row.id }, data: { status: 'succeeded', attemptCount: 1, nextAttemptAt: null } });
      s.clock.set(shown.nextAttemptAt);
      return send('POST', `/v1/webhook-endpoints/${id}/deliveries/${row.id}/redeliver`, auth);
    },
    // Reviews: the invoice of "Queue an invoice" sent to the invoice route with review: true, reviewBelow 0.8.
    async listReviews(ex) {
      const { auth } = await reviewOf('acct_example_reviews_list', (ex.response as Json).reviews[0]);
      return send('GET', '/v1/reviews?status=open&limit=10', auth);
    },
    async getReview(ex) {
      const { auth, id } = await reviewOf('acct_example_reviews_get', ex.response as Json);
      return send('GET', `/v1/reviews/${id}`, auth);
    },
    async getReviewFile() {
      const shown = examples().find((e) => e.operationId === 'getReview')!.response as Json;
      const { auth, id } = await reviewOf('acct_example_reviews_file', shown);
      return send('GET', `/v1/reviews/${id}/file`, auth);
    },
    async resolveReview(ex) {
      const shown = ex.response as Json;
      const { auth, id } = await reviewOf('acct_example_reviews_resolve', shown);
      s.clock.set(shown.resolvedAt);
      return send('POST', `/v1/reviews/${id}/resolve`, auth, ex.request);
    },
    async deleteReview(ex) {
      const { auth, id } = await reviewOf('acct_example_reviews_delete', ex.response as Json);
      return send('DELETE', `/v1/reviews/${id}`, auth);
    },
    async createEvaluation(ex) {
      s.clock.set((ex.response as Json).createdAt);
      return send('POST', ex.path, await apiKey('acct_example_eval_create'), ex.request);
    },
    async getEvaluation(ex) {
      const auth = await apiKey('acct_example_eval_get');
      const made = examples().find((e) => e.operationId === 'createEvaluation')!;
      s.clock.set((ex.response as Json).createdAt);
      const { id } = await (await send('POST', made.path, auth, made.request)).json() as Json;
      return send('GET', `/v1/evaluations/${id}`, auth);
    },
    async receiveStripeEvent(ex) {
      // The example's signature is stale by now: sign the same body as Stripe would, now.
      const payload = JSON.stringify(ex.request);
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
      return s.fetch(ex.path, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
    },
  };
  /** An account holding the renewal example's document, as sent at the time its stored record shows. */
  const renewalAccount = async (account: string) => {
    const shown = examples().find((e) => e.operationId === 'extractRenewal')!;
    await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
    const { key } = await s.createKey(account);
    s.clock.set((shown.response as Json).document.createdAt);
    const stored = await (await send('POST', shown.path, { 'x-api-key': key }, shown.request)).json() as Json;
    return { auth: { 'x-api-key': key }, stored };
  };
  /** An account with one open review, made at the time `shown` gives; answers its key header and the review's id. */
  const reviewOf = async (account: string, shown: Json) => {
    const auth = await apiKey(account);
    s.clock.set(shown.createdAt);
    const document = (jobExample().request as Json).document;
    expect((await send('POST', '/v1/extract/invoice', auth, { document, review: true, reviewBelow: shown.reviewBelow })).status).toBe(200);
    const { reviews } = await (await send('GET', '/v1/reviews?limit=1', auth)).json() as Json;
    return { auth, id: reviews[0].id as string };
  };
  /** A starter account's API key header. */
  const apiKey = async (account: string) => {
    await s.db.prisma.account.create({ data: { id: account, plan: 'starter' } });
    return { 'x-api-key': (await s.createKey(account)).key };
  };
  const jobExample = () => examples().find((e) => e.operationId === 'createJob')!;
  /** The job of "Queue an invoice", accepted and run at the times `shown` gives; answers its id. */
  const runJob = async (auth: Record<string, string>, shown: Json) => {
    s.clock.set(shown.createdAt);
    const { id } = await (await send('POST', '/v1/jobs', auth, jobExample().request)).json() as Json;
    s.clock.set(shown.startedAt);
    afterExtract = () => s.clock.set(shown.finishedAt);
    try {
      await s.jobs.runner.run(id, new AbortController().signal);
    } finally {
      afterExtract = undefined;
    }
    return id as string;
  };
  /** An endpoint as `shown`, created at its time. */
  const endpoint = async (auth: Record<string, string>, shown: Json) => {
    s.clock.set(shown.createdAt);
    const res = await send('POST', '/v1/webhook-endpoints', auth, { url: shown.url, events: shown.events, description: shown.description });
    expect(res.status).toBe(201);
    return res.json() as Promise<Json>;
  };
  let extractionKey: string | undefined;
  const extraction = async (ex: Example) => {
    extractionKey ??= (await (async () => {
      await s.db.prisma.account.create({ data: { id: 'acct_example_extract', plan: 'starter' } });
      return s.createKey('acct_example_extract');
    })()).key;
    const shown = ex.response as Json;
    if (shown.document?.createdAt) s.clock.set(shown.document.createdAt);
    return send('POST', ex.path, { 'x-api-key': extractionKey }, ex.request);
  };

  it('finds examples for every operation', () => {
    const ops = new Set(Object.values<Json>(doc.paths).flatMap((item) => Object.values<Json>(item).map((op) => op.operationId)));
    expect(new Set(examples().map((e) => e.operationId))).toEqual(ops);
  });

  it.each(examples().map((e) => [`${e.operationId}: ${e.title}`, e] as const))('%s', async (_name, ex) => {
    const res = await (replay[ex.operationId] ?? extraction)(ex);
    const type = res.headers.get('content-type') ?? '';
    const body: unknown = type.includes('json') ? await res.json() : await res.text();
    // EXAMPLES_ACTUAL=file writes each answer as the service gave it (JSON lines), to bring the contract's examples up
    // to date after a change of the engine or its calibration.
    if (process.env.EXAMPLES_ACTUAL) appendFileSync(process.env.EXAMPLES_ACTUAL, `${JSON.stringify({ operationId: ex.operationId, title: ex.title, body })}\n`);
    expect(res.status).toBe(ex.status);
    if (ex.operationId === 'getOpenapiJson') expect(body).toMatchObject(ex.response as Json);
    else if (ex.operationId === 'getRenewalCalendar') {
      // iCalendar folds long lines, here inside an id; unfolded (RFC 5545 §3.1) the feed is the example, byte for byte.
      const unfold = (t: string) => t.replace(/\r\n /g, '');
      expect(alignText(unfold(body as string), unfold(ex.response as string))).toBe(unfold(ex.response as string));
      expect((body as string).length).toBe((ex.response as string).length);
    }
    else if (typeof ex.response === 'string') expect((body as string).startsWith(ex.response)).toBe(true);
    else expect(alignRandom(body, ex.response)).toEqual(ex.response);
  });
});
