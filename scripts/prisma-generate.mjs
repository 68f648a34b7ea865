#!/usr/bin/env node
// Generates the Prisma client (server/src/db/prisma-client, not committed) from prisma/schema.prisma.
// Prisma's CLI only checks that a schema engine binary exists before generating (generate never runs it), and the
// native engine cannot be downloaded here, so point it at any executable.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js', { paths: [new URL('../server/', import.meta.url).pathname] });
execFileSync(process.execPath, [cli, 'generate', '--schema', 'prisma/schema.prisma'], {
  cwd: new URL('..', import.meta.url).pathname,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
});
