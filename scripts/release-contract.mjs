#!/usr/bin/env node
// Records the contract as released: copies generated/openapi.json to generated/released/openapi.json, the document
// `npm run check:breaking` compares with. Run it on purpose, at a release:
//
//   npm run release:contract      regenerates generated/ from spec/, then releases it (one command)
//
// It refuses (exit 1, nothing copied) what the check would refuse: a breaking change spec/CHANGELOG.md does not list
// (or lists with reason TODO), a listed break without a new major version, and a version older than the released
// one. From then on, spec/CHANGELOG.md entries of this version and older are history and allow no further break, and
// every operation of the contract is guarded. Releasing the same version again is allowed (the contract was not
// published in between: at a merge, when several branches added operations to the same new minor version).
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { classify, compareVersions, findAddedOperations, findBreakingChanges, parseChangelog, versionProblem } from './lib/breaking-changes.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'generated', 'openapi.json');
const to = join(root, 'generated', 'released', 'openapi.json');
const current = JSON.parse(readFileSync(from, 'utf8'));
const released = existsSync(to) ? JSON.parse(readFileSync(to, 'utf8')) : null;
const version = current.info?.version ?? '?';
const previous = released?.info?.version ?? 'none';

if (released) {
  const refuse = (why) => {
    console.error(`not released: ${why}`);
    process.exit(1);
  };
  if (!(compareVersions(version, previous) >= 0)) refuse(`info.version ${version} is older than the released ${previous}`);
  const changelog = join(root, 'spec', 'CHANGELOG.md');
  const { entries, errors } = parseChangelog(existsSync(changelog) ? readFileSync(changelog, 'utf8') : '');
  if (errors.length) refuse(`spec/CHANGELOG.md cannot be read (${errors.join('; ')})`);
  const { allowed, unlisted, todo } = classify(findBreakingChanges(released, current), entries, { releasedVersion: previous });
  if (unlisted.length || todo.length) refuse(`${unlisted.length + todo.length} breaking change(s) not allowed by spec/CHANGELOG.md: run npm run check:breaking`);
  const versioning = versionProblem(allowed.length, version, previous);
  if (versioning) refuse(versioning);
  const added = findAddedOperations(released, current);
  for (const a of added) console.log(`  ${a.id}`);
  if (added.length) console.log(`${added.length} operation(s) added since the released ${previous}.`);
}
mkdirSync(dirname(to), { recursive: true });
copyFileSync(from, to);
console.log(`released contract: generated/released/openapi.json is now ${version} (was ${previous}); commit it.`);
