#!/usr/bin/env node
// Fails (exit 1), listing each change, when generated/openapi.json breaks a client of the released contract,
// generated/released/openapi.json, and spec/CHANGELOG.md does not list the change as allowed.
//
//   node scripts/check-breaking.mjs [--released <file>] [--current <file>] [--changelog <file>] [--verbose]
//   npm run check:breaking        (part of `npm test`, right after the drift check)
//   npm run release:contract      copies generated/openapi.json to generated/released/ (on purpose, at a release)
//
// Breaking: an operation removed, moved or with another operationId; a security alternative or scheme removed or
// changed; in requests, anything the released contract accepted that the current one refuses (a member removed or
// newly required, a changed type, a narrowed constraint, a new enum or a removed enum value, null refused); in
// responses, anything the current contract may send that a released client cannot read (a property removed, made
// optional or nullable, a changed type or format, a new union variant), and a removed success status.
//
// Not breaking, by design: clients must tolerate new members and new enum values. New operations, new optional
// request members, new response properties, new error statuses and new enum values in responses are not reported.
// The full rules, and how $ref, the `allOf: [{$ref}]` wrapper and anyOf/oneOf unions are read, are at the top of
// scripts/lib/breaking-changes.mjs.
//
// Each change has a stable id such as `GET /v1/keys 200 response: property data removed`. An allowed break is
// listed in spec/CHANGELOG.md under the version that made it, with its reason (the format is at the top of that
// file); a reason still "TODO" fails the check. Only entries of versions newer than the released contract's allow
// anything: once a version is released its entries are history (they stay listed, and allow nothing new). Listed
// breaks also need a new major info.version (semantic versioning of the document): the check fails without one.
//
// Additions are not breaks, but an operation the released contract lacks is guarded by nothing (its operationId could
// be renamed unnoticed): the check fails while such an operation exists under the released info.version. Bump the
// version (a new minor for additions), `npm run generate`, then `npm run release:contract` records the new baseline.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { additionProblem, changelogLine, classify, findAddedOperations, findBreakingChanges, parseChangelog, versionProblem } from './lib/breaking-changes.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    released: { type: 'string', default: join(root, 'generated', 'released', 'openapi.json') },
    current: { type: 'string', default: join(root, 'generated', 'openapi.json') },
    changelog: { type: 'string', default: join(root, 'spec', 'CHANGELOG.md') },
    verbose: { type: 'boolean', default: false },
  },
});
const show = (file) => {
  const rel = relative(process.cwd(), resolve(file));
  return rel && !rel.startsWith('..') ? rel : file;
};

function readDocument(file, hint) {
  if (!existsSync(file)) {
    console.error(`${show(file)} does not exist. ${hint}`);
    process.exit(1);
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

const released = readDocument(args.released, 'Run `npm run release:contract` to record the released contract.');
const current = readDocument(args.current, 'Run `npm run generate`.');
const { entries, errors } = existsSync(args.changelog) ? parseChangelog(readFileSync(args.changelog, 'utf8')) : { entries: [], errors: [] };
if (errors.length) {
  console.error(`${show(args.changelog)} cannot be read:\n${errors.map((e) => `  ${e}`).join('\n')}`);
  process.exit(1);
}

const changes = findBreakingChanges(released, current);
const added = findAddedOperations(released, current);
const { allowed, unlisted, todo } = classify(changes, entries, { releasedVersion: released.info?.version });
const versions = `${show(args.released)} (${released.info?.version ?? '?'}) -> ${show(args.current)} (${current.info?.version ?? '?'})`;

console.log(
  `Breaking changes ${versions}: ${changes.length}; ${allowed.length} allowed by ${show(args.changelog)}, ` +
    `${todo.length} listed with reason TODO, ${unlisted.length} not listed; ${added.length} operation${added.length === 1 ? '' : 's'} added.`,
);
if (args.verbose) for (const c of allowed) console.log(`  allowed (${c.entry.version}): ${c.id}`);
if (args.verbose) for (const a of added) console.log(`  ${a.id}`);

if (todo.length) {
  console.error(`\nListed in ${show(args.changelog)} but the reason is still TODO (write why each break is accepted):`);
  for (const c of todo) console.error(`  line ${c.entry.line}: ${c.id}`);
}
if (unlisted.length) {
  console.error(`\nNot listed in ${show(args.changelog)} (each breaks a client of the released contract):`);
  for (const c of unlisted) console.error(`  ${c.id}`);
  console.error(
    `\nIf a break is intended, list it in ${show(args.changelog)} under the heading of the version that makes it\n` +
      `("## ${released.info?.version ?? '<released>'} → <new version> (title)"), one line each with the reason; if not, change spec/ back.\n` +
      `Lines to paste:\n`,
  );
  for (const c of unlisted) console.error(changelogLine(c.id));
}
const versioning = versionProblem(allowed.length, current.info?.version, released.info?.version);
if (versioning) console.error(`\nThe version does not say it breaks clients: ${versioning}.`);
const adding = additionProblem(added.length, current.info?.version, released.info?.version);
if (adding) {
  console.error(`\nOperations the released contract does not guard yet: ${adding}.`);
  for (const a of added) console.error(`  ${a.id}`);
}
if (todo.length || unlisted.length || versioning || adding) process.exit(1);
console.log('No unlisted breaking changes.');
