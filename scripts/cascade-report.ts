// The cascade's routing on the repository's labelled sets (EXTRACTION_ENGINE=cascade, docs/models.md "Cascade"): how
// much the offline engine answers without the model, how right what it keeps is, and the model tokens saved against
// the model alone. The model is the fake Messages server (server/test/support/fake-anthropic.ts) answering each
// document's label, an oracle, so that the routing is measured and not a model: for every member it is asked, it
// answers the label's value and quotes it from the document as a model would (fake-quotes.ts).
//   npx tsx scripts/cascade-report.ts [--keep 0.8,0.9,0.95] [--route invoice]
// Tokens are counted as the request and the answer would be: the characters of the system prompt, the messages (the
// document) and the answer's schema (structured output or tool), and of the answer with its quotes, at 4 characters a
// token (prompt caching, which the cascade and the model alone would share, is left out). Sets: every labelled set of
// server/test/support/claude-evidence.ts (the public corpus, the fixtures and the held-out sets, fresh9 apart).
import type { EngineAnswer, EngineInput, ExtractionEngine, FixedKind, JsonSchema, PlanInput, TokenPlan } from '../server/src/extraction/engines/engine.js';
import { AnthropicEngine } from '../server/src/extraction/engines/anthropic/anthropic-engine.js';
import { CascadeEngine } from '../server/src/extraction/engines/cascade/cascade-engine.js';
import { DEFAULT_CASCADE_KEEP } from '../server/src/extraction/engines/cascade/keep.js';
import { hasGap, memberOfPointer, memberPointer, membersOf, WHOLE } from '../server/src/extraction/engines/cascade/members.js';
import { LocalEngine } from '../server/src/extraction/engines/local-engine.js';
import { runLocalTask } from '../server/src/extraction/engines/local-pool/local-task.js';
import { leaves } from '../server/src/extraction/evidence/pointers.js';
import { dataSchemaFor } from '../server/src/extraction/schemas/contract-schemas.js';
import { prepareCustomSchema } from '../server/src/extraction/schemas/custom-schema.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { labelledDocuments, type LabelledDocument } from '../server/test/support/claude-evidence.js';
import { SETS } from '../server/test/local-engine/accuracy/sets.js';
import { routeFolders } from '../server/test/local-engine/accuracy/score.js';
import { documentTextOf, FakeAnthropic, schemaOf } from '../server/test/support/fake-anthropic.js';
import { quoteAnswer, renewalAnswer } from '../server/test/support/fake-quotes.js';
import { judgeLeaves } from '../server/test/local-engine/accuracy/score.js';

const argv = process.argv.slice(2);
const opt = (name: string) => argv.flatMap((a, i) => (argv[i - 1] === name ? [a] : []));
const keeps = (opt('--keep')[0]?.split(',').map(Number) ?? [0.8, 0.85, 0.9, DEFAULT_CASCADE_KEEP, 0.95]).filter((k, i, all) => all.indexOf(k) === i).sort();
const onlyRoute = opt('--route')[0];

const tokensOf = (chars: number) => Math.ceil(chars / 4);
type Json = Record<string, unknown>;

/** The offline engine in this process (the service runs it in worker threads), its answer computed once a document. */
class OfflineInProcess implements ExtractionEngine {
  readonly name = 'local' as const;
  private readonly costs = new LocalEngine();
  private readonly memo = new Map<string, EngineAnswer>();
  plan(input: PlanInput): TokenPlan { return this.costs.plan(input); }
  classifier(): never { throw new Error('not used'); }
  async extract(input: EngineInput): Promise<EngineAnswer> {
    const key = `${input.task.kind}\u0000${JSON.stringify(input.schema)}\u0000${input.text}`;
    const known = this.memo.get(key);
    if (known) return known;
    const out = runLocalTask({ task: input.task, text: input.text, schema: input.schema });
    if (!out.ok) throw new Error('offline answer outside the schema');
    const chars = input.text.length + (input.task.kind === 'custom' ? JSON.stringify(input.task.schema).length : 0);
    const answer = { data: out.data, found: out.found, model: 'local-rules-1', usage: { inputTokens: tokensOf(chars), outputTokens: tokensOf(JSON.stringify(out.data).length) } };
    this.memo.set(key, answer);
    return answer;
  }
}

/** fresh9 (14 new languages), which the evidence measure leaves out for the fake's quoting, counts here: routing needs no quote. */
function fresh9(): LabelledDocument[] {
  const dir = SETS.fresh9!;
  if (!existsSync(dir)) return [];
  return routeFolders(dir).flatMap((route) => readdirSync(join(dir, route)).filter((f) => f.endsWith('.txt')).sort().flatMap((file) => {
    const slug = basename(file, '.txt');
    const label = join(dir, route, `${slug}.json`), schema = join(dir, route, `${slug}.schema.json`);
    if (!existsSync(label) || (route === 'custom' && !existsSync(schema))) return [];
    return [{ set: 'fresh9', route, slug, text: readFileSync(join(dir, route, file), 'utf8'), label: JSON.parse(readFileSync(label, 'utf8')), ...(route === 'custom' ? { schema: JSON.parse(readFileSync(schema, 'utf8')) } : {}) }];
  }));
}
const all = labelledDocuments();
const seenText = new Set(all.map((d) => d.text));
const docs = [...all, ...fresh9().filter((d) => !seenText.has(d.text))].filter((d) => !onlyRoute || d.route === onlyRoute);
const byText = new Map(docs.map((d) => [d.text, d]));
const pick = (data: unknown, names: string[] | null) => (names === null || !data || typeof data !== 'object' ? data : Object.fromEntries(Object.entries(data as Json).filter(([k]) => names.includes(k))));

const fake = await new FakeAnthropic().start();
// The oracle: the label's value for each member asked, quoted from the document; tokens counted from the request and answer.
fake.fallback = (req) => {
  const text = documentTextOf(req);
  const doc = byText.get(text);
  if (!doc) throw new Error('a document the oracle does not know');
  const props = schemaOf(req).properties as Json | undefined;
  const asked = props ? Object.keys(props) : null;
  let data: unknown;
  let quotes: Array<{ path: string; quote: string; derived: boolean }>;
  if (doc.route === 'renewal') {
    const full = renewalAnswer(text, doc.label);
    data = pick(full.data, asked);
    quotes = full.quotes.filter((q) => asked === null || asked.includes(q.path.split('/')[1]!));
  } else {
    data = pick(doc.label, asked);
    quotes = quoteAnswer(text, data);
  }
  quotes = quotes.map(({ path, quote, derived }) => ({ path, quote, derived }));
  const prompt = JSON.stringify(req.body.system ?? '') + JSON.stringify(req.body.messages) + JSON.stringify(req.body.output_config?.format ?? req.body.tools ?? '');
  return { kind: 'answer', input: data, quotes, usage: { input_tokens: tokensOf(prompt.length), output_tokens: tokensOf(JSON.stringify({ data, quotes }).length) } };
};

const model = new AnthropicEngine({
  apiKey: 'sk-ant-report', model: 'claude-sonnet-5-5', baseUrl: fake.url, timeoutMs: 60_000, maxRetries: 0,
  maxTokens: 4096, retryMaxTokens: 16_384, thinking: 'off', effort: 'low',
});
const offline = new OfflineInProcess();

function inputOf(doc: LabelledDocument): EngineInput {
  const schema: JsonSchema = doc.schema ? prepareCustomSchema(doc.schema) : dataSchemaFor(doc.route as FixedKind);
  const task = doc.schema ? { kind: 'custom' as const, schema: doc.schema } : { kind: doc.route as FixedKind };
  return { task, text: doc.text, schema, signal: new AbortController().signal, budgetTokens: 10_000_000 };
}

/** The values of an answer, as the evidence counts them (a renewal term's `value`, not its quote). */
const valuesOf = (route: string, data: unknown) => leaves(data).filter((l) => route !== 'renewal' || l.pointer === '/documentKindGuess' || /^\/[^/]+\/value$/.test(l.pointer));

interface Tally {
  docs: number; failed: number; noCall: number; members: number; membersKept: number; values: number; valuesKept: number; keptRight: number;
  aloneTokens: number; cascadeModelTokens: number; cascadeBilledTokens: number; aloneBilled: number;
  /** Members asked because the offline engine found nothing in them (a null, an empty list), and because it was unsure. */
  askedNotFound: number; askedUnsure: number;
  /** Output tokens (the answer and its quotes) of the model alone, and of the cascade's calls. */
  aloneOutput: number; cascadeOutput: number;
}
const empty = (): Tally => ({ docs: 0, failed: 0, noCall: 0, members: 0, membersKept: 0, values: 0, valuesKept: 0, keptRight: 0, aloneTokens: 0, cascadeModelTokens: 0, cascadeBilledTokens: 0, aloneBilled: 0, askedNotFound: 0, askedUnsure: 0, aloneOutput: 0, cascadeOutput: 0 });
const tallies = new Map<number, Map<string, Tally>>(keeps.map((k) => [k, new Map()]));
const total = (u: { inputTokens: number; outputTokens: number }) => u.inputTokens + u.outputTokens;

for (const doc of docs) {
  const input = inputOf(doc);
  let alone: EngineAnswer;
  try {
    alone = await model.extract(input);
  } catch {
    for (const k of keeps) { const t = tallies.get(k)!; const r = t.get(`${doc.set}\t${doc.route}`) ?? empty(); r.failed++; t.set(`${doc.set}\t${doc.route}`, r); }
    continue;
  }
  for (const keep of keeps) {
    const t = tallies.get(keep)!;
    const r = t.get(`${doc.set}\t${doc.route}`) ?? empty();
    t.set(`${doc.set}\t${doc.route}`, r);
    const before = fake.requests.length;
    let answer: EngineAnswer;
    try {
      answer = await new CascadeEngine(offline, model, keep).extract(input);
    } catch {
      r.failed++;
      continue;
    }
    const called = fake.requests.length > before;
    const by = answer.answeredBy ?? {};
    const whole = membersOf(input.schema)[0] === WHOLE;
    r.docs++;
    if (!called) r.noCall++;
    r.members += Object.keys(by).length;
    r.membersKept += Object.values(by).filter((e) => e === 'local').length;
    const offlineData = (await offline.extract(input)).data as Json | null;
    for (const m of membersOf(input.schema)) {
      if (by[memberPointer(m)] === 'local') continue;
      let value: unknown = whole ? offlineData : offlineData?.[m];
      if (doc.route === 'renewal' && value && typeof value === 'object' && 'value' in (value as Json)) value = (value as Json).value;
      if (hasGap(value)) r.askedNotFound++; else r.askedUnsure++;
    }
    const judged = judgeLeaves(doc.label as never, answer.data as never);
    for (const v of valuesOf(doc.route, answer.data)) {
      r.values++;
      if (by[memberOfPointer(v.pointer, whole)] !== 'local') continue;
      r.valuesKept++;
      if (judged.get(v.pointer)) r.keptRight++;
    }
    r.aloneTokens += total(alone.usage);
    r.aloneOutput += alone.usage.outputTokens;
    r.cascadeOutput += called ? answer.usage.outputTokens : 0;
    r.aloneBilled += total(alone.usage);
    r.cascadeModelTokens += called ? total(answer.usage) : 0;
    r.cascadeBilledTokens += total(answer.usage);
  }
}
await fake.stop();

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : '-');
const sum = (rows: Tally[]) => rows.reduce((s, r) => { for (const k of Object.keys(s) as (keyof Tally)[]) s[k] += r[k]; return s; }, empty());
const line = (label: string, r: Tally) => `| ${label} | ${r.docs} | ${pct(r.noCall, r.docs)} | ${pct(r.membersKept, r.members)} | ${pct(r.valuesKept, r.values)} | ${r.valuesKept ? (r.keptRight / r.valuesKept).toFixed(3) : '-'} | ${r.aloneTokens} | ${r.cascadeModelTokens} | ${pct(r.aloneTokens - r.cascadeModelTokens, r.aloneTokens)} | ${pct(r.aloneBilled - r.cascadeBilledTokens, r.aloneBilled)} |`;
const header = '| | documents | without the model | members kept | values kept | kept values right | model tokens, model alone | model tokens, cascade | model tokens saved | billed tokens saved |\n|---|---|---|---|---|---|---|---|---|---|';
console.log(`${docs.length} labelled documents; oracle model (the fake answering labels); tokens at 4 characters a token.\n`);
console.log('By CASCADE_KEEP, every set:\n');
console.log(header);
for (const keep of keeps) console.log(line(`keep ${keep}${keep === DEFAULT_CASCADE_KEEP ? ' (default)' : ''}`, sum([...tallies.get(keep)!.values()])));
console.log('\nInput (prompt, document, schema) and output (answer, quotes) tokens of the model calls (every set):\n');
console.log('| | model alone: input | output | cascade: input | output |\n|---|---|---|---|---|');
for (const keep of keeps) { const r = sum([...tallies.get(keep)!.values()]); console.log(`| keep ${keep} | ${r.aloneTokens - r.aloneOutput} | ${r.aloneOutput} | ${r.cascadeModelTokens - r.cascadeOutput} | ${r.cascadeOutput} |`); }
console.log('\nMembers asked of the model, by why (every set):\n');
console.log('| | asked: offline found nothing or left a gap (null, empty list) | asked: found, under the keep threshold |\n|---|---|---|');
for (const keep of keeps) { const r = sum([...tallies.get(keep)!.values()]); console.log(`| keep ${keep} | ${r.askedNotFound} (${pct(r.askedNotFound, r.askedNotFound + r.askedUnsure)}) | ${r.askedUnsure} |`); }
console.log(`\nBy route, at the default keep (${DEFAULT_CASCADE_KEEP}):\n`);
console.log(header);
const atDefault = tallies.get(DEFAULT_CASCADE_KEEP) ?? tallies.get(keeps[0]!)!;
const groupBy = (part: 0 | 1) => {
  const groups = new Map<string, Tally[]>();
  for (const [k, r] of atDefault) { const g = k.split('\t')[part]!; groups.set(g, [...(groups.get(g) ?? []), r]); }
  return [...groups].sort((a, b) => a[0].localeCompare(b[0]));
};
for (const [route, rows] of groupBy(1)) console.log(line(route, sum(rows)));
console.log(`\nBy set, at the default keep (${DEFAULT_CASCADE_KEEP}):\n`);
console.log(header);
for (const [set, rows] of groupBy(0)) console.log(line(set, sum(rows)));
const failed = sum([...atDefault.values()]).failed;
if (failed) console.log(`\n${failed} documents failed (the model alone or the cascade): left out.`);
