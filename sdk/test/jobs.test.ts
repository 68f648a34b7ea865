// The SDK's jobs and webhooks against the real service: create, wait (polling, or returning as soon as the caller's
import { jest } from '@jest/globals';
// webhook handler hands the event over), list, cancel; verifyWebhook as a receiver uses it; and the CLI sending a
// folder as jobs with a progress bar per document.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DocExtract, DocExtractError, verifyWebhook, WebhookVerificationError, type JobOf } from '@docextract/sdk';
import { startTestServer, type TestServer } from '../../server/test/support/harness.js';
import { cli } from './run-cli.js';
import { readFileSync } from 'node:fs';
import { jobs as jobsExample } from '../examples/jobs.js';

const INVOICE = 'ACME LLC\nInvoice No: INV-7\nTotal due: $4,500.00';

describe('SDK jobs and webhooks', () => {
  let s: TestServer;
  let client: DocExtract;
  let hook: { server: Server; url: string; events: unknown[]; secret?: string };
  beforeAll(async () => {
    s = await startTestServer('embedded', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', JOB_POLL_INTERVAL_MS: '100' }, undefined, { worker: true });
    await s.db.prisma.account.create({ data: { id: 'acct_sdk_jobs', plan: 'starter' } });
    client = new DocExtract({ baseUrl: s.baseUrl, apiKey: (await s.createKey('acct_sdk_jobs')).key });
    // The caller's webhook handler: verify the raw body, then hand the event to the client's waits.
    hook = { server: undefined as unknown as Server, url: '', events: [] };
    hook.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const event = verifyWebhook(Buffer.concat(chunks), req.headers, hook.secret!);
          hook.events.push(event);
          client.jobs.notify(event);
          res.writeHead(204).end();
        } catch {
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((r) => hook.server.listen(0, '127.0.0.1', () => r()));
    hook.url = `http://127.0.0.1:${(hook.server.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    hook.server.closeAllConnections();
    await new Promise<void>((r) => hook.server.close(() => r()));
    await s.close();
  });

  it('creates a job and waits for its result, typed as the route\'s answer and equal to the synchronous call', async () => {
    const job = await client.jobs.create({ route: 'invoice', document: INVOICE, metadata: { orderId: 'PO-9' } });
    expect(job).toMatchObject({ status: 'queued', route: 'invoice', metadata: { orderId: 'PO-9' } });
    const done: JobOf<'invoice'> = await client.jobs.wait<'invoice'>(job.id, { pollIntervalMs: 50 });
    const invoiceNumber: string | null | undefined = done.result?.data.invoiceNumber;
    expect(invoiceNumber).toBe('INV-7');
    expect(done.result).toEqual(await client.extract.invoice(INVOICE));
    const { jobs } = await client.jobs.list({ route: 'invoice', limit: 5 });
    expect(jobs[0]!.id).toBe(job.id);
    const all: string[] = [];
    for await (const j of client.jobs.listAll({ status: 'succeeded' }, 1)) all.push(j.id);
    expect(all).toContain(job.id);
  });

  it('returns from wait as soon as the webhook handler passes the event on, without waiting for the next poll', async () => {
    const endpoint = await client.webhookEndpoints.create({ url: hook.url, events: ['job.succeeded'] });
    hook.secret = endpoint.secret;
    try {
      const job = await client.jobs.create({ route: 'invoice', document: INVOICE });
      const started = Date.now();
      // A first look, then the next poll only a minute later: only the event can end the wait before that.
      const done = await client.jobs.wait(job.id, { pollIntervalMs: 60_000, timeoutMs: 30_000 });
      expect(done.status).toBe('succeeded');
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(hook.events.some((e) => (e as { data: { job: { id: string } } }).data.job.id === job.id)).toBe(true);
      const deliveries = await client.webhookEndpoints.deliveries(endpoint.id);
      expect(deliveries.deliveries[0]).toMatchObject({ jobId: expect.any(String), status: 'succeeded' });
    } finally {
      await client.webhookEndpoints.delete(endpoint.id);
    }
  });

  it('verifyWebhook takes Fetch Headers or Node headers, and throws on a wrong secret or a changed body', async () => {
    const endpoint = await client.webhookEndpoints.create({ url: hook.url });
    hook.secret = endpoint.secret;
    try {
      const before = hook.events.length;
      const job = await client.jobs.create({ route: 'invoice', document: INVOICE });
      await client.jobs.wait(job.id, { pollIntervalMs: 100 });
      for (let i = 0; i < 100 && hook.events.length === before; i++) await new Promise((r) => setTimeout(r, 50));
      const delivery = (await client.webhookEndpoints.deliveries(endpoint.id)).deliveries[0]!;
      const body = JSON.stringify(delivery.event);
      // Signed again here as the service signs (id.timestamp.body), to replay the request the receiver saw.
      const { Webhook } = await import('standardwebhooks');
      const at = new Date();
      const signature = new Webhook(endpoint.secret).sign(delivery.eventId, at, body);
      const headers = { 'webhook-id': delivery.eventId, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
      expect(verifyWebhook(body, new Headers(headers), endpoint.secret)).toEqual(delivery.event);
      expect(verifyWebhook(new TextEncoder().encode(body), headers, endpoint.secret).type).toBe('job.succeeded');
      expect(() => verifyWebhook(body, headers, `whsec_${Buffer.alloc(32, 9).toString('base64')}`)).toThrow(WebhookVerificationError);
      expect(() => verifyWebhook(body.replace('succeeded', 'failed'), headers, endpoint.secret)).toThrow(WebhookVerificationError);
    } finally {
      await client.webhookEndpoints.delete(endpoint.id);
    }
  });

  it('rotates a secret (the receiver verifies with either during the overlap), redelivers an event and enables an endpoint', async () => {
    const endpoint = await client.webhookEndpoints.create({ url: hook.url });
    const deliveriesOf = async (status: 'succeeded', n: number) => {
      for (let i = 0; i < 200; i++) {
        const { deliveries } = await client.webhookEndpoints.deliveries(endpoint.id, { status });
        if (deliveries.length >= n) return deliveries;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`fewer than ${n} deliveries ${status}`);
    };
    try {
      const rotated = await client.webhookEndpoints.rotateSecret(endpoint.id, { overlapSeconds: 600 });
      expect(rotated).toMatchObject({ id: endpoint.id, disabledAt: null, previousSecretExpiresAt: expect.any(String) });
      expect(rotated.secret).not.toBe(endpoint.secret);
      // The receiver still holds the previous secret: it verifies (204), so the delivery succeeds.
      hook.secret = endpoint.secret;
      const job = await client.jobs.create({ route: 'invoice', document: INVOICE });
      await client.jobs.wait(job.id, { pollIntervalMs: 100 });
      const [first] = await deliveriesOf('succeeded', 1);
      // Now holding the new one, it verifies the same event sent again (the same webhook-id).
      hook.secret = rotated.secret;
      const again = await client.webhookEndpoints.redeliver(endpoint.id, first!.id);
      expect(again).toMatchObject({ eventId: first!.eventId, jobId: job.id, status: 'pending', attempts: [] });
      const both = await deliveriesOf('succeeded', 2);
      expect(both.map((d) => d.eventId)).toEqual([first!.eventId, first!.eventId]);
      await s.db.prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { disabledAt: new Date() } });
      await expect(client.webhookEndpoints.redeliver(endpoint.id, first!.id)).rejects.toMatchObject({ status: 409, code: 'webhook_endpoint_disabled' });
      expect(await client.webhookEndpoints.enable(endpoint.id)).toMatchObject({ id: endpoint.id, disabledAt: null });
      await expect(client.webhookEndpoints.enable('0193a6f4-0000-7000-8000-000000000000')).rejects.toMatchObject({ status: 404, code: 'not_found' });
    } finally {
      await client.webhookEndpoints.delete(endpoint.id);
    }
  });

  it('cancels a queued job; cancelling a finished one throws job_not_cancellable', async () => {
    await s.jobs.stopWorkers(1_000);
    const job = await client.jobs.create({ route: 'receipt', document: 'CORNER SHOP\nTOTAL 3.00\nCASH' });
    // Nothing runs it: the wait ends at its deadline.
    const late = await client.jobs.wait(job.id, { pollIntervalMs: 50, timeoutMs: 400 }).catch((e: unknown) => e);
    expect(late).toBeInstanceOf(DocExtractError);
    expect(late).toMatchObject({ code: 'timeout' });
    expect((await client.jobs.cancel(job.id)).status).toBe('cancelled');
    expect((await client.jobs.wait(job.id)).status).toBe('cancelled');
    await s.jobs.start({ worker: true });
    const done = await client.jobs.wait((await client.jobs.create({ route: 'receipt', document: 'CORNER SHOP\nTOTAL 3.00\nCASH' })).id, { pollIntervalMs: 50 });
    await expect(client.jobs.cancel(done.id)).rejects.toMatchObject({ status: 409, code: 'job_not_cancellable' });
  });

  it("runs the README's jobs example, which is the example file verbatim", async () => {
    const root = new URL('../..', import.meta.url).pathname;
    expect(readFileSync(join(root, 'sdk/README.md'), 'utf8')).toContain(readFileSync(join(root, 'sdk/examples/jobs.ts'), 'utf8').trimEnd());
    const receiver = createServer();
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    const log = jest.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await s.db.prisma.account.create({ data: { id: 'acct_sdk_jobs_example', plan: 'starter' } });
      const key = (await s.createKey('acct_sdk_jobs_example')).key;
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      expect(await jobsExample(s.baseUrl, key, url, receiver)).toBe('succeeded 2');
      expect(log.mock.calls.map((c) => c.join(' '))).toEqual(['succeeded INV-7 1', '3 4.5']);
    } finally {
      log.mockRestore();
      receiver.closeAllConnections();
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });

  it('docextract jobs <folder> sends every file as a job and follows each to its end, a bar per document', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'cli-jobs-')), 'inbox');
    mkdirSync(folder);
    writeFileSync(join(folder, 'a.txt'), 'CORNER SHOP\nTOTAL 3.00\nCASH');
    writeFileSync(join(folder, 'b.txt'), 'BLUE DOOR CAFE\nTOTAL 4.50\nVISA');
    writeFileSync(join(folder, 'c.md'), '# Receipt\n\nTOTAL 9.00');
    writeFileSync(join(folder, 'notes.xls'), 'not sent');
    await s.db.prisma.account.create({ data: { id: 'acct_cli_jobs', plan: 'starter' } });
    const env = { DOCEXTRACT_API_KEY: (await s.createKey('acct_cli_jobs')).key, DOCEXTRACT_BASE_URL: s.baseUrl, DOCEXTRACT_POLL_MS: '100' };
    const r = await cli(['jobs', folder, '--kind', 'receipt'], env);
    expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.file).sort()).toEqual(['a.txt', 'b.txt', 'c.md']);
    expect(lines.every((l) => l.ok && l.jobId && l.data && l.usage.heu >= 1)).toBe(true);
    expect(lines.find((l) => l.file === 'a.txt').data.total).toBe(3);
    for (const name of ['a.txt', 'b.txt', 'c.md']) {
      expect(r.stderr).toContain(`[#--] ${name}`);
      expect(r.stderr).toMatch(new RegExp(`\\[###\\] ${name.replace('.', '\\.')}\\s+succeeded`));
    }
    expect(r.stderr).toContain('[##############################] 3/3 documents');
    expect(r.stderr).toContain('skipping 1 file of another type (notes.xls)');
    expect(r.stderr).toMatch(/files\s+3\nok\s+3\nfailed\s+0\nHEU\s+3/);
    const usage = await cli(['jobs', folder], env);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('jobs needs exactly one of --kind or --schema');
  });
});
