// Accuracy floors of the offline engine, per labelled set: overall field F1 and precision, and F1 per route, as
// measured by accuracy/score.ts and rounded down to 2 decimals. accuracy.test.ts fails when a set or route drops below
// its floor. Raise these as the engine improves (`npx tsx scripts/score-local.ts` prints today's figures); never
// lower one to let a change land.
export interface Floor {
  f1: number; precision: number; routes: Record<string, number>;
  /** Sets the rules were not written against: the confidence's calibration (ECE, at most) and ranking (AUROC, at least). */
  trust?: { maxEce: number; auroc: number };
}

export const FLOORS: Record<string, Floor> = {
  "corpus": {
    f1: 0.98, precision: 0.99,
    routes: { contract: 0.93, custom: 0.97, invoice: 1.00, "job-posting": 0.98, "meeting-notes": 0.99, receipt: 0.98, renewal: 0.98 },
  },
  "fixtures": {
    f1: 0.99, precision: 0.99,
    routes: { contract: 1.00, custom: 1.00, invoice: 0.98, "job-posting": 1.00, "meeting-notes": 1.00, receipt: 1.00, renewal: 1.00 },
  },
  "fresh": {
    f1: 1.00, precision: 1.00,
    routes: { contract: 1.00, invoice: 1.00, "job-posting": 1.00, "meeting-notes": 1.00, receipt: 1.00, renewal: 1.00 },
  },
  "fresh2": {
    f1: 0.99, precision: 0.99,
    routes: { contract: 1.00, custom: 1.00, invoice: 0.99, "job-posting": 1.00, "meeting-notes": 1.00, receipt: 1.00, renewal: 1.00 },
  },
  "fresh3": {
    f1: 1.00, precision: 1.00,
    routes: { contract: 1.00, custom: 1.00, invoice: 1.00, "job-posting": 1.00, "meeting-notes": 1.00, receipt: 1.00, renewal: 1.00 },
  },
  "fresh4": {
    f1: 0.99, precision: 0.99,
    routes: { contract: 1.00, custom: 0.92, invoice: 1.00, "job-posting": 1.00, "meeting-notes": 1.00, receipt: 1.00, renewal: 1.00 },
  },
  "fresh5": {
    f1: 0.99, precision: 0.99,
    routes: { contract: 1.00, custom: 0.98, invoice: 1.00, "job-posting": 0.98, "meeting-notes": 1.00, receipt: 1.00, renewal: 0.98 },
  },
  "fresh6": {
    f1: 0.96, precision: 0.99,
    routes: { contract: 1.00, custom: 0.83, invoice: 1.00, "job-posting": 1.00, "meeting-notes": 1.00, receipt: 0.91, renewal: 1.00 },
  },
  // The final blind set (issue 20), written by a helper that never read the engine. First look (not tuned on): F1 0.754,
  // precision 0.842; these are today's figures, after general fixes for the faults it showed.
  "fresh7": {
    f1: 0.87, precision: 0.93,
    routes: { contract: 0.89, custom: 0.42, invoice: 0.93, "job-posting": 0.92, "meeting-notes": 0.86, receipt: 0.95, renewal: 0.88 },
  },
  // Labelled documents the rules were never written against; the confidence model was fitted on them until it was
  // fitted on the training corpus (corpus/training), so they are unseen by today's model.
  "cal8": {
    f1: 0.67, precision: 0.78,
    routes: { contract: 0.64, custom: 0.29, invoice: 0.77, "job-posting": 0.86, "meeting-notes": 0.60, receipt: 0.73, renewal: 0.73 },
    trust: { maxEce: 0.06, auroc: 0.78 },
  },
  // The blind set of the evidence work, written by a helper that never read the engine; its first look, untuned:
  // F1 0.641, precision 0.841, recall 0.518; at the default threshold 0.5 precision 0.843, recall 0.498, ECE 0.053,
  // AUROC 0.718.
  "fresh8": {
    f1: 0.64, precision: 0.80,
    routes: { contract: 0.71, custom: 0.28, invoice: 0.69, "job-posting": 0.70, "meeting-notes": 0.67, receipt: 0.75, renewal: 0.60 },
    trust: { maxEce: 0.06, auroc: 0.84 },
  },
  // The blind set of the learning engine (70 documents, 14 languages drawn at random), written by a helper that never
  // read the engine and never trained on. First look (the engine before the corpus, the ranker and the refit): F1
  // 0.477, precision 0.801; at the default threshold precision 0.817, recall 0.328, ECE 0.072, AUROC 0.630.
  "fresh9": {
    f1: 0.50, precision: 0.75,
    routes: { contract: 0.33, custom: 0.16, invoice: 0.72, "job-posting": 0.65, "meeting-notes": 0.59, receipt: 0.45, renewal: 0.42 },
    trust: { maxEce: 0.05, auroc: 0.81 },
  },
};
