// Scores the offline rules engine on labelled sets, in-process, with the repository's one scorer
// (server/test/local-engine/accuracy/score.ts, the rules of ../shared/corpus/score.mjs).
//   npx tsx scripts/score-local.ts                       every set the accuracy floors hold
//   npx tsx scripts/score-local.ts --corpus DIR [--route invoice] [--verbose] [--json]
// Besides field F1 (every value the engine finds), each set's evidence and confidence: the share of values with
// evidence, quotes that hold their value, calibration (ECE over 10 bins, AUROC) and F1 at the default threshold.
import { scoreSet, type SetScore } from '../server/test/local-engine/accuracy/score.js';
import { SETS, setExists } from '../server/test/local-engine/accuracy/sets.js';
import { scoreTrust, trustOfSet, type TrustScore } from '../server/test/local-engine/accuracy/trust.js';

const argv = process.argv.slice(2);
const opt = (name: string) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : undefined; };
const route = opt('route');
const sets: [string, string][] = opt('corpus')
  ? [[opt('corpus')!, opt('corpus')!]]
  : Object.entries(SETS).filter(([name]) => setExists(name));

const report: Record<string, Omit<SetScore, 'misses'> & { trust: TrustScore }> = {};
for (const [name, dir] of sets) {
  const { misses, ...s } = scoreSet(dir, { route });
  const trust = scoreTrust(trustOfSet(dir, { route }));
  report[name] = { ...s, trust };
  if (argv.includes('--json')) continue;
  console.log(`== ${name}`);
  for (const [r, c] of Object.entries(s.routes)) console.log(`${r.padEnd(14)} docs ${String(c.docs).padStart(2)}  F1 ${c.f1.toFixed(3)}  (tp ${c.tp} fp ${c.fp} fn ${c.fn})`);
  console.log(`field F1 ${s.f1.toFixed(3)} precision ${s.precision.toFixed(3)} recall ${s.recall.toFixed(3)} grounded quotes ${s.groundedQuotes ?? 'n/a'}`);
  const t = trust.atThreshold;
  console.log(`at confidence >= ${trust.threshold}: F1 ${t.f1.toFixed(3)} precision ${t.precision.toFixed(3)} recall ${t.recall.toFixed(3)}; ECE ${trust.ece.toFixed(3)} AUROC ${trust.auroc.toFixed(3)}; evidence ${trust.evidenceShare.toFixed(3)}, quotes holding their value ${trust.spanExact.toFixed(3)} (${trust.values} values)`);
  if (argv.includes('--verbose')) for (const m of misses) console.log(`  ${m}`);
}
if (argv.includes('--json')) console.log(JSON.stringify(report, null, 2));
