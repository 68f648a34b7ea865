import { existsSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The compiled file of a worker thread, or null when there is none. From server/dist it sits beside the module that
 * names it; under a TypeScript loader (tests, tsx) that module is server/src/...ts and the worker is its compiled twin
 * in server/dist, built by `npm install`, `prestart` and the test setup from the same sources.
 */
export function compiledWorker(url: URL): string | null {
  const here = fileURLToPath(url);
  const compiled = here.includes(`${sep}server${sep}src${sep}`) ? here.replace(`${sep}server${sep}src${sep}`, `${sep}server${sep}dist${sep}`) : here;
  return existsSync(compiled) ? compiled : null;
}
