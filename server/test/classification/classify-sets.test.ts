// The offline classifier on every labelled set of the repository (and the shared corpus beside it, when present):
// accuracy at least 0.97 on each but those FLOORS names (custom documents' kinds are in custom-kinds.json), and what it answers for documents
// of no route's kind, for cover notes and for text too short to tell.
import { classifyText } from '../../src/classification/classify-text.js';
import { labelledSets } from '../../../scripts/lib/classify-sets.js';

// The learned classifier (never trained on these sets) as measured where it falls short of the 0.97 the cue lists held
// on sets they were written against: one document of no route's kind or a bill each (docs/accuracy.md); fresh8, which
// the cue lists had not seen either, is its figure (0.771 with the cue lists).
const FLOORS: Record<string, number> = { fixtures: 0.92, fresh7: 0.96, fresh8: 0.91, fresh9: 0.94 };

describe('the offline classifier', () => {
  const sets = [...labelledSets()].filter(([, docs]) => docs.length > 0);

  it.each(sets.map(([name, docs]) => [name, docs, FLOORS[name] ?? 0.97] as const))('classifies the %s set with accuracy >= %s', (_name, docs, floor) => {
    const wrong = docs.filter((d) => classifyText(d.text).kind !== d.kind).map((d) => `${d.id}: ${d.kind} -> ${classifyText(d.text).kind}`);
    expect(1 - wrong.length / docs.length).toBeGreaterThanOrEqual(floor);
  });

  it('answers other, never a guess, for a cover note, a payslip, a purchase order or text too short to tell', () => {
    for (const text of [
      'Hello,\n\nplease find attached our invoice and the signed agreement.\n\nKind regards,\nAna',
      'PAYSLIP\nEmployer: Wattle & Finch Pty Ltd\nEmployee: J. Thompson\nGross pay: $3,120.00\nNet pay: $2,480.00',
      'PURCHASE ORDER\nPO Number: RW-PO-55812\nVendor: Acme Supplies\nShip to: Durham, NC\nTotal: $1,200.00',
      'Thanks!',
    ]) expect(classifyText(text).kind).toBe('other');
  });

  it('restricted to kinds, answers other for a document of another kind, with that kind first among the alternatives', () => {
    const invoice = 'INVOICE\nInvoice No: 77\nBill To: Orbit Ltd\nDue Date: 2026-05-01\nTotal: $10.00';
    expect(classifyText(invoice).kind).toBe('invoice');
    const restricted = classifyText(invoice, ['receipt']);
    expect(restricted.kind).toBe('other');
    expect(restricted.alternatives[0]!.kind).toBe('invoice');
  });
});
