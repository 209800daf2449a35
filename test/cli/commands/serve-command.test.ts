// `contacts serve`'s declaration: the defaults its help states are the ones it uses.
import { describe, expect, it } from 'vitest';
import { EMBEDDED_MOCK_AGENT, MOCK_DATA, SERVE_HOST, SERVE_PORT } from '../../../src/cli/defaults.js';
import { runInProcess } from '../../helpers/cli.js';

describe('contacts serve --help', () => {
  it('states the port, host, database and seed agent it defaults to', async () => {
    const text = (await runInProcess(['serve', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(text).toContain(`(default: ${SERVE_PORT})`);
    expect(text).toContain(`(default: "${SERVE_HOST}")`);
    expect(text).toContain(`(default: ./${MOCK_DATA}, the embedded --mock's`);
    expect(text).toContain(`(default: ${EMBEDDED_MOCK_AGENT}; with --agents`);
  });

  it('without --mock says how to run it, with the default port', async () => {
    const r = await runInProcess(['serve']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`contacts serve --mock [--port ${SERVE_PORT}]`);
  });
});
