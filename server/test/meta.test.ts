import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { runInNewContext } from 'node:vm';
import { gunzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from './support/harness.js';

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => { await s.close(); });

describe('health', () => {
  it('GET /healthz answers ok', async () => {
    const res = await s.fetch('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });
  it('GET /readyz reports the database up', async () => {
    const res = await s.fetch('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ready: true, database: 'up' });
  });
});

describe('the published contract', () => {
  it.each([['/openapi.json', 'application/json'], ['/openapi.yaml', 'application/yaml']])('%s is generated/ byte for byte', async (path, type) => {
    const res = await s.fetch(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    const served = Buffer.from(await res.arrayBuffer());
    expect(served.equals(readFileSync(new URL(`../../generated${path}`, import.meta.url)))).toBe(true);
  });
  /** A GET with exactly these headers (fetch would add its own Accept-Encoding and decompress), as raw bytes. */
  const raw = (path: string, headers: Record<string, string>, method = 'GET') => new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(`${s.baseUrl}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });

  // Issue 30, item 13: the contract is about 200 KB; tools fetch it often and from other origins.
  it.each(['/openapi.json', '/openapi.yaml'])('%s is gzipped when asked, cacheable with an ETag (304 on If-None-Match), and readable from any origin', async (path) => {
    const file = readFileSync(new URL(`../../generated${path}`, import.meta.url));
    const zipped = await raw(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.status).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(zipped.body).equals(file)).toBe(true);
    expect(zipped.body.length).toBeLessThan(file.length / 4);
    expect(zipped.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
    expect(zipped.headers['access-control-allow-origin']).toBe('*');
    const etag = zipped.headers.etag as string;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    const plain = await raw(path, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(file)).toBe(true);
    expect(plain.headers.etag).toBe(etag);
    const again = await raw(path, { 'if-none-match': etag, 'accept-encoding': 'gzip' });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['access-control-allow-origin']).toBe('*');
    expect((await raw(path, { 'if-none-match': 'W/"something-else"' })).status).toBe(200);
    // A browser's preflight, from another origin.
    const preflight = await raw(path, { origin: 'https://editor.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-trace' }, 'OPTIONS');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
    expect(preflight.headers['access-control-allow-headers']).toBe('x-trace');
  });

  it('gives CORS to the public contract routes only: the API and health answers stay no-store, with no CORS', async () => {
    for (const path of ['/healthz', '/v1/account', '/docs']) {
      const res = await raw(path, { origin: 'https://editor.example' });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      if (path !== '/docs') expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await raw('/v1/account', { origin: 'https://editor.example', 'access-control-request-method': 'GET' }, 'OPTIONS')).status).toBe(405);
  });

  it('/docs renders the reference from our own origin', async () => {
    const res = await s.fetch('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    const asset = await s.fetch('/docs/assets/standalone.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toContain('javascript');
    // The vendored bundle, byte for byte.
    const vendored = readFileSync(new URL('../../vendor/scalar-api-reference/standalone.js', import.meta.url));
    expect(Buffer.from(await asset.arrayBuffer()).equals(vendored)).toBe(true);
  });

  it('the vendored bundle is the one its SHA256 file records (refreshed only by scripts/vendor-scalar.mjs)', () => {
    const dir = new URL('../../vendor/scalar-api-reference/', import.meta.url);
    const recorded = readFileSync(new URL('SHA256', dir), 'utf8').split(/\s+/)[0];
    expect(createHash('sha256').update(readFileSync(new URL('standalone.js', dir))).digest('hex')).toBe(recorded);
  });

  it('the 4 MB bundle is sent gzipped to a browser that takes gzip, whole to one that does not', async () => {
    const vendored = readFileSync(new URL('../../vendor/scalar-api-reference/standalone.js', import.meta.url));
    const zipped = await fetch(`${s.baseUrl}/docs/assets/standalone.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toContain('Accept-Encoding');
    expect(Buffer.from(await zipped.arrayBuffer()).equals(vendored)).toBe(true); // fetch inflates it
    const plain = await fetch(`${s.baseUrl}/docs/assets/standalone.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-length')).toBe(String(vendored.length));
    expect(Buffer.from(await plain.arrayBuffer()).equals(vendored)).toBe(true);
  });
});

describe('routing errors', () => {
  it('an unknown route is 404 in the envelope', async () => {
    const res = await s.fetch('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String), details: null } });
  });
  it('a known path with another method is 405 with Allow', async () => {
    const res = await s.fetch('/v1/account', { method: 'PUT' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect((await res.json()).error.code).toBe('method_not_allowed');
    const post = await s.fetch('/v1/extract/invoice', { method: 'GET' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('POST');
  });
});

describe('request ids', () => {
  it('echoes a sane incoming x-request-id', async () => {
    const res = await s.fetch('/healthz', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });
  it('makes one when none (or a hostile one) is sent', async () => {
    const a = await s.fetch('/healthz');
    const b = await s.fetch('/healthz', { headers: { 'x-request-id': 'x'.repeat(500) } });
    expect(a.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(b.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
  it('logs each request as JSON with its id', async () => {
    await s.fetch('/healthz', { headers: { 'x-request-id': 'log-me-1' } });
    const line = s.logs.map((l) => JSON.parse(l)).find((l) => l.req?.id === 'log-me-1' && l.res);
    expect(line).toMatchObject({ req: { method: 'GET', path: '/healthz' }, res: { statusCode: 200 } });
  });
});

/** Every header of an answer but those that differ from one answer to the next. */
function stableHeaders(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => { if (!['date', 'x-request-id', 'connection', 'keep-alive'].includes(name)) out[name] = value; });
  return out;
}

describe('HEAD answers as GET does, without a body', () => {
  const compare = async (path: string, extra: Record<string, string> = {}) => {
    // One encoding for both (the contract routes gzip when asked; fetch would count the decompressed body).
    const headers = { 'accept-encoding': 'identity', ...extra };
    const get = await s.fetch(path, { headers });
    const getBody = Buffer.from(await get.arrayBuffer());
    const head = await s.fetch(path, { method: 'HEAD', headers });
    expect(head.status).toBe(get.status);
    expect(stableHeaders(head)).toEqual(stableHeaders(get));
    expect(head.headers.get('content-type')).toBeTruthy();
    expect(head.headers.get('content-length')).toBe(String(getBody.length));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    return head;
  };

  it.each(['/healthz', '/readyz', '/openapi.json', '/openapi.yaml'])('HEAD %s', async (path) => {
    expect((await compare(path)).status).toBe(200);
  });

  it('HEAD /v1/account and /v1/keys with a credential, and 401 without one', async () => {
    const bearer = { authorization: `Bearer ${await s.token('acct_head')}` };
    const { key } = await s.createKey('acct_head');
    await s.fetch('/v1/account', { headers: { 'x-api-key': key } }); // the key's first use is recorded before comparing
    expect((await compare('/v1/account', { 'x-api-key': key })).status).toBe(200);
    expect((await compare('/v1/account', bearer)).status).toBe(200);
    expect((await compare('/v1/keys', bearer)).status).toBe(200);
    expect((await compare('/v1/keys?limit=1', bearer)).status).toBe(200);
    expect((await compare('/v1/account')).status).toBe(401);
    expect((await compare('/v1/keys')).status).toBe(401);
    expect((await compare('/v1/account', { 'x-api-key': 'dx_live_nope' })).status).toBe(401);
  });

  it('HEAD on a contract route is refused where GET is (400 for a bad query, 405 for a POST-only path)', async () => {
    const bearer = { authorization: `Bearer ${await s.token('acct_head')}` };
    expect((await compare('/v1/keys?limit=0', bearer)).status).toBe(400);
    const head = await s.fetch('/v1/extract/invoice', { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST');
  });

  it.each(['/docs', '/docs/assets/init.js', '/dashboard', '/dashboard/keys', '/dashboard/billing', '/dashboard/assets/app.js'])('HEAD %s', async (path) => {
    expect((await compare(path)).status).toBe(200);
  });

  it('logs the request as HEAD, at info', async () => {
    await s.fetch('/healthz', { method: 'HEAD', headers: { 'x-request-id': 'head-log-1' } });
    await s.fetch('/v1/account', { method: 'HEAD', headers: { 'x-request-id': 'head-log-2' } });
    const lines = s.logs.map((l) => JSON.parse(l));
    const ok = lines.find((l) => l.req?.id === 'head-log-1' && l.res);
    expect(ok).toMatchObject({ level: 30, req: { method: 'HEAD', path: '/healthz' }, res: { statusCode: 200 } });
    const refused = lines.find((l) => l.req?.id === 'head-log-2' && l.res);
    expect(refused).toMatchObject({ level: 30, req: { method: 'HEAD', path: '/v1/account' }, res: { statusCode: 401 } });
  });
});

describe('missing static assets', () => {
  it.each(['/dashboard/assets/nope.js', '/docs/assets/nope.js', '/docs/assets/..%2fpackage.json', '/dashboard/assets/..%2f..%2fpackage.json', '/docs/assets/', '/dashboard/assets/'])('%s is 404 not_found, logged without an error', async (path) => {
    const id = `asset-${Math.random().toString(36).slice(2)}`;
    const res = await s.fetch(path, { headers: { 'x-request-id': id } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ error: { code: 'not_found', message: expect.any(String), details: null } });
    const head = await s.fetch(path, { method: 'HEAD' });
    expect(head.status).toBe(404);
    const lines = s.logs.map((l) => JSON.parse(l)).filter((l) => l.req?.id === id || l.reqId === id);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
  it('another method on an asset is 405 with Allow: GET, HEAD in the envelope', async () => {
    for (const path of ['/docs/assets/standalone.js', '/dashboard/assets/app.js']) {
      const res = await s.fetch(path, { method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD');
      expect((await res.json()).error.code).toBe('method_not_allowed');
    }
  });
});

describe('/docs', () => {
  const contract = () => JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8')) as { servers?: Array<{ url: string }> };

  /** Runs the page's init script as a browser would on a page served from `origin`; answers what Scalar was given. */
  async function runInit(origin: string, answer: () => Promise<Response> = async () => s.fetch('/openapi.json')) {
    const script = await (await s.fetch('/docs/assets/init.js')).text();
    const fetched: string[] = [];
    const given: Array<Record<string, unknown>> = [];
    const reference = { textContent: '' };
    const window: Record<string, unknown> = { location: { origin } };
    runInNewContext(script, {
      window,
      document: { getElementById: (id: string) => (id === 'reference' ? reference : null), body: {}, querySelectorAll: () => [] },
      // The placeholder hint watches the page (a browser's MutationObserver; nothing changes in this sandbox).
      MutationObserver: class { observe(): void {} },
      fetch: (url: string) => { fetched.push(url); return answer(); },
      Scalar: { createApiReference: (mount: unknown, options: Record<string, unknown>) => { given.push({ mount, ...options }); return { app: true }; } },
    });
    for (let i = 0; i < 50 && given.length === 0 && reference.textContent === ''; i++) await new Promise((r) => setTimeout(r, 10));
    return { fetched, given, reference, window };
  }

  it('"Try it out" calls the origin that served the page: it is first in the server list, the contract\'s follow', async () => {
    const origin = 'http://127.0.0.1:45678';
    const { fetched, given, window, reference } = await runInit(origin);
    expect(fetched).toEqual(['/openapi.json']);
    expect(given).toHaveLength(1);
    const options = given[0]!;
    expect(options.mount).toBe(reference);
    expect(options.url).toBeUndefined();
    const servers = (options.content as { servers: unknown[] }).servers;
    expect(servers).toEqual([{ url: origin, description: 'This server' }, ...(contract().servers ?? [])]);
    // The rest of the document is the published one.
    expect({ ...(options.content as object), servers: contract().servers }).toEqual(contract());
    expect(window.reference).toEqual({ app: true });
  });

  it('lists the serving origin once when the contract names it too', async () => {
    const listed = contract().servers ?? [];
    if (listed.length === 0) return;
    const origin = listed[0]!.url.replace(/\/+$/, '');
    const { given } = await runInit(origin);
    const servers = (given[0]!.content as { servers: Array<{ url: string }> }).servers;
    expect(servers.map((x) => x.url)).toEqual([origin, ...listed.slice(1).map((x) => x.url)]);
    expect(servers[0]).toEqual({ url: origin, description: 'This server' });
  });

  it('says so on the page when the contract cannot be read', async () => {
    const { given, reference } = await runInit('http://127.0.0.1:45678', async () => new Response('nope', { status: 503 }));
    expect(given).toEqual([]);
    expect(reference.textContent).toContain('could not be loaded');
  });

  it('is never framed, keeps its scripts to our own origin, and the published contract is left as generated', async () => {
    const res = await s.fetch('/docs');
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<script [^>]*>[^<]/); // no inline script
    expect(html).toContain('<script src="/docs/assets/init.js"></script>');
    const init = await s.fetch('/docs/assets/init.js');
    expect(init.headers.get('content-type')).toContain('application/javascript');
  });

  it('turns off what reaches other origins: the AI agent, MCP, the developer toolbar, telemetry, remote fonts', async () => {
    const { given } = await runInit('http://127.0.0.1:45678');
    expect(given[0]).toMatchObject({
      showDeveloperTools: 'never', agent: { disabled: true }, mcp: { disabled: true }, telemetry: false, withDefaultFonts: false, persistAuth: false,
    });
  });

  it('serves only the bundle the page uses, not the rest of the vendored folder', async () => {
    expect((await s.fetch('/docs/assets/standalone.js', { method: 'HEAD' })).status).toBe(200);
    for (const path of ['/docs/assets/README.md', '/docs/assets/VERSION', '/docs/assets/SHA256', '/docs/assets/swagger-ui-bundle.js']) {
      const res = await s.fetch(path);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
    }
  });
});
