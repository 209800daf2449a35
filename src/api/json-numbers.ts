// Numbers the contract cannot keep as written. JSON allows any digits; the service stores an
// IEEE 754 double, as JavaScript does, so some numbers would silently become others: 1e400
// becomes Infinity (sent as `null`, which clears), 1e-400 becomes 0, and integers past 2^53 - 1
// lose their last digits. Every way in (CSV cells, `--attr`, `--data`, JSON and NDJSON imports)
// refuses them with these reasons. JSON.parse has lost the digits by the time it returns (and
// Node 20 has no access to a number's source text), so JSON text is scanned for them instead.

/** Past this, not every integer is a double (I-JSON, RFC 7493, section 2.2). */
const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;

/** Written without an exponent, and with no fraction beyond zeros: the user meant an integer. */
const INTEGER_TEXT_RE = /^[+-]?\d+(?:\.0*)?$/;

/**
 * Why the number written as `text` (a JSON number, or numeric text) would not be stored as
 * written, or null when it would be.
 */
export function numberTextProblem(text: string): string | null {
  const value = Number(text);
  if (!Number.isFinite(value)) {
    return `${text} is beyond the largest number the service stores (about 1.8e308)`;
  }
  if (value === 0) {
    const digits = text.split(/[eE]/)[0] ?? '';
    return /[1-9]/.test(digits) ? `${text} is too small for the service to store: it would become 0` : null;
  }
  if (Math.abs(value) > SAFE_INTEGER && INTEGER_TEXT_RE.test(text)) {
    return (
      `${text} is an integer beyond 2^53 - 1 (${SAFE_INTEGER}), which a number cannot hold exactly:` +
      ` it would be stored as ${value} (keep long integers such as ids in a text attribute)`
    );
  }
  return null;
}

/** The cheap test first: only these can hold a number that numberTextProblem refuses. */
export function mayHoldUnsafeNumber(text: string): boolean {
  return SUSPECT_RE.test(text);
}

// A refused number has 16 digits or more in a row, or an exponent of three digits.
const SUSPECT_RE = /\d{16}|[eE][+-]?\d{3}/;
const NUMBER_RE = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/**
 * The first number in a JSON text (already known to parse) that would not be stored as written:
 * where it stands (`custom_attributes.num`, `stripe_accounts[0].id`, or `''` for the whole
 * value) and why. Null when there is none, which the cheap test says for almost every text.
 */
export function jsonNumberProblem(text: string): { path: string; reason: string } | null {
  if (!SUSPECT_RE.test(text)) return null;
  const path: (string | number)[] = [];
  const inObject: boolean[] = [];
  let expectKey = false;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      if (expectKey) {
        path[path.length - 1] = JSON.parse(text.slice(i, j + 1)) as string;
        expectKey = false;
      }
      i = j + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const object = c === 0x7b;
      inObject.push(object);
      path.push(object ? '' : 0);
      expectKey = object;
      i++;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      inObject.pop();
      path.pop();
      expectKey = false;
      i++;
    } else if (c === 0x2c /* , */) {
      if (inObject.at(-1)) expectKey = true;
      else path[path.length - 1] = (path.at(-1) as number) + 1;
      i++;
    } else if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      NUMBER_RE.lastIndex = i;
      const number = NUMBER_RE.exec(text)?.[0] ?? text[i]!;
      const reason = numberTextProblem(number);
      if (reason) return { path: formatPath(path), reason };
      i += number.length;
    } else {
      i++;
    }
  }
  return null;
}

function formatPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}
