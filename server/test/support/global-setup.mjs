// Jest loads global setup outside its transform; tsx loads our TypeScript here.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';

export default async function globalSetup() {
  // The suite runs far from UTC (and across a DST change) so a timestamp read in the process's zone shows up as a
  // failure; jest's workers inherit this. Set TZ yourself to try another zone.
  process.env.TZ ||= 'Pacific/Auckland';
  // `npm start` runs the compiled server; build it from the sources under test.
  execFileSync(process.execPath, [fileURLToPath(new URL('../../../scripts/build-server.mjs', import.meta.url))], { stdio: 'ignore' });
  const { prepareDatabases } = await tsImport('./prepare-databases.ts', import.meta.url);
  await prepareDatabases();
}
