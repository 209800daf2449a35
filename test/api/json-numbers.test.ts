import { describe, expect, it } from 'vitest';
import { attributeTextSchemas } from '../../src/api/attribute.js';
import { jsonNumberProblem, numberTextProblem } from '../../src/api/json-numbers.js';

describe('numbers the service cannot keep as written', () => {
  it('refuses overflow, underflow and integers beyond 2^53 - 1, with the value they would become', () => {
    expect(numberTextProblem('1e400')).toMatch(/^1e400 is beyond the largest number/);
    expect(numberTextProblem('-1e400')).toMatch(/^-1e400 is beyond/);
    expect(numberTextProblem('1e-400')).toBe(
      '1e-400 is too small for the service to store: it would become 0',
    );
    expect(numberTextProblem('9007199254740993')).toMatch(
      /^9007199254740993 is an integer beyond 2\^53 - 1 \(9007199254740991\).*stored as 9007199254740992/,
    );
    expect(numberTextProblem('123456789012345678901234567890')).toMatch(/stored as 1\.2345678901234568e\+29/);
    expect(numberTextProblem('-9007199254740993.0')).toMatch(/integer beyond/);
  });

  it('accepts what a double holds as meant: zeros, decimals, exponents, the largest safe integer', () => {
    for (const ok of ['0', '-0', '0.0', '0e-400', '12.5', '1e300', '1e-300', '9007199254740991', '1.5e20']) {
      expect(numberTextProblem(ok)).toBeNull();
    }
  });

  it('finds the first such number in a JSON text and says where it stands', () => {
    expect(jsonNumberProblem('{"external_id":"v2","custom_attributes":{"num":1e400}}')).toMatchObject({
      path: 'custom_attributes.num',
    });
    expect(
      jsonNumberProblem('{"a":{},"s":"9007199254740993 e400","stripe_accounts":[{"x":1},{"y":[0,1e-400]}]}'),
    ).toMatchObject({ path: 'stripe_accounts[1].y[1]', reason: expect.stringMatching(/become 0/) });
    expect(jsonNumberProblem('{"k\\"ey":[[],{}, 90071992547409930]}')).toMatchObject({ path: 'k"ey[2]' });
    expect(jsonNumberProblem('1e400')).toMatchObject({ path: '' });
    expect(jsonNumberProblem('{"num":1e300,"big":9007199254740991,"text":"1e400"}')).toBeNull();
  });

  it('refuses them in numeric text for a number attribute (CSV cells, --attr num=...)', () => {
    const result = attributeTextSchemas.number.safeParse('9007199254740993');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/integer beyond 2\^53 - 1/);
    expect(attributeTextSchemas.number.safeParse('1e-400').error?.issues[0]?.message).toMatch(/become 0/);
    expect(attributeTextSchemas.number.safeParse(' 12.5 ').data).toBe(12.5);
  });
});
