import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractFixed } from '../../src/extraction/engines/local/index.js';
import { dataSchemaFor, FIXED_KINDS } from '../../src/extraction/schemas/contract-schemas.js';
import { checkAnswer } from '../../src/extraction/schemas/answer-checker.js';
import type { FixedKind } from '../../src/extraction/engines/engine.js';

const FIXTURES = join(import.meta.dirname ?? __dirname, 'fixtures');

describe('answers meet the contract schema', () => {
  const docs = ['', 'x', 'Total: $12.00\nDate: 2026-03-01', ...FIXED_KINDS.flatMap((k) => {
    try { return readdirSync(join(FIXTURES, k)).filter((f) => f.endsWith('.txt')).map((f) => readFileSync(join(FIXTURES, k, f), 'utf8')); } catch { return []; }
  })];
  it.each(FIXED_KINDS)('%s, on every fixture of every route', (kind: FixedKind) => {
    for (const text of docs) {
      const result = checkAnswer(dataSchemaFor(kind), extractFixed(kind, text));
      expect(result).toEqual({ ok: true });
    }
  });
});
