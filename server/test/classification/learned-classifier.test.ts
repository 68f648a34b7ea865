// The learned classifier's parts: the features a document becomes, the model as shipped (its size and shape), and the
// fitting, which gives the same model for the same data and seed.
import { readFileSync, statSync } from 'node:fs';
import { FEATURE_BITS, MIN_NORM, featureVector } from '../../src/classification/learned/hashed-features.js';
import { decodeModel, probabilities, type ModelFile } from '../../src/classification/learned/logistic-model.js';
import { classifyText, rankLabels } from '../../src/classification/classify-text.js';
import { fitLogistic } from '../../../scripts/lib/logistic-fit.js';

const MODEL = new URL('../../models/classifier.json', import.meta.url);

describe('hashed features', () => {
  it('reads a text the same way each time, as a vector of sorted buckets, no longer than one', () => {
    const a = featureVector('FACTURA Nº 2026-0042\nFecha: 14/03/2026\nTotal: 1.234,50 €');
    const b = featureVector('FACTURA Nº 2026-0042\nFecha: 14/03/2026\nTotal: 1.234,50 €');
    expect(Array.from(a.index)).toEqual(Array.from(b.index));
    expect(Array.from(a.value)).toEqual(Array.from(b.value));
    expect(Array.from(a.index).every((v, i, all) => i === 0 || v > all[i - 1]!)).toBe(true);
    // A short text's vector is shorter than a document's (MIN_NORM), so a few words cannot make the model sure.
    expect(Array.from(a.value).reduce((s, v) => s + v * v, 0)).toBeCloseTo((a.norm! / MIN_NORM) ** 2, 5);
    expect(a.norm!).toBeLessThan(MIN_NORM);
    const long = featureVector('Service agreement between the parties. '.repeat(20) + 'Invoice total due '.repeat(30) + Array.from({ length: 300 }, (_, i) => `word${i}`).join(' '));
    expect(Array.from(long.value).reduce((s, v) => s + v * v, 0)).toBeCloseTo(1, 5);
    expect(Math.max(...a.index)).toBeLessThan(1 << FEATURE_BITS);
  });

  it('reads full-width letters and other scripts\' digits as their plain forms', () => {
    const plain = featureVector('INVOICE 2026');
    expect(Array.from(featureVector('ＩＮＶＯＩＣＥ ２０２６').index)).toEqual(Array.from(plain.index));
    expect(Array.from(featureVector('invoice ٢٠٢٦').index)).toEqual(Array.from(plain.index));
  });
});

describe('the model as shipped', () => {
  const file = JSON.parse(readFileSync(MODEL, 'utf8')) as ModelFile;

  it('is a small data file of the six kinds and other, with its threshold', () => {
    expect(statSync(MODEL).size).toBeLessThan(3_000_000);
    expect(file.classes).toEqual(['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal', 'other']);
    expect(file.featureBits).toBe(FEATURE_BITS);
    expect(file.threshold).toBeGreaterThan(0.2);
    expect(file.threshold).toBeLessThan(0.95);
  });

  it('gives probabilities that sum to one, and answers with them', () => {
    const p = probabilities(decodeModel(file), featureVector('INVOICE\nInvoice No: 77\nBill To: Orbit Ltd\nDue Date: 2026-05-01\nTotal: $10.00'));
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
    const ranked = rankLabels('INVOICE\nInvoice No: 77\nBill To: Orbit Ltd\nDue Date: 2026-05-01\nTotal: $10.00');
    expect(ranked[0]!.kind).toBe('invoice');
    expect(classifyText('INVOICE\nInvoice No: 77\nBill To: Orbit Ltd\nDue Date: 2026-05-01\nTotal: $10.00').alternatives).toHaveLength(3);
  });
});

describe('fitting', () => {
  const docs = ['invoice total due', 'invoice number bill to', 'receipt cash change', 'receipt thank you cash', 'minutes attendees actions', 'minutes decisions agreed'];
  const xs = docs.map(featureVector);
  const ys = [0, 0, 1, 1, 2, 2];

  it('gives the same weights for the same data and seed', () => {
    const o = { classes: 3, size: 1 << FEATURE_BITS, lambda: 1e-5, epochs: 5, seed: 7 };
    const a = fitLogistic(xs, ys, o), b = fitLogistic(xs, ys, o);
    expect(Buffer.from(a.weights.buffer).equals(Buffer.from(b.weights.buffer))).toBe(true);
    expect(Array.from(a.bias)).toEqual(Array.from(b.bias));
  });

  it('learns the classes it is shown', () => {
    const fitted = fitLogistic(xs, ys, { classes: 3, size: 1 << FEATURE_BITS, lambda: 1e-5, epochs: 20, seed: 7 });
    const model = { classes: ['a', 'b', 'c'], size: 1 << FEATURE_BITS, scale: 1, weights: new Int8Array(0), bias: fitted.bias, threshold: 0.5 };
    const scale = fitted.weights.reduce((m, w) => Math.max(m, Math.abs(w)), 0) / 127;
    const quantised = { ...model, scale, weights: Int8Array.from(fitted.weights, (w) => Math.round(w / scale)) };
    for (const [i, x] of xs.entries()) {
      const p = probabilities(quantised, x);
      expect(p.indexOf(Math.max(...p))).toBe(ys[i]);
    }
  });
});
