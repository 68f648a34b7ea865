// Hostile custom JSON Schemas on POST /v1/extract/custom (and inside a batch): each is refused with 400
// invalid_schema and a clear message, before anything is charged, or runs safely. The accepted keywords are listed
// in docs/extraction.md ("Custom schemas: accepted keywords") and in custom-schema.ts (ACCEPTED_KEYWORDS).
//
// Runs on the embedded database only: every check here happens before or after the database's one metering
// statement, which the property suite and metering.test.ts already run on PostgreSQL too.
import { startTestServer, type TestServer } from '../support/harness.js';
import { ACCEPTED_KEYWORDS } from '../../src/extraction/schemas/custom-schema.js';
import { checkAgainstContract, dbFingerprint, roomyPlansFile, send, type Json } from './support.js';

const ACCOUNT = 'acct_schemas';
const obj = (properties: Json, extra: Json = {}) => ({ type: 'object', properties, ...extra });
const str = (extra: Json) => obj({ code: { type: 'string', ...extra } });
// The offline engine reads `Code: aaaa…!` as the value of `code`, so a pattern on it really runs.
const DOCUMENT = `Code: ${'a'.repeat(40)}!\nTotal: 3`;

const refused: Array<[string, Json, RegExp]> = [
  // What RE2 cannot match in linear time
  ['a backreference', str({ pattern: '^(a*)\\1$' }), /linear time[\s\S]*backreferences and lookarounds are not accepted/],
  ['a lookahead', str({ pattern: '^(?=a)a+$' }), /linear time[\s\S]*backreferences and lookarounds are not accepted/],
  ['a pattern over 200 characters', str({ pattern: `^${'a'.repeat(201)}$` }), /longer than 200/],
  ['a pattern that is not a regular expression', str({ pattern: '([' }), /not a valid regular expression/],
  ['a catastrophic pattern hidden in propertyNames', obj({ code: { type: 'string' } }, { propertyNames: { pattern: '^(a+)+$' } }), /propertyNames is not an accepted keyword/],
  ['a catastrophic pattern hidden in patternProperties', obj({ code: { type: 'string' } }, { patternProperties: { '^(a+)+$': { type: 'string' } } }), /patternProperties is not an accepted keyword/],
  ['a catastrophic pattern hidden under if', obj({ code: { type: 'string', if: { pattern: '^(a+)+$' }, then: {} } }), /if is not an accepted keyword/],
  ['a catastrophic pattern hidden under contains', obj({ list: { type: 'array', contains: { pattern: '^(a+)+$' } } }), /contains is not an accepted keyword/],
  // size
  ['a huge enum (over 32 KB)', str({ enum: Array.from({ length: 5000 }, (_, i) => `value-${i}`) }), /bytes; at most 32768/],
  ['a giant minItems', obj({ list: { type: 'array', minItems: 1e15 } }), /minItems is 1000000000000000; at most 1000/],
  ['a giant minLength', str({ minLength: 1e12 }), /minLength is .*at most 200000/],
  ['a giant maxLength', str({ maxLength: 1e300 }), /maxLength is .*at most 200000/],
  ['a fractional minItems', obj({ list: { type: 'array', minItems: 1.5 } }), /minItems|integer/],
  ['too many properties', obj(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, { type: 'string' }]))), /101 properties; at most 100/],
  ['deeply nested allOf', obj({ code: { allOf: [{ allOf: [{ allOf: [{ allOf: [{ allOf: [{ allOf: [{ allOf: [{ type: 'string' }] }] }] }] }] }] }] } }), /nests deeper than 6 levels/],
  ['deeply nested anyOf', obj({ code: { anyOf: [{ anyOf: [{ anyOf: [{ anyOf: [{ anyOf: [{ anyOf: [{ anyOf: [{ type: 'string' }] }] }] }] }] }] }] } }), /nests deeper than 6 levels/],
  // references
  ['a recursive $ref to the root', obj({ child: { $ref: '#' } }), /recursive/],
  ['a recursive $ref through $defs', obj({ node: { $ref: '#/$defs/n' } }, { $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } } } } }), /recursive/],
  ['a $ref cycle through two definitions', obj({ node: { $ref: '#/$defs/a' } }, { $defs: { a: { $ref: '#/$defs/b' }, b: { type: 'object', properties: { x: { $ref: '#/$defs/a' } } } } }), /recursive/],
  ['a $ref to itself', obj({ node: { $ref: '#/$defs/n' } }, { $defs: { n: { $ref: '#/$defs/n' } } }), /recursive/],
  ['a $ref to nothing', obj({ node: { $ref: '#/$defs/missing' } }), /points to nothing/],
  ['a remote http: $ref', obj({ node: { $ref: 'http://127.0.0.1:9/schema.json' } }), /only point inside the schema/],
  ['a file: $ref', obj({ node: { $ref: 'file:///etc/passwd' } }), /only point inside the schema/],
  ['a relative $ref', obj({ node: { $ref: 'other.json#/x' } }), /only point inside the schema/],
  ['$dynamicRef', obj({ node: { $dynamicRef: '#meta' } }), /\$dynamicRef is not an accepted keyword/],
  ['$dynamicRef hidden in dependentSchemas', obj({ code: { type: 'string' } }, { dependentSchemas: { code: { $dynamicRef: '#x' } } }), /dependentSchemas is not an accepted keyword/],
  ['$anchor', obj({ node: { $anchor: 'here', type: 'string' } }), /\$anchor is not an accepted keyword/],
  ['$schema of another draft', obj({ code: { type: 'string' } }, { $schema: 'http://json-schema.org/draft-04/schema#' }), /\/\$schema names a dialect the service does not read.*draft-04.*accepted: https:\/\/json-schema.org\/draft\/2020-12\/schema/],
  ['$schema naming a meta-schema of its own', obj({ code: { type: 'string' } }, { $schema: 'https://example.com/my-meta' }), /names a dialect the service does not read/],
  // other
  ['an unknown format', str({ format: 'credit-card' }), /unknown format/],
  ['an unknown keyword', str({ colour: 'red' }), /colour is not an accepted keyword/],
  ['a property named __proto__ (the answer could not hold it)', JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"code":{"type":"string"}}}'), /__proto__ is a reserved name/],
  ['a property named constructor', obj({ constructor: { type: 'string' } }), /constructor is a reserved name/],
  ['a property named toString', obj({ toString: { type: 'string' } }), /toString is a reserved name/],
  ['a property schema that is not a schema', obj({ code: 42 }), /must be a schema/],
];

describe('hostile custom schemas (embedded database)', () => {
  let s: TestServer;
  let key: string;
  beforeAll(async () => {
    s = await startTestServer('embedded', { PLANS_FILE: roomyPlansFile() });
    key = (await s.createKey(ACCOUNT)).key;
    await s.fetch('/v1/account', { headers: { 'x-api-key': key } });
  });
  afterAll(async () => { await s.close(); });

  // Nothing withheld (minConfidence 0): these cases are about the schema, not about how sure a value is.
  const extract = (path: string, body: Json) => send(s.baseUrl, { method: 'POST', path, headers: { 'content-type': 'application/json', 'x-api-key': key }, body: JSON.stringify({ minConfidence: 0, ...(body as object) }) });

  it.each(refused)('refuses %s with 400 invalid_schema, a clear message, and no charge', async (_label, schema, message) => {
    const before = await dbFingerprint(s);
    const res = await extract('/v1/extract/custom', { document: { text: DOCUMENT }, schema });
    expect(res.status).toBe(400);
    expect(checkAgainstContract('/v1/extract/custom', 'POST', res)).toEqual([]);
    expect(res.json.error.code).toBe('invalid_schema');
    expect(res.json.error.message).toMatch(message);
    expect(res.json.error.details.errors.length).toBeGreaterThan(0);
    expect(await dbFingerprint(s)).toEqual(before);
  });

  it('refuses the same schemas inside a batch item by item, charging only the good item', async () => {
    const items = refused.slice(0, 6).map(([, schema], i) => ({ id: `bad${i}`, document: { text: DOCUMENT }, schema }));
    items.push({ id: 'good', document: { text: DOCUMENT }, schema: str({}) });
    const res = await extract('/v1/extract/batch', { items });
    expect(res.status).toBe(200);
    expect(checkAgainstContract('/v1/extract/batch', 'POST', res)).toEqual([]);
    for (const item of res.json.results.slice(0, 6)) expect(item).toMatchObject({ ok: false, error: { code: 'invalid_schema' } });
    expect(res.json.results[6]).toMatchObject({ ok: true, data: { code: `${'a'.repeat(40)}!` } });
    expect(res.json.usage.heu).toBe(res.json.results[6].usage.heu);
  });

  it.each([
    ['nested repetition', '^(a+)+$'],
    ['a repeated alternation of overlapping branches', '^(a|aa)+$'],
    ['a repeated group of a quantifier', '^(?:a?b?)*$'],
    ['polynomial backtracking', '^a*a*a*a*a*a*a*a*a*b$'],
  ])('matches %s in linear time (RE2): accepted, answered, charged as any extraction', async (_name, pattern) => {
    // With JavaScript's backtracking engine each of these takes exponential or high polynomial time on `aaaa…!`;
    // RE2 answers at once, so the value simply does not match and is answered as null.
    const res = await extract('/v1/extract/custom', { document: { text: DOCUMENT }, schema: str({ pattern }) });
    expect(res.status).toBe(200);
    expect(checkAgainstContract('/v1/extract/custom', 'POST', res)).toEqual([]);
    expect(res.json.data.code).toBeNull();
    expect(res.json.usage.heu).toBeGreaterThan(0);
  });

  it('answers a batch of long values under a catastrophic pattern, and the server keeps answering', async () => {
    // The hostile review's case: 3 items of 1,000 tag values each under `^a*a*a*a*a*b$` held /healthz for 48 s.
    const tags = Array.from({ length: 1000 }, () => `${'a'.repeat(30)}!`).join(', ');
    const schema = obj({ tags: { type: 'array', items: { type: 'string', pattern: '^a*a*a*a*a*b$' } } });
    const items = Array.from({ length: 3 }, (_, i) => ({ id: `t${i}`, document: { text: `Tags: ${tags}` }, schema }));
    const res = await extract('/v1/extract/batch', { items });
    expect(res.status).toBe(200);
    expect(res.json.results.map((r: Json) => r.ok)).toEqual([true, true, true]);
    expect((await send(s.baseUrl, { method: 'GET', path: '/healthz' })).status).toBe(200);
  });

  // Schemas as editors, generators and people write them: identity keywords and notes are read or ignored, never a 400.
  const written: Array<[string, Json]> = [
    ['2020-12 with $id, title and notes', { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://example.com/schemas/code.json', title: 'Code', description: 'A code', $comment: 'v2', type: 'object', properties: { code: { type: 'string', description: 'The code', examples: ['AB-1'], default: null, deprecated: false, readOnly: true, writeOnly: false } }, required: ['code'] }],
    ['2019-09 without the fragment', { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties: { code: { type: 'string' } } }],
    ['draft-07 with # and definitions', { $schema: 'http://json-schema.org/draft-07/schema#', $id: 'urn:example:code', type: 'object', definitions: { c: { $id: '#c', type: 'string' } }, properties: { code: { $ref: '#/definitions/c' } } }],
    ['draft-07 over https', { $schema: 'https://json-schema.org/draft-07/schema', type: 'object', properties: { code: { type: 'string' } } }],
    ['draft-07 with a tuple (items as a list)', { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { code: { type: 'string' }, pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } } }],
  ];

  it.each(written)('accepts a schema written as people write them: %s', async (_label, schema) => {
    const res = await extract('/v1/extract/custom', { document: { text: DOCUMENT }, schema });
    expect(res.status).toBe(200);
    expect(checkAgainstContract('/v1/extract/custom', 'POST', res)).toEqual([]);
    expect(res.json.data.code).toBe(`${'a'.repeat(40)}!`);
  });

  it('reads a draft-07 tuple as 2020-12 reads prefixItems: a third member is refused by additionalItems: false', async () => {
    // The answer check is the compiled schema: were `items: [...]` read as 2020-12 (one schema for every member),
    // the schema would not compile at all.
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false } } };
    const res = await extract('/v1/extract/custom', { document: { text: 'Pair: a, 1' }, schema });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json.data)).toEqual(['pair']);
  });

  it('never registers an $id in the shared validator: two different schemas with the same $id each answer by their own', async () => {
    const id = 'https://example.com/schemas/same.json';
    const first = await extract('/v1/extract/custom', { document: { text: DOCUMENT }, schema: { $id: id, type: 'object', properties: { code: { type: 'string' } } } });
    const second = await extract('/v1/extract/custom', { document: { text: 'Total: 3' }, schema: { $id: id, type: 'object', properties: { total: { type: 'number' } } } });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.json.data).toEqual({ code: `${'a'.repeat(40)}!` });
    expect(second.json.data).toEqual({ total: 3 });
  });

  it('keeps each pattern its own: two schemas with different patterns are checked with their own', async () => {
    // Ajv caches compiled patterns by their text; the bounded matcher must not make them share one.
    const ok = await extract('/v1/extract/custom', { document: { text: DOCUMENT }, schema: str({ pattern: '^a+!$' }) });
    expect(ok.status).toBe(200);
    expect(ok.json.data.code).toBe(`${'a'.repeat(40)}!`);
    const ok2 = await extract('/v1/extract/custom', { document: { text: DOCUMENT }, schema: str({ pattern: '^[a!]{41}$' }) });
    expect(ok2.status).toBe(200);
  });

  it.each([
    ['a safe pattern', str({ pattern: '^[a-z]+!$' })],
    ['a wide anyOf of constants', obj({ colour: { anyOf: Array.from({ length: 300 }, (_, i) => ({ const: `v${i}` })) } })],
    ['a non-recursive $ref used twice', obj({ code: { $ref: '#/$defs/s' }, other: { $ref: '#/$defs/s' } }, { $defs: { s: { type: 'string' } } })],
    ['a $ref to a definition whose name needs escaping', obj({ code: { $ref: '#/$defs/a~1b' } }, { $defs: { 'a/b': { type: 'string' } } })],
    ['properties named like JavaScript internals that are not reserved', obj({ code: { type: 'string' }, prototype: { type: 'string' }, length: { type: 'integer' } })],
    ['every accepted value keyword', obj({
      code: { type: 'string', minLength: 0, maxLength: 1000, format: 'regex', description: 'd', title: 't', examples: ['x'], $comment: 'c' },
      n: { type: 'number', minimum: 0, maximum: 10, exclusiveMinimum: -1, exclusiveMaximum: 11, multipleOf: 0.5 },
      list: { type: 'array', items: { type: 'string' }, minItems: 0, maxItems: 5, uniqueItems: true },
      tuple: { type: 'array', prefixItems: [{ type: 'string' }] },
      o: { type: 'object', properties: { x: { enum: ['a', 'b'] } }, additionalProperties: false, minProperties: 0, maxProperties: 3 },
      c: { allOf: [{ type: 'string' }], not: { const: 'zzz' } },
      e: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    })],
  ])('runs %s safely (200, an answer of the schema)', async (_label, schema) => {
    const raw = schema;
    const res = await extract('/v1/extract/custom', { document: { text: DOCUMENT }, schema: raw });
    expect(res.status).toBe(200);
    expect(checkAgainstContract('/v1/extract/custom', 'POST', res)).toEqual([]);
    expect(Object.keys(res.json.data).sort()).toEqual(Object.keys(raw.properties).sort());
  });

  it('refuses a root that is not an object schema (the contract says so: 400 invalid_request)', async () => {
    const res = await extract('/v1/extract/custom', { document: { text: DOCUMENT }, schema: { type: 'array', items: {} } });
    expect(res.status).toBe(400);
    expect(checkAgainstContract('/v1/extract/custom', 'POST', res)).toEqual([]);
    expect(res.json.error.details.errors).toEqual(expect.arrayContaining([expect.objectContaining({ path: '/body/schema/type' })]));
  });

  it('documents the accepted keywords in docs/extraction.md', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../../../docs/extraction.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Custom schemas: accepted keywords'));
    expect(section.length).toBeGreaterThan(100);
    for (const keyword of ACCEPTED_KEYWORDS) expect(section.slice(0, 2500)).toContain(`\`${keyword}\``);
  });

  // The offline engine reads what the document says; a value breaking the caller's own constraint is no answer.
  it('answers null (not 500) when the document value breaks the caller\'s pattern', async () => {
    const res = await extract('/v1/extract/custom', { document: { text: DOCUMENT }, schema: str({ pattern: '^z$' }) });
    expect(res.status).toBe(200);
    expect(res.json.data.code).toBeNull();
  });

  it('answers null for a value below the caller\'s minimum, keeping its siblings', async () => {
    const schema = obj({ total: { type: 'number', minimum: 10 }, code: { type: 'string' } });
    const res = await extract('/v1/extract/custom', { document: { text: 'Total: 3\nCode: AB-1' }, schema });
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ total: null, code: 'AB-1' });
  });
});
