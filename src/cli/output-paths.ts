// What the CLI adds to the output-path rule (../util/output-path.ts): the files this run knows
// no output may replace (the config file, the key file, the mock's database, the undo records),
// and the refusal worded with the option that named the path.
import { relative, resolve } from 'node:path';
import { undoDir } from '../util/data-dir.js';
import { checkOutputPaths, databaseFiles, OutputPathError, type ProtectedPath } from '../util/output-path.js';
import type { CommandContext } from './context.js';
import { UsageError } from './errors.js';

/**
 * The files of this run that every command writing a file keeps, whatever the path it is given;
 * without `mockData`, the embedded mock's database is left out (for the path of a mock's own
 * database, which may be that one).
 */
export async function protectedPaths(
  ctx: CommandContext,
  { mockData = true }: { mockData?: boolean } = {},
): Promise<ProtectedPath[]> {
  const settings = await ctx.settings();
  const [db, ...journals] = databaseFiles(ctx.mockDataFile());
  return [
    { path: settings.configPath, what: 'the config file' },
    // The lock a config change holds (../config/file-lock.ts), and the one that breaks a stale lock.
    { path: `${settings.configPath}.lock`, what: "the config file's lock" },
    { path: `${settings.configPath}.lock.break`, what: "the config file's lock" },
    ...(settings.apiKeyFile
      ? [{ path: resolve(ctx.cwd, settings.apiKeyFile), what: 'the API key file' }]
      : []),
    // Whether or not this run uses it: a file under that name is the mock's, not an output.
    ...(mockData
      ? [
          { path: db!, what: "the embedded mock's data file" },
          ...journals.map((path) => ({ path, what: "a journal of the embedded mock's data file" })),
        ]
      : []),
    { path: undoDir(ctx.env), what: 'the undo records directory', directory: true },
  ];
}

/**
 * A mock's database (`serve --data`, `CONTACTS_MOCK_DATA`), checked by the output-path rule with
 * its journals before SQLite opens them: none is a protected file (the config file, its lock, the
 * undo records), follows a link or is a file another user planted in a shared directory, or is
 * anything but a regular file. That it holds a SQLite database is what it is for.
 */
export async function checkMockDataFile(
  ctx: CommandContext,
  path: string,
  named: { flag: string; value: string | undefined },
): Promise<void> {
  const [db, ...journals] = databaseFiles(path);
  try {
    await checkOutputPaths(
      [
        { path: db!, what: 'the mock database', output: 'data', database: true },
        ...journals.map((j) => ({
          path: j,
          what: 'a journal of the mock database',
          database: true,
          inPlace: true,
        })),
      ],
      await protectedPaths(ctx, { mockData: false }),
    );
  } catch (error) {
    if (error instanceof OutputPathError) throw outputPathRefusal(ctx, error, { data: named });
    throw error;
  }
}

/**
 * The refusal as the user asked for the file: `--rejects cfg/config.json`, the path as typed.
 * `named` maps each output (`OutputPathError.output`) to its option and the value the user gave;
 * an output by default (no value) is named by what it is and where, and the option that moves it.
 */
export function outputPathRefusal(
  ctx: CommandContext,
  error: OutputPathError,
  named: Record<string, { flag: string; value: string | undefined }>,
): UsageError {
  const where = (path: string) => {
    const rel = relative(ctx.cwd, path);
    return rel.startsWith('..') || rel === '' ? path : rel;
  };
  const subject = (output: string | undefined, what: string, path: string) => {
    const option = output === undefined ? undefined : named[output];
    if (option?.value !== undefined) return `${option.flag} ${option.value}`;
    return `${what} ${where(path)}${option ? ` (the default of ${option.flag})` : ''}`;
  };
  const self = subject(error.output, error.what, error.path);
  if (error.code === 'same_file' && error.conflict) {
    const other = subject(error.conflict.output, error.conflict.what, error.conflict.path);
    return new UsageError(`${other} and ${self} name one file: one would overwrite the other`, {
      hint: 'Give each its own file.',
      cause: error,
    });
  }
  return new UsageError(`Cannot write ${self}: ${error.reason}${error.hint ? ` ${error.hint}` : ''}`, {
    hint: refusalHint(error, named),
    cause: error,
  });
}

function refusalHint(
  error: OutputPathError,
  named: Record<string, { flag: string; value: string | undefined }>,
): string | undefined {
  switch (error.code) {
    case 'foreign_symlink':
      return 'Remove the link or name a path in a directory of your own; nothing was written.';
    case 'foreign_file':
      return 'Name a path in a directory of your own; nothing was written.';
    case 'protected_file':
      return 'Name another file; nothing was written.';
    case 'dangling_symlink':
      return 'Name the file itself, or remove the link; nothing was written.';
    case 'not_regular_file':
      return error.output === 'out' && named.out
        ? `Omit ${named.out.flag} to write to stdout (and redirect it); nothing was written.`
        : 'Name a regular file; nothing was written.';
    default:
      return undefined;
  }
}
