import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { lockDataDir } from './data-dir-lock.js';

export interface EmbeddedPostgres {
  /** A pg connection config that reaches it. */
  connection: { host: string; port: number; user: string; database: string };
  stop(): Promise<void>;
}

/**
 * PostgreSQL compiled to WebAssembly (PGlite), persisted in DATA_DIR and served on a Unix socket inside DATA_DIR
 * (loopback TCP when the path is too long for a socket), so the service speaks the same wire protocol and SQL to it
 * as to a production server. PGlite is a single session: the service reaches it over exactly one connection (see
 * database.ts), and nothing else may connect while it runs, other than the schema engine while migrating at start.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Owner-only however the folder came to exist (mkdir's mode applies only to a folder it creates): PGlite writes its
  // files with the process umask, and the folder also holds the local dashboard secret and the socket.
  chmodSync(dataDir, 0o700);
  const release = lockDataDir(dataDir);
  let db: PGlite;
  try {
    db = await PGlite.create(join(dataDir, 'pgdata'));
    chmodSync(join(dataDir, 'pgdata'), 0o700);
  } catch (e) {
    release();
    throw e;
  }
  const socketDir = dataDir;
  const useUnixSocket = process.platform !== 'win32' && join(socketDir, '.s.PGSQL.5432').length < 100;
  const server = useUnixSocket
    ? new PGLiteSocketServer({ db, path: join(socketDir, '.s.PGSQL.5432'), maxConnections: 16 })
    : new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
  if (useUnixSocket) {
    // A socket file left by a process that was killed would block listen().
    const { rmSync } = await import('node:fs');
    rmSync(join(socketDir, '.s.PGSQL.5432'), { force: true });
  }
  await server.start();
  const port = useUnixSocket ? 5432 : Number(server.getServerConn().split(':').pop());
  return {
    connection: { host: useUnixSocket ? socketDir : '127.0.0.1', port, user: 'postgres', database: 'postgres' },
    async stop() {
      await server.stop();
      await db.close();
      release();
    },
  };
}
