// The cores the offline engine sizes its threads by: the CPUs the process may run on, held to its cgroup's CPU quota
// (a container limited to 2 CPUs on a many-core node), read from cgroup v2 or v1 files laid out as the kernel does.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuQuota, usableCores } from '../src/host/usable-cores.js';

function cgroup(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cgroup-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe('usable cores', () => {
  it.each([
    ['cgroup v2, 2 CPUs', { 'cpu.max': '200000 100000\n' }, 32, 2],
    ['cgroup v2, 1.5 CPUs (rounded up)', { 'cpu.max': '150000 100000\n' }, 32, 2],
    ['cgroup v2, half a CPU (at least one)', { 'cpu.max': '50000 100000\n' }, 32, 1],
    ['cgroup v2, no quota', { 'cpu.max': 'max 100000\n' }, 32, 32],
    ['cgroup v2, a quota above the CPUs it may run on', { 'cpu.max': '800000 100000\n' }, 4, 4],
    ['cgroup v1, 3 CPUs', { 'cpu/cpu.cfs_quota_us': '300000\n', 'cpu/cpu.cfs_period_us': '100000\n' }, 16, 3],
    ['cgroup v1, no quota (-1)', { 'cpu/cpu.cfs_quota_us': '-1\n', 'cpu/cpu.cfs_period_us': '100000\n' }, 16, 16],
    ['no cgroup files', {}, 8, 8],
    ['an unreadable quota', { 'cpu.max': 'garbage\n' }, 8, 8],
  ])('%s', (_name, files, cpus, expected) => {
    expect(usableCores(cgroup(files), cpus)).toBe(expected);
  });

  it('reads the quota as CPUs', () => {
    expect(cpuQuota(cgroup({ 'cpu.max': '250000 100000' }))).toBe(2.5);
    expect(cpuQuota(cgroup({ 'cpu.max': 'max 100000' }))).toBeNull();
  });
});
