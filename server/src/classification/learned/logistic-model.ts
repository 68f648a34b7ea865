// A multinomial logistic regression over hashed features, as shipped in a JSON data file: its weights quantised to
// signed bytes (base64, one row of classes per feature) with one scale, its biases, and the threshold below which a
// document is `other`. Pure functions: load once, then score vectors.
import type { SparseVector } from './hashed-features.js';

export interface ModelFile {
  /** What the file is and how it was made (corpus size, seed, folds), for a reader of the diff. */
  about: Record<string, unknown>;
  classes: string[];
  featureBits: number;
  /** Weight = byte * scale; bytes row-major by feature: `classes.length` bytes per feature. */
  scale: number;
  weights: string;
  bias: number[];
  /** The least probability a kind is answered with; below it the document is `other`. */
  threshold: number;
}

export interface LogisticModel { classes: string[]; size: number; scale: number; weights: Int8Array; bias: Float64Array; threshold: number }

export function decodeModel(file: ModelFile): LogisticModel {
  const bytes = Buffer.from(file.weights, 'base64');
  const weights = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const size = 1 << file.featureBits;
  if (weights.length !== size * file.classes.length) throw new Error('classifier model: weights do not match its classes and features');
  return { classes: file.classes, size, scale: file.scale, weights, bias: Float64Array.from(file.bias), threshold: file.threshold };
}

/** Each class's probability for a document's vector (softmax of the linear scores). */
export function probabilities(model: LogisticModel, x: SparseVector): number[] {
  const k = model.classes.length;
  const z = Array.from(model.bias);
  for (let j = 0; j < x.index.length; j++) {
    const row = x.index[j]! * k, v = x.value[j]! * model.scale;
    for (let c = 0; c < k; c++) z[c]! += model.weights[row + c]! * v;
  }
  return softmax(z);
}

export function softmax(z: number[]): number[] {
  const top = Math.max(...z);
  const e = z.map((v) => Math.exp(v - top));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}
