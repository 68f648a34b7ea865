import { rmSync } from 'node:fs';
import { stopCluster } from './postgres-cluster.js';

export async function releaseDatabases(): Promise<void> {
  if (process.env.TEST_PG_DIR) stopCluster(process.env.TEST_PG_DIR);
  if (process.env.TEST_PGLITE_TEMPLATE) rmSync(process.env.TEST_PGLITE_TEMPLATE, { recursive: true, force: true });
}
