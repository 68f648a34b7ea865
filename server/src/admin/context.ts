// What the admin command's commands share: where they write, what they may open, and how they fail.
import type { Config } from '../config/config.js';
import type { Database } from '../db/database.js';
import { applyMigrations } from '../db/migrate.js';

/** Exit statuses: done; refused or failed with nothing changed; wrong usage or configuration. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** Where a command writes: stdout carries the result (the one key or token asked for), stderr everything said to a person. */
export interface AdminIo {
  out(text: string): void;
  err(text: string): void;
}

/** What a command needs, opened only once its arguments are known to be right. */
export interface AdminContext {
  config: Config;
  /** The database, migrated to this version's schema as the service's own start does (opened on first use). */
  db(): Promise<Database>;
  /** The migrations that opening the database applied. */
  migrationsApplied(): Promise<string[]>;
  io: AdminIo;
  now(): Date;
}

/** Wrong arguments: said with the usage line, exit 2, before anything is opened. */
export class UsageError extends Error {}
/** A refusal (unknown account, id taken, no local secret): exit 1, nothing changed. */
export class CommandFailed extends Error {}

/** Opens the configured database and migrates it, once, when a command first asks for it. */
export function lazyDatabase(open: () => Promise<Database>): Pick<AdminContext, 'db' | 'migrationsApplied'> & { close(): Promise<void> } {
  let opened: Promise<{ db: Database; applied: string[] }> | undefined;
  const ready = () => (opened ??= (async () => {
    const db = await open();
    try {
      return { db, applied: await applyMigrations(db.pool) };
    } catch (e) {
      await db.close();
      throw e;
    }
  })());
  return {
    db: async () => (await ready()).db,
    migrationsApplied: async () => (await ready()).applied,
    async close() {
      if (opened) await (await opened.catch(() => undefined))?.db.close();
    },
  };
}
