// Isotonic regression (pool adjacent violators) of "was the value right" on its confidence: a monotone map from the
// confidence the engine gives to the share of such values an account's reviewers found right. Pure functions; the
// fitted map is data ({x, y}: knots, x increasing, y non-decreasing).

export interface MonotoneMap {
  x: number[];
  y: number[];
}

/** Fits the map on (confidence, right) pairs: each knot is a pooled block's mean confidence and its share right. */
export function fitIsotonic(points: Array<{ confidence: number; correct: boolean }>): MonotoneMap {
  const sorted = [...points].sort((a, b) => a.confidence - b.confidence);
  const blocks: Array<{ sx: number; sy: number; n: number }> = [];
  for (const p of sorted) {
    blocks.push({ sx: p.confidence, sy: p.correct ? 1 : 0, n: 1 });
    // Pool while the last block's mean is below the one before it.
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1]!, a = blocks[blocks.length - 2]!;
      if (a.sy / a.n <= b.sy / b.n) break;
      blocks.splice(blocks.length - 2, 2, { sx: a.sx + b.sx, sy: a.sy + b.sy, n: a.n + b.n });
    }
  }
  return { x: blocks.map((b) => b.sx / b.n), y: blocks.map((b) => b.sy / b.n) };
}

/** The map applied: linear between knots, flat beyond the ends; rounded as confidences are (3 decimals). */
export function applyMap(map: MonotoneMap, c: number): number {
  const { x, y } = map;
  if (!x.length) return c;
  let v: number;
  if (c <= x[0]!) v = y[0]!;
  else if (c >= x[x.length - 1]!) v = y[y.length - 1]!;
  else {
    let i = 1;
    while (x[i]! < c) i++;
    const t = (c - x[i - 1]!) / (x[i]! - x[i - 1]! || 1);
    v = y[i - 1]! + t * (y[i]! - y[i - 1]!);
  }
  return Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;
}
