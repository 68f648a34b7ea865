// Brings the contract's extraction examples up to date with the service's answers: each example's `evidence` and
// `withheld` (spec/routes/*.tsp) become what the service answered for it. The answers come from the examples test:
//
//   EXAMPLES_ACTUAL=/tmp/actual.jsonl NODE_OPTIONS=--experimental-vm-modules npx jest test/contract/examples.test.ts
//   node scripts/update-examples.mjs /tmp/actual.jsonl && npm run generate
//
// Only `evidence` and `withheld` are rewritten; a change in `data` is for a person to look at (the test shows it).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROUTES = 'spec/routes';

/** A JSON value as a TypeSpec value literal, indented from `indent` levels. */
function literal(v, indent) {
  const pad = '  '.repeat(indent);
  if (Array.isArray(v)) return v.length ? `#[\n${v.map((x) => `${pad}  ${literal(x, indent + 1)},`).join('\n')}\n${pad}]` : '#[]';
  if (v !== null && typeof v === 'object') {
    const items = Object.entries(v).map(([k, x]) => `${pad}  ${/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : `\`${k}\``}: ${literal(x, indent + 1)},`);
    return items.length ? `#{\n${items.join('\n')}\n${pad}}` : '#{}';
  }
  return JSON.stringify(v);
}

/** Every object of an answer carrying `evidence` and `withheld`, in document order. */
function trusted(body, out = []) {
  if (Array.isArray(body)) for (const x of body) trusted(x, out);
  else if (body !== null && typeof body === 'object') {
    if ('evidence' in body && 'withheld' in body) out.push(body);
    for (const x of Object.values(body)) trusted(x, out);
  }
  return out;
}

/** The index just after the bracket group opening at s[i]. */
function groupEnd(s, i) {
  let depth = 0, quoted = false;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (quoted) { if (c === '\\') j++; else if (c === '"') quoted = false; }
    else if (c === '"') quoted = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return j + 1;
  }
  throw new Error('unbalanced brackets');
}

/** Replaces the first `name: #...` in s[from, to); the new text, and where the replacement ends. */
function replaceMember(s, from, to, name, value) {
  const re = new RegExp(`\\b${name}: #`, 'g');
  re.lastIndex = from;
  const m = re.exec(s);
  if (!m || m.index >= to) throw new Error(`no ${name} between ${from} and ${to}`);
  const lineStart = s.lastIndexOf('\n', m.index) + 1;
  const indent = s.slice(lineStart, m.index).trim() === '' ? (m.index - lineStart) / 2 : 4;
  const stop = groupEnd(s, m.index + m[0].length - 1);
  const text = `${name}: ${literal(value, indent)}`;
  return { s: s.slice(0, m.index) + text + s.slice(stop), end: m.index + text.length, to: to + text.length - (stop - m.index) };
}

const answers = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const files = Object.fromEntries(readdirSync(ROUTES).filter((f) => f.endsWith('.tsp')).map((f) => [join(ROUTES, f), readFileSync(join(ROUTES, f), 'utf8')]));
for (const a of answers) {
  const found = trusted(a.body);
  if (!found.length) continue;
  const title = `#{ title: ${JSON.stringify(a.title)} }`;
  for (const [file, text] of Object.entries(files)) {
    const at = text.indexOf(title);
    if (at < 0) continue;
    const from = Math.max(0, text.lastIndexOf('#{ title: ', at - 1) + 1);
    // An answer held in a named value above the operations (a job's result) is rewritten below, at its declaration.
    if (!/\bevidence: #/.test(text.slice(from, at))) continue;
    let s = text, pos = from, to = at;
    for (const obj of found) {
      for (const name of ['evidence', 'withheld']) ({ s, end: pos, to } = replaceMember(s, pos, to, name, obj[name]));
    }
    files[file] = s;
    console.log(`${file}: ${a.operationId} "${a.title}"`);
  }
}
// A job's result, shared by the job and webhook examples.
const job = answers.find((a) => a.operationId === 'getJob');
if (job) {
  const file = join(ROUTES, 'jobs.tsp');
  let s = files[file];
  const d = s.indexOf('const jobInvoiceResult = #{');
  for (const name of ['evidence', 'withheld']) ({ s } = replaceMember(s, d, groupEnd(s, s.indexOf('{', d)), name, job.body.result[name]));
  files[file] = s;
  console.log(`${file}: jobInvoiceResult`);
}
for (const [file, s] of Object.entries(files)) writeFileSync(file, s);
