// What an operator does with webhook endpoints besides creating them: rotating a secret (both signatures during the
// overlap, each verified by the `standardwebhooks` package as a receiver would), re-enabling an endpoint disabled by
// 410 Gone, redelivering an event (the same webhook-id), and deleting an endpoint with deliveries pending (cancelled
// with it). Each route: its status, body and database state; another account's endpoint or delivery is 404; bad input
// is a 4xx that changes nothing.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { RealClock, startTestServer, type TestServer } from '../support/harness.js';

type Json = Record<string, any>;
interface Received { body: string; headers: IncomingHttpHeaders }

async function receiver(answer: () => number = () => 200): Promise<{ url: string; port: number; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      got.push({ body, headers: req.headers });
      res.writeHead(answer()).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hooks`, port, got, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

const INVOICE = 'ACME LLC\nInvoice No: INV-7\nTotal due: $4,500.00';
const headersOf = (g: Received) => ({ 'webhook-id': String(g.headers['webhook-id']), 'webhook-timestamp': String(g.headers['webhook-timestamp']), 'webhook-signature': String(g.headers['webhook-signature']) });

describe('webhook operations', () => {
  let s: TestServer;
  let key: string;
  let otherKey: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', JOB_POLL_INTERVAL_MS: '50', WEBHOOK_RETRY_SCHEDULE: '600,600' }, new RealClock(), { worker: true });
    await s.db.prisma.account.create({ data: { id: 'acct_hookops', plan: 'starter' } });
    await s.db.prisma.account.create({ data: { id: 'acct_hookops_other', plan: 'starter' } });
    key = (await s.createKey('acct_hookops')).key;
    otherKey = (await s.createKey('acct_hookops_other')).key;
  }, 60_000);
  afterAll(async () => { await s?.close(); });

  const call = (method: string, path: string, json?: unknown, k = key) => s.fetch(path, { method, headers: { 'x-api-key': k }, ...(json === undefined ? {} : { json }) });
  const until = async <T>(what: () => Promise<T | undefined>, ms = 20_000): Promise<T> => {
    const end = Date.now() + ms;
    for (;;) {
      const v = await what();
      if (v !== undefined) return v;
      if (Date.now() > end) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const job = async () => (await (await call('POST', '/v1/jobs', { route: 'invoice', document: { text: INVOICE } })).json()).id as string;
  const endpointRow = (id: string) => s.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
  const received = (r: { got: Received[] }, jobId: string) => until(async () => r.got.find((g) => JSON.parse(g.body).data.job.id === jobId));

  it('rotates a secret: the new one answered once, both signing during the overlap (either verifies), then the new one alone', async () => {
    const r = await receiver();
    try {
      const made = await (await call('POST', '/v1/webhook-endpoints', { url: r.url })).json();
      const res = await call('POST', `/v1/webhook-endpoints/${made.id}/rotate-secret`, { overlapSeconds: 3600 });
      expect(res.status).toBe(200);
      const rotated = await res.json();
      const { secret: _, ...shown } = made;
      expect(rotated).toEqual({ ...shown, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/), previousSecretExpiresAt: expect.any(String) });
      expect(rotated.secret).not.toBe(made.secret);
      const until1h = new Date(rotated.previousSecretExpiresAt).getTime() - Date.now();
      expect(until1h).toBeGreaterThan(3_590_000);
      expect(until1h).toBeLessThanOrEqual(3_600_000);
      const row = await endpointRow(made.id);
      expect([row.secret, row.previousSecret, row.previousSecretExpiresAt?.toISOString()]).toEqual([rotated.secret, made.secret, rotated.previousSecretExpiresAt]);
      // The secret is not shown again.
      expect(await (await call('GET', `/v1/webhook-endpoints/${made.id}`)).json()).toEqual(shown);

      const during = await received(r, await job());
      const headers = headersOf(during);
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=* v1,[A-Za-z0-9+/]+=*$/);
      // A receiver still holding the old secret, or already the new one, verifies; another secret does not.
      expect(new Webhook(made.secret).verify(during.body, headers)).toEqual(JSON.parse(during.body));
      expect(new Webhook(rotated.secret).verify(during.body, headers)).toEqual(JSON.parse(during.body));
      expect(() => new Webhook(`whsec_${Buffer.alloc(32, 9).toString('base64')}`).verify(during.body, headers)).toThrow(WebhookVerificationError);

      // Rotated again with no overlap: only the newest secret signs.
      const again = await (await call('POST', `/v1/webhook-endpoints/${made.id}/rotate-secret`, { overlapSeconds: 0 })).json();
      expect(again.previousSecretExpiresAt).toBeNull();
      expect(await endpointRow(made.id)).toMatchObject({ secret: again.secret, previousSecret: null, previousSecretExpiresAt: null });
      const after = await received(r, await job());
      const afterHeaders = headersOf(after);
      expect(afterHeaders['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(new Webhook(again.secret).verify(after.body, afterHeaders)).toEqual(JSON.parse(after.body));
      expect(() => new Webhook(rotated.secret).verify(after.body, afterHeaders)).toThrow(WebhookVerificationError);
      await call('DELETE', `/v1/webhook-endpoints/${made.id}`);
    } finally {
      await r.close();
    }
  });

  it('rotates with the 24-hour overlap by default; refuses a bad overlap (400) and another account\'s endpoint (404), changing nothing', async () => {
    const made = await (await call('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/rotate' })).json();
    const before = await endpointRow(made.id);
    for (const body of [{ overlapSeconds: -1 }, { overlapSeconds: 604_801 }, { overlapSeconds: 'soon' }, { overlapSeconds: 1.5 }]) {
      const res = await call('POST', `/v1/webhook-endpoints/${made.id}/rotate-secret`, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect((await res.json()).error.code).toBe('invalid_request');
    }
    const foreign = await call('POST', `/v1/webhook-endpoints/${made.id}/rotate-secret`, {}, otherKey);
    expect(foreign.status).toBe(404);
    expect((await foreign.json()).error.code).toBe('not_found');
    expect((await call('POST', '/v1/webhook-endpoints/0193a6f4-0000-7000-8000-000000000000/rotate-secret', {})).status).toBe(404);
    expect((await call('POST', '/v1/webhook-endpoints/not-an-id/rotate-secret', {})).status).toBe(400);
    expect(await endpointRow(made.id)).toEqual(before);
    // An empty body: the default overlap, 24 hours.
    const res = await s.fetch(`/v1/webhook-endpoints/${made.id}/rotate-secret`, { method: 'POST', headers: { 'x-api-key': key } });
    expect(res.status).toBe(200);
    const rotated = await res.json();
    const left = new Date(rotated.previousSecretExpiresAt).getTime() - Date.now();
    expect(left).toBeGreaterThan(86_390_000);
    expect(left).toBeLessThanOrEqual(86_400_000);
    expect((await endpointRow(made.id)).previousSecret).toBe(made.secret);
    await call('DELETE', `/v1/webhook-endpoints/${made.id}`);
  });

  it('enables an endpoint disabled by 410 Gone: it takes events again; another account\'s is 404 and stays disabled', async () => {
    let answer = 410;
    const r = await receiver(() => answer);
    try {
      const made = await (await call('POST', '/v1/webhook-endpoints', { url: r.url })).json();
      await job();
      const disabled = await until(async () => ((await endpointRow(made.id)).disabledAt ? true : undefined));
      expect(disabled).toBe(true);
      const foreign = await call('POST', `/v1/webhook-endpoints/${made.id}/enable`, undefined, otherKey);
      expect(foreign.status).toBe(404);
      expect((await endpointRow(made.id)).disabledAt).not.toBeNull();
      answer = 200;
      const res = await call('POST', `/v1/webhook-endpoints/${made.id}/enable`);
      expect(res.status).toBe(200);
      const { secret: _, ...shown } = made;
      expect(await res.json()).toEqual({ ...shown, disabledAt: null });
      expect((await endpointRow(made.id)).disabledAt).toBeNull();
      // Enabling an enabled endpoint answers it as it is.
      expect(await (await call('POST', `/v1/webhook-endpoints/${made.id}/enable`)).json()).toEqual({ ...shown, disabledAt: null });
      const id = await job();
      const got = await received(r, id);
      expect(new Webhook(made.secret).verify(got.body, headersOf(got))).toMatchObject({ type: 'job.succeeded' });
      await call('DELETE', `/v1/webhook-endpoints/${made.id}`);
    } finally {
      await r.close();
    }
  });

  it('redelivers an event: a new delivery of the same body and webhook-id, sent and recorded; the original untouched', async () => {
    const r = await receiver();
    try {
      const made = await (await call('POST', '/v1/webhook-endpoints', { url: r.url })).json();
      const first = await received(r, await job());
      const { deliveries: [original] } = await (await until(async () => {
        const res = await call('GET', `/v1/webhook-endpoints/${made.id}/deliveries`);
        const page = await res.clone().json();
        return page.deliveries[0]?.status === 'succeeded' ? res : undefined;
      })).json();
      const res = await call('POST', `/v1/webhook-endpoints/${made.id}/deliveries/${original.id}/redeliver`);
      expect(res.status).toBe(202);
      const copy = await res.json();
      expect(copy).toEqual({
        ...original, id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'pending', attempts: [], nextAttemptAt: expect.any(String),
      });
      expect(copy.id).not.toBe(original.id);
      const second = await until(async () => (r.got.length === 2 ? r.got[1] : undefined));
      expect(second.body).toBe(first.body);
      expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
      expect(new Webhook(made.secret).verify(second.body, headersOf(second))).toEqual(JSON.parse(first.body));
      const rows = await until(async () => {
        const found = await s.db.prisma.webhookDelivery.findMany({ where: { endpointId: made.id }, orderBy: { id: 'asc' } });
        return found.every((d) => d.status === 'succeeded') ? found : undefined;
      });
      expect(rows.map((d) => [d.id, d.eventId, d.attemptCount])).toEqual([[original.id, original.eventId, 1], [copy.id, original.eventId, 1]]);
      await call('DELETE', `/v1/webhook-endpoints/${made.id}`);
    } finally {
      await r.close();
    }
  });

  it('refuses a redelivery to a disabled endpoint (409), of another endpoint\'s or account\'s delivery (404), creating nothing', async () => {
    const r = await receiver();
    try {
      const made = await (await call('POST', '/v1/webhook-endpoints', { url: r.url })).json();
      const sibling = await (await call('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/sibling', events: ['job.failed'] })).json();
      await received(r, await job());
      const original = await until(async () => (await s.db.prisma.webhookDelivery.findFirst({ where: { endpointId: made.id, status: 'succeeded' } })) ?? undefined);
      const count = () => s.db.prisma.webhookDelivery.count({ where: { accountId: 'acct_hookops' } });
      const before = await count();
      const foreign = await call('POST', `/v1/webhook-endpoints/${made.id}/deliveries/${original.id}/redeliver`, undefined, otherKey);
      expect(foreign.status).toBe(404);
      const elsewhere = await call('POST', `/v1/webhook-endpoints/${sibling.id}/deliveries/${original.id}/redeliver`);
      expect(elsewhere.status).toBe(404);
      expect((await elsewhere.json()).error.code).toBe('not_found');
      expect((await call('POST', `/v1/webhook-endpoints/${made.id}/deliveries/not-an-id/redeliver`)).status).toBe(400);
      await s.db.prisma.webhookEndpoint.update({ where: { id: made.id }, data: { disabledAt: new Date() } });
      const disabled = await call('POST', `/v1/webhook-endpoints/${made.id}/deliveries/${original.id}/redeliver`);
      expect(disabled.status).toBe(409);
      expect((await disabled.json()).error).toMatchObject({ code: 'webhook_endpoint_disabled', message: expect.stringContaining(`/v1/webhook-endpoints/${made.id}/enable`) });
      expect(await count()).toBe(before);
      await call('DELETE', `/v1/webhook-endpoints/${made.id}`);
      await call('DELETE', `/v1/webhook-endpoints/${sibling.id}`);
    } finally {
      await r.close();
    }
  });

  it('deleting an endpoint cancels its pending deliveries: deleted with it, never attempted again', async () => {
    // A port that refuses connections: the first attempt fails and the next is due in 600 s.
    const probe = await receiver();
    const port = probe.port;
    await probe.close();
    const made = await (await call('POST', '/v1/webhook-endpoints', { url: `http://127.0.0.1:${port}/hooks` })).json();
    await job();
    await until(async () => (await s.db.prisma.webhookDelivery.findFirst({ where: { endpointId: made.id, status: 'pending', attemptCount: 1 } })) ?? undefined);
    const res = await call('DELETE', `/v1/webhook-endpoints/${made.id}`);
    expect(res.status).toBe(200);
    expect(await s.db.prisma.webhookDelivery.count({ where: { endpointId: made.id } })).toBe(0);
    expect(await s.db.prisma.webhookEndpoint.count({ where: { id: made.id } })).toBe(0);
  });
});
