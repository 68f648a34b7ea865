// Every labelled set in the repository the accuracy floors hold: the route folders of ../fixtures (hand-written
// fixtures), the held-out sets fresh..fresh8 and the calibration set cal8, and the public corpus in ../shared/corpus (beside the repository: CI
// runs in a fresh clone with shared/ next to it).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = fileURLToPath(new URL('../fixtures', import.meta.url));

export const SETS: Record<string, string> = {
  corpus: fileURLToPath(new URL('../../../../../shared/corpus', import.meta.url)),
  fixtures: FIXTURES,
  ...Object.fromEntries(['fresh', 'fresh2', 'fresh3', 'fresh4', 'fresh5', 'fresh6', 'fresh7', 'cal8', 'fresh8', 'fresh9'].map((s) => [s, join(FIXTURES, s)])),
};

export const setExists = (name: string) => existsSync(SETS[name]!);
