// The output formats: those a profile may ask for, and those only a file-writing command takes.
import { describe, expect, it } from 'vitest';
import {
  FILE_OUTPUT_FORMATS,
  isFileOutputFormat,
  OUTPUT_FLAG_CHOICES,
  OUTPUT_FORMATS,
} from '../../src/config/output-formats.js';
import { validateOutput } from '../../src/config/settings.js';

describe('output formats', () => {
  it('-o takes every printable format and xlsx, which no profile can hold', () => {
    expect([...OUTPUT_FLAG_CHOICES]).toEqual([...OUTPUT_FORMATS, ...FILE_OUTPUT_FORMATS]);
    for (const format of OUTPUT_FORMATS) expect(validateOutput(format)).toBe(format);
    expect(() => validateOutput('xlsx')).toThrow(/Invalid output format/);
  });

  it('isFileOutputFormat tells a workbook from a printable format', () => {
    expect(isFileOutputFormat('xlsx')).toBe(true);
    expect(isFileOutputFormat('csv')).toBe(false);
    expect(isFileOutputFormat(undefined)).toBe(false);
  });
});
