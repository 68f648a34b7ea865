import type { EngineLog, EngineUsage } from '../extraction/engines/engine.js';
import type { LocalRunner } from '../extraction/engines/local-pool/local-pool.js';
import { CLASSIFY_CHARS, type Classified, type Kind } from './classify-text.js';

export interface ClassifyInput {
  text: string;
  kinds: readonly Kind[];
  signal: AbortSignal;
  /** The most tokens this classification may bill: what was reserved for it. */
  budgetTokens: number;
  log?: EngineLog;
}

export interface ClassifyAnswer extends Classified {
  model: string;
  usage: EngineUsage;
  /** HEU this classification costs (reported as `usage.classificationHeu`). */
  heu: number;
}

/** Tells a document's kind: the offline rules, or Claude. */
export interface DocumentClassifier {
  /** The most HEU classifying a text of this many characters may cost: what is reserved before it runs. */
  reserveHeu(textChars: number): number;
  classify(input: ClassifyInput): Promise<ClassifyAnswer>;
}

export const LOCAL_CLASSIFIER_MODEL = 'local-rules-1';

/**
 * The offline classifier (`classify-text.ts`) in the offline engine's threads. It reads at most CLASSIFY_CHARS of a
 * document, so its cost is flat: 1 HEU a document. Its token counts are estimated as the offline engine's are (4
 * characters a token of what it read and of its answer).
 */
export class LocalClassifier implements DocumentClassifier {
  constructor(private readonly runner: () => LocalRunner) {}

  reserveHeu(): number {
    return 1;
  }

  async classify(input: ClassifyInput): Promise<ClassifyAnswer> {
    const { classes } = await this.runner().classify({ op: 'classify', texts: [input.text], kinds: [...input.kinds] }, input.signal);
    const answer = classes[0]!;
    const usage = { inputTokens: Math.max(1, Math.ceil(Math.min(input.text.length, CLASSIFY_CHARS) / 4)), outputTokens: Math.ceil(JSON.stringify(answer).length / 4) };
    return { ...answer, model: LOCAL_CLASSIFIER_MODEL, usage, heu: 1 };
  }
}
