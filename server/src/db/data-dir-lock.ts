import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Another live process holds this DATA_DIR. */
export class DataDirInUse extends Error {}

/** Whether a process with this id is running (signal 0 tests without signalling; EPERM means it exists). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims DATA_DIR for this process: `docextract.pid` is created exclusively and holds our pid. The embedded database
 * is one PGlite session whose files and socket must have one owner: a second service on the same folder would share
 * the files and, when it stopped, delete the first one's socket. A pid file left by a process that died (kill -9) is
 * taken over. Answers the release.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, 'docextract.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        // Only our own claim is removed: a pid file rewritten by a later owner stays.
        if (readFileSync(path, { encoding: 'utf8', flag: 'a+' }).trim() === String(process.pid)) rmSync(path, { force: true });
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(holder) && holder > 0 && alive(holder)) {
        throw new DataDirInUse(`DATA_DIR ${dataDir} is in use by another docextract (pid ${holder}): stop it first, or give this one its own DATA_DIR (or DATABASE_URL).`);
      }
      rmSync(path, { force: true }); // left by a process that died
    }
  }
  throw new DataDirInUse(`DATA_DIR ${dataDir} could not be claimed (${path}).`);
}
