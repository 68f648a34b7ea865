// Rules that were only prose in the contract, now in its schema, so that a partner's validator refuses what the
// service refuses: PATCH /v1/renewals/{id} names something (minProperties), a webhook URL is http(s) (pattern), the
// 20-endpoint limit (x-max-endpoints-per-account, and the 400 the service answers), U+0000 refused in every text a
// request carries (also a form's file name). Each case is sent to the service and checked with stock Ajv on the
// published document.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { MAX_ENDPOINTS } from '../src/webhooks/endpoint-limits.js';
import { startTestServer, type TestServer } from './support/harness.js';

const contract = JSON.parse(readFileSync(fileURLToPath(new URL('../../generated/openapi.json', import.meta.url)), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its function is the default export's `default` under ESM.
((addFormatsModule as unknown as { default?: unknown }).default as (a: Ajv2020) => void ?? addFormatsModule)(ajv);
ajv.addSchema({ $id: 'contract', components: contract.components });
/** Whether the published schema `name` accepts `value`, as a partner's validator reads it. */
const accepts = (name: string, value: unknown) => ajv.validate({ $ref: `contract#/components/schemas/${name}` }, value);

const ORDER = 'ORDER FORM\nVendor: CloudNest Inc.\nProduct: CloudNest Storage Pro\nFees: $1,200.00 per month\nTerm: 2099-01-01 to 2099-12-31. This order renews automatically unless either party gives 30 days\' written notice before the end of the term.';

describe('prose rules in the schema: the published contract refuses what the service refuses', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_rules', plan: 'starter' } });
    ({ key } = await s.createKey('acct_rules'));
  });
  afterAll(async () => { await s?.close(); });
  const call = (method: string, path: string, json?: unknown) => s.fetch(path, { method, headers: { 'x-api-key': key }, ...(json === undefined ? {} : { json }) });

  it('PATCH /v1/renewals/{id} with {}: 400 from the service, and refused by the schema (minProperties 1)', async () => {
    const made = await (await call('POST', '/v1/extract/renewal', { document: { text: ORDER } })).json();
    const id = made.vendor_renewal_id;
    const res = await call('PATCH', `/v1/renewals/${id}`, {});
    expect(res.status).toBe(400);
    expect((await res.json()).error.details.errors[0]).toEqual({ path: '/body', message: expect.stringContaining('nothing to change') });
    expect(accepts('RenewalUpdate', {})).toBe(false);
    expect(accepts('RenewalUpdate', { cancelled: true })).toBe(true);
  });

  it.each(['ftp://hooks.example.com/x', 'ws://hooks.example.com/x', 'mailto:ops@example.com'])('a webhook URL %s: 400 from the service, refused by the schema\'s pattern', async (url) => {
    const res = await call('POST', '/v1/webhook-endpoints', { url });
    expect(res.status).toBe(400);
    expect((await res.json()).error.details.errors).toEqual([{ path: '/body/url', message: expect.stringMatching(/https:\/\//) }]);
    expect(accepts('CreateWebhookEndpointRequest', { url })).toBe(false);
    expect(accepts('CreateWebhookEndpointRequest', { url: 'https://hooks.example.com/x' })).toBe(true);
    expect(accepts('CreateWebhookEndpointRequest', { url: 'HTTPS://hooks.example.com/x' })).toBe(true);
  });

  it('the endpoint limit the contract states is the one the service holds: the 21st is 400 and nothing is stored', async () => {
    expect(contract.paths['/v1/webhook-endpoints'].post['x-max-endpoints-per-account']).toBe(MAX_ENDPOINTS);
    for (let i = 0; i < MAX_ENDPOINTS; i++) expect((await call('POST', '/v1/webhook-endpoints', { url: `https://hooks.example.com/${i}` })).status).toBe(201);
    const res = await call('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/one-too-many' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'invalid_request', message: `An account may have at most ${MAX_ENDPOINTS} webhook endpoints: delete one first.` });
    expect(contract.paths['/v1/webhook-endpoints'].post.description).toContain('`400 invalid_request` ("An account may have at most 20 webhook endpoints: delete one first.")');
    expect(await s.db.prisma.webhookEndpoint.count({ where: { accountId: 'acct_rules' } })).toBe(MAX_ENDPOINTS);
  });

  it('U+0000 is refused in every text a request carries: JSON strings, query parameters, form fields and a form file\'s name', async () => {
    const cases: Array<[string, Promise<Response>, string]> = [
      ['JSON text', call('POST', '/v1/extract/invoice', { document: { text: 'Invoice\u0000 1' } }), '/body/document/text'],
      ['query', call('GET', `/v1/jobs?cursor=${encodeURIComponent('a\u0000b')}`), '/query/cursor'],
    ];
    const form = new FormData();
    form.append('file', new Blob(['Invoice 1']), 'invoice.txt');
    form.append('filename', 'in\u0000voice.txt');
    cases.push(['form field', s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, body: form }), '/body/filename']);
    // The part's own file name, written by hand (a percent-encoded NUL in RFC 5987 `filename*`).
    const boundary = 'nul-boundary';
    const raw = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename*=UTF-8''in%00voice.txt\r\nContent-Type: text/plain\r\n\r\nInvoice 1\r\n--${boundary}--\r\n`;
    cases.push(['form file name', s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: raw }), '/body/file']);
    const before = await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_rules' } });
    for (const [what, pending, path] of cases) {
      const res = await pending;
      const body = await res.json();
      expect([what, res.status, body.error?.code, body.error?.details?.errors?.[0]?.path]).toEqual([what, 400, 'invalid_request', path]);
      expect(body.error.message).toContain('U+0000');
    }
    expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_rules' } })).toBe(before);
  });

  it('a model the server does not offer: 400 naming the models it offers (the list is the operator\'s, so not an enum)', async () => {
    const res = await call('POST', '/v1/extract/invoice', { document: { text: 'Invoice 1' }, model: 'gpt-9' });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.message).toContain('local-rules-1');
    expect(contract.components.schemas.ModelChoice?.properties?.model?.enum ?? contract.components.schemas.ExtractRequest.properties.model.enum).toBeUndefined();
  });
});
