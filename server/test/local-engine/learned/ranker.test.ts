// The learned ranker's parts, each on a document written here: the candidates it chooses among, the feature strings
// that carry the words around a candidate, the choice a model makes from hashed weights, the shipped model's answers
// in the engine (the last finder of a field), and the context words of the confidence model.
import { segment } from '../../../src/extraction/engines/local/segment/document.js';
import { candidatesOf } from '../../../src/extraction/engines/local/learned/candidates.js';
import { candidateFeatureStrings } from '../../../src/extraction/engines/local/learned/candidate-features.js';
import { rank } from '../../../src/extraction/engines/local/learned/ranker.js';
import { bucketsOf, probability } from '../../../src/extraction/engines/local/learned/ranker-model.js';
import { customFieldsOf } from '../../../src/extraction/engines/local/learned/custom-fields.js';
import { wordsBefore, contextFeatures } from '../../../src/extraction/evidence/context-words.js';

const DOC = [
  'FAKTURA č. FV-2026/0117',
  'Datum vystavení: 03.03.2026      Datum splatnosti: 17.03.2026',
  'Dodavatel: Pražská Tiskárna s.r.o.',
  'Celkem k úhradě: 12 450,00 Kč',
].join('\n');

describe('candidates', () => {
  const doc = segment(DOC);
  it('finds every amount, date and code with where it stands', () => {
    expect(candidatesOf(doc, 'money').map((c) => c.value)).toContain(12450);
    expect(candidatesOf(doc, 'date').map((c) => c.value)).toEqual(['2026-03-03', '2026-03-17']);
    expect(candidatesOf(doc, 'id').map((c) => c.value)).toContain('FV-2026/0117');
    for (const c of candidatesOf(doc, 'date')) expect(doc.text.slice(c.start, c.end)).toBe(c.raw);
  });

  it('offers the values of label: value pairs as text, in any column', () => {
    const texts = candidatesOf(doc, 'text').map((c) => [c.from, c.value]);
    expect(texts).toContainEqual(['pair', 'Pražská Tiskárna s.r.o.']);
    expect(texts).toContainEqual(['pair', '12 450,00 Kč']);
    expect(texts.every(([from]) => from === 'pair')).toBe(true);
  });

  it('offers nothing the document does not label: a date alone on its line, a first line, a figure in a list', () => {
    const bare = segment('Kestrel Joinery\n03.03.2026\n\n1 250,00\nTotal: 1 250,00');
    expect(candidatesOf(bare, 'date')).toEqual([]);
    expect(candidatesOf(bare, 'text')).toEqual([]);
    expect(candidatesOf(bare, 'money').map((c) => c.line)).toEqual([4]);
  });
});

describe('feature strings', () => {
  const doc = segment(DOC);
  const dates = candidatesOf(doc, 'date');
  it('carry the label words before a candidate, hashed with the field and paired with its words', () => {
    const due = candidateFeatureStrings(doc, dates[1]!, dates, { key: 'invoice:/dueDate', words: ['due', 'date'] });
    expect(due).toEqual(expect.arrayContaining(['invoice:/dueDate|<splatnosti', 'due|<splatnosti', 'date|<datum', 'invoice:/dueDate|#latest', 'date|#colon']));
    const issue = candidateFeatureStrings(doc, dates[0]!, dates, { key: 'invoice:/dueDate', words: ['due', 'date'] });
    expect(issue).toEqual(expect.arrayContaining(['invoice:/dueDate|<vystavení', 'invoice:/dueDate|#earliest']));
    expect(issue).not.toContain('invoice:/dueDate|<splatnosti');
  });

  it('are chosen among by the weights of a model: the candidate whose words weigh most, or none when all weigh little', () => {
    const field = { key: 'invoice:/dueDate', words: ['due', 'date'] };
    const buckets = 1 << 12;
    const [splatnosti] = bucketsOf(['invoice:/dueDate|<splatnosti'], buckets);
    const model = { buckets, weights: { [splatnosti!]: 6 } };
    const ranked = rank(doc, 'date', field, model);
    expect(ranked[0]!.candidate.value).toBe('2026-03-17');
    expect(ranked[0]!.p).toBeGreaterThan(0.99);
    expect(probability({ buckets, weights: {} }, ['anything'])).toBe(0.5);
  });
});

describe('custom schemas as the ranker reads them', () => {
  it('takes numbers, dates, identifiers and plain strings with their words, nested objects too', () => {
    const fields = customFieldsOf({
      type: 'object',
      properties: {
        policyNumber: { type: 'string', title: 'Policy reference', description: 'As printed' },
        premium: { type: ['number', 'null'] },
        seats: { type: 'integer' },
        start: { $ref: '#/$defs/day' },
        insurer: { type: 'object', properties: { name: { type: 'string', title: 'Insurer name' } } },
        kind: { type: 'string', enum: ['a', 'b'] },
      },
      $defs: { day: { type: 'string', format: 'date' } },
    });
    expect(fields.map((f) => [f.pointer, f.kind])).toEqual([['/policyNumber', 'id'], ['/premium', 'money'], ['/seats', 'count'], ['/start', 'date'], ['/insurer/name', 'text']]);
    expect(fields[0]!.words).toEqual(['policy', 'number', 'reference']);
  });
});

describe('context words of a value (confidence features)', () => {
  it('are the words before it on its line, else on the line above, in any script', () => {
    const text = 'Tổng cộng thanh toán: 24.840.000\n発行日\n2026年3月14日';
    expect(wordsBefore(text, text.indexOf('24.840'))).toEqual(['tổng', 'cộng', 'thanh', 'toán']);
    expect(wordsBefore(text, text.indexOf('2026年'))).toEqual(['発行', '行日']);
  });

  it('hash with the field, so the same word before two fields is two features', () => {
    expect(Object.keys(contextFeatures('invoice:/total', ['total']))).not.toEqual(Object.keys(contextFeatures('invoice:/tax', ['total'])));
  });
});
