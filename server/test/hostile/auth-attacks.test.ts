// Authentication attacks: tenant isolation on every authenticated operation of the contract with two accounts
// (A's key or token never reads, lists, revokes or bills B's resources; 404 where the contract says so), forged
// dashboard tokens, API keys that resemble real ones, revoked keys and keys of deleted accounts, and a guard against
// non-constant-time comparisons of secrets in the source.
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { SignJWT, UnsecuredJWT, generateKeyPair, exportJWK } from 'jose';
import { dbModes } from '../support/databases.js';
import { startTestServer, TEST_SECRET, type TestServer } from '../support/harness.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { DEFAULT_PLANS } from '../../src/config/plans.js';
import { checkAgainstContract, contract, dbFingerprint, send, type Json, type RawResponse } from './support.js';

const A = 'acct_tenant_a';
const B = 'acct_tenant_b';
const secret = new TextEncoder().encode(TEST_SECRET);
const in1h = () => Math.floor(Date.now() / 1000) + 3600;
const RENEWAL_TEXT = 'Vendor: Cloudnest Inc.\nProduct: Cloudnest Platform\nThis order renews automatically unless notice is given 60 days before the end of the term.';

/** Every operation the contract protects with a credential, by operationId. */
const securedOperations = Object.entries(contract.paths as Record<string, Json>).flatMap(([template, item]) =>
  Object.entries(item).filter(([, op]) => (op as Json).security?.some((r: Json) => Object.keys(r).length > 0)).map(([method, op]) => ({ template, method: method.toUpperCase(), operationId: (op as Json).operationId as string })));

describe.each(dbModes())('authentication attacks (%s database)', (mode) => {
  let s: TestServer;
  let stripe: FakeStripe;
  const cred = { A: { key: '', keyId: '', token: '' }, B: { key: '', keyId: '', token: '' } };
  let bRenewalId = '';
  let bDocumentId = '';
  let bFeedToken = '';
  let bJobId = '';
  let bEndpointId = '';
  let bReviewId = '';
  let bEvaluationId = '';

  beforeAll(async () => {
    stripe = await new FakeStripe().start();
    // The free plan with room for every scenario's calls in one minute (rate limits are not what this suite tests; with
    // a scenario for each operation, A made more than the free plan's 10 calls a minute).
    const plans = join(mkdtempSync(join(tmpdir(), 'auth-plans-')), 'plans.json');
    writeFileSync(plans, JSON.stringify({ ...DEFAULT_PLANS, free: { ...DEFAULT_PLANS.free, requestsPerMinute: 1000 } }));
    s = await startTestServer(mode, { STRIPE_SECRET_KEY: 'sk_test_auth', STRIPE_PRICE_STARTER: 'price_auth', STRIPE_API_BASE: stripe.url, PLANS_FILE: plans });
    for (const [name, id] of [['A', A], ['B', B]] as const) {
      const { key, id: keyId } = await s.createKey(id);
      cred[name] = { key, keyId, token: await s.token(id) };
    }
    // B owns a stored document and a vendor renewal, and has used some HEU.
    const r = await s.fetch('/v1/extract/renewal', { method: 'POST', headers: { 'x-api-key': cred.B.key }, json: { document: { text: RENEWAL_TEXT } } });
    expect(r.status).toBe(200);
    const stored = await r.json();
    bRenewalId = stored.document.vendorRenewalId;
    bDocumentId = stored.document_id;
    expect(bRenewalId).toBeTruthy();
    // B subscribes to its calendar feed.
    bFeedToken = (await (await s.fetch('/v1/renewals/calendar-feed', { method: 'POST', headers: { authorization: `Bearer ${cred.B.token}` } })).json()).token;
    expect(bFeedToken).toBeTruthy();
    // B has a job (queued: no worker runs here) and a webhook endpoint.
    bJobId = (await (await s.fetch('/v1/jobs', { method: 'POST', headers: { 'x-api-key': cred.B.key }, json: { route: 'receipt', document: { text: 'CORNER SHOP\nTOTAL 3.00' } } })).json()).id;
    bEndpointId = (await (await s.fetch('/v1/webhook-endpoints', { method: 'POST', headers: { 'x-api-key': cred.B.key }, json: { url: 'https://hooks.example.com/b' } })).json()).id;
    expect(bJobId).toBeTruthy();
    expect(bEndpointId).toBeTruthy();
    // B has a review (every value under reviewBelow 1) and an evaluation.
    const reviewed = await s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': cred.B.key }, json: { document: { text: 'CORNER SHOP\nTOTAL 3.00' }, review: true, reviewBelow: 1 } });
    expect(reviewed.status).toBe(200);
    bReviewId = (await (await s.fetch('/v1/reviews', { headers: { 'x-api-key': cred.B.key } })).json()).reviews[0].id;
    const evaluated = await s.fetch('/v1/evaluations', { method: 'POST', headers: { 'x-api-key': cred.B.key }, json: { examples: [{ route: 'receipt', document: { text: 'CORNER SHOP\nTOTAL 3.00' }, expected: { total: 3 } }] } });
    expect(evaluated.status).toBe(200);
    bEvaluationId = (await evaluated.json()).id;
    expect(bReviewId).toBeTruthy();
    expect(bEvaluationId).toBeTruthy();
  });
  afterAll(async () => { await s.close(); await stripe.stop(); });

  const req = (method: string, path: string, headers: Record<string, string | string[]> = {}, body?: unknown) =>
    send(s.baseUrl, { method, path, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const keyOf = (who: 'A' | 'B') => ({ 'x-api-key': cred[who].key });
  const bearerOf = (who: 'A' | 'B') => ({ authorization: `Bearer ${cred[who].token}` });
  const bState = async () => {
    const rows = await s.db.pool.query(
      `SELECT (SELECT json_agg(k ORDER BY id) FROM api_keys k WHERE account_id = $1) AS keys,
              (SELECT json_agg(u ORDER BY period_start) FROM usage_buckets u WHERE account_id = $1) AS buckets,
              (SELECT json_agg(v ORDER BY id) FROM vendor_renewals v WHERE account_id = $1) AS renewals,
              (SELECT count(*)::int FROM stored_documents WHERE account_id = $1) AS documents,
              (SELECT json_agg(f) FROM calendar_feeds f WHERE account_id = $1) AS feeds,
              (SELECT json_agg(j ORDER BY id) FROM jobs j WHERE account_id = $1) AS jobs,
              (SELECT json_agg(e ORDER BY id) FROM webhook_endpoints e WHERE account_id = $1) AS endpoints,
              (SELECT json_agg(r ORDER BY id) FROM reviews r WHERE account_id = $1) AS reviews,
              (SELECT row_to_json(a) FROM accounts a WHERE id = $1) AS account`, [B]);
    return rows.rows[0];
  };
  const conforms = (template: string, method: string, res: RawResponse) => expect(checkAgainstContract(template, method, res)).toEqual([]);

  // One isolation scenario per secured operation; the first test checks that none is missing.
  const isolation: Record<string, () => Promise<void>> = {
    getAccount: async () => {
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', '/v1/account', h);
        expect(res.status).toBe(200);
        expect(res.json.id).toBe(A);
        expect(res.json.heuUsed).toBe(0);
      }
    },
    listKeys: async () => {
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', '/v1/keys', h);
        expect(res.status).toBe(200);
        conforms('/v1/keys', 'GET', res);
        const ids = res.json.keys.map((k: Json) => k.id);
        expect(ids).toContain(cred.A.keyId);
        expect(ids).not.toContain(cred.B.keyId);
        // B's key id as a cursor pages A's keys, never B's.
        const paged = await req('GET', `/v1/keys?cursor=${encodeURIComponent(cred.B.keyId)}&limit=100`, h);
        expect(paged.status).toBe(200);
        expect(paged.json.keys.map((k: Json) => k.id)).not.toContain(cred.B.keyId);
      }
    },
    createKey: async () => {
      // The same idempotency key in two accounts makes two keys: A never replays B's record.
      const b = await req('POST', '/v1/keys', { ...bearerOf('B'), 'x-idempotency-key': 'shared-idem' }, { name: 'b twin' });
      expect(b.status).toBe(201);
      const a = await req('POST', '/v1/keys', { ...bearerOf('A'), 'x-idempotency-key': 'shared-idem' }, { name: 'a twin' });
      expect(a.status).toBe(201);
      conforms('/v1/keys', 'POST', a);
      expect(a.json.id).not.toBe(b.json.id);
      expect(a.json.name).toBe('a twin');
      expect((await s.db.prisma.apiKey.findUniqueOrThrow({ where: { id: a.json.id } })).accountId).toBe(A);
      // Revoke B's twin again so the rest of the suite sees B's key set unchanged by A.
      expect((await req('DELETE', `/v1/keys/${b.json.id}`, bearerOf('B'))).status).toBe(200);
    },
    revokeKey: async () => {
      const before = await bState();
      const res = await req('DELETE', `/v1/keys/${cred.B.keyId}`, bearerOf('A'));
      expect(res.status).toBe(404);
      conforms('/v1/keys/{id}', 'DELETE', res);
      expect(res.json.error.code).toBe('not_found');
      expect(await bState()).toEqual(before);
      expect((await req('GET', '/v1/account', keyOf('B'))).status).toBe(200);
    },
    extractWithKey: async () => {
      // A's session cannot run an extraction as B's key (404, B's bucket, keys and lastUsedAt untouched), and B's key
      // cannot stand in for a session here (401); as A's own key it runs and charges A.
      const before = await bState();
      const body = { document: { text: 'SHOP\nTOTAL 3.00' }, kind: 'receipt' };
      const res = await req('POST', `/v1/keys/${cred.B.keyId}/extract`, bearerOf('A'), body);
      expect(res.status).toBe(404);
      conforms('/v1/keys/{id}/extract', 'POST', res);
      expect(res.json.error.code).toBe('not_found');
      expect((await req('POST', `/v1/keys/${cred.B.keyId}/extract`, keyOf('B'), body)).status).toBe(401);
      expect(await bState()).toEqual(before);
      const own = await req('POST', `/v1/keys/${cred.A.keyId}/extract`, bearerOf('A'), body);
      expect(own.status).toBe(200);
      conforms('/v1/keys/{id}/extract', 'POST', own);
      expect(await bState()).toEqual(before);
    },
    createCheckoutSession: async () => {
      const before = await bState();
      const res = await req('POST', '/v1/billing/checkout', bearerOf('A'), { plan: 'starter' });
      expect(res.status).toBe(200);
      const customer = [...stripe.customers.values()].at(-1) as Json;
      expect(customer.metadata.accountId).toBe(A);
      expect(await bState()).toEqual(before);
    },
    ...Object.fromEntries(['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'custom', 'batch'].map((kind) => [
      `extract${kind.replace(/(^|-)(\w)/g, (_m, _d: string, c: string) => c.toUpperCase())}`,
      async () => {
        const before = await bState();
        const body = kind === 'batch' ? { items: [{ id: 'a', kind: 'invoice', document: { text: 'Total: $3' } }] }
          : kind === 'custom' ? { document: { text: 'Total: 3' }, schema: { type: 'object', properties: { total: { type: 'number' } } } }
            : { document: { text: 'Total: $3' } };
        const res = await req('POST', `/v1/extract/${kind}`, keyOf('A'), body);
        expect(res.status).toBe(200);
        expect(await bState()).toEqual(before); // billed to A only
      },
    ])),
    listRenewals: async () => {
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', '/v1/renewals', h);
        expect(res.status).toBe(200);
        conforms('/v1/renewals', 'GET', res);
        expect(res.json.renewals.map((r: Json) => r.id)).not.toContain(bRenewalId);
        // A cursor naming B's renewal pages A's, never B's.
        const paged = await req('GET', `/v1/renewals?cursor=${encodeURIComponent(`~|${bRenewalId}`)}`, h);
        expect(paged.status).toBe(200);
        expect(paged.json.renewals.map((r: Json) => r.id)).not.toContain(bRenewalId);
      }
    },
    getRenewal: async () => {
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', `/v1/renewals/${bRenewalId}`, h);
        expect(res.status).toBe(404);
        conforms('/v1/renewals/{id}', 'GET', res);
      }
      expect((await req('GET', `/v1/renewals/${bRenewalId}`, keyOf('B'))).status).toBe(200);
    },
    updateRenewal: async () => {
      const before = await bState();
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('PATCH', `/v1/renewals/${bRenewalId}`, h, { cancelled: true, overrides: { renewalDate: { value: '2030-01-01' } } });
        expect(res.status).toBe(404);
        conforms('/v1/renewals/{id}', 'PATCH', res);
      }
      expect(await bState()).toEqual(before);
    },
    getDocument: async () => {
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', `/v1/documents/${bDocumentId}`, h);
        expect(res.status).toBe(404);
        conforms('/v1/documents/{id}', 'GET', res);
      }
      expect((await req('GET', `/v1/documents/${bDocumentId}`, keyOf('B'))).status).toBe(200);
    },
    getRenewalCalendar: async () => {
      // A's own feed holds none of B's renewals; A's key or session is not a feed token.
      const a = await req('POST', '/v1/renewals/calendar-feed', bearerOf('A'));
      const res = await req('GET', `/v1/renewals/calendar.ics?token=${a.json.token}`);
      expect(res.status).toBe(200);
      expect(res.text).not.toContain(bRenewalId);
      for (const h of [keyOf('A'), bearerOf('A'), keyOf('B')]) expect((await req('GET', '/v1/renewals/calendar.ics', h)).status).toBe(401);
      // B's token still reads B's feed (its renewal has no dates, so no events).
      expect((await req('GET', `/v1/renewals/calendar.ics?token=${bFeedToken}`)).status).toBe(200);
    },
    getCalendarFeed: async () => {
      const b = await req('GET', '/v1/renewals/calendar-feed', keyOf('B'));
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', '/v1/renewals/calendar-feed', h);
        expect(res.status).toBe(200);
        conforms('/v1/renewals/calendar-feed', 'GET', res);
        expect(res.json.prefix).not.toBe(b.json.prefix);
      }
    },
    createCalendarFeed: async () => {
      const before = await bState();
      const res = await req('POST', '/v1/renewals/calendar-feed', bearerOf('A'));
      expect(res.status).toBe(201);
      conforms('/v1/renewals/calendar-feed', 'POST', res);
      expect(await bState()).toEqual(before); // B's token is not reset
      expect((await req('GET', `/v1/renewals/calendar.ics?token=${bFeedToken}`)).status).toBe(200);
    },
    revokeCalendarFeed: async () => {
      const before = await bState();
      const res = await req('DELETE', '/v1/renewals/calendar-feed', bearerOf('A'));
      expect(res.status).toBe(200);
      expect(await bState()).toEqual(before);
      expect((await req('GET', `/v1/renewals/calendar.ics?token=${bFeedToken}`)).status).toBe(200);
    },
    classifyDocument: async () => {
      const before = await bState();
      const res = await req('POST', '/v1/classify', keyOf('A'), { document: { text: RENEWAL_TEXT } });
      expect(res.status).toBe(200);
      conforms('/v1/classify', 'POST', res);
      expect(await bState()).toEqual(before);
      expect((await req('POST', '/v1/classify', bearerOf('B'), { document: { text: RENEWAL_TEXT } })).status).toBe(401);
    },
    extractAuto: async () => {
      const before = await bState();
      const aBefore = await dbFingerprint(s);
      // A renewal part may not be stored against B's vendor renewal: 404 before anything is read or charged.
      const res = await req('POST', '/v1/extract/auto', keyOf('A'), { document: { text: RENEWAL_TEXT, vendorRenewalId: bRenewalId } });
      expect(res.status).toBe(404);
      conforms('/v1/extract/auto', 'POST', res);
      expect(await dbFingerprint(s)).toEqual(aBefore);
      expect(await bState()).toEqual(before);
    },
    extractRenewal: async () => {
      const before = await bState();
      const aBefore = await dbFingerprint(s);
      const res = await req('POST', '/v1/extract/renewal', keyOf('A'), { document: { text: RENEWAL_TEXT, vendorRenewalId: bRenewalId } });
      expect(res.status).toBe(404);
      conforms('/v1/extract/renewal', 'POST', res);
      expect(await dbFingerprint(s)).toEqual(aBefore); // nothing charged, nothing stored
      // Inside a batch the item fails alone with not_found, B untouched.
      const batch = await req('POST', '/v1/extract/batch', keyOf('A'), { items: [{ id: 'r', kind: 'renewal', document: { text: RENEWAL_TEXT, vendorRenewalId: bRenewalId } }] });
      expect(batch.status).toBe(200);
      expect(batch.json.results[0]).toMatchObject({ ok: false, error: { code: 'not_found' } });
      expect(await bState()).toEqual(before);
    },
  };

  Object.assign(isolation, {
    createJob: async () => {
      const before = await bState();
      const res = await req('POST', '/v1/jobs', keyOf('A'), { route: 'renewal', document: { text: RENEWAL_TEXT, vendorRenewalId: bRenewalId } });
      expect(res.status).toBe(404);
      conforms('/v1/jobs', 'POST', res);
      expect((await req('POST', '/v1/jobs', bearerOf('A'), { route: 'receipt', document: { text: 'TOTAL 1.00' } })).status).toBe(401);
      expect((await req('POST', '/v1/jobs', keyOf('A'), { route: 'receipt', document: { text: 'TOTAL 1.00' } })).status).toBe(202);
      expect(await bState()).toEqual(before);
    },
    createJobBatch: async () => {
      const before = await bState();
      const res = await req('POST', '/v1/jobs/batch', keyOf('A'), { route: 'renewal', items: [{ document: { text: RENEWAL_TEXT, vendorRenewalId: bRenewalId } }] });
      expect(res.status).toBe(404);
      conforms('/v1/jobs/batch', 'POST', res);
      expect(await bState()).toEqual(before);
    },
    getJob: async () => {
      const res = await req('GET', `/v1/jobs/${bJobId}`, keyOf('A'));
      expect(res.status).toBe(404);
      conforms('/v1/jobs/{id}', 'GET', res);
      expect((await req('GET', `/v1/jobs/${bJobId}`, bearerOf('B'))).status).toBe(401);
      expect((await req('GET', `/v1/jobs/${bJobId}`, keyOf('B'))).status).toBe(200);
    },
    listJobs: async () => {
      const res = await req('GET', '/v1/jobs', keyOf('A'));
      expect(res.status).toBe(200);
      expect(res.json.jobs.map((j: Json) => j.id)).not.toContain(bJobId);
      // A cursor naming B's job pages A's, never B's.
      const paged = await req('GET', `/v1/jobs?cursor=${bJobId.replace(/.$/, 'f')}`, keyOf('A'));
      expect(paged.json.jobs.map((j: Json) => j.id)).not.toContain(bJobId);
    },
    cancelJob: async () => {
      const before = await bState();
      const res = await req('DELETE', `/v1/jobs/${bJobId}`, keyOf('A'));
      expect(res.status).toBe(404);
      conforms('/v1/jobs/{id}', 'DELETE', res);
      expect(await bState()).toEqual(before);
    },
    createWebhookEndpoint: async () => {
      const before = await bState();
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('POST', '/v1/webhook-endpoints', h, { url: 'https://hooks.example.com/a' });
        expect(res.status).toBe(201);
        conforms('/v1/webhook-endpoints', 'POST', res);
      }
      expect(await bState()).toEqual(before);
    },
    listWebhookEndpoints: async () => {
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', '/v1/webhook-endpoints', h);
        expect(res.status).toBe(200);
        expect(res.json.endpoints.map((e: Json) => e.id)).not.toContain(bEndpointId);
      }
    },
    getWebhookEndpoint: async () => {
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', `/v1/webhook-endpoints/${bEndpointId}`, h);
        expect(res.status).toBe(404);
        conforms('/v1/webhook-endpoints/{id}', 'GET', res);
      }
      expect((await req('GET', `/v1/webhook-endpoints/${bEndpointId}`, keyOf('B'))).status).toBe(200);
    },
    deleteWebhookEndpoint: async () => {
      const before = await bState();
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('DELETE', `/v1/webhook-endpoints/${bEndpointId}`, h);
        expect(res.status).toBe(404);
        conforms('/v1/webhook-endpoints/{id}', 'DELETE', res);
      }
      expect(await bState()).toEqual(before);
    },
    listWebhookDeliveries: async () => {
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', `/v1/webhook-endpoints/${bEndpointId}/deliveries`, h);
        expect(res.status).toBe(404);
        conforms('/v1/webhook-endpoints/{id}/deliveries', 'GET', res);
      }
      expect((await req('GET', `/v1/webhook-endpoints/${bEndpointId}/deliveries`, keyOf('B'))).status).toBe(200);
    },
    rotateWebhookEndpointSecret: async () => {
      const before = await bState();
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('POST', `/v1/webhook-endpoints/${bEndpointId}/rotate-secret`, h, {});
        expect(res.status).toBe(404);
        conforms('/v1/webhook-endpoints/{id}/rotate-secret', 'POST', res);
      }
      expect(await bState()).toEqual(before);
    },
    enableWebhookEndpoint: async () => {
      await s.db.pool.query('UPDATE webhook_endpoints SET disabled_at = now() WHERE id = $1', [bEndpointId]);
      const before = await bState();
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('POST', `/v1/webhook-endpoints/${bEndpointId}/enable`, h);
        expect(res.status).toBe(404);
        conforms('/v1/webhook-endpoints/{id}/enable', 'POST', res);
      }
      expect(await bState()).toEqual(before);
      await s.db.pool.query('UPDATE webhook_endpoints SET disabled_at = NULL WHERE id = $1', [bEndpointId]);
    },
    redeliverWebhookDelivery: async () => {
      // B's endpoint holds one delivery (written as a job's end writes it; no worker runs here).
      const deliveryId = '0193a6f8-0000-7000-8000-00000000b001';
      await s.db.pool.query(`INSERT INTO webhook_events (id, account_id, type, job_id, payload, created_at)
        VALUES ($1, $2, 'job.succeeded', $3, '{}', now()) ON CONFLICT DO NOTHING`, [deliveryId, B, bJobId]);
      await s.db.pool.query(`INSERT INTO webhook_deliveries (id, endpoint_id, account_id, event_id, event_type, job_id, status, attempt_count, created_at)
        VALUES ($1, $2, $3, $1, 'job.succeeded', $4, 'succeeded', 1, now()) ON CONFLICT DO NOTHING`, [deliveryId, bEndpointId, B, bJobId]);
      const deliveries = async () => (await s.db.pool.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE account_id = $1', [B])).rows[0].n;
      const before = { state: await bState(), deliveries: await deliveries() };
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('POST', `/v1/webhook-endpoints/${bEndpointId}/deliveries/${deliveryId}/redeliver`, h);
        expect(res.status).toBe(404);
        conforms('/v1/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver', 'POST', res);
        // A's own endpoint with B's delivery id: not A's delivery either.
        const own = (await req('GET', '/v1/webhook-endpoints', h)).json.endpoints[0].id;
        expect((await req('POST', `/v1/webhook-endpoints/${own}/deliveries/${deliveryId}/redeliver`, h)).status).toBe(404);
      }
      expect({ state: await bState(), deliveries: await deliveries() }).toEqual(before);
    },
  } satisfies Record<string, () => Promise<void>>);

  Object.assign(isolation, {
    listReviews: async () => {
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', '/v1/reviews', h);
        expect(res.status).toBe(200);
        expect(res.json.reviews.map((r: Json) => r.id)).not.toContain(bReviewId);
      }
      // A cursor naming B's review pages A's, never B's.
      expect((await req('GET', `/v1/reviews?cursor=${bReviewId}`, keyOf('A'))).json.reviews.map((r: Json) => r.id)).not.toContain(bReviewId);
    },
    getReview: async () => {
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('GET', `/v1/reviews/${bReviewId}`, h);
        expect(res.status).toBe(404);
        conforms('/v1/reviews/{id}', 'GET', res);
      }
      expect((await req('GET', `/v1/reviews/${bReviewId}`, keyOf('B'))).status).toBe(200);
    },
    getReviewFile: async () => {
      const res = await req('GET', `/v1/reviews/${bReviewId}/file`, keyOf('A'));
      expect(res.status).toBe(404);
      conforms('/v1/reviews/{id}/file', 'GET', res);
    },
    resolveReview: async () => {
      const before = await bState();
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('POST', `/v1/reviews/${bReviewId}/resolve`, h, { data: { total: 3 } });
        expect(res.status).toBe(404);
        conforms('/v1/reviews/{id}/resolve', 'POST', res);
      }
      expect(await bState()).toEqual(before);
    },
    deleteReview: async () => {
      const before = await bState();
      for (const h of [keyOf('A'), bearerOf('A')]) {
        const res = await req('DELETE', `/v1/reviews/${bReviewId}`, h);
        expect(res.status).toBe(404);
        conforms('/v1/reviews/{id}', 'DELETE', res);
      }
      expect(await bState()).toEqual(before);
    },
    createEvaluation: async () => {
      const before = await bState();
      // Adding to B's evaluation is 404; A's own evaluation of A's (absent) reviews bills nothing of B's.
      const res = await req('POST', '/v1/evaluations', keyOf('A'), { evaluationId: bEvaluationId, examples: [{ route: 'receipt', document: { text: 'TOTAL 1.00' }, expected: { total: 1 } }] });
      expect(res.status).toBe(404);
      conforms('/v1/evaluations', 'POST', res);
      expect(await bState()).toEqual(before);
    },
    getEvaluation: async () => {
      const res = await req('GET', `/v1/evaluations/${bEvaluationId}`, keyOf('A'));
      expect(res.status).toBe(404);
      conforms('/v1/evaluations/{id}', 'GET', res);
      expect((await req('GET', `/v1/evaluations/${bEvaluationId}`, keyOf('B'))).status).toBe(200);
    },
  } satisfies Record<string, () => Promise<void>>);

  it('has an isolation scenario for every secured operation of the contract', () => {
    expect(Object.keys(isolation).sort()).toEqual(securedOperations.map((o) => o.operationId).sort());
  });

  it.each(securedOperations.map((o) => [o.operationId, o] as const))('%s: account A never reads, lists, revokes or bills B', async (id) => {
    await isolation[id]!();
  });

  describe('dashboard tokens', () => {
    const forged: Array<[string, () => Promise<string>]> = [
      ['signed with the wrong key', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(B).setExpirationTime(in1h()).sign(new TextEncoder().encode('x'.repeat(48)))],
      ['alg none', async () => new UnsecuredJWT({ sub: B, exp: in1h() }).encode()],
      ['alg "None" with the real signature', async () => {
        const real = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(B).setExpirationTime(in1h()).sign(secret);
        const [, payload, sig] = real.split('.');
        return `${Buffer.from(JSON.stringify({ alg: 'None', typ: 'JWT' })).toString('base64url')}.${payload}.${sig}`;
      }],
      ['HS512 with the right secret', () => new SignJWT({}).setProtectedHeader({ alg: 'HS512' }).setSubject(B).setExpirationTime(in1h()).sign(secret)],
      ['HS384 with the right secret', () => new SignJWT({}).setProtectedHeader({ alg: 'HS384' }).setSubject(B).setExpirationTime(in1h()).sign(secret)],
      ['RS256 with its public key embedded (jwk header)', async () => {
        const { privateKey, publicKey } = await generateKeyPair('RS256');
        return new SignJWT({}).setProtectedHeader({ alg: 'RS256', jwk: await exportJWK(publicKey) }).setSubject(B).setExpirationTime(in1h()).sign(privateKey);
      }],
      ['expired', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(B).setExpirationTime(Math.floor(Date.now() / 1000) - 3600).sign(secret)],
      ['not valid yet (nbf)', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(B).setNotBefore(in1h()).setExpirationTime(in1h() + 60).sign(secret)],
      ['with an unknown critical header', async () => {
        const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
        const input = `${part({ alg: 'HS256', crit: ['x-must'], 'x-must': 1 })}.${part({ sub: B, exp: in1h() })}`;
        return `${input}.${createHmac('sha256', TEST_SECRET).update(input).digest('base64url')}`;
      }],
      ['with a tampered payload', async () => {
        const real = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(A).setExpirationTime(in1h()).sign(secret);
        const [h, , sig] = real.split('.');
        return `${h}.${Buffer.from(JSON.stringify({ sub: B, exp: in1h() })).toString('base64url')}.${sig}`;
      }],
      ['with a sub that is not an account id', () => new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('acct b/../x').setExpirationTime(in1h()).sign(secret)],
    ];
    it.each(forged)('refuses a token %s with 401 unauthorized, and creates or changes nothing', async (_label, make) => {
      const before = await dbFingerprint(s);
      const res = await req('GET', '/v1/keys', { authorization: `Bearer ${await make()}` });
      expect(res.status).toBe(401);
      conforms('/v1/keys', 'GET', res);
      expect(res.json.error.code).toBe('unauthorized');
      expect(await dbFingerprint(s)).toEqual(before);
    });

    it('refuses two Authorization headers rather than picking one', async () => {
      const res = await req('GET', '/v1/account', { authorization: [`Bearer ${cred.A.token}`, `Bearer ${cred.B.token}`] });
      // Node keeps the first Authorization header; either way the caller is A or refused, never B.
      if (res.status === 200) expect(res.json.id).toBe(A);
      else expect(res.status).toBe(401);
    });
  });

  describe('dashboard tokens with an issuer and audience configured', () => {
    let t: TestServer;
    beforeAll(async () => { t = await startTestServer(mode, { DASHBOARD_JWT_ISSUER: 'https://id.example', DASHBOARD_JWT_AUDIENCE: 'docextract' }); });
    afterAll(async () => { await t.close(); });
    const sign = (iss?: string, aud?: string) => {
      let j = new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(A).setExpirationTime(in1h());
      if (iss) j = j.setIssuer(iss);
      if (aud) j = j.setAudience(aud);
      return j.sign(secret);
    };
    it.each([
      ['the wrong issuer', 'https://evil.example', 'docextract'],
      ['the wrong audience', 'https://id.example', 'another-service'],
      ['no issuer', undefined, 'docextract'],
      ['no audience', 'https://id.example', undefined],
    ])('refuses a token with %s', async (_label, iss, aud) => {
      const res = await send(t.baseUrl, { method: 'GET', path: '/v1/account', headers: { authorization: `Bearer ${await sign(iss, aud)}` } });
      expect(res.status).toBe(401);
      expect(res.json.error.code).toBe('unauthorized');
    });
    it('accepts the right issuer and audience', async () => {
      const res = await send(t.baseUrl, { method: 'GET', path: '/v1/account', headers: { authorization: `Bearer ${await sign('https://id.example', 'docextract')}` } });
      expect(res.status).toBe(200);
      expect(res.json.id).toBe(A);
    });
  });

  describe('API keys that resemble real ones', () => {
    const flip = (c: string) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase());
    const variants: Array<[string, (k: string) => string]> = [
      ['the same 12-character prefix, different rest', (k) => k.slice(0, 12) + [...k.slice(12)].reverse().join('')],
      ['the same prefix and all but the last character', (k) => k.slice(0, -1) + (k.endsWith('A') ? 'B' : 'A')],
      ['upper-cased', (k) => k.toUpperCase()],
      ['one letter in the other case', (k) => {
        const i = [...k].findIndex((c, j) => j >= 12 && /[A-Za-z]/.test(c));
        return k.slice(0, i) + flip(k[i]!) + k.slice(i + 1);
      }],
      ['the prefix only', (k) => k.slice(0, 12)],
      ['with a character appended', (k) => `${k}x`],
      ['with an inner space', (k) => `${k.slice(0, 20)} ${k.slice(21)}`],
      ['another product prefix', (k) => `dx_test_${k.slice(8)}`],
      ['the SHA-256 of the key instead of the key', () => 'f'.repeat(64)],
    ];
    it.each(variants)('refuses a key with %s: 401 invalid_api_key, nothing charged', async (_label, make) => {
      const forged = make(cred.A.key);
      expect(forged).not.toBe(cred.A.key);
      const before = await dbFingerprint(s);
      for (const path of ['/v1/account', '/v1/keys']) {
        const res = await req('GET', path, { 'x-api-key': forged });
        expect(res.status).toBe(401);
        expect(res.json).toEqual({ error: 'invalid_api_key' });
      }
      const ex = await req('POST', '/v1/extract/invoice', { 'x-api-key': forged }, { document: { text: 'Total: $3' } });
      expect(ex.status).toBe(401);
      expect(await dbFingerprint(s)).toEqual(before);
    });

    it('reads surrounding whitespace as HTTP does (not part of the value): the key is A\'s, never anyone else\'s', async () => {
      for (const padded of [`${cred.A.key} `, `${cred.A.key}\t`, ` ${cred.A.key}`]) {
        const res = await req('GET', '/v1/account', { 'x-api-key': padded });
        expect(res.status).toBe(200);
        expect(res.json.id).toBe(A);
      }
    });

    it('refuses two x-api-key headers (joined, they are no key)', async () => {
      const res = await req('GET', '/v1/account', { 'x-api-key': [cred.A.key, cred.B.key] });
      expect(res.status).toBe(401);
      expect(res.json).toEqual({ error: 'invalid_api_key' });
    });

    it('refuses a revoked key on every route that takes keys, and charges nothing', async () => {
      const { key, id } = await s.createKey(A, 'to revoke');
      // Used once on an extraction route, so the short key cache holds it.
      expect((await req('POST', '/v1/extract/invoice', { 'x-api-key': key }, { document: { text: 'Total: $3' } })).status).toBe(200);
      expect((await req('DELETE', `/v1/keys/${id}`, bearerOf('A'))).status).toBe(200);
      const before = await dbFingerprint(s);
      for (const o of securedOperations.filter((x) => (contract.paths[x.template][x.method.toLowerCase()].security as Json[]).some((r) => 'ApiKeyAuth' in r))) {
        const path = o.template;
        const body = o.method === 'POST' ? (path.endsWith('batch') ? { items: [{ id: 'a', kind: 'invoice', document: { text: 'x' } }] } : path.endsWith('custom') ? { document: { text: 'x' }, schema: { type: 'object', properties: {} } } : { document: { text: 'x' } }) : undefined;
        const res = await req(o.method, path, { 'x-api-key': key }, body);
        expect([o.operationId, res.status, res.json]).toEqual([o.operationId, 401, { error: 'invalid_api_key' }]);
      }
      expect(await dbFingerprint(s)).toEqual(before);
    });

    it('refuses the key of a deleted account, even right after it was cached, and charges nothing', async () => {
      const gone = 'acct_deleted';
      const { key } = await s.createKey(gone);
      expect((await req('POST', '/v1/extract/invoice', { 'x-api-key': key }, { document: { text: 'Total: $3' } })).status).toBe(200);
      await s.db.pool.query('DELETE FROM accounts WHERE id = $1', [gone]);
      const before = await dbFingerprint(s);
      const ex = await req('POST', '/v1/extract/invoice', { 'x-api-key': key }, { document: { text: 'Total: $3' } });
      expect(ex.status).toBe(401);
      conforms('/v1/extract/invoice', 'POST', ex);
      const acct = await req('GET', '/v1/account', { 'x-api-key': key });
      expect(acct.status).toBe(401);
      expect(acct.json).toEqual({ error: 'invalid_api_key' });
      expect(await dbFingerprint(s)).toEqual(before);
    });

    // Known defect outside this suite's reach (server/src/metering/meter.ts, admit): within the 5 s key cache of the
    // extraction routes, a key whose account was deleted is refused as 401 `unauthorized` ("A valid credential is
    // required") instead of the contract's 401 {"error": "invalid_api_key"} for a bad key. Flip once fixed.
    it('answers {"error": "invalid_api_key"} for a cached key of a deleted account', async () => {
      const gone = 'acct_deleted_2';
      const { key } = await s.createKey(gone);
      expect((await req('POST', '/v1/extract/invoice', { 'x-api-key': key }, { document: { text: 'Total: $3' } })).status).toBe(200);
      await s.db.pool.query('DELETE FROM accounts WHERE id = $1', [gone]);
      const ex = await req('POST', '/v1/extract/invoice', { 'x-api-key': key }, { document: { text: 'Total: $3' } });
      expect(ex.json).toEqual({ error: 'invalid_api_key' });
    });
  });

  it('never logs a key or a token', () => {
    const logs = s.logs.join('\n');
    for (const c of [cred.A, cred.B]) {
      expect(logs).not.toContain(c.key);
      expect(logs).not.toContain(c.token);
    }
  });
});

describe('secrets are compared in constant time', () => {
  // The key lookup is by SHA-256 through a unique index, the Stripe signature by the SDK's secureCompare, dashboard
  // tokens by jose. No source file may compare a secret with === / !== (or startsWith/endsWith/includes).
  const root = fileURLToPath(new URL('../../src/', import.meta.url));
  const files = (dir: string): string[] => readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === 'prisma-client') return [];
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
  const SECRET = String.raw`(?:secret|signature|rawKey|\bhash\b|\btoken\b|\bbearer\b|apiKeyHash|webhookSecret|jwtSecret)`;
  const pattern = new RegExp(String.raw`${SECRET}[\w.\]]*\s*[!=]==|[!=]==\s*[\w.]*${SECRET}|${SECRET}[\w.]*\.(?:startsWith|endsWith|includes)\(`, 'i');

  it('finds no === on a secret in server/src', () => {
    const offenders = files(root).flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ f, i, line })))
      .filter(({ line }) => pattern.test(line) && !/^\s*(\/\/|\*)/.test(line))
      .map(({ f, i, line }) => `${f.slice(root.length)}:${i + 1}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });

  it('the guard would catch one', () => {
    expect(pattern.test('if (signature === expected) return true;')).toBe(true);
    expect(pattern.test('return row.hash === hashApiKey(raw);')).toBe(true);
    expect(pattern.test('if (token !== config.secret) throw e;')).toBe(true);
  });
});
