import type { SparseVector } from '../../server/src/classification/learned/hashed-features.js';
import { softmax } from '../../server/src/classification/learned/logistic-model.js';

// Fitting a multinomial logistic regression on sparse vectors: stochastic gradient descent with AdaGrad's
// per-weight steps (rare features, like a language's label words, learn as fast as common ones), L2-regularised on the
// weights each document touches, classes weighted so each counts as much as the others. Deterministic: the order of
// documents in each epoch comes from a seeded generator.

export interface FitOptions { classes: number; size: number; lambda: number; epochs: number; seed: number; learningRate?: number }
export interface Fitted { weights: Float64Array; bias: Float64Array }

export function fitLogistic(xs: readonly SparseVector[], ys: readonly number[], o: FitOptions): Fitted {
  const k = o.classes, n = xs.length;
  const weights = new Float64Array(o.size * k), bias = new Float64Array(k);
  const g2 = new Float64Array(weights.length), b2 = new Float64Array(k);
  const perClass = new Array<number>(k).fill(0);
  for (const y of ys) perClass[y]!++;
  const sampleWeight = ys.map((y) => n / (k * Math.max(1, perClass[y]!)));
  const lr = o.learningRate ?? 0.5, eps = 1e-6;
  const rand = seeded(o.seed);
  const order = xs.map((_, i) => i);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) { const j = Math.floor(rand() * (i + 1)); [order[i], order[j]] = [order[j]!, order[i]!]; }
    for (const d of order) {
      const x = xs[d]!;
      const p = scores(weights, bias, x, k);
      for (let c = 0; c < k; c++) p[c] = (p[c]! - (c === ys[d] ? 1 : 0)) * sampleWeight[d]!;
      for (let j = 0; j < x.index.length; j++) {
        const row = x.index[j]! * k, v = x.value[j]!;
        for (let c = 0; c < k; c++) {
          const i = row + c;
          const g = p[c]! * v + o.lambda * weights[i]!;
          g2[i]! += g * g;
          weights[i]! -= (lr * g) / Math.sqrt(g2[i]! + eps);
        }
      }
      for (let c = 0; c < k; c++) { b2[c]! += p[c]! * p[c]!; bias[c]! -= (lr * p[c]!) / Math.sqrt(b2[c]! + eps); }
    }
  }
  return { weights, bias };
}

/** Class probabilities of one vector under unquantised weights. */
export function scores(weights: Float64Array, bias: Float64Array, x: SparseVector, k: number): number[] {
  const z = Array.from(bias);
  for (let j = 0; j < x.index.length; j++) {
    const row = x.index[j]! * k, v = x.value[j]!;
    for (let c = 0; c < k; c++) z[c]! += weights[row + c]! * v;
  }
  return softmax(z);
}

/** A seeded generator (mulberry32): the same seed, the same folds. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
