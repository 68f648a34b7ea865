import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config.js';

/**
 * Reads `.env` from the working directory when there is one (Node's own parser, `process.loadEnvFile`, the same as
 * `node --env-file`), before the configuration is read: a variable already in the environment keeps its value.
 * `.env.example` lists every variable.
 */
export function loadDotEnv(file = resolve('.env')): string | null {
  if (!existsSync(file)) return null;
  try {
    process.loadEnvFile(file);
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  ${file}: ${(e as Error).message}`);
  }
  return file;
}
