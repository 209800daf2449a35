// Which format data goes out in: what was asked for, else a table for a person at a terminal
// and JSON for a program reading a pipe.
import { isFileOutputFormat } from '../../config/output-formats.js';
import { OUTPUT_FORMATS, type OutputFormat, validateOutput } from '../../config/settings.js';
import { UsageError } from '../errors.js';

export { OUTPUT_FORMATS, type OutputFormat };

export interface ChooseFormatOptions {
  /** `-o, --output`. */
  flag?: string | undefined;
  /** The profile's `output` setting. */
  profile?: string | undefined;
  /** Whether stdout is a terminal. */
  isTTY: boolean;
}

export function chooseFormat({ flag, profile, isTTY }: ChooseFormatOptions): OutputFormat {
  if (isFileOutputFormat(flag)) {
    throw new UsageError(`-o ${flag} writes a workbook: only export and template write one`, {
      hint: 'Use -o table, json, ndjson or csv here.',
    });
  }
  if (flag) return validateOutput(flag, '--output');
  if (profile) return validateOutput(profile, 'the profile');
  return isTTY ? 'table' : 'json';
}
