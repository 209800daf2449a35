// `contacts config get|set|unset|list`: per-profile settings (base-url, agent, output).
import { parseSettingKey, SETTING_NAMES } from '../../config/settings.js';
import type { CommandContext } from '../context.js';
import { ExitCode } from '../errors.js';
import { writeRecord } from '../output/render.js';

async function profileAndStore(ctx: CommandContext) {
  const [store, settings] = await Promise.all([ctx.store(), ctx.settings()]);
  return { store, profile: settings.profile };
}

/** Prints the value alone (for `$(contacts config get agent)`); exits 1 when it is not set, like git. */
export async function get(ctx: CommandContext, name: string) {
  const key = parseSettingKey(name);
  const { store, profile } = await profileAndStore(ctx);
  const value = store.get(profile, key);
  if (value === undefined) ctx.setExitCode(ExitCode.FAILURE);
  else ctx.io.stdout.write(`${value}\n`);
}

export async function set(ctx: CommandContext, name: string, value: string) {
  const key = parseSettingKey(name);
  ctx.mayCreateProfile();
  const { store, profile } = await profileAndStore(ctx);
  const stored = await store.set(profile, key, value);
  ctx.io.note(`Set ${key} to ${stored} in profile "${profile}".`);
}

export async function unset(ctx: CommandContext, name: string) {
  const key = parseSettingKey(name);
  const { store, profile } = await profileAndStore(ctx);
  const removed = await store.unset(profile, key);
  ctx.io.note(
    removed ? `Removed ${key} from profile "${profile}".` : `${key} was not set in profile "${profile}".`,
  );
}

export async function list(ctx: CommandContext) {
  const [{ store, profile }, format] = await Promise.all([profileAndStore(ctx), ctx.format()]);
  const settings = store.list(profile);
  const record: Record<string, string | null> = { profile };
  for (const name of SETTING_NAMES) record[name] = settings[name] ?? null;
  record.config_file = store.path;
  await writeRecord(ctx.io.stdout, format, record, ctx.io.table);
}
