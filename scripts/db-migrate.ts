// Applies pending migrations to the configured database (DATABASE_URL, or the embedded one in DATA_DIR).
import { loadConfig } from '../server/src/config/config.js';
import { openDatabase } from '../server/src/db/database.js';
import { applyMigrations } from '../server/src/db/migrate.js';

const config = loadConfig();
const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pool: config.pool });
try {
  const applied = await applyMigrations(db.pool);
  console.log(applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date');
} finally {
  await db.close();
}
