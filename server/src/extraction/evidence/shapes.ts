// What a value's own shape says of it, whatever the document and engine: a number-named field without a figure, a
// name or description full of figures, a clause that swallowed a heading. Generic signs that a value was read from
// the wrong place, used as features of the confidence (features.ts).
import { stepsOf } from './pointers.js';

/** A field named for a code or number (`invoiceNumber`, `containerNo`, `taxId`, `reference`). */
const CODE_FIELD = /(?:number|num|no|nr|code|id|ref|reference|registration|iban|sku)$/i;
/** A field named for words (`vendor/name`, `merchant`, `title`, `description`, `task`). */
const WORD_FIELD = /(?:name|title|merchant|company|vendor|product|description|task|owner|city|location|role|governingLaw|attendees|product)$/i;

export interface Shape {
  /** A code or number field holding no figure. */
  codeWithoutFigure: boolean;
  /** A field of words holding mostly figures, or a registration-number-like string. */
  wordsAsFigures: boolean;
  /** Short text with two or more separate figures or a percentage (columns of a table read as one text). */
  textWithFigures: boolean;
  /** A statement led by a capitalised heading (`RENEWAL This Agreement ...`). */
  headingSwallowed: boolean;
}

/** The field's own name: the last step of the pointer that is not a list index or `value`. */
export function fieldName(pointer: string): string {
  const steps = stepsOf(pointer).filter((s) => !/^\d+$/.test(s) && s !== 'value');
  return steps[steps.length - 1] ?? '';
}

export function shapeOf(pointer: string, value: unknown): Shape {
  const name = fieldName(pointer);
  const text = typeof value === 'string' ? value : '';
  const digits = (text.match(/\d/g) ?? []).length;
  const figures = (text.match(/(?<![\p{L}\d])\d[\d.,' ]*(?:%|(?![\p{L}]))/gu) ?? []).length;
  return {
    codeWithoutFigure: typeof value === 'string' && CODE_FIELD.test(name) && digits === 0 && !/date|currency/i.test(name),
    wordsAsFigures: typeof value === 'string' && WORD_FIELD.test(name) && (digits / Math.max(1, text.replace(/\s/g, '').length) > 0.4 || /^\S*\d+\/\d+\/\d+\S*$/.test(text.trim())),
    textWithFigures: typeof value === 'string' && text.length <= 80 && (figures >= 2 || /\d\s?%/.test(text)) && WORD_FIELD.test(name),
    headingSwallowed: typeof value === 'string' && text.length > 40 && /^(?:\d+(?:\.\d+)*\.?\s+)?(?:\p{Lu}{2,}[\p{Lu}\s&,/-]*)\s+\p{Lu}\p{Ll}/u.test(text),
  };
}

/** The share of a text's letters that are Latin: the offline rules read Latin-script documents best. */
export function latinShare(text: string): number {
  const letters = text.match(/\p{L}/gu) ?? [];
  if (letters.length === 0) return 1;
  return letters.filter((c) => /\p{Script=Latin}/u.test(c)).length / letters.length;
}
