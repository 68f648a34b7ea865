// The admin command's arguments: which command, its options and positionals, checked before anything is opened.
import { parseArgs } from 'node:util';
import { COMMANDS, type Command } from './commands.js';
import { UsageError } from './context.js';

/** The help text, built from the commands' own usage lines. */
export function usage(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length));
  return [
    'Usage: npm run admin -- COMMAND [ARGUMENTS]     (in the image: node server/dist/admin/cli.js COMMAND ...)',
    '',
    'Commands:',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    `  ${'help'.padEnd(width)}  this text`,
    '',
    'It reads the service\'s configuration (DATABASE_URL, DASHBOARD_JWT_SECRET, ...) as the service does, and migrates',
    'the database first, as every start of the service does. Only create-key and mint-session print a secret: the',
    'one asked for, on stdout. Exit status: 0 done; 1 refused or failed, nothing changed; 2 wrong usage or configuration.',
    '',
  ].join('\n');
}

/** The command and its checked arguments, or a UsageError. */
export function parseCommand(argv: string[]): { command: Command; args: string[]; values: Record<string, string | boolean | undefined> } | 'help' {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError('no command given');
  if (name === 'help' || name === '--help' || name === '-h') return 'help';
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : undefined;
  if (!command) throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: command.options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split(/\.(?: |$)/)[0]} (usage: ${command.usage})`);
  }
  if (parsed.positionals.length !== command.positionals) {
    throw new UsageError(`${name} takes ${command.positionals === 0 ? 'no arguments' : command.positionals === 1 ? 'one argument' : `${command.positionals} arguments`} (usage: ${command.usage})`);
  }
  return { command, args: parsed.positionals, values: parsed.values as Record<string, string | boolean | undefined> };
}

