// A small subset of the packet corpus (test/packets/labels.json; the whole of it is scored by
// scripts/score-packets.ts): text-PDF packets, e-mails with PDF and DOCX attachments and one scanned packet, run through
// /v1/extract/auto's pipeline in-process, each document found where its labels say and of the kind they say.
import { Documents } from '../../src/documents/documents.js';
import { addCounts, autoInProcess, boundaryCounts, f1, loadLabels, renderMail, renderPacket, type PartLabel, type PredictedPart } from '../../../scripts/lib/packets.js';

const labels = loadLabels();
const documents = new Documents();
afterAll(() => documents.close());

function score(gold: PartLabel[], predicted: PredictedPart[]) {
  const right = gold.filter((g) => predicted.some((p) => p.pages?.from === g.pages.from && p.pages?.to === g.pages.to && p.kind === g.kind)).length;
  return { right, boundaries: boundaryCounts(gold, predicted) };
}

describe('the packet corpus, a subset', () => {
  it('has 50 packets of 2 to 6 documents, text PDFs and scans, and 20 e-mails with attachments', () => {
    expect(labels.packets).toHaveLength(50);
    expect(labels.packets.every((p) => p.parts.length >= 2 && p.parts.length <= 6)).toBe(true);
    expect(new Set(labels.packets.map((p) => p.rendering))).toEqual(new Set(['pdf', 'scan']));
    expect(labels.mails).toHaveLength(20);
    expect(labels.mails.every((m) => m.attachments.length >= 1)).toBe(true);
  });

  it('splits and classifies text-PDF packets', async () => {
    let parts = 0, right = 0, boundaries = { tp: 0, fp: 0, fn: 0 };
    for (const packet of labels.packets.filter((p) => p.rendering === 'pdf').slice(0, 8)) {
      const s = score(packet.parts, await autoInProcess(documents, await renderPacket(packet)));
      parts += packet.parts.length;
      right += s.right;
      boundaries = addCounts(boundaries, s.boundaries);
    }
    expect(f1(boundaries)).toBeGreaterThanOrEqual(0.98);
    expect(right / parts).toBeGreaterThanOrEqual(0.97);
  }, 120_000);

  it('finds e-mails\' attachments as parts, each classified', async () => {
    let parts = 0, right = 0;
    for (const mail of labels.mails.filter((m) => m.attachments.every((a) => a.format !== 'scan')).slice(0, 4)) {
      const predicted = await autoInProcess(documents, await renderMail(mail));
      expect(predicted.find((p) => p.attachment === undefined)?.kind).toBe(mail.body.kind);
      for (const a of mail.attachments) {
        const own = predicted.filter((p) => p.attachment === a.filename);
        // Every labelled part is found, with its pages.
        for (const g of a.parts) expect(own.some((p) => p.pages?.from === g.pages.from && p.pages?.to === g.pages.to)).toBe(true);
        parts += a.parts.length;
        right += score(a.parts, own).right;
      }
    }
    // The learned classifier's figure on these eight parts (a recipe, sent as an attachment, is read as a job posting).
    expect(right / parts).toBeGreaterThanOrEqual(0.87);
  }, 120_000);

  it('splits and classifies a scanned packet (OCR)', async () => {
    const packet = labels.packets.filter((p) => p.rendering === 'scan').sort((a, b) => a.parts.at(-1)!.pages.to - b.parts.at(-1)!.pages.to)[0]!;
    const s = score(packet.parts, await autoInProcess(documents, await renderPacket(packet)));
    expect(f1(s.boundaries)).toBe(1);
    expect(s.right).toBe(packet.parts.length);
  }, 300_000);
});
