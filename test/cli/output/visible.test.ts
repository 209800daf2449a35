// visible(): what a terminal would obey in data shown to a person becomes a readable escape
// (test/e2e/terminal-escapes.test.ts follows data through the commands).
import { describe, expect, it } from 'vitest';
import { visible } from '../../../src/cli/output/visible.js';

describe('visible()', () => {
  it('replaces every control character with a readable escape and keeps line feeds', () => {
    expect(visible(`a\u001b[2Jb\u0007c\td\re\u009bf\u202eg\nh`)).toBe(
      'a\\e[2Jb\\x07c\\td\\re\\x9bf\\u202eg\nh',
    );
    expect(visible('x\ny', { singleLine: true })).toBe('x\\ny');
    expect(visible('plain text, café ✓')).toBe('plain text, café ✓');
  });
});
