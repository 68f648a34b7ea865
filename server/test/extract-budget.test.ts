// Engines held to what was reserved, and a batch held to its deadline.
import { emptyAnswer } from './support/answers.js';
import { FakeAnthropic, schemaOf } from './support/fake-anthropic.js';
import { startTestServer } from './support/harness.js';

describe('the offline engine is held to its reservation', () => {
  it('never answers a whole document as a name, and counts only the text it reads as input', async () => {
    const s = await startTestServer('embedded', { EXTRACTION_ENGINE: 'local', ANTHROPIC_API_KEY: '' });
    try {
      await s.db.prisma.account.create({ data: { id: 'acct_local_budget', plan: 'starter' } });
      const { key } = await s.createKey('acct_local_budget');
      const text = `Vendor: ${'Acme '.repeat(2000)}\nTotal: $5.00`;
      const res = await s.fetch('/v1/extract/invoice', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text } } });
      expect(res.status).toBe(200);
      const body = await res.json();
      for (const v of JSON.stringify(body.data).match(/"[^"]*"/g) ?? []) expect(v.length).toBeLessThanOrEqual(502);
      expect(body.usage.inputTokens).toBe(Math.ceil(text.length / 4));
      expect(body.usage).not.toHaveProperty('cacheReadInputTokens');
      const bucket = await s.db.prisma.usageBucket.findFirst({ where: { accountId: 'acct_local_budget' } });
      expect(bucket?.heuUsed).toBe(body.usage.heu);
    } finally {
      await s.close();
    }
  });

  it('counts the caller\'s schema as input on the custom route (the engine reads its names), at 4 characters a token', async () => {
    const s = await startTestServer('embedded', { EXTRACTION_ENGINE: 'local', ANTHROPIC_API_KEY: '' });
    try {
      await s.db.prisma.account.create({ data: { id: 'acct_local_custom_tokens', plan: 'starter' } });
      const { key } = await s.createKey('acct_local_custom_tokens');
      const text = 'Pet: Biscuit\nWeight: 12 kg';
      const schema = { type: 'object', properties: { petName: { type: 'string', description: 'The name of the pet seen' }, weightKg: { type: 'number' } } };
      const custom = await s.fetch('/v1/extract/custom', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text }, schema } });
      expect(custom.status).toBe(200);
      const body = await custom.json();
      expect(body.data).toEqual({ petName: 'Biscuit', weightKg: 12 });
      expect(body.usage.inputTokens).toBe(Math.ceil((text.length + JSON.stringify(schema).length) / 4));
      // A fixed route's schema is the engine's own code: only the document is read.
      const fixed = await s.fetch('/v1/extract/receipt', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text: 'CORNER SHOP\nTOTAL 3.00' } } });
      expect((await fixed.json()).usage.inputTokens).toBe(Math.ceil('CORNER SHOP\nTOTAL 3.00'.length / 4));
    } finally {
      await s.close();
    }
  });

  it('answers a value longer than a statement as null, never cut short', async () => {
    const s = await startTestServer('embedded', { EXTRACTION_ENGINE: 'local', ANTHROPIC_API_KEY: '' });
    try {
      await s.db.prisma.account.create({ data: { id: 'acct_local_long', plan: 'starter' } });
      const { key } = await s.createKey('acct_local_long');
      const long = `Keep ${'the premises clean and '.repeat(40)}tidy.`;
      const text = `Notes: ${long}\nOwner: Ana Lima`;
      const schema = { type: 'object', properties: { notes: { type: 'string' }, owner: { type: 'string' } } };
      const res = await s.fetch('/v1/extract/custom', { method: 'POST', headers: { 'x-api-key': key }, json: { document: { text }, schema } });
      expect(res.status).toBe(200);
      expect((await res.json()).data).toEqual({ notes: null, owner: 'Ana Lima' });
    } finally {
      await s.close();
    }
  });
});

describe('a batch has an overall deadline', () => {
  it('answers when BATCH_TIMEOUT_MS passes: unfinished items fail alone with upstream_timeout and cost nothing', async () => {
    const fake = await new FakeAnthropic().start();
    fake.fallback = (req) => ({ kind: 'answer', input: emptyAnswer(schemaOf(req)), delayMs: req.body.messages.length && JSON.stringify(req.body.messages).includes('SLOW') ? 5000 : 10 });
    const s = await startTestServer('embedded', { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_TIMEOUT_MS: '10000', BATCH_TIMEOUT_MS: '800', BATCH_CONCURRENCY: '2' });
    try {
      await s.db.prisma.account.create({ data: { id: 'acct_batch_deadline', plan: 'starter' } });
      const { key } = await s.createKey('acct_batch_deadline');
      const items = [
        { id: 'fast', kind: 'receipt', document: { text: 'TOTAL 1.00' } },
        { id: 'slow1', kind: 'receipt', document: { text: 'SLOW TOTAL 2.00' } },
        { id: 'slow2', kind: 'receipt', document: { text: 'SLOW TOTAL 3.00' } },
        { id: 'later', kind: 'receipt', document: { text: 'TOTAL 4.00' } },
      ];
      const started = Date.now();
      const res = await s.fetch('/v1/extract/batch', { method: 'POST', headers: { 'x-api-key': key }, json: { items } });
      expect(Date.now() - started).toBeLessThan(4000);
      expect(res.status).toBe(200);
      const body = await res.json();
      const outcome = Object.fromEntries(body.results.map((r: { id: string; ok: boolean; error?: { code: string } }) => [r.id, r.ok ? 'ok' : r.error!.code]));
      expect(outcome.fast).toBe('ok');
      expect(outcome.slow1).toBe('upstream_timeout');
      expect(outcome.slow2).toBe('upstream_timeout');
      const bucket = await s.db.prisma.usageBucket.findFirst({ where: { accountId: 'acct_batch_deadline' } });
      expect(bucket?.heuUsed).toBe(body.usage.heu);
      expect(await s.db.prisma.usageRecord.count({ where: { accountId: 'acct_batch_deadline', state: 'reserved' } })).toBe(0);
    } finally {
      await s.close();
      await fake.stop();
    }
  });
});
