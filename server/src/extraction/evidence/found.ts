// What an engine says of each value it answers: where it read it, and what it knows of how it found it. The service
// turns this into the answer's evidence (offsets, page and box, calibrated confidence) in one place, assemble.ts.
import type { QuoteMatch } from './locate-quote.js';

/** How an offline finder pointed at its text. */
export type FinderMatch = 'surface' | 'value' | 'passage';

export interface FinderSignals {
  engine: 'local';
  /** `route:field:finder`, the finder that answered (its measured precision is the prior). */
  finder: string;
  /** The finder's place in its field's list (0: the most specific). */
  rank: number;
  /** Other finders of the field that found the same value, and that found another one. */
  agree: number;
  conflict: number;
  how: FinderMatch;
}

export interface ModelSignals {
  engine: 'anthropic';
  /** How the model's quote was found in the text (filled by the service). */
  how?: QuoteMatch | 'missing';
  similarity?: number;
}

export interface FoundEvidence {
  /** Offsets in the text the engine read, when the engine knows them (the offline engine). */
  start?: number;
  end?: number;
  /** The quote to look for in the text read, when the engine gives no offsets (Claude). */
  quote?: string;
  /** The value is computed from the quote rather than copied from it. */
  derived: boolean;
  signals: FinderSignals | ModelSignals;
}

/** Evidence per JSON Pointer of the answer's `data`. */
export type FoundEvidenceMap = Record<string, FoundEvidence>;
