// The operations table's path builder: parameters percent-encoded, and `.`/`..` refused, since
// URL parsers, proxies and servers resolve a dot segment away whatever its encoding.
import { describe, expect, it } from 'vitest';
import {
  dotSegmentOf,
  endpoint,
  isDotSegment,
  PathParamError,
  paths,
  readAsDotSegmentOf,
} from '../../src/api/index.js';
import { ContactsError } from '../../src/index.js';

describe('isDotSegment and dotSegmentOf', () => {
  it('take `.` and `..` in every form a URL parser reads as one, %2e in either case', () => {
    for (const segment of ['.', '..', '%2e', '%2E', '.%2e', '%2E.', '%2e%2E']) {
      expect(isDotSegment(segment), segment).toBe(true);
    }
    for (const segment of ['', '...', 'a.', '.a', '%252e', '%2e%2e%2e', '%2f', '. ', 'ct_1']) {
      expect(isDotSegment(segment), segment).toBe(false);
    }
  });

  it('find a dot segment anywhere in a path, a backslash separating too, the query aside', () => {
    expect(dotSegmentOf('/api/v1/chatbots/a1/contacts/..')).toBe('..');
    expect(dotSegmentOf('/api/v1/./chatbots')).toBe('.');
    expect(dotSegmentOf('/api/v1/chatbots/a1/contacts\\%2E%2E')).toBe('%2E%2E');
    expect(dotSegmentOf('/api/v1/chatbots/a1/contacts?page=..')).toBeUndefined();
    expect(dotSegmentOf('/api/v1/chatbots/a1/contacts#/..')).toBeUndefined();
    expect(dotSegmentOf('/api/v1/chatbots/a1/contacts/...')).toBeUndefined();
  });
});

describe('readAsDotSegmentOf', () => {
  it('finds a segment that is a dot segment once decoded, split or cut at `;`', () => {
    for (const segment of [
      '..',
      '%2e',
      '..;',
      '.;x',
      '%2e%2e%2f',
      '..%2F',
      '%2e%2e%5c',
      'a%2f..',
      '%252e%252e',
      '..%3b',
    ]) {
      expect(readAsDotSegmentOf(`/a/${segment}/b?q=..`), segment).toBe(segment);
    }
    for (const segment of ['...', 'a..b', '..x', 'a%2F..b', 'x;..', '%2e%2e%2e', ';']) {
      expect(readAsDotSegmentOf(`/a/${segment}/b`), segment).toBeUndefined();
    }
    expect(readAsDotSegmentOf('/a/b?x=..;')).toBeUndefined();
  });
});

describe('endpoint', () => {
  it('percent-encodes its parameters', () => {
    expect(endpoint('deleteContact', { agentId: 'a 1', id: 'x/y?z' })).toEqual({
      method: 'DELETE',
      path: '/api/v1/chatbots/a%201/contacts/x%2Fy%3Fz',
    });
    // A literal `%2e` is sent encoded, not as a dot.
    expect(paths.contact('a1', '%2e')).toBe('/api/v1/chatbots/a1/contacts/%252e');
    expect(paths.contact('a1', '...')).toBe('/api/v1/chatbots/a1/contacts/...');
  });

  it('refuses `.` and `..` as any parameter, saying which and where the request would land', () => {
    const thrown = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        return error as PathParamError;
      }
      throw new Error('did not throw');
    };
    const contact = thrown(() => endpoint('deleteContact', { agentId: 'a1', id: '..' }));
    expect(contact).toBeInstanceOf(PathParamError);
    expect(contact).toBeInstanceOf(ContactsError);
    expect(contact).toMatchObject({ param: 'id', value: '..' });
    expect(contact.message).toBe(
      'The contact id ".." cannot go in a request path: URL parsers, proxies and servers resolve a "." or ".." segment away, so /api/v1/chatbots/a1/contacts/.. would reach /api/v1/chatbots/a1/',
    );
    expect(thrown(() => paths.contact('a1', '.'))).toMatchObject({ param: 'id', value: '.' });
    const agent = thrown(() => paths.contacts('..'));
    expect(agent).toMatchObject({ param: 'agentId', value: '..' });
    expect(agent.message).toMatch(/^The agent id "\.\."/);
    const attribute = thrown(() => paths.attribute('a1', '..'));
    expect(attribute).toMatchObject({ param: 'name', value: '..' });
    expect(attribute.message).toMatch(/^The attribute name "\.\."/);
  });
});
