import { tsImport } from 'tsx/esm/api';

export default async function globalTeardown() {
  const { releaseDatabases } = await tsImport('./release-databases.ts', import.meta.url);
  await releaseDatabases();
}
