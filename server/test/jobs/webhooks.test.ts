// Webhook endpoints and deliveries as a caller sees them: endpoints created (the secret once), listed, read, deleted;
// job events delivered signed per Standard Webhooks (checked with the `standardwebhooks` package, as a receiver
// would), retried on the schedule while the receiver is down (the specification's schedule compressed 600 times, so
// 10 minutes down is 1 s), every attempt visible; a wrong secret is detected; 410 Gone disables the endpoint; URLs
// of non-public addresses are refused unless the operator allows them.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { STANDARD_WEBHOOKS_RETRY_SECONDS } from '../../src/config/config.js';
import { sendAttempt } from '../../src/webhooks/delivery-sender.js';
import { RealClock, startTestServer, type TestServer } from '../support/harness.js';

type Json = Record<string, any>;
interface Received { body: string; headers: IncomingHttpHeaders; at: number }

/** A receiver on 127.0.0.1 that answers what `answer` says (200 by default) and keeps what it got. */
async function receiver(answer: (n: number) => number = () => 200, port = 0): Promise<{ url: string; port: number; got: Received[]; close(): Promise<void>; server: Server }> {
  const got: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      got.push({ body, headers: req.headers, at: Date.now() });
      res.writeHead(answer(got.length)).end();
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  const bound = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${bound}/hooks`, port: bound, got, server, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

const INVOICE = 'ACME LLC\nInvoice No: INV-7\nTotal due: $4,500.00';
const COMPRESSION = 600;

describe('webhooks', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', {
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      JOB_POLL_INTERVAL_MS: '50',
      WEBHOOK_RETRY_SCHEDULE: STANDARD_WEBHOOKS_RETRY_SECONDS.map((sec) => sec / COMPRESSION).join(','),
    }, new RealClock(), { worker: true }); // attempts stamped when made, so their spacing can be read back
    await s.db.prisma.account.create({ data: { id: 'acct_hooks', plan: 'starter' } });
    key = (await s.createKey('acct_hooks')).key;
  });
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
  const job = async (body: Json = { route: 'invoice', document: { text: INVOICE } }) => (await (await call('POST', '/v1/jobs', body)).json()).id as string;

  it('creates an endpoint with its secret once; lists, reads and deletes it; another account sees none of it', async () => {
    const res = await call('POST', '/v1/webhook-endpoints', { url: 'https://hooks.example.com/docextract', description: 'ledger' });
    expect(res.status).toBe(201);
    const made = await res.json();
    expect(made).toEqual({
      id: expect.any(String), url: 'https://hooks.example.com/docextract', events: ['job.succeeded', 'job.failed'], description: 'ledger',
      createdAt: expect.any(String), disabledAt: null, secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const { secret, ...shown } = made;
    expect((await (await call('GET', '/v1/webhook-endpoints')).json()).endpoints).toEqual([shown]);
    expect(await (await call('GET', `/v1/webhook-endpoints/${made.id}`)).json()).toEqual(shown);
    await s.db.prisma.account.create({ data: { id: 'acct_hooks_other', plan: 'free' } });
    const other = (await s.createKey('acct_hooks_other')).key;
    expect((await call('GET', `/v1/webhook-endpoints/${made.id}`, undefined, other)).status).toBe(404);
    expect((await call('DELETE', `/v1/webhook-endpoints/${made.id}`, undefined, other)).status).toBe(404);
    expect((await (await call('GET', '/v1/webhook-endpoints', undefined, other)).json()).endpoints).toEqual([]);
    // The dashboard session manages them too.
    const bearer = { authorization: `Bearer ${await s.token('acct_hooks')}` };
    expect((await s.fetch('/v1/webhook-endpoints', { headers: bearer })).status).toBe(200);
    expect(await (await call('DELETE', `/v1/webhook-endpoints/${made.id}`)).json()).toEqual(shown);
    expect((await call('GET', `/v1/webhook-endpoints/${made.id}`)).status).toBe(404);
    void secret;
  });

  it('delivers a signed job.succeeded event that the standardwebhooks package verifies; a wrong secret is detected', async () => {
    const r = await receiver();
    try {
      const endpoint = await (await call('POST', '/v1/webhook-endpoints', { url: r.url })).json();
      const id = await job();
      const hit = await until(async () => r.got.find((g) => JSON.parse(g.body).data.job.id === id));
      const headers = { 'webhook-id': String(hit.headers['webhook-id']), 'webhook-timestamp': String(hit.headers['webhook-timestamp']), 'webhook-signature': String(hit.headers['webhook-signature']) };
      const event = new Webhook(endpoint.secret).verify(hit.body, headers) as Json;
      const read = await (await call('GET', `/v1/jobs/${id}`)).json();
      expect(event).toEqual({ type: 'job.succeeded', timestamp: read.finishedAt, data: { job: read } });
      expect(hit.headers['content-type']).toBe('application/json');
      expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      // The receiver holding another secret (or a tampered body) cannot verify it.
      const wrong = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
      expect(() => new Webhook(wrong).verify(hit.body, headers)).toThrow(WebhookVerificationError);
      expect(() => new Webhook(endpoint.secret).verify(hit.body.replace('succeeded', 'failed'), headers)).toThrow(WebhookVerificationError);
      const { deliveries } = await (await call('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`)).json();
      expect(deliveries[0]).toMatchObject({ eventId: headers['webhook-id'], eventType: 'job.succeeded', jobId: id, status: 'succeeded', nextAttemptAt: null, event });
      expect(deliveries[0].attempts).toEqual([{ attempt: 1, attemptedAt: expect.any(String), statusCode: 200, error: null, durationMs: expect.any(Number) }]);
      await call('DELETE', `/v1/webhook-endpoints/${endpoint.id}`);
    } finally {
      await r.close();
    }
  });

  it('sends job.failed to an endpoint that asked for it, and job.succeeded only where asked', async () => {
    const failures = await receiver();
    const successes = await receiver();
    try {
      const a = await (await call('POST', '/v1/webhook-endpoints', { url: failures.url, events: ['job.failed'] })).json();
      const b = await (await call('POST', '/v1/webhook-endpoints', { url: successes.url, events: ['job.succeeded'] })).json();
      // A job fails when its key is revoked before it runs.
      const { key: doomed, id: doomedId } = await s.createKey('acct_hooks', 'doomed');
      await s.jobs.stopWorkers(1_000);
      const queued = (await (await call('POST', '/v1/jobs', { route: 'invoice', document: { text: INVOICE } }, doomed)).json()).id as string;
      await s.fetch(`/v1/keys/${doomedId}`, { method: 'DELETE', headers: { authorization: `Bearer ${await s.token('acct_hooks')}` } });
      await s.jobs.start({ worker: true });
      const ok = await job();
      const gotFailed = await until(async () => failures.got.find((g) => JSON.parse(g.body).data.job.id === queued));
      expect(JSON.parse(gotFailed.body)).toMatchObject({ type: 'job.failed', data: { job: { id: queued, status: 'failed', error: { code: 'invalid_api_key' } } } });
      await until(async () => successes.got.find((g) => JSON.parse(g.body).data.job.id === ok));
      await new Promise((r) => setTimeout(r, 300));
      expect(failures.got.map((g) => JSON.parse(g.body).type)).toEqual(['job.failed']);
      expect(successes.got.map((g) => JSON.parse(g.body).type)).toEqual(['job.succeeded']);
      await call('DELETE', `/v1/webhook-endpoints/${a.id}`);
      await call('DELETE', `/v1/webhook-endpoints/${b.id}`);
    } finally {
      await failures.close();
      await successes.close();
    }
  });

  it('a receiver down for 10 minutes (compressed 600 times) receives every event after it returns, each attempt recorded', async () => {
    // Reserve a port, then close it: connections are refused until the receiver listens there again.
    const probe = await receiver();
    const port = probe.port;
    await probe.close();
    const endpoint = await (await call('POST', '/v1/webhook-endpoints', { url: `http://127.0.0.1:${port}/hooks` })).json();
    const downFor = (10 * 60 * 1000) / COMPRESSION;
    const ids = [await job(), await job(), await job()];
    // Every event has met the closed port once; then it stays closed for 10 minutes (compressed) more.
    await until(async () => {
      const { deliveries } = await (await call('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`)).json();
      return deliveries.length === 3 && deliveries.every((d: Json) => d.attempts.length >= 1) ? true : undefined;
    });
    await new Promise((r) => setTimeout(r, downFor));
    const back = await receiver(undefined, port);
    try {
      await until(async () => (ids.every((id) => back.got.some((g) => JSON.parse(g.body).data.job.id === id)) ? true : undefined), 30_000);
      const secret = (await s.db.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secret;
      for (const g of back.got) new Webhook(secret).verify(g.body, g.headers as Record<string, string>);
      const { deliveries } = await (await call('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries`)).json();
      const mine = deliveries.filter((d: Json) => ids.includes(d.jobId));
      expect(mine).toHaveLength(3);
      for (const d of mine) {
        expect(d.status).toBe('succeeded');
        expect(d.attempts.length).toBeGreaterThan(1);
        expect(d.attempts.slice(0, -1).every((a: Json) => a.statusCode === null && /could not connect/.test(a.error))).toBe(true);
        expect(d.attempts.at(-1)).toMatchObject({ statusCode: 200, error: null });
        // Spaced as the schedule says (5 s, 5 min, ... each / 600), within its 10% jitter.
        const times = d.attempts.map((a: Json) => new Date(a.attemptedAt).getTime());
        for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(STANDARD_WEBHOOKS_RETRY_SECONDS[i - 1]! * 1000 / COMPRESSION * 0.9 - 5);
      }
      // One delivery per job, whatever the retries: the same webhook-id on each attempt.
      expect(new Set(back.got.map((g) => g.headers['webhook-id'])).size).toBe(3);
      await call('DELETE', `/v1/webhook-endpoints/${endpoint.id}`);
    } finally {
      await back.close();
    }
  });

  it('stops at 410 Gone: the delivery fails and the endpoint is disabled', async () => {
    const r = await receiver(() => 410);
    try {
      const endpoint = await (await call('POST', '/v1/webhook-endpoints', { url: r.url })).json();
      await job();
      const disabled = await until(async () => {
        const e = await (await call('GET', `/v1/webhook-endpoints/${endpoint.id}`)).json();
        return e.disabledAt ? e : undefined;
      });
      expect(disabled.disabledAt).toEqual(expect.any(String));
      await job();
      await new Promise((res) => setTimeout(res, 500));
      expect(r.got).toHaveLength(1);
      const { deliveries } = await (await call('GET', `/v1/webhook-endpoints/${endpoint.id}/deliveries?status=failed`)).json();
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0].attempts).toEqual([expect.objectContaining({ statusCode: 410, error: 'answered 410' })]);
      await call('DELETE', `/v1/webhook-endpoints/${endpoint.id}`);
    } finally {
      await r.close();
    }
  });
});

describe('webhook URLs on a server that allows only public addresses', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', { NODE_ENV: 'production' });
    await s.db.prisma.account.create({ data: { id: 'acct_ssrf', plan: 'free' } });
    key = (await s.createKey('acct_ssrf')).key;
  });
  afterAll(async () => { await s?.close(); });

  it.each([
    ['http://hooks.example.com/x', 'must be an https:// URL'],
    ['https://127.0.0.1/x', 'non-public address'],
    ['https://10.1.2.3/x', 'non-public address'],
    ['https://192.168.0.10/x', 'non-public address'],
    ['https://169.254.169.254/latest/meta-data', 'link-local, metadata or reserved address'],
    // The IPv4-compatible form (a URL writes it [::7f00:1]), which ipaddr.js calls unicast.
    ['https://[::127.0.0.1]/x', 'link-local, metadata or reserved address'],
    ['https://[::10.1.2.3]/x', 'link-local, metadata or reserved address'],
    ['https://[::1]/x', 'non-public address'],
    ['https://[::ffff:127.0.0.1]/x', 'non-public address'],
    ['https://[fd00::1]/x', 'non-public address'],
    ['https://localhost/x', 'local host'],
    ['https://printer.local/x', 'local host'],
    ['https://user:secret@hooks.example.com/x', 'user name or password'],
    ['ftp://hooks.example.com/x', 'https://'],
    ['not a url', 'not a URL'],
  ])('refuses %s (400, nothing stored)', async (url, why) => {
    const res = await s.fetch('/v1/webhook-endpoints', { method: 'POST', headers: { 'x-api-key': key }, json: { url } });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.code).toBe('invalid_request');
    expect(error.details.errors[0]).toEqual({ path: '/body/url', message: expect.stringContaining(why) });
    expect(await s.db.prisma.webhookEndpoint.count({ where: { accountId: 'acct_ssrf' } })).toBe(0);
  });

  it('says how an operator allows private addresses, naming the setting and nothing of its own configuration', async () => {
    const res = await s.fetch('/v1/webhook-endpoints', { method: 'POST', headers: { 'x-api-key': key }, json: { url: 'https://10.1.2.3/x' } });
    expect(res.status).toBe(400);
    const { error } = await res.json();
    expect(error.message).toBe('/body/url names a non-public address (10.1.2.3); webhooks are sent to public addresses only on this server (its operator can allow private addresses with WEBHOOK_ALLOW_PRIVATE_URLS=true or name ranges in WEBHOOK_ALLOWED_CIDRS)');
    expect(error.details.errors[0].message).toContain('WEBHOOK_ALLOW_PRIVATE_URLS=true');
  });

  it('accepts a public https URL, and at delivery connects only to a public address (a name resolving to loopback is refused)', async () => {
    const res = await s.fetch('/v1/webhook-endpoints', { method: 'POST', headers: { 'x-api-key': key }, json: { url: 'https://hooks.example.com/docextract#frag' } });
    expect(res.status).toBe(201);
    expect((await res.json()).url).toBe('https://hooks.example.com/docextract');
    // `localhost` resolves to 127.0.0.1: the connection is refused before it is made, whatever listens there.
    const r = await receiver();
    try {
      const outcome = await sendAttempt({ url: `http://localhost:${r.port}/hooks`, eventId: 'e1', payload: '{}', secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` }, new Date(), 2_000, false);
      expect(outcome).toMatchObject({ statusCode: null, error: 'refused: localhost resolves to no address deliveries may go to' });
      expect(r.got).toHaveLength(0);
    } finally {
      await r.close();
    }
  });
});

describe('webhook URLs with private addresses allowed, or ranges named', () => {
  let open: TestServer;
  let named: TestServer;
  beforeAll(async () => {
    open = await startTestServer('embedded', { NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    named = await startTestServer('embedded', { NODE_ENV: 'production', WEBHOOK_ALLOWED_CIDRS: '10.20.0.0/16, 169.254.0.0/16' });
    for (const s of [open, named]) await s.db.prisma.account.create({ data: { id: 'acct_private', plan: 'free' } });
  });
  afterAll(async () => { await open?.close(); await named?.close(); });
  const create = async (s: TestServer, url: string) => {
    const key = (await s.createKey('acct_private')).key;
    return s.fetch('/v1/webhook-endpoints', { method: 'POST', headers: { 'x-api-key': key }, json: { url } });
  };

  it.each([
    'http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/x', 'http://metadata.google.internal/computeMetadata/v1',
    'http://100.100.100.200/latest/meta-data', 'http://[fd00:ec2::254]/x', 'http://[::ffff:169.254.169.254]/x', 'http://0.0.0.0/x',
  ])('with WEBHOOK_ALLOW_PRIVATE_URLS=true still refuses %s (400, nothing stored)', async (url) => {
    const res = await create(open, url);
    expect(res.status).toBe(400);
    expect((await res.json()).error.details.errors[0].message).toContain('never sent to link-local or cloud metadata addresses');
    expect(await open.db.prisma.webhookEndpoint.count({ where: { url: { contains: new URL(url).hostname } } })).toBe(0);
  });

  it('with WEBHOOK_ALLOW_PRIVATE_URLS=true accepts loopback and RFC 1918 addresses', async () => {
    expect((await create(open, 'http://127.0.0.1:9/x')).status).toBe(201);
    expect((await create(open, 'http://10.1.2.3/x')).status).toBe(201);
  });

  it('with WEBHOOK_ALLOWED_CIDRS accepts addresses in the ranges named only, and never a link-local one even when named', async () => {
    expect((await create(named, 'https://10.20.1.2/x')).status).toBe(201);
    expect((await create(named, 'https://10.21.1.2/x')).status).toBe(400);
    expect((await create(named, 'https://127.0.0.1/x')).status).toBe(400);
    expect((await create(named, 'https://169.254.169.254/x')).status).toBe(400);
  });

  it('a delivery to a link-local address is refused before any connection, even with private addresses allowed', async () => {
    const outcome = await sendAttempt({ url: 'http://169.254.169.254/latest/meta-data', eventId: 'e1', payload: '{}', secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` }, new Date(), 2_000, { allowPrivate: true, allowedCidrs: ['169.254.0.0/16'] });
    expect(outcome).toMatchObject({ statusCode: null, error: 'refused: 169.254.169.254 is not an address deliveries may go to' });
  });
});
