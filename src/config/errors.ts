// The config layer's one error: what is wrong with a setting, the key or the config file, with
// a hint. It knows nothing of exit codes; the CLI's one map turns its kind into one.
import { ContactsError } from '../core/error.js';

/**
 * - `invalid`: a value that cannot be right (from a flag, the environment or the file);
 * - `missing`: a setting a command needs is not set anywhere (agent, base URL);
 * - `credentials`: no API key, or one that cannot be a workspace key;
 * - `file`: the config file cannot be read or is not one.
 */
export type ConfigErrorKind = 'invalid' | 'missing' | 'credentials' | 'file';

export class ConfigError extends ContactsError {
  readonly kind: ConfigErrorKind;
  /** One line telling the user what to do next. */
  readonly hint: string | undefined;
  constructor(kind: ConfigErrorKind, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.hint = options.hint;
  }
}
