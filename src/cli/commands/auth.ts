// `contacts auth login|status|logout`: the workspace key in the profile, never in argv.
import { maskKey } from '../../client/redact.js';
import { validateApiKey } from '../../config/settings.js';
import type { CommandContext } from '../context.js';
import { ExitCode, UsageError } from '../errors.js';
import { writeRecord } from '../output/render.js';
import { readAllStdin, readSecret } from '../prompt.js';

export async function login(ctx: CommandContext, opts: { withKey?: boolean }) {
  let raw: string;
  if (opts.withKey) raw = await readAllStdin(ctx.io.stdin);
  else if (ctx.io.isTTY.stdin) raw = await readSecret('Paste your workspace key (bk_...): ', ctx.io);
  else {
    throw new UsageError('No terminal to ask for the key on', {
      hint: 'Pipe it in instead: contacts auth login --with-key < key.txt',
    });
  }
  const key = validateApiKey(raw, opts.withKey ? 'stdin' : 'the prompt');
  ctx.mayCreateProfile();
  const [store, settings] = await Promise.all([ctx.store(), ctx.settings()]);
  store.setApiKey(settings.profile, key);
  if (ctx.options.baseUrl) store.set(settings.profile, 'base-url', ctx.options.baseUrl);
  ctx.io.note(`Logged in: key ${maskKey(key)} stored in profile "${settings.profile}" (${store.path}).`);
  if (ctx.env.CONTACTS_API_KEY)
    ctx.io.warn('Note: CONTACTS_API_KEY is set and takes precedence over the stored key.');
}

export async function status(ctx: CommandContext) {
  const [settings, format] = await Promise.all([ctx.settings(), ctx.format()]);
  const keyFrom =
    settings.apiKeySource === 'env'
      ? 'env (CONTACTS_API_KEY)'
      : settings.apiKeySource === 'file'
        ? `file (${settings.configPath})`
        : 'none';
  await writeRecord(
    ctx.io.stdout,
    format,
    {
      profile: settings.profile,
      base_url: settings.baseUrl ?? null,
      base_url_source: settings.baseUrlSource,
      key: settings.apiKey ? maskKey(settings.apiKey) : null,
      key_source: keyFrom,
      agent: settings.agent ?? null,
      agent_source: settings.agentSource,
      config_file: settings.configPath,
    },
    { color: ctx.io.color.stdout },
  );
  if (!settings.apiKey) {
    ctx.io.warn('Not logged in. Run `contacts auth login`, or set CONTACTS_API_KEY.');
    ctx.setExitCode(ExitCode.AUTH);
  }
}

export async function logout(ctx: CommandContext) {
  const [store, settings] = await Promise.all([ctx.store(), ctx.settings()]);
  const removed = store.deleteApiKey(settings.profile);
  ctx.io.note(
    removed
      ? `Removed the key from profile "${settings.profile}".`
      : `No key stored in profile "${settings.profile}".`,
  );
  if (ctx.env.CONTACTS_API_KEY) ctx.io.warn('CONTACTS_API_KEY is still set in the environment.');
}
