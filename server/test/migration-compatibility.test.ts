// docs/deploy.md promises that the previous version keeps working on a schema the next one migrated (rolling updates,
// rollbacks): migrations only add. Every migration after the first is read and held to that; the rules are shown to
// catch what they forbid.
import { readMigrationsList } from '../src/db/migrate.js';

/** What a migration may not do to a schema an earlier version runs on, each with the reason. */
function breakingChanges(sql: string): string[] {
  const text = sql.replace(/--[^\n]*/g, '');
  const temp = new Set([...text.matchAll(/CREATE\s+TEMP(?:ORARY)?\s+TABLE\s+("[^"]+"|\w+)/gi)].map((m) => m[1]!.replaceAll('"', '')));
  const found: string[] = [];
  for (const m of text.matchAll(/DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?("[^"]+"|\w+)/gi)) {
    if (!temp.has(m[1]!.replaceAll('"', ''))) found.push(`drops table ${m[1]}`);
  }
  const rules: Array<[RegExp, string]> = [
    [/DROP\s+COLUMN/i, 'drops a column'],
    [/\bRENAME\b/i, 'renames a table, column or value'],
    [/SET\s+NOT\s+NULL/i, 'makes a column required'],
    [/ALTER\s+COLUMN\s+("[^"]+"|\w+)\s+(SET\s+DATA\s+)?TYPE/i, "changes a column's type"],
    [/DROP\s+TYPE/i, 'drops a type'],
  ];
  for (const [rule, reason] of rules) if (rule.test(text)) found.push(reason);
  // A required column added without a default: the earlier version's inserts do not name it.
  for (const m of text.matchAll(/ADD\s+COLUMN\s+("[^"]+"|\w+)([^,;]*)/gi)) {
    if (/NOT\s+NULL/i.test(m[2]!) && !/DEFAULT/i.test(m[2]!)) found.push(`adds required column ${m[1]} without a default`);
  }
  return found;
}

describe('migrations keep the previous version working', () => {
  const [first, ...later] = readMigrationsList().migrationDirectories;

  it('has migrations to read', () => {
    expect(first).toBeDefined();
    expect(later.length).toBeGreaterThan(0);
  });

  it.each(later.map((m) => [m.path, m.migrationFile.content.value] as const))('%s only adds', (_name, sql) => {
    expect(breakingChanges(sql)).toEqual([]);
  });

  it('catches what it forbids, and lets through what adds', () => {
    expect(breakingChanges('ALTER TABLE "jobs" DROP COLUMN "result";')).toEqual(['drops a column']);
    expect(breakingChanges('DROP TABLE "webhook_attempts";')).toEqual(['drops table "webhook_attempts"']);
    expect(breakingChanges('ALTER TABLE "accounts" RENAME COLUMN "plan" TO "tier";')).toEqual(['renames a table, column or value']);
    expect(breakingChanges('ALTER TABLE "jobs" ALTER COLUMN "metadata" SET NOT NULL;')).toEqual(['makes a column required']);
    expect(breakingChanges('ALTER TABLE "jobs" ALTER COLUMN "tag" TYPE INTEGER;')).toEqual(["changes a column's type"]);
    expect(breakingChanges('ALTER TABLE "jobs" ADD COLUMN "priority" INTEGER NOT NULL;')).toEqual(['adds required column "priority" without a default']);
    expect(breakingChanges('ALTER TABLE "jobs" ADD COLUMN "priority" INTEGER NOT NULL DEFAULT 0,\nADD COLUMN "note" TEXT;')).toEqual([]);
    expect(breakingChanges('CREATE TEMP TABLE "map" ("a" TEXT NOT NULL);\nDROP TABLE "map";')).toEqual([]);
    expect(breakingChanges('CREATE TABLE "x" ("id" TEXT NOT NULL);\nCREATE INDEX "x_i" ON "x"("id");')).toEqual([]);
  });
});
