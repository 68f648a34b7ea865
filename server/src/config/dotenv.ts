import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError } from './config.js';

/**
 * Reads `.env` from the working directory when there is one (Node's own parser, `process.loadEnvFile`, the same as
 * `node --env-file`), before the configuration is read: a variable already in the environment keeps its value.
 * ENV_FILE names another file; set empty, no file is read. `.env.example` lists every variable.
 */
export function loadDotEnv(name = process.env.ENV_FILE ?? '.env'): string | null {
  if (name === '') return null;
  const file = resolve(name);
  if (!existsSync(file)) {
    if (process.env.ENV_FILE) throw new ConfigError(`Invalid configuration:\n  ENV_FILE: ${file} does not exist`);
    return null;
  }
  try {
    process.loadEnvFile(file);
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  ${file}: ${(e as Error).message}`);
  }
  return file;
}
