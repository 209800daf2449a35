import { describe, expect, it } from 'vitest';
import { maskKey, redactSecrets } from '../../src/core/redact.js';

describe('maskKey', () => {
  it('shows the prefix and the last four characters', () => {
    expect(maskKey('bk_abcdef1234')).toBe('bk_...1234');
    expect(maskKey('bk_live_0123456789abcdefWXYZ')).toBe('bk_...WXYZ');
  });

  it('shows nothing of a short key', () => {
    expect(maskKey('bk_abc1234')).toBe('bk_...');
    expect(maskKey('bk_')).toBe('bk_...');
  });

  it('masks a key without the prefix too', () => {
    expect(maskKey('sk_live_99998888')).toBe('...8888');
    expect(maskKey('short')).toBe('...');
  });
});

describe('redactSecrets', () => {
  it('replaces every bk_ key in a message', () => {
    const out = redactSecrets('key bk_live_AbC-12_3 and "bk_other9" rejected; token=bk_x');
    expect(out).not.toMatch(/bk_live_AbC|bk_other9|bk_x\b/);
    expect(out).toBe('key bk_...[REDACTED] and "bk_...[REDACTED]" rejected; token=bk_...[REDACTED]');
  });

  it('replaces bearer credentials of any shape', () => {
    expect(redactSecrets('Authorization: Bearer abc.def-ghi')).toBe('Authorization: Bearer [REDACTED]');
    expect(redactSecrets('{"authorization":"bearer bk_123456789"}')).toBe(
      '{"authorization":"bearer [REDACTED]"}',
    );
  });

  it('replaces literal secrets that do not look like keys', () => {
    expect(redactSecrets('sent sk_live_9999abcd to the server', ['sk_live_9999abcd'])).toBe(
      'sent [REDACTED] to the server',
    );
    // Undefined and very short "secrets" are ignored rather than shredding the text.
    expect(redactSecrets('a b c', [undefined, 'a'])).toBe('a b c');
  });

  it('leaves text without secrets alone, including a masked key and the bare prefix', () => {
    const text = 'Using key bk_...1234; keys start with bk_ here.';
    expect(redactSecrets(text)).toBe(text);
  });

  it('is idempotent', () => {
    const once = redactSecrets('Bearer bk_abcdef123456 and bk_zzzzzzzz');
    expect(redactSecrets(once)).toBe(once);
  });
});

describe('keys with any characters', () => {
  it('redacts a key up to the next space or quote, whatever it contains', () => {
    const key = 'bk_live.S3CRETtail+xyz/=';
    const out = redactSecrets(`unknown option '--api-key=${key}' and "${key}"`);
    expect(out).not.toContain('S3CRET');
    expect(out).not.toContain('xyz');
  });

  it('leaves a masked key readable', () => {
    expect(redactSecrets('key bk_...9876 stored')).toBe('key bk_...9876 stored');
  });
});
