// A small Stripe API on 127.0.0.1 for tests: customers and checkout sessions, form-encoded like the real one, with
// Idempotency-Key replay. It records every request. It answers only what these tests need.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

export class FakeStripe {
  readonly requests: StripeRequest[] = [];
  readonly customers = new Map<string, Record<string, unknown>>();
  readonly sessions = new Map<string, Record<string, unknown>>();
  private replies = new Map<string, string>();
  private server!: Server;
  private seq = 0;
  private failures = 0;
  url = '';

  /** The next `count` requests answer 500 with Stripe's error body (https://docs.stripe.com/api/errors). */
  failNext(count: number): void {
    this.failures = count;
  }

  async start(): Promise<this> {
    this.server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const path = (req.url ?? '').split('?')[0]!;
      this.requests.push({ method: req.method ?? '', path, headers: req.headers, form });
      const idem = req.headers['idempotency-key'];
      const cacheKey = typeof idem === 'string' ? `${req.method} ${path} ${idem}` : null;
      if (cacheKey && this.replies.has(cacheKey)) {
        res.writeHead(200, { 'content-type': 'application/json', 'idempotent-replayed': 'true' }).end(this.replies.get(cacheKey));
        return;
      }
      let status = 200;
      let body: unknown;
      if (this.failures > 0) {
        this.failures--;
        res.writeHead(500, { 'content-type': 'application/json', 'request-id': `req_fail${this.failures}` })
          .end(JSON.stringify({ error: { type: 'api_error', message: 'An unknown error occurred.' } }));
        return;
      }
      if (req.method === 'POST' && path === '/v1/customers') {
        const id = `cus_fake${++this.seq}`;
        body = { id, object: 'customer', metadata: { accountId: form.get('metadata[accountId]') } };
        this.customers.set(id, body as Record<string, unknown>);
      } else if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_fake${++this.seq}`;
        body = { id, object: 'checkout.session', mode: form.get('mode'), customer: form.get('customer'), client_reference_id: form.get('client_reference_id'), url: `https://checkout.stripe.com/c/pay/${id}` };
        this.sessions.set(id, body as Record<string, unknown>);
      } else {
        status = 404;
        body = { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } };
      }
      const text = JSON.stringify(body);
      if (cacheKey && status === 200) this.replies.set(cacheKey, text);
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${this.seq}` }).end(text);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
