// The workspace key rule, defined once: the config, the client, the CLI and the mock all ask here.

export const API_KEY_PREFIX = 'bk_';

/**
 * After the prefix: visible ASCII that an HTTP header carries as is, without quotes or a
 * backslash (which a shell, a JSON body or a config file would have to escape). Case matters:
 * `BK_x` is not a workspace key.
 */
const KEY_BODY_RE = /^[\x21\x23-\x26\x28-\x5b\x5d-\x5f\x61-\x7e]+$/;

/** Why `key` cannot be a workspace key, or null when it is well formed. Never echoes the key. */
export function apiKeyProblem(key: string): string | null {
  if (!key.startsWith(API_KEY_PREFIX)) return `it does not start with "${API_KEY_PREFIX}"`;
  const body = key.slice(API_KEY_PREFIX.length);
  if (body === '') return `there is nothing after "${API_KEY_PREFIX}"`;
  if (!KEY_BODY_RE.test(body)) {
    return 'it contains characters an HTTP header cannot carry (spaces, quotes, backslashes, control or non-ASCII characters)';
  }
  return null;
}

export function isWellFormedApiKey(key: string): boolean {
  return apiKeyProblem(key) === null;
}
