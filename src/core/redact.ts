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
const BEARER_WORD = /bearer/i;

/**
 * The forms a secret takes in text: as is, inside a JSON string (quotes and backslashes
 * escaped), and percent-encoded in a URL. A server that echoes a key may use any of them.
 */
function secretForms(secret: string): string[] {
  const forms = new Set([secret, JSON.stringify(secret).slice(1, -1), encodeURIComponent(secret)]);
  // Longest first, so a form is never cut by a shorter one that it contains.
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * Replaces anything that looks like a `bk_` key or a bearer credential, plus every literal
 * `secret` (the key in use, whatever characters it holds) in any of its forms, with a placeholder.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  // The common case (the mock's log redacts every request's path): nothing to look for.
  if (secrets.length === 0 && !text.includes(KEY_PREFIX) && !BEARER_WORD.test(text)) return text;
  let out = text;
  for (const secret of secrets) {
    // Very short strings would shred ordinary words; such keys are refused before use anyway.
    if (!secret || secret.length < 4) continue;
    for (const form of secretForms(secret)) out = out.split(form).join('[REDACTED]');
  }
  return out.replace(KEY_RE, 'bk_...[REDACTED]').replace(BEARER_RE, '$1 [REDACTED]');
}

/**
 * A copy of a parsed JSON value with every string (keys too) redacted. Walked with an explicit
 * stack, so a deeply nested body from a server cannot overflow the call stack.
 */
export function redactDeep(value: unknown, secrets: readonly (string | undefined)[] = []): unknown {
  const redact = (v: unknown): unknown => (typeof v === 'string' ? redactSecrets(v, secrets) : v);
  if (value === null || typeof value !== 'object') return redact(value);
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: [source: object, target: Record<string, unknown> | unknown[]][] = [
    [value, root as Record<string, unknown>],
  ];
  while (stack.length > 0) {
    const [source, target] = stack.pop()!;
    for (const [k, v] of Object.entries(source)) {
      let copy: unknown = redact(v);
      if (v !== null && typeof v === 'object') {
        copy = Array.isArray(v) ? [] : {};
        stack.push([v, copy as Record<string, unknown>]);
      }
      if (Array.isArray(target)) target.push(copy);
      // defineProperty: a key such as `__proto__` stays an own property of the copy.
      else
        Object.defineProperty(target, redactSecrets(k, secrets), {
          value: copy,
          enumerable: true,
          writable: true,
          configurable: true,
        });
    }
  }
  return root;
}

/** A copy of headers safe to print: the authorization value replaced. */
export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
  secrets: readonly (string | undefined)[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const joined = Array.isArray(value) ? value.join(', ') : value;
    out[name] = name.toLowerCase() === 'authorization' ? 'Bearer [REDACTED]' : redactSecrets(joined, secrets);
  }
  return out;
}
