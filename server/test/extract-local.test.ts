import { startTestServer, type TestServer } from './support/harness.js';
import { dataSchemaFor, FIXED_KINDS } from '../src/extraction/schemas/contract-schemas.js';

describe('extraction on the offline engine', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded');
    await s.db.prisma.account.create({ data: { id: 'acct_local', plan: 'starter' } });
    key = (await s.createKey('acct_local')).key;
  });
  afterAll(async () => { await s.close(); });

  const extract = (route: string, body: unknown, headers: Record<string, string> = { 'x-api-key': key }) =>
    s.fetch(`/v1/extract/${route}`, { method: 'POST', headers, json: body });

  it.each(FIXED_KINDS)('%s answers every documented field, as local-rules-1, with usage and rate-limit headers', async (kind) => {
    const res = await extract(kind, { document: { text: 'Some document text\nTotal: $12.00\nDate: 2026-03-01' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.model).toBe('local-rules-1');
    expect(Object.keys(body.data).sort()).toEqual(Object.keys(dataSchemaFor(kind).properties as object).sort());
    expect(body.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: expect.any(Number), heu: expect.any(Number) });
    expect(body.usage.heu).toBe(Math.max(1, Math.ceil((body.usage.inputTokens + body.usage.outputTokens) / 1000)));
    for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(res.headers.get(h)).toMatch(/^\d+$/);
  });

  it('custom answers every property of the schema, null when not found', async () => {
    const schema = { type: 'object', properties: { venue: { type: 'string' }, capacity: { type: 'integer' }, talks: { type: 'array', items: { type: 'string' } } } };
    const res = await extract('custom', { document: { text: 'Nothing relevant here.' }, schema });
    expect(res.status).toBe(200);
    expect(Object.keys((await res.json()).data).sort()).toEqual(['capacity', 'talks', 'venue']);
  });

  it.each([
    ['a root that is not an object', { type: 'array' }],
    ['a remote $ref', { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } }],
    ['an unknown format', { type: 'object', properties: { a: { type: 'string', format: 'social-security' } } }],
    ['a pattern RE2 cannot match in linear time (a backreference)', { type: 'object', properties: { a: { type: 'string', pattern: '^(a+)\\1$' } } }],
    ['a pattern that is not a regular expression', { type: 'object', properties: { a: { type: 'string', pattern: '([' } } }],
    ['too many properties', { type: 'object', properties: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, { type: 'string' }])) }],
    ['too deep', { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'object', properties: { c: { type: 'object', properties: { d: { type: 'object', properties: { e: { type: 'object', properties: { f: { type: 'object', properties: { g: { type: 'string' } } } } } } } } } } } } } } }],
  ])('refuses %s with 400 invalid_schema', async (_label, schema) => {
    const res = await extract('custom', { document: { text: 'x' }, schema });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toMatch(/invalid_schema|invalid_request/);
  });

  it('refuses document text over 200,000 characters with 413 and the limit', async () => {
    const res = await extract('invoice', { document: { text: 'a'.repeat(200_001) } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: { code: 'payload_too_large', message: expect.any(String), details: { limit: 200000 } } });
  });

  it('refuses an empty text and a missing document with 400', async () => {
    expect((await extract('invoice', { document: { text: '' } })).status).toBe(400);
    const res = await extract('invoice', {});
    expect(res.status).toBe(400);
    expect((await res.json()).error.details.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: expect.stringContaining('document') })]));
  });

  it('refuses a bearer token on extraction routes', async () => {
    const res = await extract('invoice', { document: { text: 'x' } }, { authorization: `Bearer ${await s.token('acct_local')}` });
    expect(res.status).toBe(401);
  });

  describe('batch', () => {
    it('reports a bad item alone, in request order, and charges only the good ones', async () => {
      const res = await extract('batch', {
        items: [
          { id: 'a', document: { text: 'Receipt\nTOTAL 3.00' }, kind: 'receipt' },
          { id: 'b', document: { text: 'x' }, schema: { type: 'object', properties: { a: { type: 'strng' } } } },
          { id: 'c', document: { text: 'Event' }, schema: { type: 'object', properties: { venue: { type: 'string' } } } },
        ],
      });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.results.map((i: { id: string; ok: boolean }) => [i.id, i.ok])).toEqual([['a', true], ['b', false], ['c', true]]);
      expect(body.results[1].error.code).toBe('invalid_schema');
      expect(body.usage.heu).toBe(body.results[0].usage.heu + body.results[2].usage.heu);
    });

    it('refuses duplicate ids, an empty batch and more than 20 items with 400 for the call', async () => {
      const item = (id: string) => ({ id, document: { text: 'x' }, kind: 'receipt' });
      const dup = await extract('batch', { items: [item('a'), item('a')] });
      expect(dup.status).toBe(400);
      expect((await dup.json()).error.details.errors[0].path).toBe('/body/items/1/id');
      expect((await extract('batch', { items: [] })).status).toBe(400);
      expect((await extract('batch', { items: Array.from({ length: 21 }, (_, i) => item(`i${i}`)) })).status).toBe(400);
    });

    // A batch names one model for all its items; a model on an item was silently ignored (the item ran on the batch's).
    it('refuses a model named on an item with 400 naming /body/items/N/model, running and charging nothing', async () => {
      const before = await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_local' } });
      const res = await extract('batch', {
        model: 'local-rules-1',
        items: [
          { id: 'a', document: { text: 'Receipt\nTOTAL 3.00' }, kind: 'receipt' },
          { id: 'b', document: { text: 'Receipt\nTOTAL 4.00' }, kind: 'receipt', model: 'claude-opus-5-1' },
          { id: 'c', document: { text: 'Event' }, schema: { type: 'object', properties: { venue: { type: 'string' } } }, model: 'local-rules-1' },
        ],
      });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.details.errors.map((e: { path: string }) => e.path)).toEqual(['/body/items/1/model', '/body/items/2/model']);
      expect(body.error.message).toContain('a batch names one model for all its items');
      expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_local' } })).toBe(before);
      // The batch's own model is taken as before.
      const ok = await extract('batch', { model: 'local-rules-1', items: [{ id: 'a', document: { text: 'Receipt\nTOTAL 3.00' }, kind: 'receipt' }] });
      expect(ok.status).toBe(200);
      expect((await ok.json()).results[0].model).toBe('local-rules-1');
    });

    it('refuses an item with neither kind nor schema', async () => {
      expect((await extract('batch', { items: [{ id: 'a', document: { text: 'x' } }] })).status).toBe(400);
    });
  });
});
