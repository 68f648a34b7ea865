// Breaking changes between two OpenAPI 3.1 documents, seen from a client written against the first one.
//
// findBreakingChanges(released, current) walks every operation of `released` and answers one entry per change that
// can break such a client, each with a stable, human-readable id:
//
//   <METHOD> <path>: <what>                       the operation, its security, parameters and statuses
//   <METHOD> <path> request: <what>               the request body
//   <METHOD> <path> <in> parameter <name>: <what> a parameter's schema
//   <METHOD> <path> <status> response: <what>     a response body
//   security scheme <name>: <what>, server <url> removed
//
// where <what> names the member by its dotted path (`property data.items[].name removed`, `[]` an array's items,
// `.*` a map's values). The ids are what spec/CHANGELOG.md lists (see parseChangelog).
//
// Breaking (reported):
//   - an operation removed, moved (its operationId now on another method + path) or its operationId changed; a path
//     parameter renamed (`{id}` to `{keyId}`: generated clients name it in their callers' source);
//   - a security alternative the released operation accepted that no current alternative is satisfied by; a
//     security scheme removed or changed (type, in, name, scheme); a server URL removed;
//   - requests (the current contract must accept everything the released one did): a request body, media type,
//     parameter, property or union variant removed (renaming is removing one and adding another); an object split
//     into a union of objects none of which takes all its members (`oneOf` of a text and a file variant); a body,
//     parameter or property newly required; a changed type (integer -> number is a widening, not a change); null no
//     longer accepted; a narrowed constraint (maxLength/maximum/maxItems added or lowered, minLength/minimum/minItems
//     added or raised, a new or changed pattern, format or multipleOf, uniqueItems added); an enum put on a member,
//     or an enum value removed; additional properties forbidden; a `default` changed or removed (a client that leaves
//     the member out gets another value than the one it was promised);
//   - responses (a client of the released contract must understand everything the current one sends): a success
//     (2xx) status removed; a media type, header or property removed (optional ones too: a client may read them);
//     a property that becomes optional or nullable; a changed type (one the released contract did not have); a
//     format changed or removed; a new union variant (a shape the client was never told about); an enum value removed
//     (a value a client was told it may receive, and may act on, that is never sent any more).
//
// Additions (findAddedOperations): an operation the released contract lacks is not a break, but the released contract
// is the baseline every later check compares with, so an addition must come with a new version (a new minor at least)
// and a release of it: until then, nothing guards the new operation (renaming its operationId would pass).
//
// Not breaking (not reported), by design: clients must tolerate new members and new enum values. So new operations,
// new optional request members (body properties, query/header parameters), new response properties and headers,
// new or removed error statuses, new success statuses, new enum values in responses (also a new member of a union
// of constants, such as an error code), loosened request constraints, new request union variants, removed response
// union variants, and documentation (descriptions, examples, summaries, tags) are not reported. Callbacks are not
// compared. Webhooks are what the service sends, so they are read as responses: an event or a header removed, and a
// body change a receiver written against the released contract cannot read (`webhook <event>: ...`).
//
// Schemas: `$ref`s are resolved (also `#/components/parameters|requestBodies|responses|headers`), `allOf` is merged
// (including the `allOf: [{$ref}]` wrapper TypeSpec emits around a documented reference), `anyOf`/`oneOf` members are
// flattened into variants, a `null` member or `type: [..., "null"]` makes the schema nullable, and a union of
// constants of one type is read as one enum. Variants are matched by their `$ref` name, then by type, then by
// position. Recursive schemas stop where the same pair of named schemas is already being compared.

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const ANNOTATIONS = new Set(['description', 'title', 'summary', 'examples', 'example', 'deprecated', 'readOnly', 'writeOnly', 'default', '$comment', 'externalDocs', 'xml']);
const J = (v) => JSON.stringify(v);

/** Resolves a local JSON pointer (`#/components/schemas/Name`). */
function pointer(doc, ref) {
  if (typeof ref !== 'string' || !ref.startsWith('#')) throw new Error(`unsupported $ref ${ref} (only local references are read)`);
  let node = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = node?.[key];
    if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return node;
}
const refName = (ref) => ref.split('/').pop();

/** A non-schema object that may be a $ref (parameter, request body, response, header). */
function resolveObject(doc, node) {
  const seen = new Set();
  while (node && typeof node === 'object' && typeof node.$ref === 'string') {
    if (seen.has(node.$ref)) throw new Error(`circular $ref ${node.$ref}`);
    seen.add(node.$ref);
    const { $ref, ...rest } = node;
    node = { ...pointer(doc, $ref), ...rest };
  }
  return node;
}

const hasSchemaKeywords = (node) => Object.keys(node).some((k) => !ANNOTATIONS.has(k) && !k.startsWith('x-'));

/**
 * A schema as { nullable, variants: [{ schema, ref }] }: references resolved, allOf merged, unions flattened.
 * `schema` of a variant has no anyOf/oneOf/allOf/$ref left at its top; `ref` is the name of the schema it came from.
 */
export function expandSchema(doc, node, refs = []) {
  if (node === undefined || node === null || node === true) return { nullable: false, variants: [{ schema: {}, ref: null }] };
  if (node === false) return { nullable: false, variants: [] };
  if (typeof node.$ref === 'string') {
    const { $ref, ...rest } = node;
    if (refs.includes($ref)) return { nullable: false, variants: [{ schema: {}, ref: refName($ref) }] };
    const target = pointer(doc, $ref);
    const inner = hasSchemaKeywords(rest) ? expandSchema(doc, { allOf: [target], ...rest }, [...refs, $ref]) : withDefault(expandSchema(doc, target, [...refs, $ref]), rest);
    const [only] = inner.variants;
    if (inner.variants.length === 1 && only && !only.ref) only.ref = refName($ref);
    return inner;
  }
  if (Array.isArray(node.allOf)) {
    const { allOf, ...rest } = node;
    const parts = allOf.map((m) => expandSchema(doc, m, refs));
    const extra = hasSchemaKeywords(rest);
    // The documented-reference wrapper: `allOf: [X]` beside a description is X (with the default stated beside it).
    if (parts.length === 1 && !extra) return withDefault(parts[0], rest);
    if (extra) parts.push(expandSchema(doc, rest, refs));
    // A conjunction: null only if every part allows it; each part read as its first variant (a union inside an allOf
    // conjunction is rare and is approximated).
    const nullable = parts.every((p) => p.nullable || p.variants.some((v) => typesOf(v.schema) === null));
    if (parts.some((p) => p.variants.length === 0)) return { nullable, variants: [] };
    const schema = {};
    for (const part of parts) mergeInto(schema, part.variants[0].schema);
    return { nullable, variants: [{ schema, ref: null }] };
  }
  const union = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : null;
  if (union) {
    const parts = union.map((m) => expandSchema(doc, m, refs));
    return mergeConstants({ nullable: parts.some((p) => p.nullable), variants: parts.flatMap((p) => p.variants) });
  }
  const schema = { ...node };
  let nullable = false;
  if (Array.isArray(schema.type)) {
    nullable = schema.type.includes('null');
    const rest = schema.type.filter((t) => t !== 'null');
    if (rest.length === 0) return { nullable: true, variants: [] };
    schema.type = rest.length === 1 ? rest[0] : rest;
  } else if (schema.type === 'null') return { nullable: true, variants: [] };
  if ('const' in schema && schema.const === null) return { nullable: true, variants: [] };
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) {
    nullable = true;
    schema.enum = schema.enum.filter((v) => v !== null);
    if (schema.enum.length === 0) return { nullable: true, variants: [] };
  }
  return { nullable, variants: [{ schema, ref: null }] };
}

/** An expanded schema with the `default` its wrapper states (`{allOf: [{$ref}], default: 100}`), on its one variant. */
function withDefault(expanded, wrapper) {
  if (!('default' in wrapper) || expanded.variants.length !== 1) return expanded;
  const [only] = expanded.variants;
  return { ...expanded, variants: [{ ...only, schema: { ...only.schema, default: wrapper.default } }] };
}

function mergeInto(target, src) {
  for (const [k, v] of Object.entries(src)) {
    if (k === 'properties') {
      target.properties ??= {};
      for (const [name, prop] of Object.entries(v)) {
        target.properties[name] = name in target.properties ? { allOf: [target.properties[name], prop] } : prop;
      }
    } else if (k === 'required') {
      target.required = [...new Set([...(target.required ?? []), ...v])];
    } else if (!(k in target)) {
      target[k] = v;
    }
  }
}

const scalarTypeOf = (v) => (v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v === 'number' ? 'number' : typeof v);
function enumOf(schema) {
  if (Array.isArray(schema.enum)) return schema.enum;
  if ('const' in schema) return [schema.const];
  return null;
}
const isConstantOnly = (schema) =>
  enumOf(schema) !== null && Object.keys(schema).every((k) => ['enum', 'const', 'type'].includes(k) || ANNOTATIONS.has(k) || k.startsWith('x-'));

/** `anyOf: [{enum: [a]}, {enum: [b]}]` (TypeSpec's union of string literals) is one enum [a, b]. */
function mergeConstants(expanded) {
  const groups = new Map();
  const variants = [];
  for (const v of expanded.variants) {
    if (!isConstantOnly(v.schema)) { variants.push(v); continue; }
    const types = typesOf(v.schema);
    const key = types ? [...types].sort().join('|') : 'any';
    const group = groups.get(key);
    if (!group) {
      const merged = { schema: { ...v.schema }, ref: v.ref };
      groups.set(key, merged);
      variants.push(merged);
    } else {
      group.ref = null;
      group.schema = { ...(group.schema.type !== undefined ? { type: group.schema.type } : {}), enum: [...new Set([...enumOf(group.schema), ...enumOf(v.schema)])] };
    }
  }
  return { nullable: expanded.nullable, variants };
}

/** The set of JSON types a (null-free) schema allows, or null for any. */
function typesOf(schema) {
  if (typeof schema.type === 'string') return new Set([schema.type]);
  if (Array.isArray(schema.type)) return new Set(schema.type);
  const values = enumOf(schema);
  if (values) return new Set(values.map(scalarTypeOf));
  if (schema.properties || schema.additionalProperties !== undefined || schema.required) return new Set(['object']);
  if (schema.items || schema.prefixItems) return new Set(['array']);
  return null;
}
const allows = (types, t) => types === null || types.has(t) || (t === 'integer' && types.has('number'));
const typeLabel = (types) => (types === null ? 'any' : [...types].sort().join('|'));
const acceptsNull = (expanded) => expanded.nullable || expanded.variants.some((v) => typesOf(v.schema) === null && !v.schema.not);

/** Pairs variants: by $ref name, then by type, then by position. */
function matchVariants(before, after) {
  if (before.length === 1 && after.length === 1) return { pairs: [[before[0], after[0]]], onlyBefore: [], onlyAfter: [] };
  const pairs = [];
  const restB = [...before], restA = [...after];
  const take = (pred) => {
    for (const b of [...restB]) {
      const i = restA.findIndex((a) => pred(b, a));
      if (i >= 0) { pairs.push([b, restA[i]]); restA.splice(i, 1); restB.splice(restB.indexOf(b), 1); }
    }
  };
  take((b, a) => b.ref !== null && b.ref === a.ref);
  take((b, a) => b.ref === null && a.ref === null && typeLabel(typesOf(b.schema)) === typeLabel(typesOf(a.schema)));
  while (restB.length && restA.length) pairs.push([restB.shift(), restA.shift()]);
  return { pairs, onlyBefore: restB, onlyAfter: restA };
}
const variantName = (v, list) => v.ref ?? `#${list.indexOf(v) + 1} (${typeLabel(typesOf(v.schema))})`;

const UPPER = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'];
const LOWER = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'];
const forbidsExtra = (s) => s.additionalProperties === false || s.unevaluatedProperties === false;

class Walker {
  constructor(before, after) {
    this.before = before;
    this.after = after;
    this.changes = [];
    this.seenIds = new Set();
  }

  report(id, kind) {
    if (this.seenIds.has(id)) return;
    this.seenIds.add(id);
    this.changes.push({ id, kind });
  }

  /** Compares two schemas in one direction ('request': the current one must accept what the released one did;
   *  'response': the released reader must understand what the current one sends). */
  schemas(dir, bNode, aNode, label, path, stack = new Set()) {
    const B = expandSchema(this.before, bNode), A = expandSchema(this.after, aNode);
    const at = (what) => `${label}: ${path ? `property ${path}: ` : ''}${what}`;
    const self = (what) => `${label}: ${path ? `property ${path} ` : ''}${what}`;
    const bNull = acceptsNull(B), aNull = acceptsNull(A);
    if (dir === 'response' && aNull && !bNull) this.report(self('becomes nullable'), 'response-nullable');
    if (dir === 'request' && bNull && !aNull) this.report(self('no longer accepts null'), 'request-null-removed');
    if (B.variants.length === 0 || A.variants.length === 0) {
      if (dir === 'response' && A.variants.length > 0) this.report(at(`type changed from null to ${A.variants.map((v) => typeLabel(typesOf(v.schema))).join('|')}`), 'response-type');
      if (dir === 'request' && B.variants.length > 0) this.report(at(`type changed from ${B.variants.map((v) => typeLabel(typesOf(v.schema))).join('|')} to null`), 'request-type');
      return;
    }
    if (dir === 'request' && this.split(B, A, label, path, stack)) return;
    const { pairs, onlyBefore, onlyAfter } = matchVariants(B.variants, A.variants);
    if (dir === 'request') for (const v of onlyBefore) this.report(at(`union variant ${variantName(v, B.variants)} removed`), 'request-variant-removed');
    if (dir === 'response') for (const v of onlyAfter) this.report(at(`union variant ${variantName(v, A.variants)} added`), 'response-variant-added');
    for (const [b, a] of pairs) this.variant(dir, b, a, label, path, stack);
  }

  /**
   * A request object that became a union of objects (`oneOf: [TextDoc, FileDoc]` where one object took `text`,
   * `content` and the rest): when one variant still takes every member the released object had, it is compared
   * with that one (the others are new shapes, which a client may ignore). When none does, the members were split
   * between the variants: what the released object took in any combination now has to be one variant, which refuses
   * some bodies it accepted (reported once, as a split), and each member is compared with every variant that has it.
   * Answers whether it handled the pair.
   */
  split(B, A, label, path, stack) {
    if (B.variants.length !== 1 || A.variants.length < 2) return false;
    const [b] = B.variants;
    const isObject = (v) => typeLabel(typesOf(v.schema)) === 'object';
    if (!isObject(b) || !A.variants.every(isObject) || (b.ref && A.variants.some((a) => a.ref === b.ref))) return false;
    const members = Object.keys(b.schema.properties ?? {});
    const covering = A.variants.find((a) => members.every((m) => m in (a.schema.properties ?? {})));
    if (covering) {
      this.variant('request', b, covering, label, path, stack);
      return true;
    }
    const names = A.variants.map((v) => variantName(v, A.variants)).join(', ');
    this.report(`${label}: ${path ? `property ${path} ` : ''}split into one of ${names}`, 'request-split');
    const sub = (name) => (path ? `${path}.${name}` : name);
    for (const m of members) {
      const holders = A.variants.filter((a) => m in (a.schema.properties ?? {}));
      if (holders.length === 0) this.report(`${label}: property ${sub(m)} removed`, 'request-property-removed');
      for (const a of holders) this.schemas('request', b.schema.properties[m], a.schema.properties[m], label, sub(m), stack);
    }
    return true;
  }

  variant(dir, b, a, label, path, stack) {
    if (b.ref && a.ref) {
      const key = `${dir} ${b.ref} ${a.ref}`;
      if (stack.has(key)) return; // recursion: this pair is already being compared further up
      stack = new Set(stack).add(key);
    }
    const bs = b.schema, as = a.schema;
    const at = (what) => `${label}: ${path ? `property ${path}: ` : ''}${what}`;
    const bT = typesOf(bs), aT = typesOf(as);
    const sub = (name) => (path ? `${path}.${name}` : name);

    if (dir === 'request') {
      if (aT !== null && (bT === null || ![...bT].every((t) => allows(aT, t)))) {
        this.report(at(`type changed from ${typeLabel(bT)} to ${typeLabel(aT)}`), 'request-type');
        return;
      }
      for (const k of UPPER) {
        if (typeof as[k] !== 'number') continue;
        if (typeof bs[k] !== 'number') this.report(at(`${k} ${as[k]} added`), 'request-narrowed');
        else if (as[k] < bs[k]) this.report(at(`${k} lowered from ${bs[k]} to ${as[k]}`), 'request-narrowed');
      }
      for (const k of LOWER) {
        if (typeof as[k] !== 'number') continue;
        if (typeof bs[k] !== 'number') this.report(at(`${k} ${as[k]} added`), 'request-narrowed');
        else if (as[k] > bs[k]) this.report(at(`${k} raised from ${bs[k]} to ${as[k]}`), 'request-narrowed');
      }
      for (const k of ['pattern', 'format', 'multipleOf']) {
        if (as[k] === undefined || as[k] === bs[k]) continue;
        this.report(at(bs[k] === undefined ? `${k} ${J(as[k])} added` : `${k} changed from ${J(bs[k])} to ${J(as[k])}`), 'request-narrowed');
      }
      if (as.uniqueItems === true && bs.uniqueItems !== true) this.report(at('uniqueItems added'), 'request-narrowed');
      const bE = enumOf(bs), aE = enumOf(as);
      if (aE) {
        if (!bE) this.report(at(`enum ${J(aE)} added`), 'request-enum-added');
        else for (const v of bE) if (!aE.some((x) => x === v)) this.report(at(`enum value ${J(v)} removed`), 'request-enum-value-removed');
      }
      // What the service assumes for a member left out: a client that relied on the released value gets another.
      if ('default' in bs && J(as.default) !== J(bs.default)) {
        this.report(at('default' in as ? `default changed from ${J(bs.default)} to ${J(as.default)}` : `default ${J(bs.default)} removed`), 'request-default');
      }
    } else {
      const bE = enumOf(bs), aE = enumOf(as);
      if (bE && aE) for (const v of bE) if (!aE.some((x) => x === v)) this.report(at(`enum value ${J(v)} removed`), 'response-enum-value-removed');
      if (aT === null ? bT !== null : bT !== null && ![...aT].every((t) => allows(bT, t))) {
        this.report(at(`type changed from ${typeLabel(bT)} to ${typeLabel(aT)}`), 'response-type');
        return;
      }
      if (bs.format !== undefined && as.format !== bs.format) {
        this.report(at(as.format === undefined ? `format ${J(bs.format)} removed` : `format changed from ${J(bs.format)} to ${J(as.format)}`), 'response-format');
      }
    }

    // Objects.
    const bP = bs.properties ?? {}, aP = as.properties ?? {};
    const bR = new Set(bs.required ?? []), aR = new Set(as.required ?? []);
    for (const name of Object.keys(bP)) {
      if (!(name in aP)) {
        this.report(`${label}: property ${sub(name)} removed`, `${dir}-property-removed`);
        continue;
      }
      if (dir === 'request' && aR.has(name) && !bR.has(name)) this.report(`${label}: property ${sub(name)} becomes required`, 'request-required');
      if (dir === 'response' && bR.has(name) && !aR.has(name)) this.report(`${label}: property ${sub(name)} becomes optional`, 'response-optional');
      this.schemas(dir, bP[name], aP[name], label, sub(name), stack);
    }
    if (dir === 'request') {
      for (const name of aR) if (!bR.has(name) && !(name in bP)) this.report(`${label}: new required property ${sub(name)}`, 'request-required');
      if (forbidsExtra(as) && !forbidsExtra(bs)) this.report(at('additional properties no longer allowed'), 'request-narrowed');
    }
    const bAP = bs.additionalProperties ?? bs.unevaluatedProperties, aAP = as.additionalProperties ?? as.unevaluatedProperties;
    if (bAP && aAP && typeof bAP === 'object' && typeof aAP === 'object') this.schemas(dir, bAP, aAP, label, path ? `${path}.*` : '*', stack);
    // Arrays.
    if (bs.items !== undefined && as.items !== undefined && typeof bs.items === 'object' && typeof as.items === 'object') {
      this.schemas(dir, bs.items, as.items, label, `${path}[]`, stack);
    }
  }

  operations() {
    const index = (doc) => {
      const ops = new Map();
      for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
        const item = resolveObject(doc, rawItem);
        for (const method of METHODS) {
          if (!item[method]) continue;
          const key = `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`;
          ops.set(key, { method: method.toUpperCase(), path, item, op: item[method] });
        }
      }
      return ops;
    };
    const before = index(this.before), after = index(this.after);
    for (const [key, b] of before) {
      const label = `${b.method} ${b.path}`;
      const a = after.get(key);
      if (!a) {
        const moved = b.op.operationId && [...after.values()].find((x) => x.op.operationId === b.op.operationId);
        if (moved) this.report(`${label}: operation moved to ${moved.method} ${moved.path}`, 'operation-removed');
        else this.report(`${label}: operation removed`, 'operation-removed');
        continue;
      }
      if (b.op.operationId && a.op.operationId !== b.op.operationId) {
        this.report(`${label}: operationId ${b.op.operationId} ${a.op.operationId ? `renamed to ${a.op.operationId}` : 'removed'}`, 'operation-id');
      }
      this.security(label, b.op, a.op);
      this.parameters(label, b, a);
      this.requestBody(label, b.op, a.op);
      this.responses(label, b.op, a.op);
    }
  }

  security(label, bOp, aOp) {
    const alternatives = (doc, op) => {
      const list = op.security ?? doc.security ?? [];
      return (list.length ? list : [{}]).map((req) => new Map(Object.entries(req).map(([name, scopes]) => [name, new Set(scopes ?? [])])));
    };
    const name = (alt) => (alt.size ? [...alt].map(([n, s]) => (s.size ? `${n}[${[...s].sort().join(',')}]` : n)).sort().join('+') : 'anonymous');
    const bAlts = alternatives(this.before, bOp), aAlts = alternatives(this.after, aOp);
    for (const bAlt of bAlts) {
      // Still works if some current alternative asks for no more than this one provides.
      const ok = aAlts.some((aAlt) => [...aAlt].every(([n, scopes]) => bAlt.has(n) && [...scopes].every((s) => bAlt.get(n).has(s))));
      if (!ok) this.report(`${label}: security alternative ${name(bAlt)} removed`, 'security-removed');
    }
  }

  parameters(label, b, a) {
    const list = (doc, { item, op, path }) => {
      const params = new Map();
      const pathParams = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
      for (const raw of [...(item.parameters ?? []), ...(op.parameters ?? [])]) {
        const p = resolveObject(doc, raw);
        const key = p.in === 'path' ? `path #${pathParams.indexOf(p.name)}` : `${p.in} ${p.in === 'header' ? p.name.toLowerCase() : p.name}`;
        params.set(key, p);
      }
      return params;
    };
    const schemaOf = (p) => p.schema ?? Object.values(p.content ?? {})[0]?.schema;
    const bParams = list(this.before, b), aParams = list(this.after, a);
    for (const [key, bp] of bParams) {
      const ap = aParams.get(key);
      const what = `${bp.in} parameter ${bp.name}`;
      if (!ap) { this.report(`${label}: ${what} removed`, 'parameter-removed'); continue; }
      // Same place, another name (`{id}` to `{keyId}`): the wire is unchanged, but code generated from the contract
      // names path parameters (`revokeKey({ path: { id } })`), so source written against the released one breaks.
      if (bp.in === 'path' && ap.name !== bp.name) this.report(`${label}: path parameter ${bp.name} renamed to ${ap.name}`, 'parameter-renamed');
      if (ap.required && !bp.required) this.report(`${label}: ${what} becomes required`, 'request-required');
      this.schemas('request', schemaOf(bp), schemaOf(ap), `${label} ${what}`, '');
    }
    for (const [key, ap] of aParams) {
      if (!bParams.has(key) && ap.required) this.report(`${label}: new required ${ap.in} parameter ${ap.name}`, 'request-required');
    }
  }

  requestBody(label, bOp, aOp) {
    const bBody = bOp.requestBody && resolveObject(this.before, bOp.requestBody);
    const aBody = aOp.requestBody && resolveObject(this.after, aOp.requestBody);
    if (!aBody) {
      if (bBody) this.report(`${label}: request body removed`, 'request-body-removed');
      return;
    }
    if (aBody.required && !bBody) this.report(`${label}: new required request body`, 'request-required');
    if (!bBody) return;
    if (aBody.required && !bBody.required) this.report(`${label}: request body becomes required`, 'request-required');
    for (const [mt, bm] of Object.entries(bBody.content ?? {})) {
      const am = aBody.content?.[mt];
      if (!am) { this.report(`${label} request: media type ${mt} removed`, 'request-media-type-removed'); continue; }
      this.schemas('request', bm.schema, am.schema, `${label} request`, '');
    }
  }

  responses(label, bOp, aOp) {
    for (const [status, raw] of Object.entries(bOp.responses ?? {})) {
      const bRes = resolveObject(this.before, raw);
      const aRaw = aOp.responses?.[status];
      if (!aRaw) {
        if (/^2/.test(status)) this.report(`${label}: ${status} response removed`, 'success-status-removed');
        continue;
      }
      const aRes = resolveObject(this.after, aRaw);
      const where = `${label} ${status} response`;
      for (const [mt, bm] of Object.entries(bRes.content ?? {})) {
        const am = aRes.content?.[mt];
        if (!am) { this.report(`${where}: media type ${mt} removed`, 'response-media-type-removed'); continue; }
        this.schemas('response', bm.schema, am.schema, where, '');
      }
      const aHeaders = new Map(Object.entries(aRes.headers ?? {}).map(([n, h]) => [n.toLowerCase(), h]));
      for (const [h, rawHeader] of Object.entries(bRes.headers ?? {})) {
        const aHeader = aHeaders.get(h.toLowerCase());
        if (!aHeader) { this.report(`${where}: header ${h} removed`, 'response-header-removed'); continue; }
        const bh = resolveObject(this.before, rawHeader), ah = resolveObject(this.after, aHeader);
        if (bh.required && !ah.required) this.report(`${where}: header ${h} becomes optional`, 'response-optional');
        this.schemas('response', bh.schema, ah.schema, `${where} header ${h}`, '');
      }
    }
  }

  /** The `webhooks` section: each released event's body and headers, read as a receiver reads them (a response). */
  webhooks() {
    for (const [event, rawItem] of Object.entries(this.before.webhooks ?? {})) {
      const bItem = resolveObject(this.before, rawItem);
      const aItem = this.after.webhooks?.[event] && resolveObject(this.after, this.after.webhooks[event]);
      for (const method of METHODS) {
        const b = bItem[method];
        if (!b) continue;
        const label = `webhook ${event}`;
        const a = aItem?.[method];
        if (!a) { this.report(`${label}: removed`, 'webhook-removed'); continue; }
        const headers = (doc, op) => new Map((op.parameters ?? []).map((p) => resolveObject(doc, p)).filter((p) => p.in === 'header').map((p) => [p.name.toLowerCase(), p]));
        const aHeaders = headers(this.after, a);
        for (const [name, bh] of headers(this.before, b)) {
          const ah = aHeaders.get(name);
          if (!ah) { this.report(`${label}: header ${bh.name} removed`, 'response-header-removed'); continue; }
          this.schemas('response', bh.schema, ah.schema, `${label} header ${bh.name}`, '');
        }
        const bBody = b.requestBody && resolveObject(this.before, b.requestBody);
        const aBody = a.requestBody && resolveObject(this.after, a.requestBody);
        for (const [mt, bm] of Object.entries(bBody?.content ?? {})) {
          const am = aBody?.content?.[mt];
          if (!am) { this.report(`${label} body: media type ${mt} removed`, 'response-media-type-removed'); continue; }
          this.schemas('response', bm.schema, am.schema, `${label} body`, '');
        }
      }
    }
  }

  securitySchemes() {
    const bSchemes = this.before.components?.securitySchemes ?? {}, aSchemes = this.after.components?.securitySchemes ?? {};
    for (const [name, raw] of Object.entries(bSchemes)) {
      if (!aSchemes[name]) { this.report(`security scheme ${name} removed`, 'security-removed'); continue; }
      const b = resolveObject(this.before, raw), a = resolveObject(this.after, aSchemes[name]);
      for (const k of ['type', 'in', 'name', 'scheme', 'openIdConnectUrl']) {
        const norm = (v) => (typeof v === 'string' && (k === 'scheme' || (k === 'name' && b.in === 'header')) ? v.toLowerCase() : v);
        if (norm(b[k]) !== norm(a[k])) this.report(`security scheme ${name}: ${k} changed from ${J(b[k] ?? null)} to ${J(a[k] ?? null)}`, 'security-changed');
      }
    }
  }

  servers() {
    const urls = (doc) => (doc.servers ?? []).map((s) => s.url);
    const aUrls = new Set(urls(this.after));
    for (const url of urls(this.before)) if (!aUrls.has(url)) this.report(`server ${url} removed`, 'server-removed');
  }
}

/**
 * The operations of `current` that `released` lacks (by method and path): [{ id, operationId }], in document order,
 * `id` such as `POST /v1/jobs: operation added (createJob)`. Not breaking, but not guarded until released.
 */
export function findAddedOperations(released, current) {
  const keys = (doc) => {
    const found = [];
    for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
      const item = resolveObject(doc, rawItem);
      for (const method of METHODS) if (item[method]) found.push({ key: `${method.toUpperCase()} ${path.replace(/\{[^}]*\}/g, '{}')}`, label: `${method.toUpperCase()} ${path}`, operationId: item[method].operationId });
    }
    return found;
  };
  const known = new Set(keys(released).map((k) => k.key));
  return keys(current).filter((k) => !known.has(k.key)).map(({ label, operationId }) => ({ id: `${label}: operation added${operationId ? ` (${operationId})` : ''}`, operationId }));
}

/**
 * Why the contract's version cannot carry its added operations, or null: an addition needs a version newer than the
 * released one (a new minor, `2.0.0` to `2.1.0`), then a release (`npm run release:contract`) so that the guard
 * covers the new operations from then on.
 */
export function additionProblem(addedCount, current, released) {
  if (addedCount === 0) return null;
  const order = compareVersions(current, released);
  if (Number.isNaN(order)) return `info.version ${current ?? '(none)'} or the released ${released ?? '(none)'} is not a semantic version`;
  if (order > 0) return null;
  const [major, minor] = String(released).replace(/^v/, '').split('.').map(Number);
  return `${addedCount} operation${addedCount === 1 ? '' : 's'} not in the released contract but info.version ${current} is the released one: ` +
    `additions need a new minor version (${major}.${minor + 1}.0 in spec/main.tsp, then npm run generate) and a release (npm run release:contract), ` +
    'so that the guard covers them';
}

/**
 * Every change in `current` that breaks a client of `released`: [{ id, kind }], in document order, no duplicates.
 * `id` is the stable string spec/CHANGELOG.md lists; `kind` is a coarse category (for tests and summaries).
 */
export function findBreakingChanges(released, current) {
  const w = new Walker(released, current);
  w.servers();
  w.securitySchemes();
  w.operations();
  w.webhooks();
  return w.changes;
}

/**
 * Reads the allowed breaking changes from spec/CHANGELOG.md. Format (also described at the top of that file):
 *
 *   ## 1.0.0 → 2.0.0 (a title)          a version section; the last version in the heading made the changes
 *   - `<change id>` — <reason>          one allowed change; `—`, `–`, `-` or `:` before the reason
 *
 * Anything else (prose, other bullets, fenced code blocks) is ignored. An id containing a backtick is written
 * between double backticks (`` a`b ``), as in Markdown. Returns { entries: [{ id, version, reason, line }], errors }.
 */
export function parseChangelog(markdown) {
  const entries = [], errors = [];
  let version = null, fence = null;
  markdown.split(/\r?\n/).forEach((text, i) => {
    const line = i + 1;
    const fenceMatch = /^\s*(```+|~~~+)/.exec(text);
    if (fenceMatch) {
      if (!fence) fence = fenceMatch[1];
      else if (fenceMatch[1].startsWith(fence)) fence = null;
      return;
    }
    if (fence) return;
    const heading = /^(#{1,6})\s+(.*)$/.exec(text);
    if (heading) {
      const versions = heading[2].replace(/\(.*\)/g, '').match(/\bv?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?\b/g);
      if (heading[1].length <= 2) version = versions ? versions[versions.length - 1].replace(/^v/, '') : null;
      return;
    }
    const bullet = /^\s*[-*+]\s+(`+)(.+?)\1(?!`)\s*(.*)$/.exec(text);
    if (!bullet) return;
    const ticks = bullet[1];
    let id = bullet[2];
    if (ticks.length > 1 && id.startsWith(' ') && id.endsWith(' ') && id.trim()) id = id.slice(1, -1);
    const reason = bullet[3].replace(/^(?:—|–|-|:)\s*/, '').trim();
    if (!version) errors.push(`line ${line}: \`${id}\` is not under a "## <version>" heading`);
    else if (!reason) errors.push(`line ${line}: \`${id}\` has no reason (write "- \`id\` — why")`);
    else entries.push({ id, version, reason, line });
  });
  return { entries, errors };
}

/** The changelog bullet for an id (double backticks when the id holds a backtick). */
export function changelogLine(id, reason = 'TODO: why this break is accepted') {
  return id.includes('`') ? `- \`\` ${id} \`\` — ${reason}` : `- \`${id}\` — ${reason}`;
}

/** Compares two `major.minor.patch` versions (a pre-release sorts before its release); NaN when one is not one. */
export function compareVersions(a, b) {
  const parse = (v) => /^v?(\d+)\.(\d+)\.(\d+)(-.+)?$/.exec(String(v ?? '').trim());
  const x = parse(a), y = parse(b);
  if (!x || !y) return NaN;
  for (let i = 1; i <= 3; i++) if (Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
  if (x[4] === y[4]) return 0;
  return x[4] === undefined ? 1 : y[4] === undefined ? -1 : x[4] < y[4] ? -1 : 1;
}

/**
 * Splits the changes into those the changelog allows and those it does not. An entry allows its change only when
 * its version is newer than the released contract's (`releasedVersion`): entries of versions already released are
 * history, and cannot hide a new break that happens to have the same id. Entries whose reason is still "TODO" are
 * answered apart (`todo`): the change is listed, but nobody has said why it is acceptable yet.
 */
export function classify(changes, entries, { releasedVersion } = {}) {
  const byId = new Map();
  for (const e of entries) {
    if (releasedVersion !== undefined && compareVersions(e.version, releasedVersion) <= 0) continue;
    byId.set(e.id, e);
  }
  const allowed = [], unlisted = [], todo = [];
  for (const c of changes) {
    const entry = byId.get(c.id);
    if (!entry) unlisted.push(c);
    else if (/^todo\b/i.test(entry.reason)) todo.push({ ...c, entry });
    else allowed.push({ ...c, entry });
  }
  return { allowed, unlisted, todo };
}

/**
 * Why the contract's version cannot carry its breaking changes, or null: a break a client must adapt to (an allowed
 * change of spec/CHANGELOG.md) needs a new major `info.version` (semantic versioning of the document); additions need
 * none. `current` and `released` are `info.version` strings.
 */
export function versionProblem(allowedCount, current, released) {
  if (allowedCount === 0) return null;
  const major = (v) => Number(/^v?(\d+)\./.exec(String(v ?? ''))?.[1]);
  const c = major(current), r = major(released);
  if (!Number.isFinite(c) || !Number.isFinite(r)) return `info.version ${current ?? '(none)'} or the released ${released ?? '(none)'} is not a semantic version`;
  if (c > r) return null;
  return `${allowedCount} breaking change${allowedCount === 1 ? '' : 's'} but info.version ${current} keeps the released major version (${released}): a break needs ${r + 1}.0.0 (bump info.version in spec/main.tsp, then npm run generate)`;
}
