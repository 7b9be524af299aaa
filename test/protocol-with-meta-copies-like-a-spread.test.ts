import { describe, expect, it } from 'vitest';
import { withMeta } from '../src/protocol/with-meta.js';

/** What withMeta promises to return: the spread it replaces. */
const spread = (params: Record<string, unknown> | undefined, meta: unknown) => ({ ...params, _meta: meta });

describe('withMeta returns what { ...params, _meta } returns', () => {
  const cases: [string, Record<string, unknown> | undefined][] = [
    ['no params', undefined],
    ['a tool call', { name: 'echo', arguments: { text: 'hi' } }],
    ['params with a _meta of their own (kept in its place)', { _meta: { a: 1 }, name: 'x', cursor: 'c' }],
    ['an own __proto__ key (defined, not the prototype setter)', JSON.parse('{"__proto__":{"polluted":true},"b":2}')],
  ];
  for (const [what, params] of cases) {
    it(what, () => {
      const meta = { progressToken: 7 };
      const got = withMeta(params, meta);
      const want = spread(params, meta);
      expect(Object.keys(got)).toEqual(Object.keys(want));
      expect(JSON.stringify(got)).toBe(JSON.stringify(want));
      expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
      expect(got).not.toBe(params);
    });
  }

  it('leaves params unchanged', () => {
    const params = { name: 'echo', _meta: { a: 1 } };
    withMeta(params, { progressToken: 1 });
    expect(params).toEqual({ name: 'echo', _meta: { a: 1 } });
  });
});
