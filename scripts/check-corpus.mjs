#!/usr/bin/env node
// Checks a folder of labelled documents (the training corpus, a blind set): every label parses, meets its route's
// answer schema from the compiled contract (renewal labels hold plain values), a custom schema is a JSON Schema whose
// label fills every property, and every string value is written in the document or listed as derived in
// MANIFEST.jsonl. Prints one line per problem and exits 1 when there is any.
//
//   node scripts/check-corpus.mjs DIR [--quiet]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const root = process.argv[2];
if (!root || !existsSync(root)) {
  console.error('usage: node scripts/check-corpus.mjs DIR [--quiet]');
  process.exit(2);
}
const quiet = process.argv.includes('--quiet');
const contract = JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../generated/openapi.json'), 'utf8'));
const ROUTES = { invoice: 'InvoiceData', receipt: 'ReceiptData', contract: 'ContractData', 'job-posting': 'JobPostingData', 'meeting-notes': 'MeetingNotesData', renewal: 'RenewalData' };
const KINDS = new Set(['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal', 'other']);

/** The contract's components, with `$ref`s pointing at `#/$defs/...` so Ajv resolves them inside one schema. */
const defs = JSON.parse(JSON.stringify(contract.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** A renewal label holds plain values: each member's `value` schema instead of its `{value, sourceQuote}` wrapper. */
function plainRenewalSchema() {
  const data = defs.RenewalData;
  const properties = {};
  for (const [name, sub] of Object.entries(data.properties)) {
    const wrapper = sub.allOf ? sub.allOf[0] : sub;
    const target = wrapper.$ref ? defs[wrapper.$ref.split('/').pop()] : wrapper;
    properties[name] = target.properties?.value ?? sub;
  }
  return { type: 'object', required: data.required, properties, additionalProperties: false };
}

const validators = {};
for (const [route, name] of Object.entries(ROUTES)) {
  const schema = route === 'renewal' ? plainRenewalSchema() : { $ref: `#/$defs/${name}` };
  validators[route] = ajv.compile({ ...schema, $defs: defs });
}

const fold = (s) => s.normalize('NFC').toLowerCase().replace(/[\s,]+/g, ' ').trim();
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;
const CODE = /^[A-Z]{3}$/;
const ENUMS = new Set(['full_time', 'part_time', 'contract', 'temporary', 'internship', 'hour', 'day', 'week', 'month', 'year',
  'monthly', 'quarterly', 'semiannual', 'annual', 'one_time', 'order_form', 'master_agreement', 'renewal_notice', 'invoice', 'quote',
  'amendment', 'terms_of_service', 'other']);

/** Every string leaf of a label with its JSON Pointer. */
function* stringLeaves(value, pointer = '') {
  if (typeof value === 'string') yield [pointer, value];
  else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) yield* stringLeaves(value[i], `${pointer}/${i}`);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) yield* stringLeaves(v, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
}

/** Every property a custom schema declares must be present in its label (null when not stated), at every level. */
function missingProperties(schema, value, rootSchema, pointer = '') {
  const out = [];
  let node = schema;
  for (let hops = 0; node && node.$ref && hops < 10; hops++) {
    node = node.$ref.slice(2).split('/').reduce((o, k) => o?.[k.replace(/~1/g, '/').replace(/~0/g, '~')], rootSchema);
  }
  if (!node || typeof node !== 'object' || value === null || value === undefined) return out;
  if (node.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [name, sub] of Object.entries(node.properties)) {
      if (!(name in value)) out.push(`${pointer}/${name}`);
      else out.push(...missingProperties(sub, value[name], rootSchema, `${pointer}/${name}`));
    }
  }
  if (node.items && Array.isArray(value)) value.forEach((v, i) => out.push(...missingProperties(node.items, v, rootSchema, `${pointer}/${i}`)));
  return out;
}

/** Each property accepts null, as the service's answers do. */
function nullable(schema) {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out = Array.isArray(schema) ? [] : {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'properties') out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, { anyOf: [nullable(s), { type: 'null' }] }]));
    else if (k === '$schema' || k === '$id') continue;
    else if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = k === 'enum' || k === 'const' || k === 'default' || k === 'examples' ? v : nullable(v);
    else if (Array.isArray(v) && ['anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(k)) out[k] = v.map(nullable);
    else out[k] = v;
  }
  if (out.$defs) out.$defs = Object.fromEntries(Object.entries(out.$defs).map(([n, s]) => [n, nullable(s)]));
  if (out.definitions) out.definitions = Object.fromEntries(Object.entries(out.definitions).map(([n, s]) => [n, nullable(s)]));
  return out;
}

const manifestPath = join(root, 'MANIFEST.jsonl');
const manifest = new Map();
const problems = [];
if (existsSync(manifestPath)) {
  readFileSync(manifestPath, 'utf8').split('\n').filter((l) => l.trim()).forEach((line, i) => {
    try {
      const m = JSON.parse(line);
      if (manifest.has(m.path)) problems.push(`MANIFEST.jsonl:${i + 1}: ${m.path} listed twice`);
      manifest.set(m.path, m);
      if (!KINDS.has(m.kind)) problems.push(`MANIFEST.jsonl:${i + 1}: kind "${m.kind}" is not one of ${[...KINDS].join(', ')}`);
      if (!m.locale || !m.language) problems.push(`MANIFEST.jsonl:${i + 1}: locale and language are required`);
    } catch (e) {
      problems.push(`MANIFEST.jsonl:${i + 1}: not JSON (${e.message})`);
    }
  });
} else problems.push('MANIFEST.jsonl is missing');

let documents = 0;
for (const route of [...Object.keys(ROUTES), 'custom']) {
  const dir = join(root, route);
  if (!existsSync(dir)) continue;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.txt')).sort()) {
    const slug = file.slice(0, -4);
    const id = `${route}/${slug}`;
    documents++;
    const text = readFileSync(join(dir, file), 'utf8');
    if (!manifest.has(id)) problems.push(`${id}: not in MANIFEST.jsonl`);
    let label;
    try {
      label = JSON.parse(readFileSync(join(dir, `${slug}.json`), 'utf8'));
    } catch (e) {
      problems.push(`${id}: label ${e.code === 'ENOENT' ? 'missing' : `not JSON (${e.message})`}`);
      continue;
    }
    if (route === 'custom') {
      let schema;
      try {
        schema = JSON.parse(readFileSync(join(dir, `${slug}.schema.json`), 'utf8'));
      } catch (e) {
        problems.push(`${id}: schema ${e.code === 'ENOENT' ? 'missing' : `not JSON (${e.message})`}`);
        continue;
      }
      if (schema.type !== 'object') problems.push(`${id}: the schema's root type must be "object"`);
      try {
        const check = new Ajv2020({ strict: false, allErrors: true });
        addFormats(check);
        const validate = check.compile(nullable(schema));
        if (!validate(label)) problems.push(...validate.errors.map((e) => `${id}: ${e.instancePath || '/'} ${e.message}`));
      } catch (e) {
        problems.push(`${id}: the schema does not compile (${e.message})`);
      }
      for (const p of missingProperties(schema, label, schema)) problems.push(`${id}: ${p} is missing from the label (use null)`);
    } else {
      const validate = validators[route];
      if (!validate(label)) problems.push(...validate.errors.map((e) => `${id}: ${e.instancePath || '/'} ${e.message}`));
    }
    const derived = new Set(manifest.get(id)?.derived ?? []);
    const folded = fold(text);
    for (const [pointer, value] of stringLeaves(label)) {
      if (derived.has(pointer) || ISO_DATE.test(value) || TIME.test(value) || CODE.test(value) || ENUMS.has(value)) continue;
      if (!folded.includes(fold(value))) problems.push(`${id}: ${pointer} "${value.slice(0, 60)}" is not in the document (fix it, or list the pointer in "derived")`);
    }
  }
}
for (const id of manifest.keys()) {
  if (!existsSync(join(root, `${id}.txt`))) problems.push(`MANIFEST.jsonl: ${id} has no document`);
}
if (!quiet || problems.length) for (const p of problems) console.log(p);
console.log(`${documents} documents, ${problems.length} problems`);
process.exit(problems.length ? 1 : 0);
