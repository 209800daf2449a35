// Keeps workspace keys out of every message, error and debug line this package produces.

const KEY_RE = /\bbk_[A-Za-z0-9_-]+/g;
const BEARER_RE = /(Bearer\s+)[^\s"',]+/gi;

/** `bk_...` plus the last 4 characters: enough to tell keys apart, useless to an attacker. */
export function maskKey(key: string): string {
  if (key.length <= 8) return 'bk_...';
  return `bk_...${key.slice(-4)}`;
}

/** Replaces anything that looks like a key or a bearer credential with `[REDACTED]`. */
export function redactSecrets(text: string): string {
  return text.replace(BEARER_RE, '$1[REDACTED]').replace(KEY_RE, 'bk_[REDACTED]');
}

/** A copy of headers safe to print: the authorization value replaced. */
export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const joined = Array.isArray(value) ? value.join(', ') : value;
    out[name] = name.toLowerCase() === 'authorization' ? 'Bearer [REDACTED]' : redactSecrets(joined);
  }
  return out;
}
