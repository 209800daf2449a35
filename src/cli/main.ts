// The entry point of the `contacts` binary: runs the program, and is the only place that
// decides the exit code and exits.
import { VERSION } from '../core/version.js';
import { type CliIo, processIo } from './io.js';

/** Runs the CLI with these arguments (without `node` and the script) and returns the exit code. */
export async function run(argv: string[], io: CliIo): Promise<number> {
  // Scripts probe installs with `contacts --version`: answer before commander is even loaded.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout.write(`${versionLine()}\n`);
    return 0;
  }
  const { buildProgram } = await import('./program.js');
  const program = await buildProgram(io, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return io.exitCode ?? 0;
  } catch (error) {
    const { commanderExitCode, isCommanderError } = await import('./commander-exit.js');
    // Commander has printed its own message: only the code is left to decide.
    if (isCommanderError(error)) return commanderExitCode(error);
    const [{ toExit }, { visible }, { colorAllowed }] = await Promise.all([
      import('./exit.js'),
      import('./output/visible.js'),
      import('./output/terminal.js'),
    ]);
    const debug = argv.includes('--debug') || io.env.CONTACTS_DEBUG === '1';
    const secrets = [io.env.CONTACTS_API_KEY, ...(io.secrets ?? [])];
    const { code, lines } = toExit(error, { debug, secrets });
    const color = !argv.includes('--no-color') && colorAllowed(io.stderr, io.env);
    // Messages can quote data (a name, a header, a server's words): shown, never obeyed.
    for (const line of lines) io.stderr.write(`${color ? colorLabel(visible(line)) : visible(line)}\n`);
    return code;
  }
}

/** `contacts version 0.1.0 (Node.js v20.20.2; linux x64)`: what a bug report needs, as gh prints. */
export function versionLine(): string {
  return `contacts version ${VERSION} (Node.js ${process.version}; ${process.platform} ${process.arch})`;
}

/** `error:` in red and `hint:` dimmed, on a terminal that takes colour. */
function colorLabel(line: string): string {
  if (line.startsWith('error:')) return `\u001b[1;31merror:\u001b[0m${line.slice(6)}`;
  if (line.startsWith('hint:')) return `\u001b[2mhint:\u001b[0m${line.slice(5)}`;
  return line;
}

/** The binary: real streams, real exit. */
export async function main(): Promise<void> {
  const io = processIo();
  // A closed stdout (`contacts list | head`) is the reader's choice, not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  const code = await run(process.argv.slice(2), io);
  // Ends once what the command wrote has reached both streams (a pipe can be asynchronous; an
  // empty write calls back after the writes before it), not when what it leaves open closes.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}
