// Drives the running service through every route of the interface document and checks each row of its table
// (interface-table.ts): the field is there, at that place, of that type, with that credential. The service runs with
// response validation on (express-openapi-validator checks every answer of this traffic against the published
// document), so an answer that left the contract would also fail here as a 500.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FakeStripe } from '../../server/test/support/fake-stripe.js';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { INTERFACE_ROWS, type FieldType, type Row } from './interface-table.js';

type Json = Record<string, any>;
const contract: Json = JSON.parse(readFileSync(fileURLToPath(new URL('../../generated/openapi.json', import.meta.url)), 'utf8'));

/** The contract's own example request for a route: realistic documents the offline engine reads. */
function exampleRequest(method: string, path: string): unknown {
  const examples = contract.paths[path]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']?.examples ?? {};
  return (Object.values<Json>(examples)[0] as Json | undefined)?.value;
}

/** Every value at a row's path: `a.b` a member, `a[]` each element, `a[ok]` / `a[failed]` each batch entry by its flag. */
function valuesAt(body: unknown, path: string): Array<{ found: boolean; value: unknown }> {
  let nodes: unknown[] = [body];
  for (const part of path.split('.')) {
    const m = /^(.*?)(\[(ok|failed)?\])?$/.exec(part)!;
    const name = m[1]!;
    const next: unknown[] = [];
    for (const n of nodes) {
      if (n === null || typeof n !== 'object') return [{ found: false, value: undefined }];
      if (!Object.hasOwn(n, name)) return [{ found: false, value: undefined }];
      const v = (n as Json)[name];
      if (!m[2]) { next.push(v); continue; }
      if (!Array.isArray(v)) return [{ found: false, value: v }];
      next.push(...v.filter((e) => m[3] === undefined || (e as Json).ok === (m[3] === 'ok')));
    }
    nodes = next;
  }
  return nodes.map((value) => ({ found: true, value }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'array': return Array.isArray(value);
    case 'object': return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'uuid': return typeof value === 'string' && UUID.test(value);
    case 'url': return typeof value === 'string' && URL.canParse(value);
    default: return typeof value === type;
  }
}

describe('the interface document, field by field, against the running service', () => {
  let s: TestServer;
  let stripe: FakeStripe;
  const ACCOUNT = 'acct_conformance';
  let apiKey: string;
  let bearerToken: string;
  const answers = new Map<string, { status: number; body: unknown }>();

  const headersFor = (credential: Row['credential']): Record<string, string> =>
    credential === 'x-api-key' ? { 'x-api-key': apiKey } : { authorization: `Bearer ${bearerToken}` };

  beforeAll(async () => {
    stripe = await new FakeStripe().start();
    s = await startTestServer('embedded', { STRIPE_SECRET_KEY: 'sk_test_conformance', STRIPE_PRICE_STARTER: 'price_starter_1', STRIPE_WEBHOOK_SECRET: 'whsec_conformance', STRIPE_API_BASE: stripe.url });
    await s.db.prisma.account.create({ data: { id: ACCOUNT, plan: 'starter' } });
    bearerToken = await s.token(ACCOUNT);
    apiKey = (await s.createKey(ACCOUNT, 'conformance')).key;
    // One call per route of the table, with the credential the table names and the contract's example body.
    for (const route of [...new Set(INTERFACE_ROWS.map((r) => r.route))]) {
      const [method, path] = route.split(' ') as [string, string];
      const credential = INTERFACE_ROWS.find((r) => r.route === route)!.credential;
      let body = exampleRequest(method, path);
      if (route === 'POST /v1/extract/renewal') body = { document: { ...(body as Json).document, filename: 'order-form.txt' } };
      if (route === 'POST /v1/extract/batch') body = { items: [...(body as Json).items, { id: 'custom-1', document: { text: 'Spring Meetup\nCapacity: 120 places' }, schema: { type: 'object', properties: { capacity: { type: 'integer' } } } }] };
      // Checkout sells the starter plan: a free account buys it (the starter account would be 409 already_subscribed).
      const headers = route === 'POST /v1/billing/checkout' ? { authorization: `Bearer ${await s.token('acct_conformance_free')}` } : headersFor(credential);
      const res = await s.fetch(path, { method, headers, ...(body === undefined ? {} : { json: body }) });
      answers.set(route, { status: res.status, body: await res.json() });
    }
  }, 120_000); // about twenty calls, one of them a PDF read in a fresh reader process: minutes on a busy machine
  afterAll(async () => { await s.close(); await stripe.stop(); });

  it('runs with every answer validated against the published contract', () => {
    expect(s.config.validateResponses).toBe(true);
  });

  it.each([...new Set(INTERFACE_ROWS.map((r) => r.route))])('%s answers 2xx with the credential the interface names', (route) => {
    const status = answers.get(route)!.status;
    expect([route, status >= 200 && status < 300]).toEqual([route, true]);
  });

  it.each(INTERFACE_ROWS.map((r) => [`${r.route} ${r.path}: ${r.type}${r.nullable ? ' or null' : ''}`, r] as const))('%s', (_name, row) => {
    const found = valuesAt(answers.get(row.route)!.body, row.path);
    for (const { found: present, value } of found) {
      expect({ path: row.path, present }).toEqual({ path: row.path, present: true });
      if (!(row.nullable && value === null)) expect({ path: row.path, value, ok: hasType(value, row.type) }).toEqual({ path: row.path, value, ok: true });
    }
  });

  it('has no top-level model on a batch', () => {
    expect(answers.get('POST /v1/extract/batch')!.body).not.toHaveProperty('model');
  });

  it('keeps overall_status at the top of a renewal answer, not in data', () => {
    const body = answers.get('POST /v1/extract/renewal')!.body as Json;
    expect(body.data).not.toHaveProperty('overall_status');
    expect(body.document_id).toBe(body.document.id);
    expect(body.vendor_renewal_id).toBe(body.document.vendorRenewalId);
  });

  describe('authentication', () => {
    const extractRoutes = [...new Set(INTERFACE_ROWS.filter((r) => r.route.startsWith('POST /v1/extract/')).map((r) => r.route))];

    it.each(extractRoutes)('%s refuses a bearer token (401 envelope) and a bad key (401 {error: "invalid_api_key"})', async (route) => {
      const [method, path] = route.split(' ') as [string, string];
      const body = exampleRequest(method, path);
      const withBearer = await s.fetch(path, { method, headers: { authorization: `Bearer ${bearerToken}` }, json: body });
      expect(withBearer.status).toBe(401);
      expect((await withBearer.json()).error.code).toBe('unauthorized');
      const badKey = await s.fetch(path, { method, headers: { 'x-api-key': 'dx_live_not_a_key_0000000000000000000000000000000' }, json: body });
      expect(badKey.status).toBe(401);
      expect(await badKey.json()).toEqual({ error: 'invalid_api_key' });
    });

    it('GET /v1/keys and GET /v1/account take x-api-key; a bad key is the exact 401 body', async () => {
      for (const path of ['/v1/keys', '/v1/account']) {
        expect((await s.fetch(path, { headers: { 'x-api-key': apiKey } })).status).toBe(200);
        const bad = await s.fetch(path, { headers: { 'x-api-key': 'dx_live_nope' } });
        expect([path, bad.status, await bad.json()]).toEqual([path, 401, { error: 'invalid_api_key' }]);
      }
    });

    it('POST /v1/keys and POST /v1/billing/checkout take a bearer token and refuse an API key', async () => {
      for (const [path, body] of [['/v1/keys', { name: 'x' }], ['/v1/billing/checkout', { plan: 'starter' }]] as const) {
        const res = await s.fetch(path, { method: 'POST', headers: { 'x-api-key': apiKey }, json: body });
        expect([path, res.status]).toEqual([path, 401]);
      }
    });

    it('a revoked key answers 401 {error: "invalid_api_key"} at once', async () => {
      const made = await s.createKey(ACCOUNT, 'to revoke');
      expect((await s.fetch(`/v1/keys/${made.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${bearerToken}` } })).status).toBe(200);
      const res = await s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': made.key }, json: { document: { text: 'TOTAL 1.00' } } });
      expect([res.status, await res.json()]).toEqual([401, { error: 'invalid_api_key' }]);
    });
  });

  describe('errors and limits', () => {
    it('plan_limit_exceeded carries {plan, bucketHeu, requestedHeu, upgradeUrl}', async () => {
      await s.db.prisma.account.create({ data: { id: 'acct_conformance_402' } });
      const { key } = await s.createKey('acct_conformance_402');
      const period = new Date(Date.UTC(s.clock.now().getUTCFullYear(), s.clock.now().getUTCMonth(), 1));
      await s.db.prisma.usageBucket.create({ data: { accountId: 'acct_conformance_402', periodStart: period, heuUsed: 99 } });
      const res = await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: 'x'.repeat(20000) } } });
      expect(res.status).toBe(402);
      const { error } = await res.json();
      expect(error.code).toBe('plan_limit_exceeded');
      expect(error.details).toEqual({ plan: 'free', bucketHeu: 1, requestedHeu: expect.any(Number), upgradeUrl: expect.any(String) });
      expect(error.details.requestedHeu).toBeGreaterThan(1);
      expect(URL.canParse(error.details.upgradeUrl)).toBe(true);
    });

    it('a used-up bucket is 429 too_many_requests with Retry-After', async () => {
      await s.db.prisma.account.create({ data: { id: 'acct_conformance_429' } });
      const { key } = await s.createKey('acct_conformance_429');
      const period = new Date(Date.UTC(s.clock.now().getUTCFullYear(), s.clock.now().getUTCMonth(), 1));
      await s.db.prisma.usageBucket.create({ data: { accountId: 'acct_conformance_429', periodStart: period, heuUsed: 100 } });
      const res = await s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: 'TOTAL 1.00' } } });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await res.json()).error.code).toBe('too_many_requests');
    });

    it('a batch of more than 20 items is refused', async () => {
      const items = Array.from({ length: 21 }, (_, i) => ({ id: `i${i}`, document: { text: 'TOTAL 1.00' }, kind: 'receipt' }));
      const res = await s.fetch('/v1/extract/batch', { method: 'POST', headers: { 'x-api-key': apiKey }, json: { items } });
      expect(res.status).toBe(400);
    });

    it('every route carries the /v1 prefix', () => {
      for (const r of INTERFACE_ROWS) expect(r.route.split(' ')[1]).toMatch(/^\/v1\//);
    });
  });
});
