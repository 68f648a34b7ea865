// docs/configuration.md names every variable the configuration reads (a family documented together, as
// `ANTHROPIC_*`, names its members by that pattern), so an operator finds each setting where the docs say they are.
import { readFileSync } from 'node:fs';
import { CONFIG_VARIABLES } from '../src/config/config.js';

describe('docs/configuration.md', () => {
  it('names every variable the configuration reads', () => {
    const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
    const families = [...doc.matchAll(/`([A-Z][A-Z0-9_]*_)\*`/g)].map((m) => m[1]!);
    const missing = CONFIG_VARIABLES.filter((name) => !doc.includes(`\`${name}\``) && !families.some((f) => name.startsWith(f)));
    expect(missing).toEqual([]);
  });
});
