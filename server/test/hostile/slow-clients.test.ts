// Slow and oversized clients: the header size limit (431), the body size limit (413 envelope), and the headers and
// request timeouts (slowloris: headers one byte at a time; a body that never ends). The server answers or drops
// them, and meanwhile keeps serving everyone else, database routes included, with more stalled clients than it has
// database connections. No timed assertions: outcomes are counted, and waits are bounded by jest's timeout.
//
// The limits come from the same module and configuration as the service (http/server-limits.ts, HTTP_* variables),
// set short here. Embedded database only: these limits live in Node's HTTP server, before any database work.
import { connect, type Socket } from 'node:net';
import { request as httpRequest } from 'node:http';
import { startTestServer, type TestServer } from '../support/harness.js';
import { checkAgainstContract, send } from './support.js';

const HEADERS_TIMEOUT_MS = 1500;
const REQUEST_TIMEOUT_MS = 3000;
const MAX_HEADER_BYTES = 8192;
const ACCOUNT = 'acct_slow';

interface RawClient {
  socket: Socket;
  received(): string;
  closed: Promise<void>;
  isClosed(): boolean;
}

function rawClient(baseUrl: string): RawClient {
  const url = new URL(baseUrl);
  const socket = connect(Number(url.port), url.hostname);
  let data = '';
  let closed = false;
  socket.on('data', (d) => { data += d.toString('latin1'); });
  socket.on('error', () => {});
  const closedPromise = new Promise<void>((resolve) => socket.on('close', () => { closed = true; resolve(); }));
  return { socket, received: () => data, closed: closedPromise, isClosed: () => closed };
}

/** Writes `text` one byte at a time every `everyMs` until the socket closes (or `text` runs out). */
function trickle(c: RawClient, text: string, everyMs: number): void {
  let i = 0;
  const timer = setInterval(() => {
    if (c.isClosed() || i >= text.length) return clearInterval(timer);
    c.socket.write(text[i++]!);
  }, everyMs);
  c.closed.then(() => clearInterval(timer));
}

const statusOf = (raw: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
/** A raw answer's headers (lower-case names) and its JSON body. */
function answerOf(raw: string): { headers: Record<string, string>; json: any } {
  const [head, body] = [raw.slice(0, raw.indexOf('\r\n\r\n')), raw.slice(raw.indexOf('\r\n\r\n') + 4)];
  const headers = Object.fromEntries(head.split('\r\n').slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { headers, json: JSON.parse(body) };
}

describe('slow and oversized clients (embedded database)', () => {
  let s: TestServer;
  let bearer: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', {
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      HTTP_MAX_HEADER_BYTES: String(MAX_HEADER_BYTES),
    });
    bearer = `Bearer ${await s.token(ACCOUNT)}`;
    await s.fetch('/v1/account', { headers: { authorization: bearer } });
  });
  afterAll(async () => { await s.close(); });

  const keyCount = () => s.db.prisma.apiKey.count({ where: { accountId: ACCOUNT } });
  const healthy = async () => (await send(s.baseUrl, { method: 'GET', path: '/healthz' })).status;

  it('applies the configured limits to the server (the same module as main.ts)', () => {
    expect(s.config.http).toEqual({ headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: 5000, maxHeaderBytes: MAX_HEADER_BYTES, maxBodyBytesInFlight: 200 * 1024 * 1024 });
  });

  it('answers 431 to request headers over the limit and closes; a head under it is served', async () => {
    const under = await send(s.baseUrl, { method: 'GET', path: '/healthz', headers: { 'x-pad': 'a'.repeat(MAX_HEADER_BYTES - 1024) } });
    expect(under.status).toBe(200);
    // Over this server's limit but under Node's default (16 KB): only the configured limit refuses it.
    const c = rawClient(s.baseUrl);
    c.socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(MAX_HEADER_BYTES + 1024)}\r\n\r\n`);
    await c.closed;
    expect(statusOf(c.received())).toBe(431);
    // The error envelope and a request id, as every other refusal, not Node's bare status line (issue 30).
    const answer = answerOf(c.received());
    expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers.connection).toBe('close');
    expect(answer.json).toEqual({ error: { code: 'request_header_too_large', message: 'The request line and headers are over 8,192 bytes.', details: { limit: MAX_HEADER_BYTES } } });
    expect(s.logs.join('\n')).toContain(answer.headers['x-request-id']);
    // Many headers rather than one long one.
    const many = rawClient(s.baseUrl);
    many.socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 600 }, (_, i) => `X-H${i}: ${'b'.repeat(20)}\r\n`).join('')}\r\n`);
    await many.closed;
    expect(statusOf(many.received())).toBe(431);
    expect(await healthy()).toBe(200);
  });

  it('answers 413 in the error envelope to a declared body over 5 MB, before reading it, and creates nothing', async () => {
    const before = await keyCount();
    const c = rawClient(s.baseUrl);
    c.socket.write(`POST /v1/keys HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\nContent-Type: application/json\r\nContent-Length: ${6 * 1024 * 1024}\r\n\r\n{"name":"`);
    // The answer comes without the body being sent; the connection is then ended by us.
    await new Promise<void>((resolve) => {
      const check = () => (/\r\n\r\n[\s\S]*\}$/.test(c.received()) || c.isClosed() ? resolve() : setTimeout(check, 20));
      check();
    });
    c.socket.destroy();
    const raw = c.received();
    expect(statusOf(raw)).toBe(413);
    const body = JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ error: { code: 'payload_too_large', message: expect.any(String), details: { limit: 5 * 1024 * 1024 } } });
    expect(await keyCount()).toBe(before);
  });

  it('answers 413 in the error envelope to a chunked body that grows past 5 MB, and creates nothing', async () => {
    const before = await keyCount();
    const url = new URL(s.baseUrl);
    const res = await new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest({ host: url.hostname, port: url.port, method: 'POST', path: '/v1/keys', agent: false, headers: { authorization: bearer, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (r) => {
        let text = '';
        r.on('data', (d) => { text += d; });
        r.on('end', () => resolve({ status: r.statusCode ?? 0, text, headers: r.headers }));
        r.on('error', reject);
      });
      req.on('error', () => {}); // the server may close while we still write
      req.write('{"name":"');
      const chunk = 'x'.repeat(256 * 1024);
      let sent = 0;
      const pump = () => {
        while (sent < 7 * 1024 * 1024 && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!req.destroyed) req.end('"}');
      };
      pump();
    });
    expect(res.status).toBe(413);
    expect(checkAgainstContract('/v1/keys', 'POST', { ...res, json: JSON.parse(res.text), headers: res.headers as never })).toEqual([]);
    expect(JSON.parse(res.text).error.code).toBe('payload_too_large');
    expect(await keyCount()).toBe(before);
    expect(await healthy()).toBe(200);
  });

  it('drops clients that send their headers one byte at a time (slowloris), while serving others meanwhile', async () => {
    const slow = Array.from({ length: 30 }, () => rawClient(s.baseUrl));
    // A header line that never ends: at 1 byte every 100 ms the head would take minutes to reach the size limit.
    for (const c of slow) trickle(c, `GET /v1/account HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\nX-Slow: ${'s'.repeat(5000)}`, 100);
    // Everyone else is served meanwhile, database routes included.
    let servedWhileAllSlowOpen = 0;
    for (let i = 0; i < 10; i++) {
      const res = await send(s.baseUrl, { method: 'GET', path: '/v1/account', headers: { authorization: bearer } });
      expect(res.status).toBe(200);
      if (slow.every((c) => !c.isClosed())) servedWhileAllSlowOpen++;
    }
    expect(servedWhileAllSlowOpen).toBeGreaterThan(0);
    // Then each slow client is answered 408 and dropped, never served.
    await Promise.all(slow.map((c) => c.closed));
    for (const c of slow) expect(statusOf(c.received())).toBe(408);
    expect(answerOf(slow[0]!.received()).json.error.code).toBe('request_timeout');
    expect(await healthy()).toBe(200);
  }, 30_000);

  it('drops clients whose body never ends, holding no database connection meanwhile, and creates nothing', async () => {
    const before = await keyCount();
    // More stalled requests than the embedded pool has connections (4), each past authentication.
    const stalled = Array.from({ length: 12 }, () => rawClient(s.baseUrl));
    for (const c of stalled) {
      c.socket.write(`POST /v1/keys HTTP/1.1\r\nHost: x\r\nAuthorization: ${bearer}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":"st`);
      trickle(c, 'a'.repeat(900), 250);
    }
    let servedWhileAllStalledOpen = 0;
    for (let i = 0; i < 10; i++) {
      const res = await send(s.baseUrl, { method: 'GET', path: '/v1/keys?limit=1', headers: { authorization: bearer } });
      expect(res.status).toBe(200);
      if (stalled.every((c) => !c.isClosed())) servedWhileAllStalledOpen++;
    }
    expect(servedWhileAllStalledOpen).toBeGreaterThan(0);
    await Promise.all(stalled.map((c) => c.closed));
    for (const c of stalled) expect([0, 400, 408]).toContain(statusOf(c.received()));
    expect(await keyCount()).toBe(before);
    expect(await healthy()).toBe(200);
  }, 30_000);

  it('never logs the bearer token of a slow client', () => {
    expect(s.logs.join('\n')).not.toContain(bearer.slice(7));
  });
});
