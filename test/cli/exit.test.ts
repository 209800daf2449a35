import { CommanderError, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { PathParamError } from '../../src/api/operations.js';
import {
  CliError,
  CredentialsError,
  ExitCode,
  InterruptedError,
  KeyRefusedError,
  UsageError,
} from '../../src/cli/errors.js';
import { toExit } from '../../src/cli/exit.js';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ResponseValidationError,
  UnsupportedMediaTypeError,
} from '../../src/client/errors.js';

import { OutputWriteError } from '../../src/importer/errors.js';

const URL = 'http://127.0.0.1:4010/api/v1/agents/a1/contacts';

function api<T extends typeof APIError>(
  Cls: T,
  status: number,
  message: string,
  extra: Partial<ConstructorParameters<T>[0]> = {},
) {
  return new Cls({ status, message, method: 'GET', url: URL, ...extra });
}

describe('client errors', () => {
  it.each([
    ['BadRequestError', api(BadRequestError, 400, 'Validation failed'), ExitCode.USAGE],
    ['PayloadTooLargeError', api(PayloadTooLargeError, 413, 'Payload too large'), ExitCode.USAGE],
    ['AuthenticationError', api(AuthenticationError, 401, 'Unauthorized access'), ExitCode.AUTH],
    ['PermissionDeniedError', api(PermissionDeniedError, 403, 'Forbidden'), ExitCode.AUTH],
    ['NotFoundError', api(NotFoundError, 404, 'Contact not found'), ExitCode.NOT_FOUND],
    ['ConflictError', api(ConflictError, 409, 'Email already exists'), ExitCode.CONFLICT],
    ['RateLimitError', api(RateLimitError, 429, 'Rate limit exceeded'), ExitCode.SERVICE],
    ['InternalServerError', api(InternalServerError, 503, 'Service unavailable'), ExitCode.SERVICE],
    ['APIError 5xx', api(APIError, 502, 'Bad gateway'), ExitCode.SERVICE],
    ['UnsupportedMediaTypeError', api(UnsupportedMediaTypeError, 415, 'Unsupported'), ExitCode.FAILURE],
    ['APIError 418', api(APIError, 418, 'Teapot'), ExitCode.FAILURE],
  ] as const)('%s -> its exit code, with the message and status', (_name, error, code) => {
    const { code: got, lines } = toExit(error);
    expect(got).toBe(code);
    expect(lines[0]).toBe(`error: ${error.message} (HTTP ${error.status})`);
  });

  it('prints each issue of a 400 field by field', () => {
    const error = api(BadRequestError, 400, 'Validation failed', {
      issues: [
        { field: 'email', message: 'Invalid email' },
        { field: 'custom_attributes.plan', message: 'Unknown custom attribute: define it first' },
      ],
    });
    expect(toExit(error).lines).toEqual([
      'error: Validation failed (HTTP 400)',
      '  email: Invalid email',
      '  custom_attributes.plan: Unknown custom attribute: define it first',
    ]);
  });

  it('tells how to log in on a 401', () => {
    const { lines } = toExit(api(AuthenticationError, 401, 'Unauthorized access'));
    expect(lines.at(-1)).toMatch(/^hint: .*contacts auth login/);
  });

  it('says when to retry a 429', () => {
    const error = api(RateLimitError, 429, 'Rate limit exceeded', { headers: { 'retry-after': '7' } });
    expect(toExit(error).lines.at(-1)).toBe('hint: The service is rate limiting requests; try again in 7 s.');
  });

  it('maps a contract breach to a service failure and lists the issues', () => {
    const error = new ResponseValidationError({
      message: 'Unexpected response',
      status: 200,
      issues: [{ field: 'data.0.created_at', message: 'Expected number' }],
      body: {},
    });
    const { code, lines } = toExit(error);
    expect(code).toBe(ExitCode.SERVICE);
    expect(lines).toContain('  data.0.created_at: Expected number');
  });

  it('maps connection failures and timeouts to the network code, with the cause', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const connection = toExit(new APIConnectionError('Connection error', { cause: refused }));
    expect(connection.code).toBe(ExitCode.NETWORK);
    expect(connection.lines[0]).toBe('error: Connection error (ECONNREFUSED)');
    expect(connection.lines.at(-1)).toMatch(/^hint: .*--base-url/);

    const timeout = toExit(new APITimeoutError('Request timed out'));
    expect(timeout.code).toBe(ExitCode.NETWORK);
    expect(timeout.lines.at(-1)).toMatch(/did not answer in full within --timeout/);
  });

  it('maps an id no path can carry to a usage error, with the way to address the contact', () => {
    const contact = toExit(new PathParamError('id', '..', '/api/v1/chatbots/a1/contacts/..'));
    expect(contact.code).toBe(ExitCode.USAGE);
    expect(contact.lines[0]).toBe(
      'error: The contact id ".." cannot go in a request path: URL parsers, proxies and servers resolve a "." or ".." segment away, so /api/v1/chatbots/a1/contacts/.. would reach /api/v1/chatbots/a1/',
    );
    expect(contact.lines.at(-1)).toMatch(/^hint: Address the contact by its id \(ct_/);
    const agent = toExit(new PathParamError('agentId', '.', '/api/v1/chatbots/./contacts'));
    expect(agent.code).toBe(ExitCode.USAGE);
    expect(agent.lines.at(-1)).toBe('hint: No agent can be addressed by "." or "..".');
  });

  it('maps an abort to 130', () => {
    expect(toExit(new APIUserAbortError()).code).toBe(ExitCode.INTERRUPTED);
    expect(toExit(new DOMException('aborted', 'AbortError')).code).toBe(ExitCode.INTERRUPTED);
  });
});

describe('CLI errors', () => {
  it('keeps the code and hint of a CliError', () => {
    expect(
      toExit(new CliError('Import finished with 3 rejected rows', { exitCode: ExitCode.PARTIAL })),
    ).toEqual({
      code: ExitCode.PARTIAL,
      lines: ['error: Import finished with 3 rejected rows'],
    });
    expect(toExit(new UsageError('No agent selected', { hint: 'Pass --agent <id>.' }))).toEqual({
      code: ExitCode.USAGE,
      lines: ['error: No agent selected', 'hint: Pass --agent <id>.'],
    });
    expect(toExit(new CredentialsError('No API key')).code).toBe(ExitCode.AUTH);
    expect(toExit(new InterruptedError()).code).toBe(ExitCode.INTERRUPTED);
  });
});

describe('commander errors: commander has printed them, so no lines', () => {
  it.each([
    [new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), ExitCode.OK],
    [new CommanderError(0, 'commander.version', '0.1.0'), ExitCode.OK],
    [new CommanderError(0, 'commander.help', '(outputHelp)'), ExitCode.OK],
    [new CommanderError(1, 'commander.help', '(outputHelp)'), ExitCode.USAGE],
    [new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"), ExitCode.USAGE],
    [new CommanderError(1, 'commander.missingArgument', 'error: missing'), ExitCode.USAGE],
    [new InvalidArgumentError('Not a whole number.'), ExitCode.USAGE],
    [new CommanderError(5, 'commander.error', 'custom'), 5],
  ] as const)('%s -> %i', (error, code) => {
    expect(toExit(error)).toEqual({ code, lines: [] });
  });

  it('recognises a commander error from another copy of commander', () => {
    const foreign = Object.assign(new Error('x'), { code: 'commander.unknownCommand', exitCode: 1 });
    expect(toExit(foreign)).toEqual({ code: ExitCode.USAGE, lines: [] });
  });
});

describe('everything else', () => {
  it('maps an unexpected Error to 1 with a hint to use --debug', () => {
    const { code, lines } = toExit(new TypeError('x is undefined'));
    expect(code).toBe(ExitCode.FAILURE);
    expect(lines[0]).toBe('error: x is undefined');
    expect(lines.at(-1)).toMatch(/--debug/);
  });

  it('maps a thrown non-Error to 1', () => {
    expect(toExit('boom')).toEqual({ code: ExitCode.FAILURE, lines: ['error: Unexpected failure: boom'] });
  });

  it('maps a missing input file to a usage error', () => {
    const enoent = Object.assign(new Error("ENOENT: no such file or directory, open 'x.csv'"), {
      code: 'ENOENT',
      path: 'x.csv',
    });
    expect(toExit(enoent)).toEqual({ code: ExitCode.USAGE, lines: ['error: No such file: x.csv'] });
  });

  it('says an import file that cannot be written plainly, not as a bug', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(toExit(new OutputWriteError('the results file', '/d/out.csv', full))).toEqual({
      code: ExitCode.FAILURE,
      lines: ['error: Cannot write the results file /d/out.csv: the disk is full (ENOSPC)'],
    });
  });

  it('treats a closed stdout pipe as success', () => {
    expect(toExit(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }))).toEqual({
      code: 0,
      lines: [],
    });
  });
});

describe('redaction and debug', () => {
  it('never prints a key, in the message, the issues or the debug details', () => {
    const key = 'bk_live_supersecret_0001';
    const error = api(BadRequestError, 400, `Bad key ${key}`, {
      url: `${URL}?token=${key}`,
      issues: [{ field: 'x', message: `saw Bearer ${key}` }],
      body: { echoed: key },
    });
    const { lines } = toExit(error, { debug: true });
    expect(lines.join('\n')).not.toContain('supersecret');
    expect(lines.join('\n')).toContain('[REDACTED]');
  });

  it('redacts the literal secrets it is given', () => {
    const { lines } = toExit(new Error('key was plainsecret123 oops'), { secrets: ['plainsecret123'] });
    expect(lines[0]).toBe('error: key was [REDACTED] oops');
  });

  it('adds the request, the stack and the cause chain with debug only', () => {
    const cause = new Error('socket hang up');
    const error = new APIConnectionError('Connection error', { cause });
    const plain = toExit(error).lines.join('\n');
    const debug = toExit(error, { debug: true }).lines.join('\n');
    expect(plain).not.toContain('    at ');
    expect(debug).toContain('    at ');
    expect(debug).toContain('caused by: Error: socket hang up');

    const withRequest = toExit(api(NotFoundError, 404, 'Contact not found'), { debug: true }).lines;
    expect(withRequest).toContain(`request: GET ${URL}`);
  });

  it('splits multi-line messages into lines', () => {
    const { lines } = toExit(new CliError('first\nsecond'));
    expect(lines).toEqual(['error: first', 'second']);
  });
});

describe('a refused key', () => {
  const refused = () =>
    api(AuthenticationError, 401, 'Unauthorized access', { headers: { 'x-request-id': 'req_1' } });
  const origin = { file: undefined, profile: 'default', configPath: '/cfg/config.json' } as const;

  it('names the variable it came from and says to set it or unset it', () => {
    const { code, lines } = toExit(new KeyRefusedError(refused(), { ...origin, source: 'env' }));
    expect(code).toBe(ExitCode.AUTH);
    expect(lines[0]).toBe(
      'error: The service refused the API key from CONTACTS_API_KEY: Unauthorized access (HTTP 401, request req_1)',
    );
    expect(lines.at(-1)).toMatch(
      /^hint: CONTACTS_API_KEY holds a key the service refused: set it .* or unset it/,
    );
  });

  it('names the key file', () => {
    const { lines } = toExit(
      new KeyRefusedError(refused(), { ...origin, source: 'key-file', file: '/run/k' }),
    );
    expect(lines[0]).toContain('from CONTACTS_API_KEY_FILE (/run/k):');
    expect(lines.at(-1)).toContain('unset CONTACTS_API_KEY_FILE');
  });

  it('names the profile and its login', () => {
    const { lines } = toExit(new KeyRefusedError(refused(), { ...origin, source: 'file', profile: 'work' }));
    expect(lines[0]).toContain('from profile "work" in /cfg/config.json:');
    expect(lines.at(-1)).toBe(
      'hint: Run `contacts --profile work auth login` to store a valid key (profile "work").',
    );
  });

  it('keeps the request details under --debug', () => {
    const { lines } = toExit(new KeyRefusedError(refused(), { ...origin, source: 'env' }), { debug: true });
    expect(lines).toContain(`request: GET ${URL}`);
    expect(lines).toContain('request id: req_1');
  });
});
