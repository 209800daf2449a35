// `contacts auth login|status|logout`: the workspace key in the profile, never in argv.
import { API_KEY_PREFIX, apiKeyProblem } from '../../api/key.js';
import { API_KEY_ENV, API_KEY_FILE_ENV, validateApiKey } from '../../config/settings.js';
import { maskKey } from '../../core/redact.js';
import type { CommandContext } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { writeRecord } from '../output/render.js';
import { type PromptIo, readAllStdin, readSecret } from '../prompt.js';
import type { LoginCommandOptions } from './auth-command.js';

/** Where a person finds a key, said where they are asked for one. */
const KEY_PROMPT =
  'Paste your workspace key (it starts with "bk_"; create one in your workspace settings, under API keys): ';
const PROMPT_ATTEMPTS = 3;

/**
 * Asks on the terminal until the answer is a well-formed key (three tries): a paste that missed
 * its first characters, or the wrong secret, gets the reason and another chance.
 */
export async function askForApiKey(io: PromptIo & { warn(message: string): void }): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const answer = await readSecret(KEY_PROMPT, io);
    const problem = apiKeyProblem(answer);
    if (problem === null) return answer;
    if (attempt >= PROMPT_ATTEMPTS) {
      throw new UsageError(`That is not a workspace key either: ${problem}`, {
        hint: `A workspace key starts with "${API_KEY_PREFIX}". Run \`contacts auth login\` again when you have it.`,
      });
    }
    io.warn(
      `That is not a workspace key: ${problem}. Try again (${PROMPT_ATTEMPTS - attempt} left), or Ctrl-C to stop.`,
    );
  }
}

export async function login(ctx: CommandContext, opts: LoginCommandOptions) {
  ctx.mayCreateProfile();
  const [store, settings] = await Promise.all([ctx.store(), ctx.settings()]);
  // The check sends the key: the same refusal of plain http to another machine as every command,
  // before the key is asked for, sent or stored.
  if (settings.baseUrl) {
    const { requireBaseUrl } = await import('../../config/resolve.js');
    requireBaseUrl(settings);
  }
  let key: string;
  if (opts.withKey) key = validateApiKey(await readAllStdin(ctx.io.stdin), 'stdin');
  else {
    ctx.mayPrompt('Which key to store', {
      flag: '--with-key',
      hint: 'Pipe the key in: contacts auth login --with-key < key.txt',
    });
    if (!ctx.io.isTTY.stdin) {
      throw new UsageError('No terminal to ask for the key on', {
        hint: 'Pipe it in instead: contacts auth login --with-key < key.txt',
      });
    }
    key = await askForApiKey(ctx.io);
  }
  const where = `profile "${settings.profile}" (${store.path})`;
  const check = await checkKey(key, settings.baseUrl, settings.agent, ctx.env);
  if (check.verdict === 'refused') {
    throw new CliError(`The service refused this key (${check.detail}); it was not stored in ${where}.`, {
      exitCode: ExitCode.AUTH,
      hint: 'Check that you copied the whole key, for the right workspace.',
    });
  }
  await store.setApiKey(settings.profile, key);
  if (ctx.options.baseUrl) await store.set(settings.profile, 'base-url', ctx.options.baseUrl);
  const stored = `key ${maskKey(key)} stored in ${where}`;
  switch (check.verdict) {
    case 'works':
      ctx.io.note(`Logged in: ${stored}. It works: agent ${settings.agent} answered at ${settings.baseUrl}.`);
      break;
    case 'unknown-agent':
      ctx.io.note(`Logged in: ${stored}. The service accepted it.`);
      ctx.io.warn(
        `agent ${settings.agent} was not found at ${settings.baseUrl} (${check.detail}): check the agent id.`,
      );
      break;
    case 'unverified':
      ctx.io.note(`Logged in: ${stored}, unverified: ${check.detail}.`);
      break;
  }
  // Either variable wins over the stored key: the one just stored would not be used.
  const overriding = [API_KEY_ENV, API_KEY_FILE_ENV].filter((name) => ctx.env[name]?.trim());
  if (overriding.length > 0) {
    ctx.io.warn(
      `Note: ${overriding.join(' and ')} ${overriding.length > 1 ? 'are' : 'is'} set and ${overriding.length > 1 ? 'take' : 'takes'} precedence over the stored key.`,
    );
  }
}

type KeyCheck = { verdict: 'works' | 'refused' | 'unknown-agent' | 'unverified'; detail: string };

/** One cheap call (the agent's attribute definitions) with the new key, when there is an agent to ask. */
async function checkKey(
  key: string,
  baseUrl: string | undefined,
  agent: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<KeyCheck> {
  if (!baseUrl)
    return { verdict: 'unverified', detail: 'no base URL is set to check it against (--base-url)' };
  if (!agent)
    return {
      verdict: 'unverified',
      detail: 'no agent is set to check it with (--agent, CONTACTS_AGENT, or `contacts config set agent`)',
    };
  const [{ ContactsClient }, errors, { proxyFromEnv }] = await Promise.all([
    import('../../client/client.js'),
    import('../../client/errors.js'),
    import('../../client/proxy.js'),
  ]);
  const client = new ContactsClient({
    baseUrl,
    apiKey: key,
    maxRetries: 1,
    timeoutMs: 10_000,
    proxy: proxyFromEnv(env),
  });
  try {
    await client.attributes.list({ agentId: agent });
    return { verdict: 'works', detail: '' };
  } catch (error) {
    if (error instanceof errors.AuthenticationError || error instanceof errors.PermissionDeniedError) {
      return { verdict: 'refused', detail: `HTTP ${error.status}` };
    }
    if (error instanceof errors.NotFoundError) return { verdict: 'unknown-agent', detail: error.message };
    const reason = error instanceof Error ? error.message : String(error);
    return { verdict: 'unverified', detail: `the service could not be asked (${reason})` };
  } finally {
    await client.close();
  }
}

export async function status(ctx: CommandContext) {
  const [settings, format] = await Promise.all([ctx.settings(), ctx.format()]);
  if (settings.apiKeyError) throw settings.apiKeyError;
  const keyFrom = {
    env: 'env (CONTACTS_API_KEY)',
    'key-file': `key file (CONTACTS_API_KEY_FILE: ${settings.apiKeyFile})`,
    file: `file (${settings.configPath})`,
    none: 'none',
  }[settings.apiKeySource];
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
    ctx.io.table,
  );
  if (!settings.apiKey) {
    ctx.io.failure(
      'Not logged in. Run `contacts auth login`, or set CONTACTS_API_KEY or CONTACTS_API_KEY_FILE.',
    );
    ctx.setExitCode(ExitCode.AUTH);
  }
}

export async function logout(ctx: CommandContext) {
  const [store, settings] = await Promise.all([ctx.store(), ctx.settings()]);
  const removed = await store.deleteApiKey(settings.profile);
  ctx.io.note(
    removed
      ? `Removed the key from profile "${settings.profile}".`
      : `No key stored in profile "${settings.profile}".`,
  );
  if (ctx.env.CONTACTS_API_KEY) ctx.io.warn('CONTACTS_API_KEY is still set in the environment.');
}
