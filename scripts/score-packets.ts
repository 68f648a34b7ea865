// Scores /v1/extract/auto's pipeline (in-process, offline engine, the service's own reader) on the packet corpus
// (test/packets/labels.json, written by scripts/packet-corpus.ts): classification accuracy of the labelled parts,
// page-boundary F1 (pages after the first where a document starts, in packets and in attachments of several documents),
// and the field F1 of the extracted parts against the same documents sent alone (same rendering, their own route).
//   npx tsx scripts/score-packets.ts [--only pdf|scan|mail] [--limit N] [--verbose]
// Scans are read by OCR (about 1.4 s a page here): the whole corpus takes several minutes.
import { parseArgs } from 'node:util';
import { Documents } from '../server/src/documents/documents.js';
import { compare, type Counts } from '../server/test/local-engine/accuracy/score.js';
import {
  addCounts, autoInProcess, boundaryCounts, extractOffline, f1, fieldCounts, goldOf, loadLabels, readText, renderAlone, renderMail, renderPacket, textOf,
  type PacketDoc, type PartLabel, type PredictedPart,
} from './lib/packets.js';


const { values } = parseArgs({ options: { only: { type: 'string' }, limit: { type: 'string' }, verbose: { type: 'boolean' } } });
const labels = loadLabels();
// Read as the service reads files: each in a reader process of its own, under its limits.
const documents = new Documents();
const zero = (): Counts => ({ tp: 0, fp: 0, fn: 0 });

interface Tally { parts: number; right: number; boundaries: Counts; fields: Counts; alone: Counts; seconds: number; pages: number }
const tallies = new Map<string, Tally>();
const tally = (name: string) => { if (!tallies.has(name)) tallies.set(name, { parts: 0, right: 0, boundaries: zero(), fields: zero(), alone: zero(), seconds: 0, pages: 0 }); return tallies.get(name)!; };
const say = (line: string) => { if (values.verbose) console.log(line); };

/** Scores the predicted parts of one run of pages (a packet, or one attachment) against its labels. */
async function scoreRun(t: Tally, where: string, docs: PacketDoc[], gold: PartLabel[], predicted: PredictedPart[], rendering: 'pdf' | 'scan' | 'docx') {
  t.boundaries = addCounts(t.boundaries, boundaryCounts(gold, predicted));
  for (const [i, part] of gold.entries()) {
    const doc = docs[i]!;
    const match = predicted.find((p) => p.pages?.from === part.pages.from && p.pages?.to === part.pages.to);
    t.parts++;
    if (match?.kind === part.kind) t.right++;
    else say(`  ${where} pages ${part.pages.from}-${part.pages.to} (${doc.id}): ${part.kind} -> ${match ? match.kind : `no part (${predicted.map((p) => `${p.pages?.from}-${p.pages?.to}`).join(', ')})`}`);
    if (!goldOf(doc)) continue;
    t.fields = addCounts(t.fields, match ? fieldCounts(doc, match.kind, match.data)! : fieldCounts(doc, 'none', null)!);
    const alone = rendering === 'docx' ? textOf(doc) : await readText(documents, await renderAlone(doc, rendering));
    const c = compare(goldOf(doc), extractOffline(doc.kind, rendering === 'docx' ? await readText(documents, await renderAlone(doc, 'docx')) : alone) ?? {});
    t.alone = addCounts(t.alone, { tp: c.tp, fp: c.fp, fn: c.fn });
  }
}

const limit = values.limit ? Number(values.limit) : Infinity;
try {
  for (const packet of labels.packets.filter((p) => !values.only || values.only === p.rendering).slice(0, limit)) {
    const t = tally(packet.rendering === 'pdf' ? 'packets, text PDF' : 'packets, 200-dpi scans');
    const started = performance.now();
    const predicted = await autoInProcess(documents, await renderPacket(packet)).catch((e: Error) => { console.log(`  ${packet.id}: ${e.message}`); return []; });
    t.seconds += (performance.now() - started) / 1000;
    t.pages += packet.parts[packet.parts.length - 1]!.pages.to;
    await scoreRun(t, packet.id, packet.documents, packet.parts, predicted, packet.rendering);
  }
  if (!values.only || values.only === 'mail') {
    for (const mail of labels.mails.slice(0, limit)) {
      const t = tally('e-mails with attachments');
      const started = performance.now();
      const predicted = await autoInProcess(documents, await renderMail(mail)).catch((e: Error) => { console.log(`  ${mail.id}: ${e.message}`); return [] as PredictedPart[]; });
      t.seconds += (performance.now() - started) / 1000;
      const message = predicted.find((p) => p.attachment === undefined);
      t.parts++;
      if (message?.kind === mail.body.kind) t.right++;
      else say(`  ${mail.id} message: ${mail.body.kind} -> ${message?.kind}`);
      if ('document' in mail.body && goldOf(mail.body.document)) {
        t.fields = addCounts(t.fields, fieldCounts(mail.body.document, message?.kind ?? 'none', message?.data ?? null)!);
        const c = compare(goldOf(mail.body.document), extractOffline(mail.body.document.kind, textOf(mail.body.document)) ?? {});
        t.alone = addCounts(t.alone, { tp: c.tp, fp: c.fp, fn: c.fn });
      }
      for (const a of mail.attachments) {
        t.pages += a.parts[a.parts.length - 1]!.pages.to;
        const rendering = a.format === 'docx' ? 'docx' : a.format === 'scan' ? 'scan' : 'pdf';
        await scoreRun(t, `${mail.id}/${a.filename}`, a.documents, a.parts, predicted.filter((p) => p.attachment === a.filename), rendering);
      }
    }
  }
} finally {
  await documents.close();
}

const pct = (x: number) => x.toFixed(3);
console.log('| set | parts | classification accuracy | page-boundary F1 | field F1 of parts | field F1 alone | gap | seconds a page |');
console.log('|---|---|---|---|---|---|---|---|');
const all: Tally = { parts: 0, right: 0, boundaries: zero(), fields: zero(), alone: zero(), seconds: 0, pages: 0 };
for (const [name, t] of tallies) {
  console.log(`| ${name} | ${t.parts} | ${pct(t.right / t.parts)} | ${pct(f1(t.boundaries))} (${t.boundaries.tp} found, ${t.boundaries.fp} extra, ${t.boundaries.fn} missed) | ${pct(f1(t.fields))} | ${pct(f1(t.alone))} | ${pct(f1(t.alone) - f1(t.fields))} | ${(t.seconds / Math.max(1, t.pages)).toFixed(2)} |`);
  all.parts += t.parts; all.right += t.right;
  all.boundaries = addCounts(all.boundaries, t.boundaries); all.fields = addCounts(all.fields, t.fields); all.alone = addCounts(all.alone, t.alone);
}
console.log(`| **all** | ${all.parts} | ${pct(all.right / all.parts)} | ${pct(f1(all.boundaries))} | ${pct(f1(all.fields))} | ${pct(f1(all.alone))} | ${pct(f1(all.alone) - f1(all.fields))} | |`);
