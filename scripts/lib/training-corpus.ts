// The labelled training corpus as the classifier's fitting script reads it: one or more folders laid out as
// `<route>/<slug>.txt` with a MANIFEST.jsonl naming each document's path, kind, locale and language.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface TrainingDoc { id: string; kind: string; route: string; locale: string; language: string; text: string }

interface ManifestRow { path: string; route: string; kind: string; locale?: string; language?: string }

/**
 * Every document a corpus folder's manifest names whose text is there (a document still being written is skipped); a
 * folder without a manifest is read as the corpora in its subfolders (`corpus/training/a`, `.../b`).
 */
export function readCorpus(dir: string): TrainingDoc[] {
  const manifest = join(dir, 'MANIFEST.jsonl');
  if (!existsSync(manifest)) {
    const parts = readdirSync(dir).map((f) => join(dir, f)).filter((d) => statSync(d).isDirectory() && existsSync(join(d, 'MANIFEST.jsonl'))).sort();
    if (parts.length === 0) throw new Error(`${dir}: no MANIFEST.jsonl, here or in its subfolders`);
    return parts.flatMap(readCorpus);
  }
  const docs: TrainingDoc[] = [];
  const seen = new Set<string>();
  for (const line of readFileSync(manifest, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let row: ManifestRow;
    try { row = JSON.parse(line) as ManifestRow; } catch { continue; }
    const file = join(dir, `${row.path}.txt`);
    if (!row.kind || seen.has(row.path) || !existsSync(file)) continue;
    seen.add(row.path);
    docs.push({ id: `${dir}:${row.path}`, kind: row.kind, route: row.route, locale: row.locale ?? '', language: row.language ?? 'unknown', text: readFileSync(file, 'utf8') });
  }
  return docs;
}

/** Language families, for figures that say where the classifier reads well and where it does not. */
const FAMILIES: Record<string, string[]> = {
  English: ['English'],
  Germanic: ['German', 'Dutch', 'Swedish', 'Danish', 'Norwegian'],
  Romance: ['French', 'Spanish', 'Portuguese', 'Italian', 'Romanian'],
  Slavic: ['Polish', 'Czech', 'Slovak', 'Russian', 'Ukrainian'],
  'Greek, Hungarian, Finnish, Turkish': ['Greek', 'Hungarian', 'Finnish', 'Turkish'],
  'Arabic, Hebrew': ['Arabic', 'Hebrew'],
  'South and South-East Asian': ['Hindi', 'Indonesian', 'Malay', 'Vietnamese', 'Thai', 'Filipino', 'Tagalog'],
  'East Asian': ['Chinese', 'Japanese', 'Korean'],
};

export function familyOf(language: string): string {
  const first = language.split(/[\s/,(]/)[0]!;
  for (const [family, languages] of Object.entries(FAMILIES)) if (languages.includes(first)) return family;
  return 'other languages';
}
