// The training corpus and the newest blind set are checked by the same script a writer runs on each batch: labels
// meet the contract's answer schemas, custom labels fill their schemas, string values stand in their documents.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const check = (dir: string) => spawnSync(process.execPath, ['scripts/check-corpus.mjs', dir, '--quiet'], { cwd: root, encoding: 'utf8' });

describe('labelled documents', () => {
  it.each(['corpus/training', 'server/test/local-engine/fixtures/fresh9'])('%s passes scripts/check-corpus.mjs', (dir) => {
    const out = check(dir);
    expect(out.stdout).toMatch(/^\d+ documents, 0 problems$/m);
    expect(out.status).toBe(0);
  });

  it('refuses a label that breaks its route\'s schema, naming the document and the pointer', () => {
    const out = check(fileURLToPath(new URL('./fixtures-bad-corpus', import.meta.url)));
    expect(out.status).toBe(1);
    expect(out.stdout).toContain('invoice/bad-total: /total must be number');
    expect(out.stdout).toContain('invoice/bad-total: /vendor/name "Nowhere Ltd" is not in the document');
  });
});
