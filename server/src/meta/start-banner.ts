/**
 * The line a person reads when the service starts: where it is, where to look, which engine and which database it
 * uses, and how to get a key.
 */
export function startBanner(publicUrl: string, engine: string, localSignIn: boolean, database: string): string {
  const key = localSignIn ? 'a key for local use: npm run key' : 'keys: the dashboard, or npm run admin -- create-key ACCOUNT';
  return `docextract is up at ${publicUrl}  ·  dashboard ${publicUrl}/dashboard  ·  reference ${publicUrl}/docs  ·  engine: ${engine}  ·  database: ${database}  ·  ${key}`;
}

/** The database, as the banner names it: the embedded one with its folder, or PostgreSQL (never its URL: it may hold a password). */
export function databaseName(kind: 'embedded' | 'postgres', dataDir: string): string {
  return kind === 'embedded' ? `embedded PostgreSQL (PGlite) in ${dataDir}` : 'PostgreSQL (DATABASE_URL)';
}
