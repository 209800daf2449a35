// runImport()'s options, checked before anything is opened, read or sent: what the CLI's flags
// check for `contacts import`, for a library caller too (InvalidOptionError: `param` and `code`).
import { MAX_BATCH_SIZE } from '../api/limits.js';
import { MAX_CONCURRENCY } from '../bulk/defaults.js';
import { isPhoneCountry } from '../client/phone.js';
import { checkOptions, InvalidOptionError } from '../core/options.js';
import { UNDO_CHOICES } from '../undo/recorder.js';
import { CSV_DELIMITERS, IMPORT_FORMATS } from './format.js';
import { DATE_ORDERS } from './format-names.js';

/** Throws an InvalidOptionError for the first option of `options` that runImport() cannot take. */
export function checkImportOptions(options: unknown): void {
  checkOptions('runImport()', options)
    .object('client', 'a ContactsClient', true)
    .string('agentId', { required: true })
    .string('input', { required: true })
    .oneOf('format', IMPORT_FORMATS)
    .oneOf('delimiter', CSV_DELIMITERS)
    .string('sheet')
    .matching('defaultCountry', /^\s*[A-Za-z]{2}\s*$/, 'a two-letter ISO 3166 country code such as "GB"')
    .string('encoding')
    .array('maps')
    .oneOf('dateOrder', DATE_ORDERS)
    .string('timeZone')
    .boolean('strict', 'emptyStrings', 'dryRun', 'resume', 'restart', 'countTotal')
    .notBoth('resume', 'restart')
    .string('fixesPath')
    .string('rejectsPath')
    .string('resultsPath')
    .string('undoDir')
    .string('service')
    .string('cwd')
    .integer('concurrency', 1, MAX_CONCURRENCY)
    .integer('batchSize', 1, MAX_BATCH_SIZE)
    .integer('maxRetries', 0)
    .integer('progressIntervalMs', 0)
    .oneOf('undo', UNDO_CHOICES)
    .signal()
    .function('onEvent', 'openFile')
    .array('protect')
    .object('stdin', 'a readable stream')
    .onlyNamed();
  const { defaultCountry } = options as { defaultCountry?: string };
  if (defaultCountry !== undefined && !isPhoneCountry(defaultCountry.trim())) {
    throw new InvalidOptionError(
      `runImport(): defaultCountry must be a country code phone numbers have, such as "GB", not ${JSON.stringify(defaultCountry)}`,
      { code: 'invalid_value', param: 'defaultCountry' },
    );
  }
}
