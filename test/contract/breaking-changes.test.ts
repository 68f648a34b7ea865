// The breaking-change guard (scripts/check-breaking.mjs) on small before/after documents: every breaking kind is
// reported with its id, additive changes are not, and a change listed in the changelog is allowed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { additionProblem, classify, findAddedOperations, findBreakingChanges, parseChangelog, versionProblem } from '../../scripts/lib/breaking-changes.mjs';

type Doc = any;
const json = (schema: object) => ({ 'application/json': { schema } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorResponse = { description: 'error', content: json(ref('Error')) };

/** The released document every case starts from. */
function released(): Doc {
  return {
    openapi: '3.1.0',
    info: { title: 'test', version: '1.0.0' },
    servers: [{ url: 'https://api.example.com' }],
    security: [{ ApiKeyAuth: [] }],
    paths: {
      '/v1/items': {
        get: {
          operationId: 'listItems',
          security: [{ ApiKeyAuth: [] }, { BearerAuth: [] }],
          parameters: [
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
            { name: 'x-trace', in: 'header', required: false, schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'ok', content: json(ref('ItemList')) },
            '401': errorResponse,
          },
        },
        post: {
          operationId: 'createItem',
          requestBody: { required: true, content: json(ref('CreateItem')) },
          responses: {
            '201': { description: 'created', content: json(ref('Item')) },
            '400': errorResponse,
          },
        },
      },
      '/v1/items/{id}': {
        delete: {
          operationId: 'deleteItem',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '204': { description: 'deleted' } },
        },
      },
    },
    components: {
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        BearerAuth: { type: 'http', scheme: 'Bearer' },
      },
      schemas: {
        ItemList: {
          type: 'object',
          required: ['items', 'nextCursor'],
          properties: {
            items: { type: 'array', items: ref('Item') },
            nextCursor: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          },
        },
        Item: {
          type: 'object',
          required: ['id', 'name', 'status', 'createdAt', 'owner', 'children', 'shape'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            // TypeSpec's documented reference: `allOf: [{$ref}]` beside a description.
            status: { allOf: [ref('Status')], description: 'The state.' },
            createdAt: { type: 'string', format: 'date-time' },
            owner: { allOf: [ref('Owner')], description: 'Who owns it.' },
            children: { type: 'array', items: ref('Item') }, // recursive
            shape: { anyOf: [ref('Circle'), ref('Square')] },
            note: { type: 'string' },
          },
        },
        Status: { type: 'string', enum: ['active', 'archived'] },
        Owner: { type: 'object', required: ['name', 'email'], properties: { name: { type: 'string' }, email: { type: 'string' } } },
        Circle: { type: 'object', required: ['kind', 'radius'], properties: { kind: { type: 'string', enum: ['circle'] }, radius: { type: 'number' } } },
        Square: { type: 'object', required: ['kind', 'side'], properties: { kind: { type: 'string', enum: ['square'] }, side: { type: 'number' } } },
        Triangle: { type: 'object', required: ['kind'], properties: { kind: { type: 'string', enum: ['triangle'] } } },
        CreateItem: {
          type: 'object',
          required: ['name'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 100 },
            kind: { anyOf: [{ type: 'string', enum: ['a'] }, { type: 'string', enum: ['b'] }] },
            tags: { type: 'array', items: { type: 'string' } },
            color: { type: 'string' },
            shape: { anyOf: [ref('Circle'), ref('Square')] },
            parent: { anyOf: [{ type: 'string' }, { type: 'null' }] },
            target: {
              anyOf: [
                { type: 'object', properties: { url: { type: 'string' } } },
                { type: 'object', properties: { path: { type: 'string' } } },
              ],
            },
          },
        },
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code'],
              properties: { code: { anyOf: [{ type: 'string', enum: ['bad'] }, { type: 'string', enum: ['worse'] }] } },
            },
          },
        },
      },
    },
  };
}

function changed(mutate: (doc: Doc) => void): Doc {
  const doc = released();
  mutate(doc);
  return doc;
}
const ids = (mutate: (doc: Doc) => void) => findBreakingChanges(released(), changed(mutate)).map((c) => c.id);
const schemas = (d: Doc) => d.components.schemas;
const list = (d: Doc) => d.paths['/v1/items'].get;
const create = (d: Doc) => d.paths['/v1/items'].post;

describe('findBreakingChanges', () => {
  it('finds nothing between a document and itself', () => {
    expect(findBreakingChanges(released(), released())).toEqual([]);
    const doc = JSON.parse(readFileSync(fileURLToPath(new URL('../../generated/released/openapi.json', import.meta.url)), 'utf8'));
    expect(findBreakingChanges(doc, structuredClone(doc))).toEqual([]);
  });

  const breaking: Array<[string, (d: Doc) => void, string[]]> = [
    // Operations.
    ['an operation removed', (d) => delete d.paths['/v1/items/{id}'], ['DELETE /v1/items/{id}: operation removed']],
    [
      'an operation moved to another path',
      (d) => {
        d.paths['/v1/things/{id}'] = d.paths['/v1/items/{id}'];
        delete d.paths['/v1/items/{id}'];
      },
      ['DELETE /v1/items/{id}: operation moved to DELETE /v1/things/{id}'],
    ],
    ['an operationId changed', (d) => (list(d).operationId = 'getItems'), ['GET /v1/items: operationId listItems renamed to getItems']],
    // Issue 30: the wire is the same, but code generated from the contract names the parameter (`{ path: { id } }`).
    [
      'a path parameter renamed',
      (d) => {
        const op = d.paths['/v1/items/{id}'].delete;
        op.parameters[0].name = 'itemId';
        d.paths['/v1/items/{itemId}'] = { delete: op };
        delete d.paths['/v1/items/{id}'];
      },
      ['DELETE /v1/items/{id}: path parameter id renamed to itemId'],
    ],
    ['a success status removed', (d) => delete create(d).responses['201'], ['POST /v1/items: 201 response removed']],
    // Issue 39: a default is what the service assumes for a member left out; a response enum value is one a client
    // may act on. Neither was reported.
    ['a parameter\'s default changed', (d) => (list(d).parameters[0].schema.default = 100), ['GET /v1/items query parameter limit: default changed from 20 to 100']],
    ['a parameter\'s default removed', (d) => delete list(d).parameters[0].schema.default, ['GET /v1/items query parameter limit: default 20 removed']],
    [
      'a response enum value removed',
      (d) => (schemas(d).Status.enum = ['active']),
      ['GET /v1/items 200 response: property items[].status: enum value "archived" removed', 'POST /v1/items 201 response: property status: enum value "archived" removed'],
    ],
    // Security.
    ['a security alternative removed', (d) => (list(d).security = [{ ApiKeyAuth: [] }]), ['GET /v1/items: security alternative BearerAuth removed']],
    [
      'a security scheme changed',
      (d) => (d.components.securitySchemes.ApiKeyAuth.name = 'x-key'),
      ['security scheme ApiKeyAuth: name changed from "x-api-key" to "x-key"'],
    ],
    // Responses.
    [
      'a response property removed',
      (d) => {
        delete schemas(d).ItemList.properties.nextCursor;
        schemas(d).ItemList.required = ['items'];
      },
      ['GET /v1/items 200 response: property nextCursor removed'],
    ],
    [
      'a property removed from a model used in several places (and in itself)',
      (d) => {
        delete schemas(d).Item.properties.name;
        schemas(d).Item.required = schemas(d).Item.required.filter((n: string) => n !== 'name');
      },
      ['GET /v1/items 200 response: property items[].name removed', 'POST /v1/items 201 response: property name removed'],
    ],
    [
      'a response property that becomes optional (behind the allOf wrapper)',
      (d) => (schemas(d).Owner.required = ['name']),
      ['GET /v1/items 200 response: property items[].owner.email becomes optional', 'POST /v1/items 201 response: property owner.email becomes optional'],
    ],
    [
      'a response property that becomes nullable (type array)',
      (d) => (schemas(d).Item.properties.name = { type: ['string', 'null'] }),
      ['GET /v1/items 200 response: property items[].name becomes nullable', 'POST /v1/items 201 response: property name becomes nullable'],
    ],
    [
      'a response property that becomes nullable (anyOf with null)',
      (d) => (schemas(d).Item.properties.owner = { anyOf: [ref('Owner'), { type: 'null' }] }),
      ['GET /v1/items 200 response: property items[].owner becomes nullable', 'POST /v1/items 201 response: property owner becomes nullable'],
    ],
    [
      'a changed response type',
      (d) => (schemas(d).Item.properties.createdAt = { type: 'integer' }),
      [
        'GET /v1/items 200 response: property items[].createdAt: type changed from string to integer',
        'POST /v1/items 201 response: property createdAt: type changed from string to integer',
      ],
    ],
    [
      'a changed response format',
      (d) => (schemas(d).Item.properties.createdAt.format = 'date'),
      [
        'GET /v1/items 200 response: property items[].createdAt: format changed from "date-time" to "date"',
        'POST /v1/items 201 response: property createdAt: format changed from "date-time" to "date"',
      ],
    ],
    [
      'a new variant in a response union',
      (d) => schemas(d).Item.properties.shape.anyOf.push(ref('Triangle')),
      [
        'GET /v1/items 200 response: property items[].shape: union variant Triangle added',
        'POST /v1/items 201 response: property shape: union variant Triangle added',
      ],
    ],
    [
      'a property removed inside a response union variant (matched by $ref name)',
      (d) => {
        schemas(d).Item.properties.shape.anyOf.reverse();
        delete schemas(d).Square.properties.side;
      },
      [
        'GET /v1/items 200 response: property items[].shape.side removed',
        'POST /v1/items request: property shape.side removed',
        'POST /v1/items 201 response: property shape.side removed',
      ],
    ],
    // Requests.
    [
      'a request property renamed',
      (d) => {
        const p = schemas(d).CreateItem;
        p.properties.title = p.properties.name;
        delete p.properties.name;
        p.required = ['title'];
      },
      ['POST /v1/items request: property name removed', 'POST /v1/items request: new required property title'],
    ],
    ['an optional request property made required', (d) => schemas(d).CreateItem.required.push('color'), ['POST /v1/items request: property color becomes required']],
    [
      'a new required query parameter',
      (d) => list(d).parameters.push({ name: 'q', in: 'query', required: true, schema: { type: 'string' } }),
      ['GET /v1/items: new required query parameter q'],
    ],
    ['an optional header parameter made required', (d) => (list(d).parameters[1].required = true), ['GET /v1/items: header parameter x-trace becomes required']],
    ['a query parameter removed', (d) => list(d).parameters.shift(), ['GET /v1/items: query parameter limit removed']],
    [
      'a narrowed query parameter',
      (d) => (list(d).parameters[0].schema.maximum = 50),
      ['GET /v1/items query parameter limit: maximum lowered from 100 to 50'],
    ],
    [
      'a request enum value removed (union of constants)',
      (d) => (schemas(d).CreateItem.properties.kind = { type: 'string', enum: ['a'] }),
      ['POST /v1/items request: property kind: enum value "b" removed'],
    ],
    [
      'a request type changed',
      (d) => (schemas(d).CreateItem.properties.color = { type: 'integer' }),
      ['POST /v1/items request: property color: type changed from string to integer'],
    ],
    ['a smaller maxLength', (d) => (schemas(d).CreateItem.properties.name.maxLength = 50), ['POST /v1/items request: property name: maxLength lowered from 100 to 50']],
    ['a larger minLength', (d) => (schemas(d).CreateItem.properties.name.minLength = 2), ['POST /v1/items request: property name: minLength raised from 1 to 2']],
    [
      'a new pattern on a request string',
      (d) => (schemas(d).CreateItem.properties.color.pattern = '^#[0-9a-f]{6}$'),
      ['POST /v1/items request: property color: pattern "^#[0-9a-f]{6}$" added'],
    ],
    ['a new format on a request string', (d) => (schemas(d).CreateItem.properties.color.format = 'uuid'), ['POST /v1/items request: property color: format "uuid" added']],
    [
      'a new enum on a request member',
      (d) => (schemas(d).CreateItem.properties.color.enum = ['red', 'blue']),
      ['POST /v1/items request: property color: enum ["red","blue"] added'],
    ],
    [
      'a constraint on request array items',
      (d) => (schemas(d).CreateItem.properties.tags.items.maxLength = 10),
      ['POST /v1/items request: property tags[]: maxLength 10 added'],
    ],
    ['null no longer accepted', (d) => (schemas(d).CreateItem.properties.parent = { type: 'string' }), ['POST /v1/items request: property parent no longer accepts null']],
    [
      'a variant removed from a request union',
      (d) => schemas(d).CreateItem.properties.shape.anyOf.pop(),
      ['POST /v1/items request: property shape: union variant Square removed'],
    ],
    [
      'a property removed inside an inline union variant (matched by position)',
      (d) => delete schemas(d).CreateItem.properties.target.anyOf[1].properties.path,
      ['POST /v1/items request: property target.path removed'],
    ],
    [
      'additional properties forbidden',
      (d) => (schemas(d).CreateItem.additionalProperties = false),
      ['POST /v1/items request: additional properties no longer allowed'],
    ],
    [
      'a request media type removed',
      (d) => (create(d).requestBody.content = { 'application/x-www-form-urlencoded': { schema: ref('CreateItem') } }),
      ['POST /v1/items request: media type application/json removed'],
    ],
  ];

  it.each(breaking)('reports %s', (_name, mutate, expected) => {
    expect(ids(mutate)).toEqual(expected);
  });

  const additive: Array<[string, (d: Doc) => void]> = [
    ['a new operation', (d) => (d.paths['/v1/items/{id}'].get = { operationId: 'getItem', responses: { '200': { description: 'ok', content: json(ref('Item')) } } })],
    ['a new optional request property', (d) => (schemas(d).CreateItem.properties.description = { type: 'string', maxLength: 10 })],
    ['a new optional query parameter', (d) => list(d).parameters.push({ name: 'q', in: 'query', required: false, schema: { type: 'string' } })],
    [
      'a new (required) response property',
      (d) => {
        schemas(d).Item.properties.updatedAt = { type: 'string', format: 'date-time' };
        schemas(d).Item.required.push('updatedAt');
      },
    ],
    ['a new error status', (d) => (list(d).responses['500'] = errorResponse)],
    ['an error status removed', (d) => delete list(d).responses['401']],
    ['a new success status', (d) => (list(d).responses['206'] = { description: 'partial', content: json(ref('ItemList')) })],
    ['a new enum value in a response', (d) => schemas(d).Status.enum.push('deleted')],
    ['a new member of a response union of constants (an error code)', (d) => schemas(d).Error.properties.error.properties.code.anyOf.push({ type: 'string', enum: ['worst'] })],
    ['a new enum value in a request', (d) => schemas(d).CreateItem.properties.kind.anyOf.push({ type: 'string', enum: ['c'] })],
    [
      'loosened request constraints',
      (d) => {
        delete schemas(d).CreateItem.properties.name.minLength;
        schemas(d).CreateItem.properties.name.maxLength = 1000;
        list(d).parameters[0].schema = { type: 'number', default: 20 };
      },
    ],
    ['a new variant in a request union', (d) => schemas(d).CreateItem.properties.shape.anyOf.push(ref('Triangle'))],
    ['a response member that is no longer nullable', (d) => (schemas(d).ItemList.properties.nextCursor = { type: 'string' })],
    ['a removed response union variant', (d) => schemas(d).Item.properties.shape.anyOf.pop()],
    [
      'a reference documented with the allOf wrapper, and a model renamed',
      (d) => {
        schemas(d).ItemList.properties.items.items = { allOf: [ref('Item')], description: 'One item.' };
        schemas(d).Person = schemas(d).Owner;
        delete schemas(d).Owner;
        schemas(d).Item.properties.owner = ref('Person');
      },
    ],
    ['a new security alternative', (d) => (create(d).security = [{ ApiKeyAuth: [] }, { BearerAuth: [] }])],
    [
      'documentation',
      (d) => {
        d.info.description = 'new words';
        list(d).summary = 'List';
        schemas(d).Item.properties.name.description = 'The name.';
        create(d).requestBody.content['application/json'].examples = { one: { value: { name: 'x' } } };
      },
    ],
  ];

  it.each(additive)('does not report %s', (_name, mutate) => {
    expect(ids(mutate)).toEqual([]);
  });

  it('reports anonymous access removed', () => {
    const before = changed((d) => (d.paths['/healthz'] = { get: { operationId: 'health', security: [{}], responses: { '200': { description: 'ok' } } } }));
    const after = structuredClone(before);
    after.paths['/healthz'].get.security = [{ ApiKeyAuth: [] }];
    expect(findBreakingChanges(before, after).map((c) => c.id)).toEqual(['GET /healthz: security alternative anonymous removed']);
  });

  it('stops at recursive schemas', () => {
    const before = changed((d) => (schemas(d).Item.properties.children = { type: 'array', items: { allOf: [ref('ItemList')] } }));
    const after = changed((d) => {
      schemas(d).Item.properties.children = { type: 'array', items: { allOf: [ref('ItemList')] } };
      delete schemas(d).Item.properties.note;
    });
    expect(findBreakingChanges(before, after).map((c) => c.id)).toEqual([
      'GET /v1/items 200 response: property items[].note removed',
      'POST /v1/items 201 response: property note removed',
    ]);
  });
});

// Issue 30, item 9: rules that were prose put into the schema. A document of all-optional members that becomes a
// oneOf of a text and a file variant refuses bodies the released schema accepted (both members, or neither): a split,
// reported once. Against a released document whose only document was its required text (as the released contract
// is), the text variant takes everything it did, and the file variant is new: nothing to report.
describe('a request object split into a oneOf of variants', () => {
  const withDocument = (document: Doc) => changed((d) => {
    schemas(d).CreateItem.properties.document = document;
  });
  const textVariant = { type: 'object', required: ['text'], properties: { text: { type: 'string' }, filename: { type: 'string' }, mediaType: { type: 'string' } } };
  const fileVariant = { type: 'object', required: ['content', 'mediaType'], properties: { content: { type: 'string' }, filename: { type: 'string' }, mediaType: { type: 'string', enum: ['application/pdf', 'image/png'] } } };
  const split = (d: Doc) => {
    schemas(d).TextDoc = textVariant;
    schemas(d).FileDoc = fileVariant;
    schemas(d).CreateItem.properties.document = { oneOf: [ref('TextDoc'), ref('FileDoc')] };
  };

  it('reports the split of an object whose members were all optional, and the enum put on a member, once each', () => {
    const before = withDocument({ type: 'object', properties: { text: { type: 'string' }, content: { type: 'string' }, filename: { type: 'string' }, mediaType: { type: 'string' } } });
    const after = structuredClone(before);
    split(after);
    expect(findBreakingChanges(before, after).map((c) => [c.id, c.kind])).toEqual([
      ['POST /v1/items request: property document split into one of TextDoc, FileDoc', 'request-split'],
      ['POST /v1/items request: property document.mediaType: enum ["application/pdf","image/png"] added', 'request-enum-added'],
    ]);
  });

  it('reports nothing when one variant takes every member the released object had (the others are new shapes)', () => {
    const before = withDocument({ type: 'object', required: ['text'], properties: { text: { type: 'string' }, filename: { type: 'string' }, mediaType: { type: 'string' } } });
    const after = structuredClone(before);
    split(after);
    expect(findBreakingChanges(before, after)).toEqual([]);
    // ... but a narrowing in that variant still is one.
    const narrowed = structuredClone(after);
    schemas(narrowed).TextDoc.properties.mediaType.enum = ['text/plain'];
    expect(findBreakingChanges(before, narrowed).map((c) => c.id)).toEqual(['POST /v1/items request: property document.mediaType: enum ["text/plain"] added']);
  });

  it('reads a default stated beside a documented reference (`allOf: [{$ref}]`, as TypeSpec emits it)', () => {
    const withColor = (value: string) => changed((d) => {
      schemas(d).Color = { type: 'string' };
      schemas(d).CreateItem.properties.color = { allOf: [ref('Color')], description: 'c', default: value };
    });
    expect(findBreakingChanges(withColor('red'), withColor('blue')).map((c) => c.id)).toEqual(['POST /v1/items request: property color: default changed from "red" to "blue"']);
    expect(findBreakingChanges(withColor('red'), withColor('red'))).toEqual([]);
  });

  it('finds no break between the released contract and the current one (its documents, file media types and forms)', () => {
    const contract = (path: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8'));
    const current = contract('generated/openapi.json');
    expect(current.components.schemas.DocumentInput.oneOf).toHaveLength(2);
    expect(findBreakingChanges(contract('generated/released/openapi.json'), current)).toEqual([]);
  });
});

describe('webhooks, read as what a receiver reads', () => {
  const withHook = (mutate: (hook: Doc) => void = () => undefined) => changed((d) => {
    const hook = {
      post: {
        operationId: 'onItemArchived',
        parameters: [{ name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' } }],
        requestBody: { required: true, content: json(ref('Item')) },
        responses: { '200': { description: 'ok' } },
      },
    };
    mutate(hook);
    d.webhooks = { 'item.archived': hook };
  });

  it('reports an event removed, a header removed, and a body a receiver cannot read', () => {
    expect(findBreakingChanges(withHook(), withHook())).toEqual([]);
    expect(findBreakingChanges(withHook(), released()).map((c) => c.id)).toEqual(['webhook item.archived: removed']);
    expect(findBreakingChanges(withHook(), withHook((h) => (h.post.parameters = []))).map((c) => c.id)).toEqual(['webhook item.archived: header webhook-id removed']);
    const dropped = withHook();
    schemas(dropped).Status.enum = ['active'];
    expect(findBreakingChanges(withHook(), dropped).map((c) => c.id)).toContain('webhook item.archived body: property status: enum value "archived" removed');
  });
});

describe('added operations', () => {
  const withOp = (version: string) => changed((d) => {
    d.info.version = version;
    d.paths['/v1/items/{id}/archive'] = { post: { operationId: 'archiveItem', responses: { '200': { description: 'ok' } } } };
  });

  it('lists an operation the released contract lacks, and asks for a new version while the released one is kept', () => {
    expect(findAddedOperations(released(), released())).toEqual([]);
    expect(findAddedOperations(released(), withOp('1.0.0')).map((a) => a.id)).toEqual(['POST /v1/items/{id}/archive: operation added (archiveItem)']);
    // Not a breaking change.
    expect(findBreakingChanges(released(), withOp('1.0.0'))).toEqual([]);
    expect(additionProblem(1, '1.0.0', '1.0.0')).toMatch(/1 operation not in the released contract but info.version 1.0.0 is the released one: additions need a new minor version \(1\.1\.0/);
    expect(additionProblem(1, '1.1.0', '1.0.0')).toBeNull();
    expect(additionProblem(0, '1.0.0', '1.0.0')).toBeNull();
  });

  it('the real contract: every operation is in the released baseline (a new one needs a new version and npm run release:contract)', () => {
    const contract = (path: string) => JSON.parse(readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8'));
    const baseline = contract('generated/released/openapi.json');
    const current = contract('generated/openapi.json');
    expect(findAddedOperations(baseline, current).map((a) => a.id)).toEqual([]);
    // So renaming the operationId of createJob (an operation the 2.0.0 baseline lacked) is caught.
    const renamed = structuredClone(current);
    renamed.paths['/v1/jobs'].post.operationId = 'queueJob';
    expect(findBreakingChanges(baseline, renamed).map((c) => c.id)).toEqual(['POST /v1/jobs: operationId createJob renamed to queueJob']);
  });
});

describe('the changelog', () => {
  const markdown = [
    '# Contract changelog',
    '',
    'Format example, ignored:',
    '```md',
    '## 9.0.0',
    '- `GET /x: operation removed` — an example',
    '```',
    '',
    '## 1.0.0 → 2.0.0 (interface conformance)',
    '',
    '### Operations',
    '- `GET /v1/items: operationId listItems renamed to getItems` — camelCase operationIds, as in the interface document',
    '- `GET /v1/items 200 response: property nextCursor removed`: pagination moved to a header',
    '* `` GET /v1/items: a`b `` - an id with a backtick',
    '- `POST /v1/items request: property name removed` — TODO',
    '- not an entry, just a note',
  ].join('\n');

  it('reads each entry with its version and reason', () => {
    const { entries, errors } = parseChangelog(markdown);
    expect(errors).toEqual([]);
    expect(entries.map(({ id, version, reason }) => ({ id, version, reason }))).toEqual([
      { id: 'GET /v1/items: operationId listItems renamed to getItems', version: '2.0.0', reason: 'camelCase operationIds, as in the interface document' },
      { id: 'GET /v1/items 200 response: property nextCursor removed', version: '2.0.0', reason: 'pagination moved to a header' },
      { id: 'GET /v1/items: a`b', version: '2.0.0', reason: 'an id with a backtick' },
      { id: 'POST /v1/items request: property name removed', version: '2.0.0', reason: 'TODO' },
    ]);
  });

  it('refuses an entry without a version heading or without a reason', () => {
    const { errors } = parseChangelog('# Changelog\n- `GET /x: operation removed` — why\n## 2.0.0\n- `GET /y: operation removed`\n');
    expect(errors).toEqual([
      'line 2: `GET /x: operation removed` is not under a "## <version>" heading',
      'line 4: `GET /y: operation removed` has no reason (write "- `id` — why")',
    ]);
  });

  it('allows a listed change, holds back a TODO one, and ignores entries of released versions', () => {
    const after = changed((d) => {
      list(d).operationId = 'getItems';
      delete schemas(d).ItemList.properties.nextCursor;
      schemas(d).ItemList.required = ['items'];
      const p = schemas(d).CreateItem;
      p.properties.title = p.properties.name;
      delete p.properties.name;
      p.required = ['title'];
    });
    const changes = findBreakingChanges(released(), after);
    const { entries } = parseChangelog(markdown);
    const result = classify(changes, entries, { releasedVersion: '1.0.0' });
    expect(result.allowed.map((c) => c.id)).toEqual([
      'GET /v1/items: operationId listItems renamed to getItems',
      'GET /v1/items 200 response: property nextCursor removed',
    ]);
    expect(result.todo.map((c) => c.id)).toEqual(['POST /v1/items request: property name removed']);
    expect(result.unlisted.map((c) => c.id)).toEqual(['POST /v1/items request: new required property title']);
    // Once 2.0.0 is the released contract, its entries are history: they allow nothing new.
    expect(classify(changes, entries, { releasedVersion: '2.0.0' }).allowed).toEqual([]);
  });
});

describe('scripts/check-breaking.mjs', () => {
  const script = fileURLToPath(new URL('../../scripts/check-breaking.mjs', import.meta.url));
  let dir = '';
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'check-breaking-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function run(after: Doc, changelog: string) {
    writeFileSync(join(dir, 'released.json'), JSON.stringify(released()));
    writeFileSync(join(dir, 'current.json'), JSON.stringify(after));
    writeFileSync(join(dir, 'CHANGELOG.md'), changelog);
    const args = [script, '--released', join(dir, 'released.json'), '--current', join(dir, 'current.json'), '--changelog', join(dir, 'CHANGELOG.md')];
    return spawnSync(process.execPath, args, { encoding: 'utf8' });
  }
  const after = changed((d) => {
    d.info.version = '2.0.0';
    list(d).operationId = 'getItems';
  });

  it('fails on an unlisted change, printing its id and the line to paste', () => {
    const r = run(after, '# Changelog\n');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('  GET /v1/items: operationId listItems renamed to getItems\n');
    expect(r.stderr).toContain('- `GET /v1/items: operationId listItems renamed to getItems` — TODO');
  });

  it('fails while the reason is TODO', () => {
    const r = run(after, '## 1.0.0 → 2.0.0\n- `GET /v1/items: operationId listItems renamed to getItems` — TODO\n');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('line 2: GET /v1/items: operationId listItems renamed to getItems');
  });

  it('fails when a listed break keeps the released major version, naming the version it needs', () => {
    const sameMajor = changed((d) => {
      d.info.version = '1.4.0';
      list(d).operationId = 'getItems';
    });
    const r = run(sameMajor, '## 1.0.0 → 1.4.0\n- `GET /v1/items: operationId listItems renamed to getItems` — camelCase operationIds\n');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('1 breaking change but info.version 1.4.0 keeps the released major version (1.0.0): a break needs 2.0.0');
    expect(versionProblem(0, '1.0.0', '1.0.0')).toBeNull();
    expect(versionProblem(2, '2.0.0', '1.3.1')).toBeNull();
    expect(versionProblem(1, '1.9.0', '1.3.1')).toMatch(/needs 2\.0\.0/);
  });

  it('fails on an operation added under the released version, naming it; passes once the version is a new minor', () => {
    const added = (version: string) => changed((d) => {
      d.info.version = version;
      d.paths['/v1/items/{id}/archive'] = { post: { operationId: 'archiveItem', responses: { '200': { description: 'ok' } } } };
    });
    const same = run(added('1.0.0'), '# Changelog\n');
    expect(same.status).toBe(1);
    expect(same.stderr).toContain('additions need a new minor version (1.1.0');
    expect(same.stderr).toContain('  POST /v1/items/{id}/archive: operation added (archiveItem)\n');
    const bumped = run(added('1.1.0'), '# Changelog\n');
    expect(bumped.stderr).toBe('');
    expect(bumped.status).toBe(0);
  });

  it('fails on a changed default and a dropped response enum value (not listed)', () => {
    const r = run(changed((d) => {
      list(d).parameters[0].schema.default = 50;
      schemas(d).Status.enum = ['active'];
    }), '# Changelog\n');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('  GET /v1/items query parameter limit: default changed from 20 to 50\n');
    expect(r.stderr).toContain('  GET /v1/items 200 response: property items[].status: enum value "archived" removed\n');
  });

  it('passes when the change is listed with its reason', () => {
    const r = run(after, '## 1.0.0 → 2.0.0\n- `GET /v1/items: operationId listItems renamed to getItems` — camelCase operationIds\n');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('No unlisted breaking changes.');
  });
});
