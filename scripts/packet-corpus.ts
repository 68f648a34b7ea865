// Writes the packet corpus's labels (test/packets/labels.json) from the repository's labelled documents: 50 packets
// of 2 to 6 documents of mixed kinds, each document set at its own type size (so that some run over several pages)
// and some with a `Page k of n` footer, as text PDFs (packets 1-25) and 200-dpi scans (26-50); and 20 e-mails whose
// attachments are documents (a PDF, a DOCX, a scan, a packet of two), some with a document in the body itself. The
// labels give each part's place (attachment, pages) and kind; the files are rendered from them when scored
// (scripts/score-packets.ts, server/test/classification/packets.test.ts), never committed.
//   npx tsx scripts/packet-corpus.ts        (deterministic: the same labels every run)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pageLines } from '../server/test/support/render-documents.js';
import { labelledSets, type LabelledDoc } from './lib/classify-sets.js';
import type { PacketDoc, PacketLabels, Packet, Mail } from './lib/packets.js';

/** mulberry32: a seeded random source, so the corpus is the same every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rand = random(2026_11_26);
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const SIZES = [10, 10, 12, 14, 16] as const;

// The repository's own sets only (fixtures and fresh*): the shared corpus is not in the repository.
const docs: LabelledDoc[] = [...labelledSets()].filter(([name]) => name !== 'corpus').flatMap(([, list]) => list);
const byKind = new Map<string, LabelledDoc[]>();
for (const d of docs) byKind.set(d.kind, [...(byKind.get(d.kind) ?? []), d]);
const kinds = [...byKind.keys()].sort();

function document(d: LabelledDoc): PacketDoc {
  const setting = { size: pick(SIZES), footer: rand() < 0.3 };
  // A document that prints its own page number ("Page 1 of 1") keeps the one page it says it has.
  if (/\b(?:page|seite)\s*\d+\s*(?:of|von|\/)\s*\d+/i.test(d.text)) Object.assign(setting, { size: 10, footer: false });
  return { path: d.path.slice(d.path.indexOf('server/test/')), set: d.set, id: d.id, route: d.route, kind: d.kind, ...setting, pages: pageLines(d.text, setting).length };
}

/** A document of a kind drawn first (so rare kinds appear as often as common ones), then one of that kind. */
const anyDocument = () => document(pick(byKind.get(pick(kinds))!));

const packets: Packet[] = [];
for (let n = 1; n <= 50; n++) {
  const count = 2 + Math.floor(rand() * 5);
  const members = Array.from({ length: count }, anyDocument);
  let page = 1;
  const parts = members.map((m) => {
    const part = { pages: { from: page, to: page + m.pages - 1 }, kind: m.kind };
    page += m.pages;
    return part;
  });
  packets.push({ id: `packet-${String(n).padStart(2, '0')}`, rendering: n <= 25 ? 'pdf' : 'scan', documents: members, parts });
}

const COVERS = [
  'Hello,\n\nplease find the documents attached.\n\nKind regards,\nAccounts team',
  'Hi,\n\nattached as discussed on the phone. Let me know if anything is missing.\n\nThanks,\nSam',
  'Good morning,\n\nfor your records, see the attachments.\n\nBest,\nOffice manager',
  'Dear colleague,\n\nplease review the attached and get back to us by Friday.\n\nRegards',
];
const mails: Mail[] = [];
for (let n = 1; n <= 20; n++) {
  const inBody = n % 5 === 0 ? anyDocument() : null;
  const attachments: Mail['attachments'] = [];
  for (let i = 0; i < 1 + Math.floor(rand() * 3); i++) {
    const format = pick(['pdf', 'pdf', 'docx', 'scan', 'packet'] as const);
    // A Word file holds each document as one run of paragraphs: one page each (its page breaks part documents).
    const members = (format === 'packet' ? [anyDocument(), anyDocument()] : [anyDocument()]).map((m) => (format === 'docx' ? { ...m, pages: 1 } : m));
    let page = 1;
    const parts = members.map((m) => {
      const part = { pages: { from: page, to: page + m.pages - 1 }, kind: m.kind };
      page += m.pages;
      return part;
    });
    attachments.push({ filename: `attachment-${i + 1}.${format === 'docx' ? 'docx' : 'pdf'}`, format, documents: members, parts });
  }
  mails.push({ id: `mail-${String(n).padStart(2, '0')}`, subject: inBody ? 'Notes and documents' : `Documents ${1000 + n}`, body: inBody ? { document: inBody, kind: inBody.kind } : { text: pick(COVERS), kind: 'other' }, attachments });
}

const labels: PacketLabels = { packets, mails };
const out = fileURLToPath(new URL('../test/packets/labels.json', import.meta.url));
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(labels, null, 1)}\n`);
const pages = packets.reduce((n, p) => n + p.parts[p.parts.length - 1]!.pages.to, 0);
console.log(`${packets.length} packets (${pages} pages, ${packets.reduce((n, p) => n + p.parts.length, 0)} documents), ${mails.length} e-mails -> ${join('test/packets', 'labels.json')}`);
