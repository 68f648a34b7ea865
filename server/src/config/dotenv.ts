import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig, type Config, type ProcessRole } from './config.js';

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

/**
 * The configuration of a process starting (the service, a worker): `.env` read, then the environment checked; every
 * wrong setting is said on stderr at once and the process exits with 2, before anything is opened.
 */
export function startupConfig(role: ProcessRole = 'api'): Config {
  try {
    loadDotEnv();
    return loadConfig(process.env, { role });
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
}
