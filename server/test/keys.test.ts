import { dbModes } from './support/databases.js';
import { startTestServer, type TestServer } from './support/harness.js';

describe.each(dbModes())('API keys (%s database)', (mode) => {
  let s: TestServer;
  let bearer: string;
  beforeAll(async () => {
    s = await startTestServer(mode);
    bearer = `Bearer ${await s.token('acct_keys')}`;
  });
  afterAll(async () => { await s.close(); });

  const create = (body: unknown, headers: Record<string, string> = {}) =>
    s.fetch('/v1/keys', { method: 'POST', headers: { authorization: bearer, ...headers }, json: body });
  const keyCount = (accountId = 'acct_keys') => s.db.prisma.apiKey.count({ where: { accountId } });

  describe('POST /v1/keys', () => {
    it('creates a key and shows the raw key once; only its hash and prefix are stored', async () => {
      const res = await create({ name: 'CI server' });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        name: 'CI server',
        prefix: body.key.slice(0, 12),
        key: expect.stringMatching(/^dx_live_[A-Za-z0-9]{43}$/),
        createdAt: expect.any(String),
        lastUsedAt: null,
        revokedAt: null,
        idempotent: false,
      });
      const row = await s.db.prisma.apiKey.findUniqueOrThrow({ where: { id: body.id } });
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(body.key);
      expect(s.logs.join('\n')).not.toContain(body.key);
    });

    it('names a key "Default key" when no name (or no body) is sent', async () => {
      const empty = await create({});
      expect(empty.status).toBe(201);
      expect((await empty.json()).name).toBe('Default key');
      const none = await s.fetch('/v1/keys', { method: 'POST', headers: { authorization: bearer } });
      expect(none.status).toBe(201);
      expect((await none.json()).name).toBe('Default key');
    });

    it('refuses a bad name with 400 invalid_request listing every problem, and creates nothing', async () => {
      const before = await keyCount();
      const res = await create({ name: 'x'.repeat(101), extra: 1 });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.details.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/body/name' })]));
      expect(await keyCount()).toBe(before);
    });

    it('refuses malformed JSON (400), another media type (415) and a body over 5 MB (413)', async () => {
      const before = await keyCount();
      const bad = await s.fetch('/v1/keys', { method: 'POST', headers: { authorization: bearer, 'content-type': 'application/json' }, body: '{"name": ' });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual({ error: { code: 'malformed_json', message: expect.any(String), details: null } });
      const text = await s.fetch('/v1/keys', { method: 'POST', headers: { authorization: bearer, 'content-type': 'text/plain' }, body: 'name=x' });
      expect(text.status).toBe(415);
      expect((await text.json()).error.code).toBe('unsupported_media_type');
      const huge = await s.fetch('/v1/keys', { method: 'POST', headers: { authorization: bearer, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'a'.repeat(6 * 1024 * 1024) }) });
      expect(huge.status).toBe(413);
      expect(await huge.json()).toEqual({ error: { code: 'payload_too_large', message: expect.any(String), details: { limit: 5 * 1024 * 1024 } } });
      expect(await keyCount()).toBe(before);
    });

    it('replays an idempotent creation without the raw key, and refuses the same key with another body', async () => {
      const first = await create({ name: 'idem' }, { 'x-idempotency-key': 'idem-1' });
      expect(first.status).toBe(201);
      const created = await first.json();
      const again = await create({ name: 'idem' }, { 'x-idempotency-key': 'idem-1' });
      expect(again.status).toBe(200);
      const replay = await again.json();
      expect(replay).toEqual({ ...created, key: undefined, idempotent: true });
      expect('key' in replay).toBe(false);
      const other = await create({ name: 'different' }, { 'x-idempotency-key': 'idem-1' });
      expect(other.status).toBe(409);
      expect((await other.json()).error.code).toBe('idempotency_key_reused');
      expect(await s.db.prisma.apiKey.count({ where: { name: { in: ['idem', 'different'] } } })).toBe(1);
    });

    it('creates exactly one key when concurrent twins race', async () => {
      const before = await keyCount();
      const answers = await Promise.all(Array.from({ length: 12 }, () => create({ name: 'twins' }, { 'x-idempotency-key': 'race-1' })));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses.filter((x) => x === 201)).toHaveLength(1);
      expect(statuses.filter((x) => x === 200)).toHaveLength(11);
      const ids = new Set(await Promise.all(answers.map(async (r) => (await r.json()).id)));
      expect(ids.size).toBe(1);
      expect(await keyCount()).toBe(before + 1);
    });

    it('forgets an idempotency key after 24 hours', async () => {
      const first = await create({ name: 'day' }, { 'x-idempotency-key': 'day-1' });
      expect(first.status).toBe(201);
      s.clock.advance(24 * 3600 * 1000 + 1000);
      const later = await create({ name: 'day' }, { 'x-idempotency-key': 'day-1' });
      expect(later.status).toBe(201);
      expect((await later.json()).id).not.toBe((await first.json()).id);
    });

    it('scopes idempotency keys to the account', async () => {
      await create({ name: 'scoped' }, { 'x-idempotency-key': 'shared-key' });
      const other = await s.fetch('/v1/keys', { method: 'POST', headers: { authorization: `Bearer ${await s.token('acct_other_idem')}`, 'x-idempotency-key': 'shared-key' }, json: { name: 'scoped' } });
      expect(other.status).toBe(201);
    });

    it('refuses an idempotency key over 255 characters', async () => {
      const res = await create({ name: 'long' }, { 'x-idempotency-key': 'k'.repeat(256) });
      expect(res.status).toBe(400);
      expect((await res.json()).error.details.errors[0].path).toMatch(/x-idempotency-key/);
    });
  });

  describe('GET /v1/keys', () => {
    it('lists newest first, revoked included, page by page', async () => {
      const account = 'acct_list';
      const auth = { authorization: `Bearer ${await s.token(account)}` };
      const made: string[] = [];
      for (let i = 0; i < 5; i++) made.push((await s.createKey(account, `k${i}`)).id);
      await s.fetch(`/v1/keys/${made[1]}`, { method: 'DELETE', headers: auth });
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: Response = await s.fetch(`/v1/keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { headers: auth });
        expect(res.status).toBe(200);
        const page = await res.json();
        expect(page.keys.length).toBeLessThanOrEqual(2);
        seen.push(...page.keys.map((k: { id: string }) => k.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...made].reverse());
      const all = await (await s.fetch('/v1/keys', { headers: auth })).json();
      expect(all.nextCursor).toBeNull();
      expect(all.keys.find((k: { id: string }) => k.id === made[1]).revokedAt).not.toBeNull();
    });

    it('accepts an API key as well as a bearer token', async () => {
      const { key } = await s.createKey('acct_list_key');
      const res = await s.fetch('/v1/keys', { headers: { 'x-api-key': key } });
      expect(res.status).toBe(200);
      expect((await res.json()).keys).toHaveLength(1);
    });

    it.each([['0'], ['101'], ['abc']])('refuses limit=%s with 400', async (limit) => {
      const res = await s.fetch(`/v1/keys?limit=${limit}`, { headers: { authorization: bearer } });
      expect(res.status).toBe(400);
      expect((await res.json()).error.details.errors[0].path).toMatch(/limit/);
    });
  });

  describe('DELETE /v1/keys/{id}', () => {
    it('revokes at once; revoking again answers the same record', async () => {
      const { key, id } = await s.createKey('acct_revoke');
      const auth = { authorization: `Bearer ${await s.token('acct_revoke')}` };
      expect((await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).status).toBe(200);
      const first = await s.fetch(`/v1/keys/${id}`, { method: 'DELETE', headers: auth });
      expect(first.status).toBe(200);
      const record = await first.json();
      expect(record.revokedAt).toEqual(expect.any(String));
      expect(record).not.toHaveProperty('key');
      const second = await s.fetch(`/v1/keys/${id}`, { method: 'DELETE', headers: auth });
      expect(await second.json()).toEqual(record);
      const used = await s.fetch('/v1/account', { headers: { 'x-api-key': key } });
      expect(used.status).toBe(401);
      expect(await used.json()).toEqual({ error: 'invalid_api_key' });
    });

    it("answers 404 for an unknown id and for another account's key, which stays active", async () => {
      const { key, id } = await s.createKey('acct_victim');
      const attacker = { authorization: `Bearer ${await s.token('acct_attacker')}` };
      const res = await s.fetch(`/v1/keys/${id}`, { method: 'DELETE', headers: attacker });
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('not_found');
      expect((await s.fetch('/v1/keys/0193a6f2-0000-7000-8000-0000000000aa', { method: 'DELETE', headers: attacker })).status).toBe(404);
      const malformed = await s.fetch('/v1/keys/key_nope', { method: 'DELETE', headers: attacker });
      expect(malformed.status).toBe(400);
      expect((await malformed.json()).error.code).toBe('invalid_request');
      expect((await s.fetch('/v1/account', { headers: { 'x-api-key': key } })).status).toBe(200);
      const listed = await (await s.fetch('/v1/keys', { headers: attacker })).json();
      expect(listed.keys.map((k: { id: string }) => k.id)).not.toContain(id);
    });

    it('needs a bearer token: an API key cannot revoke', async () => {
      const { key, id } = await s.createKey('acct_self');
      const res = await s.fetch(`/v1/keys/${id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('unauthorized');
      expect((await s.db.prisma.apiKey.findUniqueOrThrow({ where: { id } })).revokedAt).toBeNull();
    });
  });
});
