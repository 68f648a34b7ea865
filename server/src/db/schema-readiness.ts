import type pg from 'pg';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from './errors.js';
import { applyMigrations } from './migrate.js';

/**
 * Whether the database's schema is current, so routes that need it may run. The service starts and answers its
 * probes even when the database is down at start: it keeps trying to migrate in the background (backing off to
 * 5 s between tries), answers 503 until then, and needs no restart once the database is back.
 */
export class SchemaReadiness {
  private current = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly waiting: Array<() => void> = [];

  isReady(): boolean {
    return this.current;
  }

  /** Resolves once the schema is current (at once if it is). */
  whenReady(): Promise<void> {
    if (this.current) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private ready(): void {
    this.current = true;
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /**
   * Migrates now; when the database cannot be reached, starts retrying in the background and resolves at once.
   * Any other failure (a migration that cannot apply) rejects: that needs a person, not a retry.
   */
  async start(pool: pg.Pool, logger: Logger, onFatal: (err: unknown) => void): Promise<void> {
    const attempt = async (): Promise<boolean> => {
      const applied = await applyMigrations(pool);
      this.ready();
      logger.info({ migrationsApplied: applied }, 'database schema is current');
      return true;
    };
    try {
      await attempt();
      return;
    } catch (err) {
      if (!isDatabaseUnavailable(err)) throw err;
      logger.warn('database unavailable at start: serving 503 until it answers');
    }
    let delay = 250;
    const retry = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => {
        attempt().catch((err) => {
          if (!isDatabaseUnavailable(err)) return onFatal(err);
          delay = Math.min(delay * 2, 5_000);
          retry();
        });
      }, delay);
      this.timer.unref();
    };
    retry();
  }

  /** For a service created on a database already migrated (tests, tools). */
  markReady(): this {
    this.ready();
    return this;
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
