// The CLI's own defaults, alone in a module without imports: the commands' declarations (their
// help) and their runs read the same constants.

/** Agent used with --mock when none is set, so `contacts --mock list` works on a fresh clone. */
export const EMBEDDED_MOCK_AGENT = 'demo';
/** The embedded mock's database, under the working directory (`--mock`, and `serve`'s default). */
export const MOCK_DATA = '.contacts-mock/mock.db';
/** Where `contacts serve` listens by default. */
export const SERVE_PORT = 4010;
export const SERVE_HOST = '127.0.0.1';
