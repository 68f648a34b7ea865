import { classifyText, type Classified, type Kind } from './classify-text.js';
import { splitPages, type Segment } from './split-pages.js';

/**
 * Offline classification work, as plain data so it runs in the offline engine's threads: classify texts (each a
 * document) among `kinds`, or split pages into documents (each page classified alone among every kind).
 */
export type ClassifyTask = { op: 'classify'; texts: string[]; kinds: Kind[] } | { op: 'split'; pages: string[] };
export interface ClassifyOutput {
  classes: Classified[];
  /** For `split`: the runs of pages that are one document each. */
  segments?: Segment[];
}

export function runClassifyTask(task: ClassifyTask): ClassifyOutput {
  if (task.op === 'classify') return { classes: task.texts.map((text) => classifyText(text, task.kinds)) };
  const classes = task.pages.map((page) => classifyText(page));
  return { classes, segments: splitPages(task.pages, classes) };
}
