import { readFileSync } from 'node:fs';
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
  it('/docs renders the reference from our own origin', async () => {
    const res = await s.fetch('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    const asset = await s.fetch('/docs/assets/swagger-ui-bundle.js');
    expect(asset.status).toBe(200);
    expect((await asset.text()).length).toBeGreaterThan(100_000);
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
