// Keeps workspace keys out of every message, error and debug line this package produces:
// masking for display, redaction for messages and headers.

const KEY_PREFIX = 'bk_';
/** Below this many characters after the prefix, even the last four would give away too much. */
const MIN_SECRET_FOR_TAIL = 8;

/** `bk_abcdef1234` -> `bk_...1234`; short or foreign keys show no characters at all. */
export function maskKey(key: string): string {
  const prefix = key.startsWith(KEY_PREFIX) ? KEY_PREFIX : '';
  const secret = key.slice(prefix.length);
  if (secret.length < MIN_SECRET_FOR_TAIL) return `${prefix}...`;
  return `${prefix}...${secret.slice(-4)}`;
}

// Over-redacting is harmless, so no word boundary: `token=bk_x` and `"bk_x"` both match, and a
// key runs to the next space or quote whatever its characters. A masked key (`bk_...1234`) is
// left alone: it is what `auth status` is meant to show.
const KEY_RE = /bk_(?!\.\.\.)[^\s"'`<>]+/g;
const BEARER_RE = /\b(Bearer)\s+[^\s"',;]+/gi;

/**
 * Replaces anything that looks like a `bk_` key or a bearer credential, plus any literal
 * `secrets` (a key from the environment need not look like one), with a placeholder.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short strings would shred ordinary words; those keys get rejected elsewhere anyway.
    if (secret && secret.length >= 8) out = out.split(secret).join('[REDACTED]');
  }
  return out.replace(KEY_RE, 'bk_...[REDACTED]').replace(BEARER_RE, '$1 [REDACTED]');
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
