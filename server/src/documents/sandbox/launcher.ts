import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The limits every reader process runs under. */
export interface ProcessLimits {
  /** RLIMIT_DATA: writable private memory (heap, WebAssembly memory, buffers, thread stacks), in bytes. */
  memoryBytes: number;
  /** V8's old space, in MB (`--max-old-space-size`): below memoryBytes, so V8 fails cleanly before the kernel limit. */
  heapMb: number;
  /** RLIMIT_CPU, in seconds: a backstop for a process whose budget timer is gone with the service. */
  cpuSeconds: number;
}

/** How a reader process is started, and what holds it. */
export interface Launcher {
  command(): { command: string; args: string[] };
  /** Which mechanisms hold the process, for the start log and the README. */
  describe(): { memory: string; cpu: string; parentDeath: string; cgroupV2: string };
}

/** An executable on PATH (or at the usual place), else null. */
function findExecutable(name: string): string | null {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Hard limits from rlimits set by util-linux `prlimit` on the process it then becomes (exec), because they work for
 * an unprivileged service on any Linux, in slim images too:
 * - memory: RLIMIT_DATA (counts writable private mappings since Linux 4.7), not RLIMIT_AS: under RLIMIT_AS V8 cannot
 *   reserve the address space WebAssembly needs (tesseract.js), while RLIMIT_DATA lets it reserve and refuses the
 *   allocations past the limit. V8's heap gets its own, lower, `--max-old-space-size`.
 * - CPU: RLIMIT_CPU; core dumps off (RLIMIT_CORE 0): a dump would write the file's bytes to disk.
 * - `setpriv --pdeathsig SIGKILL`: a reader dies with the service, even one busy in a loop that never reads its
 *   channel (the service killed with -9 leaves no orphan burning CPU).
 * A cgroup v2 memory limit is not used: it needs a delegated, writable cgroup tree, which an unprivileged service
 * rarely has (this machine has cgroups v1); an operator puts the whole service in one (systemd MemoryMax, a container
 * limit) as the outer bound, and the rlimits bound each file inside it.
 */
export function createLauncher(script: string, limits: ProcessLimits): Launcher {
  const prlimit = findExecutable('prlimit');
  const setpriv = findExecutable('setpriv');
  const node = [process.execPath, `--max-old-space-size=${limits.heapMb}`, '--max-semi-space-size=16', script];
  const cgroupV2 = existsSync('/sys/fs/cgroup/cgroup.controllers');
  return {
    command() {
      let argv = node;
      if (prlimit) argv = [prlimit, `--data=${limits.memoryBytes}`, `--cpu=${limits.cpuSeconds}`, '--core=0', '--', ...argv];
      if (setpriv) argv = [setpriv, '--pdeathsig', 'KILL', '--', ...argv];
      return { command: argv[0]!, args: argv.slice(1) };
    },
    describe() {
      return {
        memory: prlimit ? `RLIMIT_DATA ${Math.round(limits.memoryBytes / 2 ** 20)} MB (prlimit), V8 heap ${limits.heapMb} MB` : `V8 heap ${limits.heapMb} MB only: prlimit (util-linux) not found, no kernel memory limit`,
        cpu: prlimit ? `RLIMIT_CPU ${limits.cpuSeconds} s, and each task's wall-clock budget (SIGKILL)` : `each task's wall-clock budget (SIGKILL) only`,
        parentDeath: setpriv ? 'SIGKILL (setpriv --pdeathsig)' : 'exit when the IPC channel closes (setpriv not found)',
        cgroupV2: cgroupV2 ? 'present, not used: the rlimits bound each reader; put the service in a cgroup for an outer bound' : 'absent (cgroups v1): rlimits only',
      };
    },
  };
}
