import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

/**
 * The cores this process may use: the CPUs it may run on (`os.availableParallelism`, which follows the affinity mask),
 * and no more than its cgroup's CPU quota rounded up. A container limited to 2 CPUs on a 32-core node sees 32 CPUs, not
 * 2: Node 20's libuv (1.46) does not read the quota, so threads sized by the cores alone would be throttled together.
 * cgroup v2's `cpu.max` ("max 100000", or "200000 100000" for 2 CPUs), else v1's `cpu.cfs_quota_us` (-1: none) and
 * `cpu.cfs_period_us`; no readable quota means none.
 */
export function usableCores(cgroupRoot = '/sys/fs/cgroup', cpus = availableParallelism()): number {
  const quota = cpuQuota(cgroupRoot);
  return quota === null ? cpus : Math.max(1, Math.min(cpus, Math.ceil(quota)));
}

/** The CPU quota in CPUs (1.5 for 150000/100000), or null when there is none or it cannot be read. */
export function cpuQuota(cgroupRoot: string): number | null {
  const v2 = read(join(cgroupRoot, 'cpu.max'));
  if (v2 !== null) {
    const [max, period] = v2.split(/\s+/);
    return ratio(max, period);
  }
  return ratio(read(join(cgroupRoot, 'cpu', 'cpu.cfs_quota_us')) ?? undefined, read(join(cgroupRoot, 'cpu', 'cpu.cfs_period_us')) ?? undefined);
}

function ratio(quota: string | undefined, period: string | undefined): number | null {
  const q = Number(quota);
  const p = Number(period);
  // "max" (v2) and -1 (v1) are no quota; anything unreadable counts as none rather than as one core.
  return Number.isFinite(q) && Number.isFinite(p) && q > 0 && p > 0 ? q / p : null;
}

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}
