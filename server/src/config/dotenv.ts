import { existsSync, readFileSync } from 'node:fs';
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
  const malformed = malformedLine(readFileSync(file, 'utf8'));
  if (malformed) throw new ConfigError(`Invalid configuration:\n  ${file}: line ${malformed.line} ${malformed.why}; each line must be NAME=value, a # comment or empty`);
  try {
    process.loadEnvFile(file);
  } catch (e) {
    throw new ConfigError(`Invalid configuration:\n  ${file}: ${(e as Error).message}`);
  }
  return file;
}

/** A setting's line: an optional `export`, a variable's name, `=`. */
const SETTING = /^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*\s*=(.*)$/;

/**
 * The first line of a `.env` text Node's parser would misread, with why. Its parser does not stop at a line it cannot
 * read: a line without `=` makes it take the next line as that line's continuation (the next setting is lost without
 * a word), and a quote opened and not closed may swallow lines up to a later quote. Each setting here is on one line.
 */
export function malformedLine(text: string): { line: number; why: string } | null {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(#.*)?$/.test(line)) continue;
    const setting = SETTING.exec(line);
    if (!setting) return { line: i + 1, why: 'is not a setting' };
    const value = setting[1]!.trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && value.indexOf(quote, 1) === -1) return { line: i + 1, why: 'opens a quoted value that does not end on that line' };
  }
  return null;
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
