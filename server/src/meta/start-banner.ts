/** The line a person reads when the service starts: where it is, where to look, and how to get a key. */
export function startBanner(publicUrl: string, engine: string, localSignIn: boolean): string {
  const key = localSignIn ? 'a key for local use: npm run key' : 'keys: sign in at the dashboard';
  return `docextract is up at ${publicUrl}  ·  dashboard ${publicUrl}/dashboard  ·  reference ${publicUrl}/docs  ·  engine: ${engine}  ·  ${key}`;
}
