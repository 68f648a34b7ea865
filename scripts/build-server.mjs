#!/usr/bin/env node
// Compiles server/src to JavaScript (not committed), file for file, so `npm start` runs plain JavaScript: loading
// through a TypeScript loader at every start cost seconds. Types are checked by `npm run typecheck`, not here.
//
// Run by `npm install`, before `npm start` / `npm run worker`, and by the test setup; it builds only when the sources
// changed. A build is named by a hash of what it is built from (server/.dist-<hash>/); server/dist is a symbolic link
// to the current one. A new build is written beside the old ones, then the link is replaced in one rename: a process
// that is starting or running keeps loading from the build it started on (Node resolves server/dist/main.js to the
// real path, so its later imports, threads and reader processes come from the same folder), and no build a process
// may be loading is deleted while it is current or recent. Processes started together build at most once each and
// all end on the same link.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const server = fileURLToPath(new URL('../server/', import.meta.url));
const src = join(server, 'src');
const link = join(server, 'dist');
/** Superseded builds kept no matter their age (a process started a little earlier may still load from them). */
const KEEP_SUPERSEDED = 2;
/** Older superseded builds are removed once they were replaced this long ago (restart a process older than that). */
const KEEP_FOR_MS = 3600_000;

/** The build's name: a hash of every source file (path and content), this script and the compiler's version. */
function buildName() {
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  const esbuildPackage = fileURLToPath(new URL('../node_modules/esbuild/package.json', import.meta.url));
  if (existsSync(esbuildPackage)) hash.update(JSON.parse(readFileSync(esbuildPackage, 'utf8')).version);
  for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(src, file);
    if (!statSync(path).isFile()) continue;
    hash.update(`\0${file}\0`);
    hash.update(readFileSync(path));
  }
  return `.dist-${hash.digest('hex').slice(0, 16)}`;
}

/** Where server/dist points now: a build's name, 'folder' for a plain folder (an older layout, or an image), or null. */
function current() {
  try {
    return lstatSync(link).isSymbolicLink() ? readlinkSync(link) : 'folder';
  } catch {
    return null;
  }
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
};

async function compile(name) {
  const { build } = await import('esbuild');
  const entryPoints = readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(src, f));
  // Beside the builds (same depth: the server's files reach ../../generated, ../../vendor and ../dashboard from it).
  const building = join(server, `.dist-building-${process.pid}-${Date.now()}`);
  await build({
    entryPoints,
    outbase: src,
    outdir: building,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  try {
    renameSync(building, join(server, name));
  } catch (e) {
    // Another process finished the same build first: theirs is identical.
    if (!existsSync(join(server, name))) throw e;
    rmSync(building, { recursive: true, force: true });
  }
  return entryPoints.length;
}

/** Points server/dist at `name` in one rename (a link made beside it, renamed over it). */
function swapIn(name) {
  const state = current();
  if (state === 'folder') {
    // A plain folder from an older layout: moved aside (not deleted: a process may be loading from it), then replaced.
    renameSync(link, join(server, `.dist-folder-${Date.now()}`));
  }
  const next = join(server, `.dist-link-${process.pid}-${Date.now()}`);
  symlinkSync(name, next, 'dir');
  renameSync(next, link);
  // The build's time is when it became current: superseded builds are aged from the one after them.
  const now = new Date();
  utimesSync(join(server, name), now, now);
}

/** Removes what no process can be loading: half-made builds of processes gone, and old superseded builds. */
function cleanUp(keep) {
  const entries = readdirSync(server).filter((f) => f.startsWith('.dist-'));
  for (const f of entries) {
    const pid = /^\.dist-(?:building|link)-(\d+)-/.exec(f)?.[1];
    if (pid && !alive(Number(pid))) rmSync(join(server, f), { recursive: true, force: true });
  }
  const builds = entries
    .filter((f) => /^\.dist-(?:[0-9a-f]{16}|folder-\d+)$/.test(f) && f !== keep)
    .map((f) => ({ f, mtime: statSync(join(server, f)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const [i, b] of builds.entries()) {
    // A build's own mtime is when it became current; the one made current after it says when it was replaced.
    const replacedAt = i === 0 ? Infinity : builds[i - 1].mtime;
    if (i >= KEEP_SUPERSEDED && Date.now() - replacedAt > KEEP_FOR_MS) rmSync(join(server, b.f), { recursive: true, force: true });
  }
}

if (!existsSync(src)) {
  // An image holds the compiled server and no sources: nothing to build from.
  if (!existsSync(join(link, 'main.js'))) throw new Error('server/src and server/dist are both missing');
  console.log('server/dist (no sources here: kept as it is)');
} else {
  const name = buildName();
  if (current() === name && existsSync(join(server, name))) {
    console.log(`server/dist is current (${name.slice(6)})`);
  } else {
    const modules = existsSync(join(server, name)) ? 0 : await compile(name);
    swapIn(name);
    console.log(modules ? `built server/dist (${modules} modules, ${name.slice(6)})` : `server/dist -> ${name.slice(6)} (built before)`);
  }
  cleanUp(name);
}
