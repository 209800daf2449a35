// Runs a command without the power to pass over file permissions, for the tests that check the
// errors a user sees on a file or directory they cannot write. Not root: as the user, unchanged.
// Root: still as root, but stripped of every capability by util-linux's setpriv, so the owner's
// permission bits bind it like anyone else. Root's own files stay reachable, so a checkout inside
// a private (0700) directory works, which running as another user (`nobody`) would not.
import { spawnSync } from 'node:child_process';

const DROP_ALL = [
  '--inh-caps=-all',
  '--ambient-caps=-all',
  '--bounding-set=-all',
  '--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked',
];

/** The command and arguments that run `command args` unprivileged. */
export type Unprivileged = (command: string, args: string[]) => { command: string; args: string[] };

function probe(): { run: Unprivileged } | { skip: string } {
  if (process.getuid?.() !== 0) return { run: (command, args) => ({ command, args }) };
  const tried = spawnSync(
    'setpriv',
    [...DROP_ALL, '--', 'sh', '-c', 'grep -q "^CapEff:.0*$" /proc/self/status'],
    {
      stdio: 'ignore',
    },
  );
  if (tried.error || tried.status !== 0) {
    return {
      skip: `running as root, and setpriv cannot drop root's capabilities here (${tried.error?.message ?? `exit ${tried.status}`}): a permission error cannot be provoked`,
    };
  }
  return { run: (command, args) => ({ command: 'setpriv', args: [...DROP_ALL, '--', command, ...args] }) };
}

const found = probe();

/** How to run a command unprivileged, or why it cannot be done on this machine. */
export const unprivileged: Unprivileged | undefined = 'run' in found ? found.run : undefined;
export const unprivilegedSkipReason: string | undefined = 'skip' in found ? found.skip : undefined;
if (unprivilegedSkipReason) console.warn(`skipped: permission tests: ${unprivilegedSkipReason}`);
