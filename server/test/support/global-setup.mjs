// Jest loads global setup outside its transform; tsx loads our TypeScript here.
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  const { prepareDatabases } = await tsImport('./prepare-databases.ts', import.meta.url);
  await prepareDatabases();
}
