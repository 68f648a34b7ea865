// `docextract eval DIR`: a folder in the corpus format (DIR/<route>/<slug>.txt or another file the service reads, with
// <slug>.json, its expected `data`, beside it; for `custom`, <slug>.schema.json) scored by the service the CLI points
// at (POST /v1/evaluations, 50 documents a call, each further call added to the same evaluation), printed as a table.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DocExtract } from './client.js';
import type { components } from './contract.js';
import { mediaTypeOf } from './files.js';

type Schemas = components['schemas'];
const PER_CALL = 50;

/** The labelled documents of a corpus folder, route by route (only `route` when given), in name order. */
export function corpusExamples(dir: string, route?: string): Array<Schemas['EvaluationExample'] & { name: string }> {
  const out: Array<Schemas['EvaluationExample'] & { name: string }> = [];
  const routes = readdirSync(dir).filter((r) => statSync(join(dir, r)).isDirectory() && (!route || r === route)).sort();
  for (const r of routes) {
    for (const name of readdirSync(join(dir, r)).sort()) {
      if (name.endsWith('.json')) continue;
      const slug = name.replace(/\.[^.]+$/, '');
      const label = join(dir, r, `${slug}.json`);
      const mediaType = mediaTypeOf(name);
      if (!existsSync(label) || !mediaType) continue;
      const path = join(dir, r, name);
      const document = mediaType === 'text/plain'
        ? { text: readFileSync(path, 'utf8') }
        : { content: readFileSync(path).toString('base64'), mediaType, filename: name };
      const schemaFile = join(dir, r, `${slug}.schema.json`);
      out.push({
        name: `${r}/${name}`, route: r as Schemas['JobRoute'], document: document as Schemas['DocumentInput'], expected: JSON.parse(readFileSync(label, 'utf8')),
        ...(existsSync(schemaFile) ? { schema: JSON.parse(readFileSync(schemaFile, 'utf8')) } : {}),
      });
    }
  }
  return out;
}

/** Runs the evaluation, 50 documents a call, and answers the report over all of them. */
export async function evaluateCorpus(client: DocExtract, examples: Array<Schemas['EvaluationExample'] & { name: string }>, model: string | undefined, onProgress: (done: number) => void): Promise<Schemas['Evaluation']> {
  let evaluation: Schemas['Evaluation'] | undefined;
  for (let i = 0; i < examples.length; i += PER_CALL) {
    const chunk = examples.slice(i, i + PER_CALL).map(({ name: _name, ...ex }) => ex);
    evaluation = await client.evaluations.create({ examples: chunk, ...(model ? { model } : {}), ...(evaluation ? { evaluationId: evaluation.id } : {}) }, { timeoutMs: 600_000 });
    onProgress(Math.min(examples.length, i + PER_CALL));
  }
  return evaluation!;
}

const pct = (x: number) => x.toFixed(3);

/** The report as a person reads it: routes and fields, then confidence. */
export function evaluationTable(e: Schemas['Evaluation'], names: string[]): string {
  const lines = [`model ${e.model}: ${e.documents} documents, ${e.values} values`, '', 'route / field              tp    fp    fn  precision  recall     f1'];
  const row = (label: string, c: Schemas['FieldCounts']) => `${label.padEnd(24)} ${String(c.tp).padStart(5)} ${String(c.fp).padStart(5)} ${String(c.fn).padStart(5)}  ${pct(c.precision).padStart(9)} ${pct(c.recall).padStart(7)} ${pct(c.f1).padStart(6)}`;
  for (const r of e.routes) {
    lines.push(row(`${r.route} (${r.documents})`, r));
    for (const f of r.fields) lines.push(row(`  ${f.field}`, f));
  }
  lines.push(row('all', e.overall), '', `ECE ${pct(e.ece)}   AUROC ${pct(e.auroc)}`, 'threshold  returned  precision  recall');
  for (const t of e.thresholds) lines.push(`${t.threshold.toFixed(1).padStart(9)} ${String(t.returned).padStart(9)} ${pct(t.precision).padStart(10)} ${pct(t.recall).padStart(7)}`);
  for (const f of e.failures) lines.push(`failed: ${names[f.index] ?? f.index}: ${f.code}: ${f.message}`);
  return lines.join('\n');
}
