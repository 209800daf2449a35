// Text from data (names, ids, headers, a server's messages) made safe to show on a terminal:
// control characters that move the cursor or start an escape sequence are shown, not obeyed.

// C0 controls (tab and CR included: both move the cursor), DEL, C1 controls, and the Unicode
// bidirectional overrides and line separators that reorder or break what a person reads.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE_RE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const UNSAFE_OR_NEWLINE_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\t': '\\t', '\r': '\\r', '\n': '\\n', '\u001b': '\\e' };

function shown(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character replaced by a visible escape (`\e`, `\x07`, `\u202e`).
 * Line feeds are kept unless `singleLine` (a table cell) asks for them to be shown too.
 * For human-facing output only: JSON, NDJSON and CSV data stay exact.
 */
export function visible(text: string, options: { singleLine?: boolean } = {}): string {
  const re = options.singleLine ? UNSAFE_OR_NEWLINE_RE : UNSAFE_RE;
  re.lastIndex = 0;
  return re.test(text) ? text.replace(re, shown) : text;
}
