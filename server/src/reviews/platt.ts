// Platt scaling: "was the value right" as a logistic function of the logit of its confidence, p = σ(a·logit(c) + b),
// fitted by Newton's method on the log-loss (a small ridge keeps it finite when the reviews separate perfectly).
// Monotone when a > 0, which a fit on reviews where surer values are right more often gives; a is floored at 0.

export interface PlattMap {
  a: number;
  b: number;
}

const logit = (c: number) => {
  const p = Math.min(1 - 1e-4, Math.max(1e-4, c));
  return Math.log(p / (1 - p));
};
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function fitPlatt(points: Array<{ confidence: number; correct: boolean }>, ridge = 1e-3): PlattMap {
  let a = 1, b = 0;
  const xs = points.map((p) => logit(p.confidence));
  const ys = points.map((p) => (p.correct ? 1 : 0));
  for (let iter = 0; iter < 50; iter++) {
    let ga = ridge * (a - 1), gb = ridge * b, haa = ridge, hab = 0, hbb = ridge;
    for (let i = 0; i < xs.length; i++) {
      const p = sigmoid(a * xs[i]! + b);
      const d = p - ys[i]!, w = p * (1 - p);
      ga += d * xs[i]!; gb += d;
      haa += w * xs[i]! * xs[i]!; hab += w * xs[i]!; hbb += w;
    }
    const det = haa * hbb - hab * hab;
    if (!Number.isFinite(det) || Math.abs(det) < 1e-12) break;
    const da = (hbb * ga - hab * gb) / det, db = (haa * gb - hab * ga) / det;
    a -= da; b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return { a: Math.max(0, a), b };
}

/** The map applied, rounded as confidences are (3 decimals). */
export function applyPlatt(map: PlattMap, c: number): number {
  return Math.round(sigmoid(map.a * logit(c) + map.b) * 1000) / 1000;
}
