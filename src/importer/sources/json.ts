// The elements of a top-level JSON array, streamed with stream-json's tokenizer, with their lines.
import Assembler from 'stream-json/assembler.js';
import { jsonParser, type Token } from 'stream-json/parser.js';
import { ImportError, SourceParseError } from '../errors.js';
import type { OpenedInput } from './input.js';
import { decodeText, jsonRecord } from './text.js';
import type { ImportSource, SourceRecord } from './types.js';

/**
 * Open a JSON array. Tokens carry no position, so the text is fed to the tokenizer one line at a
 * time: the line being fed when an element's first token appears is where the element starts.
 * Only one element is ever assembled in memory.
 */
export function openJson(input: OpenedInput): ImportSource {
  if (input.sampleText.trim() === '' && input.sample.length < 64 * 1024) {
    input.destroy();
    throw new ImportError(`${input.name}: the file is empty: expected a JSON array of contacts`);
  }
  return { name: input.name, format: 'json', records: elements(input), close: () => input.destroy() };
}

async function* elements(input: OpenedInput): AsyncGenerator<SourceRecord> {
  // Packed values only: one token per string or number, nothing streamed piecewise.
  const tokenize = jsonParser({ streamValues: false });
  let asm: Assembler | null = null;
  let opened = false;
  let closed = false;
  let line = 1;
  let start = 0;
  let row = 0;
  const ready: SourceRecord[] = [];

  const finish = (value: unknown) => {
    ready.push({ row: ++row, line: start, ...jsonRecord(value) });
  };

  const onToken = (token: Token) => {
    if (!opened) {
      if (token.name !== 'startArray') {
        const hint = token.name === 'startObject' ? ' (for one object per line, use the ndjson format)' : '';
        throw new SourceParseError({
          file: input.name,
          line,
          reason: `expected a JSON array of contacts${hint}`,
        });
      }
      opened = true;
      return;
    }
    if (asm) {
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
        asm = new Assembler();
        asm.consume(token);
        return;
      case 'endArray':
        closed = true;
        return;
      case 'stringValue':
        return finish(token.value);
      case 'numberValue':
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
          const out = tokenize(text.slice(from, to));
          if (typeof out !== 'symbol') for (const token of out.values) onToken(token);
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

function jsonReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `invalid JSON: ${message.replace(/^Parser cannot parse input:\s*/, '')}`;
}
