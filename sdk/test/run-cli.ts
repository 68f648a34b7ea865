// Runs the CLI from source in a child process, as a user would run `docextract`, and collects what it printed.
import { spawn } from 'node:child_process';

const root = new URL('../..', import.meta.url).pathname;

export function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'sdk/src/cli.ts', ...args], { cwd: root, env: { PATH: process.env.PATH!, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
