// Prometheus' naming rules for a scrape (https://prometheus.io/docs/practices/naming/): `promtool check metrics` when
// the binary is installed (Debian's `prometheus` package; .ci/run installs the binary), and the same rules read from the
// scrape's own TYPE and HELP lines whether or not it is.
import { spawnSync } from 'node:child_process';

/** promtool's complaints about a scrape (empty: none), or null when promtool is not installed. */
export function promtoolProblems(scrape: string): string[] | null {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: scrape, encoding: 'utf8' });
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return null;
  if (run.status === 0) return [];
  return `${run.stdout}${run.stderr}`.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

/** The naming rules promtool checks, and those it does not (base units, our prefix, a help text), from TYPE/HELP lines. */
export function namingProblems(scrape: string): string[] {
  const types = new Map<string, string>();
  const helps = new Set<string>();
  for (const line of scrape.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1]!, type[2]!);
    const help = /^# HELP (\S+) \S/.exec(line);
    if (help) helps.add(help[1]!);
  }
  const problems: string[] = [];
  for (const [name, type] of types) {
    if (!/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) problems.push(`${name}: not a valid metric name`);
    if (!name.startsWith('docextract_')) problems.push(`${name}: not under the docextract_ prefix`);
    if (type === 'counter' && !name.endsWith('_total')) problems.push(`${name}: a counter's name ends in _total`);
    if (type !== 'counter' && /_total$/.test(name)) problems.push(`${name}: a ${type} is named _total (only counters are)`);
    if (type !== 'histogram' && type !== 'summary' && /_(count|sum|bucket)$/.test(name)) problems.push(`${name}: a ${type} is named with a histogram's suffix`);
    if (/_(milliseconds|millis|ms|minutes|hours|kilobytes|megabytes|kb|mb|percent)(_|$)/.test(name)) problems.push(`${name}: not in base units (seconds, bytes, ratios)`);
    if (!helps.has(name)) problems.push(`${name}: no HELP`);
  }
  return problems;
}

/** Both checks; promtool's absence is said once on stderr (the rules above still run). */
export function lintScrape(scrape: string): string[] {
  const promtool = promtoolProblems(scrape);
  if (promtool === null) process.stderr.write('promtool is not installed (apt-get install prometheus): checked Prometheus\' naming rules without it\n');
  return [...(promtool ?? []), ...namingProblems(scrape)];
}
