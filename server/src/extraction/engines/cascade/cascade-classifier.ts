import type { ClassifyAnswer, ClassifyInput, DocumentClassifier } from '../../../classification/classifier.js';

/**
 * Classification the cascade's way: the offline classifier first, its kind kept when its confidence is at least
 * `keep` (no model call, 1 HEU), else the model's classifier decides. The reservation covers the model's call.
 */
export class CascadeClassifier implements DocumentClassifier {
  constructor(private readonly offline: DocumentClassifier, private readonly model: DocumentClassifier, private readonly keep: number) {}

  reserveHeu(textChars: number): number {
    return Math.max(this.offline.reserveHeu(textChars), this.model.reserveHeu(textChars));
  }

  async classify(input: ClassifyInput): Promise<ClassifyAnswer> {
    const offline = await this.offline.classify(input);
    if (offline.confidence >= this.keep) return offline;
    return this.model.classify(input);
  }
}
