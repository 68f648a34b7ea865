// Property-based hostile input: requests for EVERY operation of the compiled contract (read from
// generated/openapi.json, nothing hand-listed), valid and mutated (wrong types, missing and extra members, huge
// strings, deep nesting, unicode edge cases, duplicate headers, other media types, malformed JSON, bad credentials,
// query and path parameters). For each: never a 5xx, the status is one the contract declares for the operation and
// the body meets its schema (error answers are the envelope), the server keeps answering, and a refused request
// changes no row of any table (the account's HEU included).
//
// Runs are bounded and seeded: HOSTILE_SEED and HOSTILE_RUNS override the defaults; fast-check prints the seed and
// the shrunk counterexample of a failure.
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { dbModes } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/harness.js';
import { FakeStripe } from '../support/fake-stripe.js';
import { checkAgainstContract, contract, dbFingerprint, isErrorEnvelope, roomyPlansFile, send, type Json, type RawRequest } from './support.js';

const SEED = Number(process.env.HOSTILE_SEED ?? 20260511);
const RUNS = Number(process.env.HOSTILE_RUNS ?? 40);
const WEBHOOK_SECRET = 'whsec_hostile_properties_0123456789';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const schemas: Record<string, Json> = contract.components.schemas;

interface Operation {
  template: string;
  method: string;
  op: Json;
  security: string[];
}

const operations: Operation[] = Object.entries(contract.paths as Record<string, Json>).flatMap(([template, item]) =>
  METHODS.filter((m) => item[m]).map((m) => ({
    template,
    method: m.toUpperCase(),
    op: item[m],
    security: ((item[m].security ?? []) as Record<string, unknown>[]).flatMap((r) => Object.keys(r)),
  })));

// ---------------------------------------------------------------------------------------------------------------
// Valid values from the contract's schemas.

/** A schema with its `$ref` and TypeSpec's one-element `allOf` wrapper resolved (siblings kept). */
function deref(schema: Json): Json {
  let s = schema;
  for (;;) {
    if (s?.$ref) {
      const { $ref, ...rest } = s;
      s = { ...schemas[String($ref).replace('#/components/schemas/', '')], ...rest, $name: String($ref).split('/').pop() };
    } else if (Array.isArray(s?.allOf) && s.allOf.length === 1 && !s.type) {
      const { allOf, ...rest } = s;
      s = { ...allOf[0], ...rest };
    } else return s;
  }
}

/** Custom schemas the service accepts: an object of a few simple typed properties. */
const customSchema = fc.dictionary(
  fc.stringMatching(/^[a-z][a-zA-Z]{0,11}$/),
  fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean'), description: fc.string({ maxLength: 20 }) }, { requiredKeys: ['type'] }),
  { minKeys: 1, maxKeys: 4 },
).map((properties) => ({ type: 'object', properties }));

const documentText = fc.oneof(
  fc.string({ minLength: 1, maxLength: 60 }),
  fc.constantFrom('Invoice INV-7\nDate: 2026-04-18\nTotal due: $4,500.00', 'TOTAL 3.00 CASH', 'Vendor: Cloudnest Inc.\nRenews automatically.', 'Attendees: Ana, Ben'),
);

function arb(schemaIn: Json, depth = 0): fc.Arbitrary<Json> {
  const s = deref(schemaIn);
  if (s.$name === 'JsonSchemaObject') return customSchema;
  if (s.$name === 'DocumentInput') {
    return fc.record({
      text: documentText,
      filename: fc.string({ minLength: 1, maxLength: 20 }),
      mediaType: fc.constant('text/plain'),
    }, { requiredKeys: ['text'] });
  }
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.anyOf || s.oneOf) return fc.oneof(...(s.anyOf ?? s.oneOf).map((x: Json) => arb(x, depth + 1)));
  switch (s.type) {
    case 'string':
      if (s.format === 'date-time') return fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') }).map((d) => d.toISOString());
      if (s.format === 'date') return fc.date({ noInvalidDate: true, min: new Date('2000-01-01'), max: new Date('2100-01-01') }).map((d) => d.toISOString().slice(0, 10));
      if (s.format === 'uuid') return fc.uuid();
      // A URL (a webhook endpoint's): public https ones are what the service takes.
      if (s.format === 'uri') return fc.webUrl({ validSchemes: ['https'], withQueryParameters: true });
      return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 30, 30) });
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arb(s.items ?? {}, depth + 1), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
    case 'object':
    default: {
      const props = (s.properties ?? {}) as Record<string, Json>;
      if (depth > 6 || Object.keys(props).length === 0) return fc.constant({});
      const record: Record<string, fc.Arbitrary<Json>> = {};
      // `model` is any string to the contract, but only a model the server offers is served (others are a documented
      // 400): the offline engine's is the one valid value here.
      for (const [name, sub] of Object.entries(props)) record[name] = name === 'model' && deref(sub).type === 'string' ? fc.constant('local-rules-1') : arb(sub, depth + 1);
      return fc.record(record, { requiredKeys: s.required ?? [] });
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Hostile values and mutations.

const DEEP = '\u0000__deep__';
const HUGE = '\u0000__huge__';

const hostileString = fc.oneof(
  fc.constantFrom('\ud800', 'a\udc00b', '\udfff\ud800'), // lone surrogates
  fc.constantFrom('\u0000', 'nul\u0000inside'), // NUL
  fc.constantFrom('\u202eevil\u202c', '\u200f\u05e9\u05dc\u05d5\u05dd', '\u0627\u0644\u0639\u0631\u0628\u064a\u0629'), // RTL
  fc.constantFrom('😀', '👨‍👩‍👧‍👦🏳️‍🌈', 'e\u0301\u0301\u0301'), // emoji, combining marks
  fc.constantFrom('\ufeff', '\uffff\ufffe', '\u2028\u2029', ' ', '\t\r\n', '\u0001\u001f\u007f'), // BOM, non-characters, controls
  fc.constantFrom('%00%ff', '../../etc/passwd', "'; DROP TABLE accounts;--", '${7*7}{{7*7}}', '<script>alert(1)</script>', '__proto__', 'constructor'),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const wrongValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, 1.5, 1e308, -1e308, '', 'string', [], {}, [null], { '': '' }, JSON.parse('{"__proto__":{"polluted":true}}')),
  fc.constant(DEEP),
  fc.constant(`${HUGE}:300000`),
  hostileString,
  fc.integer(),
);

type Path = (string | number)[];

function allPaths(value: Json, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...allPaths(v, [...prefix, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...allPaths(v, [...prefix, k]));
  return out;
}

function setAt(root: Json, path: Path, fn: (v: Json) => Json | typeof REMOVE): Json {
  if (path.length === 0) {
    const r = fn(root);
    return r === REMOVE ? undefined : r;
  }
  const copy = Array.isArray(root) ? [...root] : { ...root };
  const [head, ...rest] = path;
  if (rest.length === 0) {
    const r = fn(copy[head as never]);
    if (r === REMOVE) {
      if (Array.isArray(copy)) copy.splice(head as number, 1);
      else delete (copy as Record<string, unknown>)[head as string];
    } else (copy as Record<string, unknown>)[head as string] = r;
    return copy;
  }
  (copy as Record<string, unknown>)[head as string] = setAt(copy[head as never], rest, fn);
  return copy;
}
const REMOVE = Symbol('remove');

type BodyMutation =
  | { kind: 'none' }
  | { kind: 'replace'; at: number; value: Json }
  | { kind: 'remove'; at: number }
  | { kind: 'extra'; at: number; name: string; value: Json }
  | { kind: 'hugeString'; at: number; size: number }
  | { kind: 'hostileText'; at: number; value: string };

const bodyMutation: fc.Arbitrary<BodyMutation> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: wrongValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('extra' as const), at: fc.nat(), name: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'extra', ''), hostileString), value: wrongValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('hugeString' as const), at: fc.nat(), size: fc.constantFrom(256, 200_001, 1_000_000) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('hostileText' as const), at: fc.nat(), value: hostileString }) },
);

function applyBodyMutation(body: Json, m: BodyMutation): Json {
  if (m.kind === 'none') return body;
  const paths = allPaths(body);
  const path = paths[m.at % paths.length]!;
  switch (m.kind) {
    case 'replace': return setAt(body, path, () => m.value);
    case 'hostileText': {
      // Into a string already there (a valid place for text), else wherever the index falls.
      const strings = paths.filter((p) => typeof p.reduce((v: Json, k) => v?.[k as never], body) === 'string');
      const target = strings.length ? strings[m.at % strings.length]! : path;
      return setAt(body, target, (old) => (typeof old === 'string' ? `${old}${m.value}` : m.value));
    }
    case 'remove': return path.length === 0 ? undefined : setAt(body, path, () => REMOVE);
    case 'hugeString': return setAt(body, path, () => `${HUGE}:${m.size}`);
    case 'extra': {
      // An extra member on the nearest object at or above the path.
      let p = path;
      const isObj = (v: Json) => v && typeof v === 'object' && !Array.isArray(v);
      const get = (q: Path) => q.reduce((v: Json, k) => v?.[k as never], body);
      while (p.length && !isObj(get(p))) p = p.slice(0, -1);
      if (!isObj(get(p))) return body;
      return setAt(body, p, (o) => {
        const copy = { ...o };
        Object.defineProperty(copy, m.name, { value: m.value, enumerable: true, writable: true, configurable: true });
        return copy;
      });
    }
  }
}

/** JSON text of a body, with the deep-nesting and huge-string markers expanded. */
function serialise(body: Json, deepLevels: number): string {
  let text = JSON.stringify(body) ?? '';
  text = text.split(JSON.stringify(DEEP)).join('['.repeat(deepLevels) + ']'.repeat(deepLevels));
  text = text.replace(/"\\u0000__huge__:(\d+)"/g, (_m, n) => JSON.stringify('x'.repeat(Number(n))));
  return text;
}

type TextMutation =
  | { kind: 'none' }
  | { kind: 'truncate'; at: number }
  | { kind: 'replace'; text: string }
  | { kind: 'bytes'; bytes: number[] };

const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  { weight: 8, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace' as const), text: fc.constantFrom('{"a":', 'nul', "{'a':1}", '[1,]', '\ufeff{}', '{"a":1,"a":2}', '{"__proto__":{"polluted":true}}', '[]', '"text"', '42', 'null', '{"document":{"text":"x"},"document":5}', ' ', '{}garbage') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('bytes' as const), bytes: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 32 }) }) },
);

const contentTypes = fc.oneof(
  { weight: 8, arbitrary: fc.constant<string | string[] | undefined>('application/json') },
  { weight: 1, arbitrary: fc.constantFrom<string | string[] | undefined>(
    undefined, 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16',
    'application/json; charset=latin1', 'application/jsonx', 'application/merge-patch+json', 'APPLICATION/JSON', '', 'application/json\u00a0',
    ['application/json', 'text/plain'], ['text/plain', 'application/json'],
  ) },
);

type Credential = 'valid' | 'none' | 'wrongKind' | 'garbage' | 'duplicate' | 'trailingSpace' | 'otherCase' | 'both';
const credential = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Credential>('valid') },
  { weight: 1, arbitrary: fc.constantFrom<Credential>('none', 'wrongKind', 'garbage', 'duplicate', 'trailingSpace', 'otherCase', 'both') },
);

interface Creds { key: string; token: string }

function credentialHeaders(security: string[], c: Credential, creds: Creds, pick: number): Record<string, string | string[]> {
  if (security.length === 0) return c === 'valid' || c === 'none' ? {} : { 'x-api-key': creds.key, authorization: `Bearer ${creds.token}` };
  const scheme = security[pick % security.length]!;
  const valid: Record<string, string> = scheme === 'ApiKeyAuth' ? { 'x-api-key': creds.key } : { authorization: `Bearer ${creds.token}` };
  switch (c) {
    case 'valid': return valid;
    case 'none': return {};
    case 'wrongKind': return scheme === 'ApiKeyAuth' ? { authorization: `Bearer ${creds.token}` } : { 'x-api-key': creds.key };
    case 'garbage': return scheme === 'ApiKeyAuth' ? { 'x-api-key': 'dx_live_' + 'A'.repeat(43) } : { authorization: 'Bearer not.a.token' };
    case 'duplicate': return scheme === 'ApiKeyAuth' ? { 'x-api-key': [creds.key, creds.key] } : { authorization: [`Bearer ${creds.token}`, 'Bearer other'] };
    case 'trailingSpace': return scheme === 'ApiKeyAuth' ? { 'x-api-key': `${creds.key}\t` } : { authorization: `Bearer ${creds.token}x` };
    case 'otherCase': return scheme === 'ApiKeyAuth' ? { 'x-api-key': creds.key.toUpperCase() } : { authorization: `bearer ${creds.token}` };
    case 'both': return { 'x-api-key': creds.key, authorization: `Bearer ${creds.token}` };
  }
}

/** Query and path parameters: valid from their schemas, or hostile. */
/** Percent-encodes every reserved character, RFC 3986's sub-delimiters `!'()*` included. */
const strictEncode = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);

interface Param { value: string | string[] | undefined; hostile: boolean }
function paramArb(p: Json): fc.Arbitrary<Param> {
  // A cursor is opaque: only a value a page gave is one (any other string is 400 by the contract's description), so a
  // generated cursor counts as hostile: it may be refused, never with a 5xx or a change.
  const valid = arb(p.schema).map((v): Param => ({ value: strictEncode(String(v)), hostile: p.name === 'cursor' }));
  const hostile = fc.oneof(
    fc.constantFrom<string | string[]>('', '-1', '0', '1e309', 'NaN', 'abc', '9'.repeat(400), 'x'.repeat(2000), '..', '%2e%2e', '%F0%9F%98%80', ['1', '2']),
    fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%FF', '%', '%zz'),
    hostileString.map((x) => encodeURIComponent(x.replace(/[\ud800-\udfff]/g, '?'))),
  ).map((value): Param => ({ value, hostile: true }));
  const absent = fc.constant<Param>({ value: undefined, hostile: Boolean(p.required) });
  return fc.oneof({ weight: 3, arbitrary: valid }, { weight: 2, arbitrary: hostile }, { weight: 1, arbitrary: absent });
}

interface Case {
  body: Json;
  bodyMutation: BodyMutation;
  textMutation: TextMutation;
  deepLevels: number;
  contentType: string | string[] | undefined;
  credential: Credential;
  schemePick: number;
  params: Record<string, Param>;
  extraQuery: string | undefined;
  signature: 'valid' | 'none' | 'garbage' | 'stale';
}

function caseArb(o: Operation): fc.Arbitrary<Case> {
  const bodySchema = o.op.requestBody?.content?.['application/json']?.schema;
  const params: Record<string, fc.Arbitrary<Param>> = {};
  for (const p of (o.op.parameters ?? []) as Json[]) if (p.in === 'query' || p.in === 'path') params[p.name] = paramArb(p);
  return fc.record({
    body: bodySchema ? arb(bodySchema) : fc.constant(undefined),
    bodyMutation: bodySchema ? bodyMutation : fc.constant({ kind: 'none' as const }),
    textMutation: bodySchema ? textMutation : fc.constant({ kind: 'none' as const }),
    deepLevels: fc.constantFrom(50, 2_000, 200_000),
    contentType: contentTypes,
    credential,
    schemePick: fc.nat(1),
    params: fc.record(params),
    extraQuery: fc.option(fc.constantFrom('unknown=1', 'limit=1&limit=2', '__proto__=x', 'a[b]=c', '%zz=1'), { nil: undefined, freq: 5 }),
    signature: fc.constantFrom('valid', 'valid', 'none', 'garbage', 'stale'),
  });
}

/** Whether the case holds any mutation (a valid case may still be refused, e.g. an unknown renewal id). */
function isMutated(c: Case): boolean {
  return c.bodyMutation.kind !== 'none' || c.textMutation.kind !== 'none' || c.contentType !== 'application/json' || c.credential !== 'valid' || c.extraQuery !== undefined
    || Object.values(c.params).some((p) => p.hostile);
}

function buildRequest(o: Operation, c: Case, creds: Creds): RawRequest {
  let path = o.template;
  const query: string[] = [];
  for (const p of (o.op.parameters ?? []) as Json[]) {
    const v = c.params[p.name]?.value;
    if (p.in === 'path') path = path.replace(`{${p.name}}`, typeof v === 'string' && v !== '' ? v : '00000000-0000-7000-8000-000000000000');
    if (p.in === 'query' && v !== undefined) for (const x of [v].flat()) query.push(`${p.name}=${x}`);
  }
  if (c.extraQuery) query.push(c.extraQuery);
  if (query.length) path += `?${query.join('&')}`;
  const headers: Record<string, string | string[]> = credentialHeaders(o.security, c.credential, creds, c.schemePick);
  let body: string | Buffer | undefined;
  if (o.op.requestBody) {
    const value = applyBodyMutation(c.body, c.bodyMutation);
    let text = value === undefined ? '' : serialise(value, c.deepLevels);
    const tm = c.textMutation;
    if (tm.kind === 'truncate') text = text.slice(0, tm.at % Math.max(1, text.length));
    if (tm.kind === 'replace') text = tm.text;
    body = tm.kind === 'bytes' ? Buffer.from(tm.bytes) : text;
    if (c.contentType !== undefined) headers['content-type'] = c.contentType;
    if (o.template === '/v1/billing/webhook') {
      const t = Math.floor(Date.now() / 1000) - (c.signature === 'stale' ? 3600 : 0);
      const sig = createHmac('sha256', WEBHOOK_SECRET).update(`${t}.`).update(body).digest('hex');
      if (c.signature === 'valid' || c.signature === 'stale') headers['stripe-signature'] = `t=${t},v1=${sig}`;
      if (c.signature === 'garbage') headers['stripe-signature'] = `t=${t},v1=${'0'.repeat(64)}`;
    }
  }
  return { method: o.method, path, headers, body };
}

// Stripe events carry `created`, so the generator adds it as Stripe does (a signed event without it is accepted and
// ordered as received: billing.test.ts).
// An attacker cannot sign: a mutated webhook body goes out unsigned or wrongly signed (a signed, malformed event is
// trusted input from Stripe, see the focused test at the end).
function fixWebhookBody(o: Operation, c: Case): Case {
  if (o.template !== '/v1/billing/webhook' || !c.body || typeof c.body !== 'object') return c;
  const mutated = c.bodyMutation.kind !== 'none' || c.textMutation.kind !== 'none';
  if (mutated && c.signature === 'valid') c = { ...c, signature: 'garbage' };
  return { ...c, body: { ...c.body, created: Math.floor(Date.now() / 1000), data: { object: { ...(c.body.data?.object ?? {}), object: 'unknown' } } } };
}

describe.each(dbModes())('hostile requests, property-based (%s database)', (mode) => {
  let s: TestServer;
  let creds: Creds;
  let stripe: FakeStripe;
  beforeAll(async () => {
    stripe = await new FakeStripe().start();
    s = await startTestServer(mode, {
      PLANS_FILE: roomyPlansFile(),
      STRIPE_SECRET_KEY: 'sk_test_hostile',
      STRIPE_PRICE_STARTER: 'price_hostile',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
      LOG_LEVEL: 'info',
    });
    creds = { key: (await s.createKey('acct_prop')).key, token: await s.token('acct_prop') };
    // First use writes lastUsedAt (at most once a minute on this fixed clock): do it before any snapshot.
    await s.fetch('/v1/account', { headers: { 'x-api-key': creds.key } });
  }, 60_000);
  afterAll(async () => { await s?.close(); await stripe?.stop(); });

  it('covers every operation of the contract', () => {
    expect(operations.length).toBeGreaterThanOrEqual(19);
    expect(operations.map((o) => `${o.method} ${o.template}`)).toEqual(expect.arrayContaining(['POST /v1/extract/custom', 'DELETE /v1/keys/{id}', 'POST /v1/billing/webhook']));
  });

  it.each(operations.map((o) => [`${o.method} ${o.template}`, o] as const))('%s: no 5xx, declared status and body, no change when refused', async (_name, o) => {
    let refused = 0;
    let accepted = 0;
    const histogram: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(caseArb(o).map((c) => fixWebhookBody(o, c)), async (c) => {
        const r = buildRequest(o, c, creds);
        const before = await dbFingerprint(s);
        const res = await send(s.baseUrl, r);
        if (process.env.HOSTILE_DEBUG) histogram[`${res.status} ${res.json?.error?.code ?? res.json?.error ?? ''}`] = (histogram[`${res.status} ${res.json?.error?.code ?? res.json?.error ?? ''}`] ?? 0) + 1;
        if (res.status >= 500) throw new Error(`answered ${res.status}: ${res.text.slice(0, 300)}`);
        const problems = checkAgainstContract(o.template, o.method, res);
        if (problems.length) throw new Error(`answer ${res.status} breaks the contract: ${problems.join('; ')}`);
        if (res.status >= 400) {
          refused++;
          if (!isErrorEnvelope(res.json)) throw new Error(`error body is not the envelope: ${res.text.slice(0, 300)}`);
          const after = await dbFingerprint(s);
          if (JSON.stringify(after) !== JSON.stringify(before)) {
            const changed = Object.keys(after).filter((t) => after[t] !== before[t]);
            throw new Error(`refused with ${res.status} ${res.text.slice(0, 200)} but changed ${changed.join(', ')}`);
          }
          if (!isMutated(c) && res.status === 400 && res.json?.error?.code === 'invalid_request' && !/unique/.test(res.json.error.message)) {
            throw new Error(`a request generated from the contract was refused as breaking it: ${res.text.slice(0, 300)}`);
          }
        } else accepted++;
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    if (process.env.HOSTILE_DEBUG) console.log(o.template, o.method, JSON.stringify(histogram));
    // Still answering, and both sides of the property were exercised.
    expect((await send(s.baseUrl, { method: 'GET', path: '/healthz' })).status).toBe(200);
    expect(refused + accepted).toBe(RUNS);
    if (o.op.requestBody || o.security.length) expect(refused).toBeGreaterThan(0);
  }, 120_000);

  // Known defect outside this suite's reach (server/src/billing/webhook.ts): a correctly signed event whose
  // `created` is not a number makes `new Date(NaN).toISOString()` throw, a 500 (Stripe then retries it for days).
  // It should be 400 invalid_request. Only Stripe can sign, so this is robustness, not an attack. Flip once fixed.
  it('answers 400, not 500, to a signed event whose created is not a number', async () => {
    const body = JSON.stringify({ id: 'evt_bad_created', type: 'invoice.paid', created: 'yesterday', data: { object: {} } });
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex');
    const res = await send(s.baseUrl, { method: 'POST', path: '/v1/billing/webhook', headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${sig}` }, body });
    expect(res.status).toBe(400);
  });

  it('never logs a key, a token or document text', () => {
    const logs = s.logs.join('\n');
    expect(logs).not.toContain(creds.key);
    expect(logs).not.toContain(creds.token);
    expect(logs).not.toContain('Total due: $4,500.00');
  });
});
