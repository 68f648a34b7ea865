// Every package the service or the SDK runs on supports the Node running this test (Node 20 here, in the image and in
// CI), per its own `engines` field: the root's, the server's and the SDK's `dependencies`, and everything they pull in
// at run time (dependencies and installed optional dependencies, followed through node_modules as Node resolves them).
// Dev packages are not run in production and are not checked; the project's own `engines` must admit this Node too.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import semver from 'semver';

const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const WORKSPACES = ['.', 'server', 'sdk'];

interface Manifest { name: string; version: string; engines?: { node?: string }; dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/** The folder of `name` as Node finds it from `from` (the nearest node_modules upward), or null when not installed. */
function resolvePackage(name: string, from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === dirname(dir) || dir === dirname(root)) return null;
  }
}

/** Every installed package the workspaces' `dependencies` need at run time, by folder. */
function runtimeClosure(): Map<string, { manifest: Manifest; via: string }> {
  const seen = new Map<string, { manifest: Manifest; via: string }>();
  const queue: Array<{ name: string; from: string; via: string; optional: boolean }> = [];
  for (const ws of WORKSPACES) {
    for (const name of Object.keys(read(join(root, ws, 'package.json')).dependencies ?? {})) queue.push({ name, from: join(root, ws), via: `${ws}/package.json`, optional: false });
  }
  while (queue.length) {
    const { name, from, via, optional } = queue.shift()!;
    const dir = resolvePackage(name, from);
    if (!dir) {
      if (!optional) throw new Error(`${name} (needed by ${via}) is not installed`);
      continue;
    }
    if (seen.has(dir)) continue;
    const manifest = read(join(dir, 'package.json'));
    seen.set(dir, { manifest, via });
    for (const dep of Object.keys(manifest.dependencies ?? {})) queue.push({ name: dep, from: dir, via: `${manifest.name}@${manifest.version}`, optional: false });
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) queue.push({ name: dep, from: dir, via: `${manifest.name}@${manifest.version}`, optional: true });
  }
  return seen;
}

describe('run-time dependencies and the Node they support', () => {
  const node = process.version;

  it('the project says which Node it runs on, and this Node is one', () => {
    for (const ws of ['.', 'sdk']) {
      const range = read(join(root, ws, 'package.json')).engines?.node;
      expect([ws, range !== undefined && semver.satisfies(node, range)]).toEqual([ws, true]);
    }
  });

  it('every direct run-time dependency admits this Node by its engines field', () => {
    const direct = WORKSPACES.flatMap((ws) => Object.keys(read(join(root, ws, 'package.json')).dependencies ?? {}).map((name) => ({ ws, name })));
    expect(direct.length).toBeGreaterThan(30);
    const refusing = direct.flatMap(({ ws, name }) => {
      const manifest = read(join(resolvePackage(name, join(root, ws))!, 'package.json'));
      const range = manifest.engines?.node;
      return range && !semver.satisfies(node, range, { includePrerelease: true }) ? [`${manifest.name}@${manifest.version} wants node ${range}`] : [];
    });
    expect(refusing).toEqual([]);
  });

  it('so does everything they pull in at run time', () => {
    const closure = runtimeClosure();
    expect(closure.size).toBeGreaterThan(100);
    const refusing = [...closure.values()].flatMap(({ manifest, via }) => {
      const range = manifest.engines?.node;
      return range && !semver.satisfies(node, range, { includePrerelease: true }) ? [`${manifest.name}@${manifest.version} (via ${via}) wants node ${range}`] : [];
    });
    expect(refusing).toEqual([]);
  });
});
