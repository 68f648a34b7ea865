// The published contract: every route of the interface, its security, bodies, answers and documented errors.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

type Json = Record<string, any>;
const doc: Json = JSON.parse(readFileSync(fileURLToPath(new URL('../../generated/openapi.json', import.meta.url)), 'utf8'));

function deref(node: Json | undefined): Json {
  let n = node ?? {};
  // A documented reference is emitted as `allOf: [{$ref}]` beside its description.
  while (n.$ref || (n.allOf?.length === 1 && !n.type)) {
    n = n.$ref ? n.$ref.split('/').slice(1).reduce((o: Json, k: string) => o[k.replace(/~1/g, '/')], doc) : n.allOf[0];
  }
  return n;
}
function op(method: string, path: string): Json {
  const o = doc.paths?.[path]?.[method];
  if (!o) throw new Error(`${method.toUpperCase()} ${path} is not in the contract`);
  return o;
}
const jsonSchema = (content: Json | undefined) => deref(content?.['application/json']?.schema);
const requestSchema = (o: Json) => jsonSchema(o.requestBody?.content);
const responseSchema = (o: Json, status: string) => jsonSchema(o.responses?.[status]?.content);
const schemeNames = (o: Json) => (o.security ?? doc.security ?? []).map((s: Json) => Object.keys(s).sort().join('+')).sort();
const statuses = (o: Json) => Object.keys(o.responses).sort();

const API_KEY = 'ApiKeyAuth';
const BEARER = 'BearerAuth';

describe('security schemes', () => {
  it('declares the x-api-key header scheme and the bearer scheme', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes[API_KEY]).toEqual({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    expect(doc.components.securitySchemes[BEARER]).toMatchObject({ type: 'http', scheme: 'Bearer' });
  });
});

const EXTRACTION_ERRORS = ['400', '401', '402', '413', '415', '429', '500', '502', '503', '504'];
const fixedRoutes: Array<[string, string, string[]]> = [
  ['invoice', 'InvoiceData', ['invoiceNumber', 'issueDate', 'dueDate', 'vendor', 'customer', 'lineItems', 'subtotal', 'tax', 'total', 'currency']],
  ['receipt', 'ReceiptData', ['merchant', 'address', 'date', 'time', 'items', 'subtotal', 'tax', 'tip', 'total', 'currency', 'paymentMethod']],
  ['contract', 'ContractData', ['title', 'parties', 'effectiveDate', 'expirationDate', 'governingLaw', 'totalValue', 'currency', 'terminationClauses', 'renewalClauses', 'keyObligations']],
  ['job-posting', 'JobPostingData', ['title', 'company', 'location', 'employmentType', 'salaryRange', 'requirements', 'responsibilities', 'benefits', 'remote', 'postedDate']],
  ['meeting-notes', 'MeetingNotesData', ['title', 'date', 'attendees', 'topicsDiscussed', 'decisions', 'actionItems', 'openQuestions']],
  ['renewal', 'RenewalData', ['documentKindGuess', 'vendorName', 'product', 'billingAmount', 'currency', 'billingFrequency', 'seatCount', 'contractStartDate', 'contractEndDate', 'renewalDate', 'noticePeriodDays', 'noticePeriodText', 'autoRenewalLanguage', 'autoRenewal', 'committedSpend', 'paymentTermsDays', 'priceEscalationText']],
];

describe.each(fixedRoutes)('POST /v1/extract/%s', (route, dataModel, fields) => {
  const o = op('post', `/v1/extract/${route}`);

  it('takes an API key only', () => expect(schemeNames(o)).toEqual([API_KEY]));

  it('takes a document with text of 1 to 200,000 characters, or a file of at most 10 MB in base64: exactly one, in the schema (oneOf), a file with its mediaType from the list read', () => {
    const body = requestSchema(o);
    expect(body.required).toEqual(['document']);
    const document = deref(body.properties.document);
    expect(document.oneOf.map((v: { $ref: string }) => v.$ref)).toEqual(['#/components/schemas/DocumentText', '#/components/schemas/DocumentFile']);
    const [text, file] = document.oneOf.map(deref);
    expect(text.required).toEqual(['text']);
    expect(file.required).toEqual(['content', 'mediaType']);
    expect(Object.keys(text.properties).sort()).toEqual(['filename', 'mediaType', 'text', 'vendorRenewalId']);
    expect(Object.keys(file.properties).sort()).toEqual(['content', 'filename', 'mediaType', 'vendorRenewalId']);
    expect(text.properties.text).toMatchObject({ type: 'string', minLength: 1, maxLength: 200000 });
    expect(file.properties.content).toMatchObject({ type: 'string', maxLength: 13981016 });
    expect(deref(file.properties.mediaType).enum).toEqual(['application/pdf', 'image/png', 'image/jpeg', 'image/webp', 'image/tiff', 'text/plain', 'text/markdown', 'text/html',
      'text/csv', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'message/rfc822', 'application/vnd.ms-outlook']);
  });

  it('answers 200 {data, model, usage} with every documented field required and the RateLimit headers', () => {
    const ok = responseSchema(o, '200');
    expect(ok.required).toEqual(expect.arrayContaining(['data', 'model', 'usage']));
    expect(ok.properties.data.allOf[0].$ref).toBe(`#/components/schemas/${dataModel}`);
    expect(deref(ok.properties.data).required).toEqual(fields);
    expect(deref(ok.properties.usage).required).toEqual(['inputTokens', 'outputTokens', 'heu']);
    expect(Object.keys(o.responses['200'].headers).sort()).toEqual(['RateLimit', 'RateLimit-Limit', 'RateLimit-Policy', 'RateLimit-Remaining', 'RateLimit-Reset']);
  });

  it('documents the extraction errors, with Retry-After on 429', () => {
    expect(statuses(o)).toEqual(expect.arrayContaining(['200', ...EXTRACTION_ERRORS]));
    expect(o.responses['429'].headers['Retry-After'].required).toBe(true);
  });

  it('has an example', () => expect(Object.keys(o.requestBody.content['application/json'].examples ?? {}).length).toBeGreaterThan(0));
});

describe('renewal specifics', () => {
  const data = deref(doc.components.schemas.RenewalData);
  it('wraps every member but documentKindGuess as {value, sourceQuote}', () => {
    for (const [name, schema] of Object.entries<Json>(data.properties)) {
      if (name === 'documentKindGuess') continue;
      expect(deref(schema).required).toEqual(['value', 'sourceQuote']);
    }
  });
  it('answers the ids, the status, and the stored document record, and a 404 for a foreign vendorRenewalId', () => {
    const o = op('post', '/v1/extract/renewal');
    expect(responseSchema(o, '200').required).toEqual(['document_id', 'vendor_renewal_id', 'overall_status', 'data', 'model', 'usage', 'source', 'evidence', 'withheld', 'document']);
    expect(deref(doc.components.schemas.StoredDocument).required).toEqual(['id', 'vendorRenewalId', 'filename', 'mediaType', 'byteSize', 'documentKindGuess', 'overallStatus', 'extraction', 'model', 'createdAt']);
    expect(statuses(o)).toContain('404');
  });
  it('states the closed sets as enums', () => {
    expect(doc.components.schemas.RenewalStatus.enum).toEqual(['confirmed', 'needs_review', 'no_terms_found']);
    expect(doc.components.schemas.BillingFrequency.enum).toEqual(['monthly', 'quarterly', 'semiannual', 'annual', 'one_time']);
    expect(doc.components.schemas.EmploymentType.enum).toEqual(['full_time', 'part_time', 'contract', 'temporary', 'internship']);
    expect(doc.components.schemas.SalaryPeriod.enum).toEqual(['hour', 'day', 'week', 'month', 'year']);
  });
});

describe('POST /v1/extract/custom', () => {
  const o = op('post', '/v1/extract/custom');
  it('takes an API key, a document and an object schema', () => {
    expect(schemeNames(o)).toEqual([API_KEY]);
    const body = requestSchema(o);
    expect(body.required).toEqual(['document', 'schema']);
    expect(deref(body.properties.schema).properties.type).toMatchObject({ type: 'string', enum: ['object'] });
  });
  it('answers free-form data and documents the extraction errors', () => {
    expect(responseSchema(o, '200').required).toEqual(expect.arrayContaining(['data', 'model', 'usage']));
    expect(statuses(o)).toEqual(expect.arrayContaining(['200', ...EXTRACTION_ERRORS]));
  });
});

describe('POST /v1/extract/batch', () => {
  const o = op('post', '/v1/extract/batch');
  it('takes 1 to 20 items, each with a kind or a schema', () => {
    expect(schemeNames(o)).toEqual([API_KEY]);
    const items = requestSchema(o).properties.items;
    expect(items).toMatchObject({ type: 'array', minItems: 1, maxItems: 20 });
    const variants = deref(items.items).anyOf.map((v: Json) => deref(v));
    expect(variants.map((v: Json) => v.required.sort())).toEqual(
      expect.arrayContaining([['document', 'id', 'kind'], ['document', 'id', 'schema']]),
    );
  });
  it('answers per-item results in an envelope without a top-level model', () => {
    const ok = responseSchema(o, '200');
    expect(ok.required).toEqual(['results', 'usage']);
    expect(ok.properties.model).toBeUndefined();
    const result = deref(ok.properties.results.items).anyOf.map((v: Json) => deref(v));
    expect(result.map((v: Json) => v.properties.ok.enum[0]).sort()).toEqual([false, true]);
    expect(statuses(o)).toEqual(expect.arrayContaining(['200', ...EXTRACTION_ERRORS]));
  });
});

describe('keys', () => {
  it('POST /v1/keys: bearer, optional name, x-idempotency-key, 201 with the raw key or 200 replay, 409', () => {
    const o = op('post', '/v1/keys');
    expect(schemeNames(o)).toEqual([BEARER]);
    const body = requestSchema(o);
    expect(body.required ?? []).toEqual([]);
    expect(body.properties.name).toMatchObject({ minLength: 1, maxLength: 100 });
    // The service answers a POST with no body (a key named "Default key"): the contract says the body is optional.
    expect(o.requestBody.required).toBe(false);
    const idem = o.parameters.map((p: Json) => deref(p)).find((p: Json) => p.name === 'x-idempotency-key');
    expect(idem).toMatchObject({ in: 'header', required: false, schema: { minLength: 1, maxLength: 255 } });
    for (const status of ['200', '201']) {
      const created = responseSchema(o, status);
      expect(created.required).toEqual(expect.arrayContaining(['id', 'name', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt', 'idempotent']));
      expect(created.required).not.toContain('key');
    }
    expect(statuses(o)).toEqual(expect.arrayContaining(['400', '401', '409', '415', '500', '503']));
  });
  it('GET /v1/keys: key or bearer, limit 1-100 default 100, cursor, nextCursor', () => {
    const o = op('get', '/v1/keys');
    expect(schemeNames(o)).toEqual([API_KEY, BEARER]);
    const params = Object.fromEntries(o.parameters.map((p: Json) => deref(p)).map((p: Json) => [p.name, p]));
    expect(params.limit).toMatchObject({ in: 'query', required: false, schema: { minimum: 1, maximum: 100, default: 100 } });
    expect(params.cursor).toMatchObject({ in: 'query', required: false });
    expect(responseSchema(o, '200').required).toEqual(['keys', 'nextCursor']);
    expect(statuses(o)).toEqual(expect.arrayContaining(['200', '400', '401']));
  });
  it('DELETE /v1/keys/{id}: bearer, 200 with the record, 404', () => {
    const o = op('delete', '/v1/keys/{id}');
    expect(schemeNames(o)).toEqual([BEARER]);
    expect(responseSchema(o, '200').required).toContain('revokedAt');
    expect(statuses(o)).toEqual(expect.arrayContaining(['200', '401', '404']));
  });
});

describe('account and billing', () => {
  it('GET /v1/account: key or bearer, every field of the summary', () => {
    const o = op('get', '/v1/account');
    expect(schemeNames(o)).toEqual([API_KEY, BEARER]);
    expect(responseSchema(o, '200').required).toEqual(expect.arrayContaining([
      'plan', 'status', 'heuUsed', 'heuLimit', 'periodStart', 'hasBillingCustomer', 'currentPeriodEnd', 'cancelAt', 'priorPlan', 'subscriptionEndedAt',
    ]));
    expect(statuses(o)).toEqual(expect.arrayContaining(['200', '401']));
  });
  it('POST /v1/billing/checkout: bearer, {plan: starter}, {url}, 409 and 503', () => {
    const o = op('post', '/v1/billing/checkout');
    expect(schemeNames(o)).toEqual([BEARER]);
    const body = requestSchema(o);
    expect(body.required).toEqual(['plan']);
    expect(deref(body.properties.plan).enum).toEqual(['starter']);
    expect(responseSchema(o, '200').required).toEqual(['url']);
    expect(statuses(o)).toEqual(expect.arrayContaining(['200', '400', '401', '409', '503']));
  });
  it('POST /v1/billing/webhook: no credential but a required Stripe-Signature header', () => {
    const o = op('post', '/v1/billing/webhook');
    expect(schemeNames(o)).toEqual(['']);
    const sig = o.parameters.map((p: Json) => deref(p)).find((p: Json) => p.name === 'Stripe-Signature');
    expect(sig).toMatchObject({ in: 'header', required: true });
    expect(statuses(o)).toEqual(expect.arrayContaining(['200', '400']));
  });
});

describe('service routes', () => {
  it.each([['/healthz'], ['/readyz'], ['/openapi.json'], ['/openapi.yaml'], ['/docs']])('GET %s needs no credential', (path) => {
    expect(schemeNames(op('get', path))).toEqual(['']);
  });
  it('readiness answers 503 when not ready', () => expect(statuses(op('get', '/readyz'))).toEqual(['200', '503']));
});

describe('errors', () => {
  it('lists every code of the product decisions in one enum', () => {
    expect(doc.components.schemas.ErrorCode.enum).toEqual(expect.arrayContaining([
      'malformed_json', 'invalid_request', 'invalid_schema', 'unauthorized', 'plan_limit_exceeded', 'not_found',
      'method_not_allowed', 'idempotency_key_reused', 'already_subscribed', 'payload_too_large', 'unsupported_media_type',
      'too_many_requests', 'upstream_error', 'billing_not_configured', 'service_unavailable', 'upstream_timeout', 'internal_error',
    ]));
  });
  it('answers 401 as either the envelope or {error: "invalid_api_key"}', () => {
    const body = deref(op('post', '/v1/extract/invoice').responses['401'].content['application/json'].schema);
    const variants = body.anyOf.map((v: Json) => deref(v));
    expect(variants.map((v: Json) => deref(v.properties.error).type ?? 'object').sort()).toEqual(['object', 'string']);
  });
  it('gives 402 its plan-limit details', () => {
    const body = responseSchema(op('post', '/v1/extract/invoice'), '402');
    const details = deref(deref(body.properties.error).properties.details);
    expect(details.required).toEqual(['plan', 'bucketHeu', 'requestedHeu', 'upgradeUrl']);
  });
  it('has an example for every operation', () => {
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, o] of Object.entries<Json>(item)) {
        const examples = [o.requestBody?.content, ...Object.values<Json>(o.responses).map((r) => r.content)]
          .flatMap((c) => Object.values<Json>(c ?? {}))
          .filter((m) => m.examples && Object.keys(m.examples).length);
        expect({ op: `${method} ${path}`, hasExample: examples.length > 0 }).toEqual({ op: `${method} ${path}`, hasExample: true });
        expect(o.description ?? o.summary).toBeTruthy();
      }
    }
  });
});

describe('operationIds', () => {
  it('are stable camelCase names that generators in any language keep as method names', () => {
    const ids = Object.entries<Json>(doc.paths).flatMap(([path, item]) => Object.entries<Json>(item).map(([method, o]) => `${method.toUpperCase()} ${path} ${o.operationId}`)).sort();
    expect(ids).toEqual([
      'DELETE /v1/keys/{id} revokeKey', 'GET /docs getDocs', 'GET /healthz getLiveness', 'GET /openapi.json getOpenapiJson',
      'GET /openapi.yaml getOpenapiYaml', 'GET /readyz getReadiness', 'GET /v1/account getAccount', 'GET /v1/keys listKeys',
      'POST /v1/billing/checkout createCheckoutSession', 'POST /v1/billing/webhook receiveStripeEvent', 'POST /v1/extract/batch extractBatch',
      'POST /v1/extract/contract extractContract', 'POST /v1/extract/custom extractCustom', 'POST /v1/extract/invoice extractInvoice',
      'POST /v1/extract/job-posting extractJobPosting', 'POST /v1/extract/meeting-notes extractMeetingNotes',
      'POST /v1/extract/receipt extractReceipt', 'POST /v1/extract/renewal extractRenewal', 'POST /v1/keys createKey',
      'DELETE /v1/renewals/calendar-feed revokeCalendarFeed', 'GET /v1/documents/{id} getDocument', 'GET /v1/renewals listRenewals',
      'GET /v1/renewals/calendar-feed getCalendarFeed', 'GET /v1/renewals/calendar.ics getRenewalCalendar', 'GET /v1/renewals/{id} getRenewal',
      'PATCH /v1/renewals/{id} updateRenewal', 'POST /v1/renewals/calendar-feed createCalendarFeed',
      'POST /v1/classify classifyDocument', 'POST /v1/extract/auto extractAuto',
      'POST /v1/keys/{id}/extract extractWithKey',
      'POST /v1/jobs createJob', 'POST /v1/jobs/batch createJobBatch', 'GET /v1/jobs listJobs', 'GET /v1/jobs/{id} getJob',
      'DELETE /v1/jobs/{id} cancelJob', 'POST /v1/webhook-endpoints createWebhookEndpoint', 'GET /v1/webhook-endpoints listWebhookEndpoints',
      'GET /v1/webhook-endpoints/{id} getWebhookEndpoint', 'DELETE /v1/webhook-endpoints/{id} deleteWebhookEndpoint',
      'GET /v1/webhook-endpoints/{id}/deliveries listWebhookDeliveries',
      'POST /v1/webhook-endpoints/{id}/rotate-secret rotateWebhookEndpointSecret', 'POST /v1/webhook-endpoints/{id}/enable enableWebhookEndpoint',
      'POST /v1/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver redeliverWebhookDelivery',
      'GET /v1/reviews listReviews', 'GET /v1/reviews/{id} getReview', 'GET /v1/reviews/{id}/file getReviewFile',
      'POST /v1/reviews/{id}/resolve resolveReview', 'DELETE /v1/reviews/{id} deleteReview',
      'POST /v1/evaluations createEvaluation', 'GET /v1/evaluations/{id} getEvaluation',
    ].sort());
  });

  it('declare 502 on checkout (Stripe failing)', () => {
    expect(Object.keys(op('post', '/v1/billing/checkout').responses)).toContain('502');
  });
});

describe('parameter examples (the /docs Test Request starts from them)', () => {
  it('every required parameter has an example from its operation\'s @opExample, valid for its schema', () => {
    const missing: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, o] of Object.entries(item as Json)) {
        for (const raw of (o as Json).parameters ?? []) {
          const p = raw.$ref ? deref(raw) : raw;
          if (!p.required) continue;
          const values = Object.values((p.examples ?? {}) as Json).map((e: Json) => e.value);
          if (values.length === 0 || values.some((v) => typeof v !== 'string' || v.length === 0)) missing.push(`${method.toUpperCase()} ${path} ${p.in} ${p.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(op('get', '/v1/jobs/{id}').parameters[0].examples['A succeeded invoice job'].value).toBe('0193a6f2-7c1e-7b3a-9d4e-5f60718293a4');
  });
});

describe('the webhooks section', () => {
  it('types each event with the Standard Webhooks headers and its body', () => {
    expect(Object.keys(doc.webhooks)).toEqual(['job.succeeded', 'job.failed', 'review.created', 'review.resolved']);
    for (const [event, item] of Object.entries(doc.webhooks as Json)) {
      const post = (item as Json).post;
      expect(post.parameters.map((p: Json) => [p.name, p.in, p.required])).toEqual([
        ['webhook-id', 'header', true], ['webhook-timestamp', 'header', true], ['webhook-signature', 'header', true],
      ]);
      expect(post.requestBody.content['application/json'].schema.allOf[1].properties.type.const).toBe(event);
      // A job's event carries the job; a review's the review (its own model, in components).
      const body = post.requestBody.content['application/json'].schema.allOf[0].$ref as string;
      expect(body).toBe(event.startsWith('review.') ? '#/components/schemas/ReviewWebhookEvent' : '#/components/schemas/WebhookEvent');
      expect(doc.components.schemas[body.split('/').pop()!]).toBeDefined();
    }
  });
});
