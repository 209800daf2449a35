// Completion scripts generated from a commander tree: every command, option and choice it
// declares completes, in each shell's own syntax (test/cli/program.test.ts runs the real
// program's bash script).
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Argument, Command, Option } from '@commander-js/extra-typings';
import { describe, expect, it, onTestFinished } from 'vitest';
import { completionScript } from '../../../src/cli/commands/completion.js';

function program() {
  const root = new Command('contacts').option('--profile <name>', 'profile to use');
  root
    .command('fetch')
    .description('fetch things')
    .addOption(new Option('--mode <mode>', 'how').choices(['fast', 'slow']))
    .option('-q, --quiet', "don't talk");
  const group = root.command('group').description('a group');
  group.command('inner').description('inner one').argument('<verb>').option('--level <n>', 'level');
  root.command('call').addArgument(new Argument('<method>', 'method').choices(['GET', 'POST']));
  return root;
}

describe('completionScript', () => {
  it('bash: a script that parses, completing commands, nested commands, options and choices', async () => {
    const script = completionScript(program() as never, 'bash');
    const dir = await mkdtemp(join(tmpdir(), 'completion-unit-'));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'c.bash');
    await writeFile(file, script);
    const complete = (...words: string[]) =>
      execFileSync(
        'bash',
        [
          '-c',
          `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _contacts; printf '%s\\n' "\${COMPREPLY[@]}"`,
          'bash',
          file,
          ...words,
        ],
        { encoding: 'utf8' },
      )
        .split('\n')
        .filter(Boolean);
    expect(complete('contacts', '')).toEqual(
      expect.arrayContaining(['fetch', 'group', '--profile', '--help']),
    );
    expect(complete('contacts', 'group', '')).toEqual(expect.arrayContaining(['inner']));
    // Program options complete after a subcommand too.
    expect(complete('contacts', 'fetch', '--')).toEqual(
      expect.arrayContaining(['--mode', '--quiet', '--profile', '--help']),
    );
    expect(complete('contacts', 'fetch', '--mode', '')).toEqual(['fast', 'slow']);
    expect(complete('contacts', 'call', '')).toEqual(expect.arrayContaining(['GET', 'POST']));
  });

  it('zsh and fish name each command with its description, and quote what the shell would split', () => {
    const zsh = completionScript(program() as never, 'zsh');
    expect(zsh).toMatch(/^#compdef contacts\n/);
    expect(zsh).toContain("'fetch:fetch things'");
    expect(zsh).toContain("'group') items=('inner:inner one'");
    expect(zsh).toContain("'fetch|--mode') compadd -- 'fast' 'slow'; return ;;");
    const fish = completionScript(program() as never, 'fish');
    expect(fish).toContain(
      "complete -c contacts -n 'not __fish_seen_subcommand_from fetch group call' -a 'fetch' -d 'fetch things'",
    );
    expect(fish).toContain("-l mode -x -a 'fast slow'");
    expect(fish).toContain("-d 'don'\\''t talk'");
  });
});
