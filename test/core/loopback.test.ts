// The one loopback rule shared by the base URL check, `serve --mock` and the mock's Host check.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../src/core/loopback.js';

describe('isLoopbackHost', () => {
  it('takes localhost, 127.0.0.0/8 and ::1 in the forms a URL or a listen address writes them', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      '127.0.0.1',
      '127.255.0.9',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f01:203]',
      new URL('http://[::ffff:127.9.9.9]/').hostname,
    ]) {
      expect(isLoopbackHost(host), host).toBe(true);
    }
  });

  it('refuses every name the resolver may ask DNS about, and addresses of other machines', () => {
    for (const host of [
      // getaddrinfo asks DNS for a fully qualified `localhost.` and for `*.localhost`.
      'localhost.',
      'LOCALHOST.',
      new URL('http://localhost.:4010/').hostname,
      'foo.localhost',
      'foo.localhost.',
      'localhost.example',
      '127.0.0.1.nip.io',
      '128.0.0.1',
      '0.0.0.0',
      '::',
      '[::2]',
      '[::ffff:128.0.0.1]',
      '[::ffff:10.0.0.1]',
      '[::127.0.0.1]',
      '10.0.0.1',
      'example.com',
      '',
    ]) {
      expect(isLoopbackHost(host), host).toBe(false);
    }
  });
});
