// Paths by what they address, from the operations table.
import { describe, expect, it } from 'vitest';
import { matchPath } from '../../src/api/operations.js';
import { paths } from '../../src/api/paths.js';

describe('paths', () => {
  it('builds each path under /api/v1/chatbots/{agent}', () => {
    expect(paths.contacts('a1')).toBe('/api/v1/chatbots/a1/contacts');
    expect(paths.contact('a1', 'u1')).toBe('/api/v1/chatbots/a1/contacts/u1');
    expect(paths.attributes('a1')).toBe('/api/v1/chatbots/a1/custom-attributes');
    expect(paths.attribute('a1', 'plan')).toBe('/api/v1/chatbots/a1/custom-attributes/plan');
  });

  it('percent-encodes what a segment cannot hold, so the path matches back to the same values', () => {
    const path = paths.contact('agent one', 'a/b?c#d');
    expect(path).toBe('/api/v1/chatbots/agent%20one/contacts/a%2Fb%3Fc%23d');
    expect(matchPath(path)?.params).toEqual({ agentId: 'agent one', id: 'a/b?c#d' });
  });

  it('refuses an agent or id of . or .., which a URL would resolve away', () => {
    expect(() => paths.contacts('..')).toThrow();
    expect(() => paths.contact('a1', '.')).toThrow();
  });
});
