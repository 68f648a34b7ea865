import { segment } from '../../src/extraction/engines/local/segment/document.js';
import { sentences } from '../../src/extraction/engines/local/segment/sentences.js';
import { sameLabel } from '../../src/extraction/engines/local/segment/text.js';

describe('segmenter', () => {
  it('reads key: value pairs, several per line, with indented continuation', () => {
    const doc = segment('Ref: A-1      Date: 2026-01-02\nShip from: Kestrel Ltd\n           9 Quay Road\n           Hull HU1 1AA\n\nNotes');
    expect(doc.kvs.map((kv) => [kv.label, kv.value])).toEqual([['Ref', 'A-1'], ['Date', '2026-01-02'], ['Ship from', 'Kestrel Ltd']]);
    expect(doc.kvs[2]!.continuation).toEqual(['9 Quay Road', 'Hull HU1 1AA']);
  });

  it('groups headed bullet and numbered lists, and ends them at a blank line', () => {
    const doc = segment('Things to bring\n* Boots\n* A torch\n\nSchedule:\n1) Meet at 9\n2) Walk\n\nAfterwards we had tea.');
    expect(doc.sections.find((s) => s.heading === 'Things to bring')!.items).toEqual(['Boots', 'A torch']);
    expect(doc.sections.find((s) => s.heading === 'Schedule')!.items).toEqual(['Meet at 9', 'Walk']);
  });

  it('reads numbered clause headings with sub-items and inline headings', () => {
    const doc = segment('7. Payment.\n7.1 Buyer shall pay within 10 days.\n7.2 Interest accrues on late sums.\n\n8. Notices. Notices must be in writing.');
    expect(doc.sections.find((s) => s.heading === 'Payment')!.items).toHaveLength(2);
    expect(doc.sections.find((s) => s.heading === 'Notices')!.body).toEqual(['Notices must be in writing.']);
  });

  it('splits sentences without breaking at abbreviations', () => {
    expect(sentences('Signed by Acme Inc. on behalf of all. Dr. Lee agreed.')).toEqual(['Signed by Acme Inc. on behalf of all.', 'Dr. Lee agreed.']);
  });

  it('tolerates one OCR slip in a long label word, never a different short word', () => {
    expect(sameLabel('invoce date', 'invoice date')).toBe(true);
    expect(sameLabel('invoice no', 'invoice to')).toBe(false);
  });
});
