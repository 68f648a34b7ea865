import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig, type Config, type ProcessRole } from './config.js';

/**
 * The file to read before the configuration, or null for none. ENV_FILE, when set, decides: a file's path, or empty
 * for none. Otherwise `.env` in the working directory, only outside production: a production process reads its
 * configuration from its environment, never from a file it happens to find (an image or a repository root may hold a
 * developer's `.env`, with their keys), unless ENV_FILE names one.
 */
export function dotEnvFile(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.ENV_FILE !== undefined) return env.ENV_FILE === '' ? null : env.ENV_FILE;
  return env.NODE_ENV === 'production' ? null : '.env';
}

/**
 * Reads the file `dotEnvFile` names when there is one (Node's own parser, `process.loadEnvFile`, the same as
 * `node --env-file`), before the configuration is read: a variable already in the environment keeps its value. A file
 * ENV_FILE names must exist. `.env.example` lists every variable. Answers the path read, or null.
 */
export function loadDotEnv(name = dotEnvFile()): string | null {
  if (name === null) return null;
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
 * The configuration of a process starting (the service, a worker): the file dotEnvFile names read, then the
 * environment checked; every wrong setting is said on stderr at once and the process exits with 2, before anything
 * is opened.
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
