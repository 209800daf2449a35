// The workspace key rule, which the config, the client, the CLI and the mock all ask.
import { describe, expect, it } from 'vitest';
import { apiKeyProblem } from '../../src/api/key.js';

describe('the key rule', () => {
  it('takes bk_ keys of header-safe characters only, case-sensitively', () => {
    expect(apiKeyProblem('bk_live_0123456789')).toBeNull();
    expect(apiKeyProblem('bk_a<b>c+/=.~')).toBeNull();
    expect(apiKeyProblem('BK_live_0123456789')).toMatch(/does not start with "bk_"/);
    expect(apiKeyProblem('bk_')).toMatch(/nothing after/);
    for (const bad of ['bk_a b', 'bk_a"b', "bk_a'b", 'bk_a\\b', 'bk_a\u0007b', 'bk_a\u00e9b', 'bk_a`b']) {
      expect(apiKeyProblem(bad), JSON.stringify(bad)).toMatch(/cannot carry/);
    }
  });
});
