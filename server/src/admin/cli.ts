// `npm run admin -- COMMAND` (in the image: `node server/dist/admin/cli.js COMMAND`): an operator's commands on the
// service's database, compiled with the server so they run where it runs, without dev dependencies. `help` lists them.
import { startupConfig } from '../config/dotenv.js';
import { DataDirInUse } from '../db/data-dir-lock.js';
import { openDatabase } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { parseCommand, usage } from './arguments.js';
import { CommandFailed, EXIT, lazyDatabase, UsageError, type AdminIo } from './context.js';

async function main(argv: string[], io: AdminIo): Promise<number> {
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`docextract admin: ${e.message}\n\n${usage()}`);
    return EXIT.usage;
  }
  if (parsed === 'help') {
    io.out(usage());
    return EXIT.ok;
  }
  // The service's own configuration reading: a wrong setting is said on stderr and exits 2 before anything opens.
  const config = startupConfig();
  const database = lazyDatabase(() => openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  try {
    await parsed.command.run({ config, io, now: () => new Date(), ...database }, parsed.args, parsed.values);
    return EXIT.ok;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`docextract admin: ${e.message}\n`);
      return EXIT.usage;
    }
    if (e instanceof CommandFailed || e instanceof DataDirInUse) {
      io.err(`docextract admin: ${e.message}\n`);
      return EXIT.failed;
    }
    // The driver's first line only (never a connection string: pg does not put one in its messages), no stack.
    const first = (e instanceof Error ? e.message : String(e)).split('\n')[0];
    io.err(isDatabaseUnavailable(e)
      ? `docextract admin: the database cannot be reached (${first}). Nothing was changed.\n`
      : `docextract admin: failed: ${first}\n`);
    return EXIT.failed;
  } finally {
    await database.close();
  }
}

const code = await main(process.argv.slice(2), { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });
process.exitCode = code;
// Whatever may still hold the event loop (a pool's idle timer), the command is over.
setTimeout(() => process.exit(code), 2_000).unref();
