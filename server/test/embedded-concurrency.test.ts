// The embedded database under concurrent transactions and single statements: every write that was acknowledged is
// there afterwards, and none fails. (With more than one connection to PGlite's socket server, statements from one
// connection ran inside another's transaction and were rolled back with it: electric-sql/pglite#1046.)
import { openDatabase, type Database } from '../src/db/database.js';
import { createTestDatabase, type TestDatabase } from './support/databases.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('embedded database under concurrency', () => {
  let database: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase('embedded');
    db = await openDatabase({ databaseUrl: undefined, dataDir: database.dataDir });
    await db.pool.query('CREATE TABLE concurrency_probe (id text PRIMARY KEY, via text NOT NULL)');
    await db.pool.query('CREATE TABLE concurrency_counter (n int NOT NULL)');
    await db.pool.query('INSERT INTO concurrency_counter VALUES (0)');
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('keeps every acknowledged write while transactions run alongside single statements', async () => {
    const acknowledged: string[] = [];
    const failures: unknown[] = [];
    const attempt = async (write: () => Promise<string[]>) => {
      try {
        acknowledged.push(...(await write()));
      } catch (err) {
        failures.push(err);
      }
    };
    // Callers in a loop each, so transactions and single statements overlap the whole time.
    const transactions = async () => {
      for (let i = 0; i < 20; i++) {
        await attempt(() => db.prisma.$transaction(async (tx) => {
          await tx.$executeRaw`INSERT INTO concurrency_probe (id, via) VALUES (${`tx${i}a`}, 'transaction')`;
          await sleep(3); // other callers' statements arrive while this transaction is open
          await tx.$executeRaw`INSERT INTO concurrency_probe (id, via) VALUES (${`tx${i}b`}, 'transaction')`;
          return [`tx${i}a`, `tx${i}b`];
        }, { maxWait: 30_000 }));
      }
    };
    // Different statements, as a service's requests send, rotating so different ones are in flight together: each
    // must run as its caller sent it.
    let counted = 0;
    const singles = async (worker: number) => {
      for (let i = 0; i < 100; i++) {
        const id = `w${worker}-${i}`;
        const kind = (i + worker) % 3;
        await attempt(() => kind === 0
          ? db.sql.execute('probe_a', `INSERT INTO concurrency_probe (id, via) VALUES ($1, 'single-a')`, [`a${id}`]).then(() => [`a${id}`])
          : kind === 1 ? db.sql.execute('probe_b', 'INSERT INTO concurrency_probe (via, id) VALUES ($1, $2)', ['single-b', `b${id}`]).then(() => [`b${id}`])
            : db.sql.execute('probe_count', 'UPDATE concurrency_counter SET n = n + $1', [1]).then(() => { counted++; return []; }));
      }
    };
    await Promise.all([transactions(), singles(0), singles(1), singles(2)]);

    expect(failures).toEqual([]);
    expect(acknowledged).toHaveLength(240);
    const { rows } = await db.pool.query<{ id: string; via: string }>('SELECT id, via FROM concurrency_probe');
    expect(rows.map((r) => r.id).sort()).toEqual([...acknowledged].sort());
    const viaOf = (id: string) => (id.startsWith('tx') ? 'transaction' : id.startsWith('a') ? 'single-a' : 'single-b');
    expect(rows.filter((r) => r.via !== viaOf(r.id))).toEqual([]);
    expect((await db.pool.query<{ n: number }>('SELECT n FROM concurrency_counter')).rows[0]!.n).toBe(100);
    expect(counted).toBe(100);
  });
});
