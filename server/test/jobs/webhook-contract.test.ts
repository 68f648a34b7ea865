// The contract's OpenAPI 3.1 `webhooks` section says what the service really sends: a delivery of each event, caught
// by a receiver on 127.0.0.1, has the headers the section declares (webhook-id, webhook-timestamp, webhook-signature,
// each matching its schema) and a body its schema accepts, with `type` that event's name.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { RealClock, startTestServer, type TestServer } from '../support/harness.js';

const contract = JSON.parse(readFileSync(fileURLToPath(new URL('../../../generated/openapi.json', import.meta.url)), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
((addFormatsModule as unknown as { default?: unknown }).default as (a: Ajv2020) => void ?? addFormatsModule)(ajv);
ajv.addSchema({ $id: 'contract', components: contract.components });
/** A schema of the webhooks section, its references read against the contract's components. */
const check = (schema: object, value: unknown) => {
  const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"contract#/components/'));
  const ok = ajv.validate(rebased, value);
  return ok ? [] : ajv.errors!.map((e) => `${e.instancePath} ${e.message}`);
};

describe('the webhooks section of the contract', () => {
  let s: TestServer;
  let key: string;
  const got: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
  const hooks = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => { got.push({ body, headers: req.headers }); res.writeHead(200).end(); });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => hooks.listen(0, '127.0.0.1', () => r()));
    s = await startTestServer('embedded', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', JOB_POLL_INTERVAL_MS: '50' }, new RealClock(), { worker: true });
    await s.db.prisma.account.create({ data: { id: 'acct_hook_contract', plan: 'starter' } });
    key = (await s.createKey('acct_hook_contract')).key;
  });
  afterAll(async () => {
    await s?.close();
    hooks.closeAllConnections();
    await new Promise<void>((r) => hooks.close(() => r()));
  });

  it('types each event of WebhookEventType, and a delivery of each matches its headers and body', async () => {
    expect(Object.keys(contract.webhooks)).toEqual(contract.components.schemas.WebhookEventType.enum);
    const url = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`;
    const call = (path: string, json: unknown) => s.fetch(path, { method: 'POST', headers: { 'x-api-key': key }, json });
    expect((await call('/v1/webhook-endpoints', { url })).status).toBe(201);
    // One job that succeeds, one that fails (a file the reader refuses).
    await call('/v1/jobs', { route: 'invoice', document: { text: 'ACME LLC\nInvoice No: INV-7\nTotal due: $4,500.00' } });
    await call('/v1/jobs', { route: 'invoice', document: { content: Buffer.from('%PDF-1.7 not really').toString('base64'), mediaType: 'application/pdf' } });
    for (let i = 0; i < 600 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 50));
    const seen = new Set<string>();
    for (const delivery of got) {
      const body = JSON.parse(delivery.body);
      const op = contract.webhooks[body.type]?.post;
      expect(op).toBeDefined();
      seen.add(body.type);
      for (const p of op.parameters) {
        const value = delivery.headers[p.name];
        expect([p.name, typeof value, check(p.schema, value)]).toEqual([p.name, 'string', []]);
      }
      expect(check(op.requestBody.content['application/json'].schema, body)).toEqual([]);
      // The schema of one event refuses the other's body.
      const other = Object.keys(contract.webhooks).find((e) => e !== body.type)!;
      expect(check(contract.webhooks[other].post.requestBody.content['application/json'].schema, body)).not.toEqual([]);
    }
    expect([...seen].sort()).toEqual(['job.failed', 'job.succeeded']);
  }, 60_000);
});
