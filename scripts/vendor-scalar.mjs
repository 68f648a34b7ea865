#!/usr/bin/env node
// Refreshes vendor/scalar-api-reference/standalone.js, the one file of Scalar's API reference that /docs serves.
//   node scripts/vendor-scalar.mjs [version]      (default: the version in vendor/scalar-api-reference/VERSION)
// Why vendored: installing @scalar/api-reference pulls 185 packages and 287 MB for this 4.2 MB browser bundle, and
// the bundle must come from our own origin (no CDN). `npm pack` fetches the published tarball through npm's registry
// and cache; the file's SHA-256 is recorded beside it so a change that is not a refresh shows up in review.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'vendor', 'scalar-api-reference');
const version = process.argv[2] ?? readFileSync(join(dir, 'VERSION'), 'utf8').trim();
if (!/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`not a version: ${version}`);

const work = mkdtempSync(join(tmpdir(), 'scalar-'));
try {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const tarball = execFileSync(npm, ['pack', `@scalar/api-reference@${version}`, '--silent'], { cwd: work, encoding: 'utf8' }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', tarball, 'package/dist/browser/standalone.js', 'package/package.json'], { cwd: work });
  const pkg = JSON.parse(readFileSync(join(work, 'package', 'package.json'), 'utf8'));
  if (pkg.license !== 'MIT') throw new Error(`@scalar/api-reference ${version} is licensed ${pkg.license}, not MIT: review before vendoring`);
  const bundle = readFileSync(join(work, 'package', 'dist', 'browser', 'standalone.js'));
  writeFileSync(join(dir, 'standalone.js'), bundle);
  writeFileSync(join(dir, 'VERSION'), `${version}\n`);
  const sha256 = createHash('sha256').update(bundle).digest('hex');
  writeFileSync(join(dir, 'SHA256'), `${sha256}  standalone.js\n`);
  console.log(`vendored @scalar/api-reference ${version} (${bundle.length} bytes, sha256 ${sha256})`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
