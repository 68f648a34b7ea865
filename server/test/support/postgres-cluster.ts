// A throw-away PostgreSQL cluster for the test run: Debian's binaries, a data directory owned by the `postgres`
// user (initdb refuses to run as root), listening on 127.0.0.1 only, on a free port.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Cluster {
  url: (database: string) => string;
  dir: string;
  port: number;
}

export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function asPostgres(args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  const [cmd, ...rest] = args;
  if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', cmd!, ...rest], { stdio: 'pipe' });
  else execFileSync(cmd!, rest, { stdio: 'pipe' });
}

export async function startCluster(): Promise<Cluster> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL binaries not found under /usr/lib/postgresql (apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'docextract-pg-'));
  chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  const port = await freePort();
  asPostgres([join(bin, 'initdb'), '-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  asPostgres([
    join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-t', '30',
    '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`,
    'start',
  ]);
  return { dir, port, url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}` };
}

export function stopCluster(dir: string): void {
  const bin = postgresBinDir();
  if (!bin) return;
  try {
    asPostgres([join(bin, 'pg_ctl'), '-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
  } catch {
    // already stopped
  }
  rmSync(dir, { recursive: true, force: true });
}
