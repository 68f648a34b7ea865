// The labelled sets a classifier is scored on: every folder of route folders (`<route>/<slug>.txt`) in the repo's
// fixtures and the shared corpus, each document's kind its route's (a custom document's from
// server/test/classification/custom-kinds.json), or a folder with its own kinds.json (`route/slug` -> kind).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const ROUTES = ['invoice', 'receipt', 'contract', 'job-posting', 'meeting-notes', 'renewal', 'custom'];
const root = new URL('../..', import.meta.url).pathname;
export const FIXTURES = join(root, 'server/test/local-engine/fixtures');
// The shared corpus beside the repository (CI: a fresh clone with shared/ next to it; a worktree: two levels up).
export const CORPUS = [join(root, '../shared/corpus'), join(root, '../../shared/corpus')].find((d) => existsSync(d)) ?? join(root, '../shared/corpus');
const CUSTOM_KINDS: Record<string, string> = JSON.parse(readFileSync(join(root, 'server/test/classification/custom-kinds.json'), 'utf8'));

export interface LabelledDoc { set: string; id: string; route: string; kind: string; path: string; text: string }

/** The documents of one set folder, with their kinds. */
export function setDocuments(dir: string, name: string, keyPrefix: string): LabelledDoc[] {
  const own = existsSync(join(dir, 'kinds.json')) ? JSON.parse(readFileSync(join(dir, 'kinds.json'), 'utf8')) as Record<string, string> : null;
  // A set with its own kinds.json: every document it names (`route/slug`, `slug`, with or without its extension).
  if (own) {
    return Object.entries(own).filter(([key]) => !key.startsWith('//')).map(([key, kind]) => {
      const path = [key, `${key}.txt`, `${key}.md`].map((k) => join(dir, k)).find((p) => existsSync(p) && statSync(p).isFile());
      if (!path) throw new Error(`${dir}/kinds.json names ${key}, which is not there`);
      return { set: name, id: key, route: key.includes('/') ? key.split('/')[0]! : '', kind, path, text: readFileSync(path, 'utf8') };
    });
  }
  const docs: LabelledDoc[] = [];
  for (const route of readdirSync(dir)) {
    const folder = join(dir, route);
    if (route.startsWith('.') || !statSync(folder).isDirectory()) continue;
    const files = readdirSync(folder);
    for (const file of files.filter((f) => /\.(txt|md)$/.test(f) && !f.endsWith('.schema.json'))) {
      const slug = file.replace(/\.(txt|md)$/, '');
      const key = `${route}/${slug}`;
      const kind = ROUTES.includes(route) && route !== 'custom' ? route : CUSTOM_KINDS[`${keyPrefix}${key}`];
      if (!kind) continue;
      docs.push({ set: name, id: key, route, kind, path: join(folder, file), text: readFileSync(join(folder, file), 'utf8') });
    }
  }
  return docs;
}

/** Every labelled set of the repo: the fixtures' top level, each fresh* folder, and the shared corpus. */
export function labelledSets(): Map<string, LabelledDoc[]> {
  const sets = new Map<string, LabelledDoc[]>();
  sets.set('fixtures', setDocuments(FIXTURES, 'fixtures', ''));
  for (const name of readdirSync(FIXTURES).filter((n) => n.startsWith('fresh')).sort()) sets.set(name, setDocuments(join(FIXTURES, name), name, `${name}/`));
  if (existsSync(CORPUS)) sets.set('corpus', setDocuments(CORPUS, 'corpus', 'corpus/'));
  return sets;
}
