// The elements of a top-level JSON array, streamed with stream-json's tokenizer, with their lines.
import Assembler from 'stream-json/assembler.js';
import { jsonParser, type Token } from 'stream-json/parser.js';
import { mayHoldUnsafeNumber, numberTextProblem } from '../../api/json-numbers.js';
import { ImportError, SourceParseError } from '../errors.js';
import type { OpenedInput } from './input.js';
import { MAX_RECORD_CHARS, sizeText } from './record-limit.js';
import { decodeText, jsonRecord } from './text.js';
import type { ImportSource, SourceRecord } from './types.js';

export interface JsonOptions {
  /** Longest element, in characters of its text; reading stops at one longer (default 16 MiB). */
  maxRecordChars?: number | undefined;
}

/**
 * Open a JSON array. Tokens carry no position, so the text is fed to the tokenizer one line at a
 * time: the line being fed when an element's first token appears is where the element starts.
 * Only one element is ever assembled in memory, and no more than `maxRecordChars` of its text.
 */
export function openJson(input: OpenedInput, options: JsonOptions = {}): ImportSource {
  if (input.sampleText.trim() === '' && input.sample.length < 64 * 1024) {
    input.destroy();
    throw new ImportError(`${input.name}: the file is empty: expected a JSON array of contacts`);
  }
  const records = elements(input, options.maxRecordChars ?? MAX_RECORD_CHARS);
  return { name: input.name, format: 'json', records, close: () => input.destroy() };
}

async function* elements(input: OpenedInput, maxChars: number): AsyncGenerator<SourceRecord> {
  // Packed values only: one token per string or number, nothing streamed piecewise.
  const tokenize = jsonParser({ streamValues: false });
  let asm: Assembler | null = null;
  let opened = false;
  let closed = false;
  let line = 1;
  let start = 0;
  let row = 0;
  const ready: SourceRecord[] = [];
  // Where in the element being assembled the next token goes (keys, and indexes from -1), and the
  // first number in it that would not be stored as written: the tokens still carry its digits.
  const path: (string | number)[] = [];
  let problem: string | null = null;
  const valueStarts = () => {
    const last = path.length - 1;
    if (typeof path[last] === 'number') path[last]++;
  };
  const checkNumber = (text: string) => {
    if (problem !== null || !mayHoldUnsafeNumber(text)) return;
    const reason = numberTextProblem(text);
    if (reason === null) return;
    const where = path
      .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
      .join('')
      .replace(/^\./, '');
    problem = `${where || 'the value'}: ${reason}`;
  };

  // The text fed since an element last ended: the tokenizer holds a string whole before it hands
  // it on, so an element is measured as it is fed, not once it ends.
  let elementChars = 0;
  let elementLine = 1;
  let ended = false;

  const finish = (value: unknown) => {
    const record = jsonRecord(value);
    ready.push({ row: ++row, line: start, ...record, ...(problem === null ? {} : { error: problem }) });
    problem = null;
    ended = true;
  };

  /** Counts `slice` (part of one line, just tokenized) into the element being read; throws past the limit. */
  const measure = (slice: string) => {
    if (ended || !opened) {
      // What follows the end of an element on its line is white space, or the next one's start.
      ended = false;
      elementChars = 0;
      return;
    }
    if (!NOT_BLANK_RE.test(slice)) return;
    if (elementChars === 0) elementLine = line;
    elementChars += slice.length;
    if (elementChars > maxChars) {
      throw new SourceParseError({
        file: input.name,
        // An object's first token gives its line; a bare string's, the first line fed after the
        // element before it.
        line: asm ? start : elementLine,
        reason:
          `record ${row + 1} of the array is longer than ${sizeText(maxChars)}, far more than a ` +
          'contact (is a string or a bracket left open?)',
      });
    }
  };

  const onToken = (token: Token) => {
    if (!opened) {
      if (token.name !== 'startArray') {
        const hint =
          token.name === 'startObject'
            ? ` (for one object per line, use the ndjson format; for an API's answer that holds the records in an array under a key, {"subscribers": [...]}, take the array out first: jq '.subscribers' ${input.name})`
            : '';
        throw new SourceParseError({
          file: input.name,
          line,
          reason: `expected a JSON array of contacts, found ${foundWhat(token)}${hint}`,
        });
      }
      opened = true;
      ended = true;
      return;
    }
    if (asm) {
      switch (token.name) {
        case 'keyValue':
          path[path.length - 1] = token.value;
          break;
        case 'startObject':
        case 'startArray':
          valueStarts();
          path.push(token.name === 'startObject' ? '' : -1);
          break;
        case 'endObject':
        case 'endArray':
          path.pop();
          break;
        case 'numberValue':
          valueStarts();
          checkNumber(token.value);
          break;
        case 'stringValue':
        case 'nullValue':
        case 'trueValue':
        case 'falseValue':
          valueStarts();
          break;
      }
      asm.consume(token);
      if (asm.done) {
        finish(asm.current);
        asm = null;
      }
      return;
    }
    // At the array's own level: an element starts (or the array ends).
    start = line;
    switch (token.name) {
      case 'startObject':
      case 'startArray':
        path.length = 0;
        path.push(token.name === 'startObject' ? '' : -1);
        asm = new Assembler();
        asm.consume(token);
        return;
      case 'endArray':
        closed = true;
        return;
      case 'stringValue':
        return finish(token.value);
      case 'numberValue':
        path.length = 0;
        checkNumber(token.value);
        return finish(Number(token.value));
      case 'nullValue':
      case 'trueValue':
      case 'falseValue':
        return finish(token.value);
      default:
        return;
    }
  };

  try {
    for await (const text of decodeText(input)) {
      let failure: unknown = null;
      for (let from = 0; from < text.length && !failure; ) {
        const nl = text.indexOf('\n', from);
        const to = nl === -1 ? text.length : nl + 1;
        try {
          const slice = text.slice(from, to);
          const out = tokenize(slice);
          if (typeof out !== 'symbol') for (const token of out.values) onToken(token);
          measure(slice);
        } catch (error) {
          failure =
            error instanceof SourceParseError
              ? error
              : new SourceParseError({ file: input.name, line, reason: jsonReason(error), cause: error });
        }
        if (nl !== -1) line++;
        from = to;
      }
      // The elements read before a syntax error still count.
      yield* ready;
      ready.length = 0;
      if (failure) throw failure;
    }
    // A value at the very end (`42` or `null` with no newline after it) is told only once
    // something follows it.
    try {
      const out = tokenize('\n');
      if (typeof out !== 'symbol') for (const token of out.values) onToken(token);
    } catch (error) {
      throw error instanceof SourceParseError
        ? error
        : new SourceParseError({ file: input.name, line, reason: jsonReason(error), cause: error });
    }
    yield* ready;
    ready.length = 0;
    if (!opened) throw new ImportError(`${input.name}: the file is empty: expected a JSON array of contacts`);
    if (!closed) {
      throw new SourceParseError({
        file: input.name,
        line,
        reason: 'unexpected end of input: the array is not closed',
      });
    }
  } finally {
    input.destroy();
  }
}

const NOT_BLANK_RE = /[^ \t\r\n]/;

/** What a file holds instead of an array, by its first token. */
function foundWhat(token: Token): string {
  switch (token.name) {
    case 'startObject':
      return 'an object';
    case 'stringValue':
      return 'a string';
    case 'numberValue':
      return `the number ${token.value}`;
    case 'nullValue':
      return 'null';
    case 'trueValue':
    case 'falseValue':
      return String(token.value);
    default:
      return 'something else';
  }
}

function jsonReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `invalid JSON: ${message.replace(/^Parser cannot parse input:\s*/, '')}`;
}
