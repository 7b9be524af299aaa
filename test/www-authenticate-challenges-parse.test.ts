/**
 * `parseAuthChallenges` reads a `WWW-Authenticate` value as RFC 9110 §11.6.1 says: several
 * challenges, token68 or auth-params, quoted strings with escapes, case-insensitive scheme and
 * parameter names. Whatever a server sends, it never throws and its work is bounded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_CHALLENGE_CHARS, parseAuthChallenges, type AuthChallenge } from '../src/util/auth-challenge.js';

/** A challenge as the tests write it: params as a plain object. */
function challenge(scheme: string, params: Record<string, string> = {}, token68?: string): AuthChallenge {
  return { scheme, params, ...(token68 !== undefined ? { token68 } : {}) };
}

describe('parseAuthChallenges', () => {
  it.each<[string, string | undefined, AuthChallenge[]]>([
    ['nothing', undefined, []],
    ['an empty value', '', []],
    ['only separators', ' , ,\t', []],
    ['a bare scheme', 'Bearer', [challenge('bearer')]],
    [
      'the MCP authorization shape',
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource"',
      [challenge('bearer', { resource_metadata: 'https://mcp.example.com/.well-known/oauth-protected-resource' })],
    ],
    [
      'insufficient scope (403)',
      'Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://x/.well-known/oauth-protected-resource"',
      [
        challenge('bearer', {
          error: 'insufficient_scope',
          scope: 'files:read files:write',
          resource_metadata: 'https://x/.well-known/oauth-protected-resource',
        }),
      ],
    ],
    [
      'token values without quotes',
      'Bearer realm=example, error=invalid_token',
      [challenge('bearer', { realm: 'example', error: 'invalid_token' })],
    ],
    ['whitespace around "=" (BWS)', 'Bearer realm = "a" ,error= b', [challenge('bearer', { realm: 'a', error: 'b' })]],
    [
      'case-insensitive scheme and names, values as sent',
      'BEARER Realm="Mixed", ERROR=Invalid_Token',
      [challenge('bearer', { realm: 'Mixed', error: 'Invalid_Token' })],
    ],
    ['a token68', 'Basic dXNlcjpwYXNz', [challenge('basic', {}, 'dXNlcjpwYXNz')]],
    [
      'a token68 with padding',
      'Negotiate YII=, Basic realm="x"',
      [challenge('negotiate', {}, 'YII='), challenge('basic', { realm: 'x' })],
    ],
    ['a token68 with / and +', 'Custom a+b/c==', [challenge('custom', {}, 'a+b/c==')]],
    [
      '"=" followed by a value makes a parameter, not a token68',
      'Bearer abc=def',
      [challenge('bearer', { abc: 'def' })],
    ],
    [
      "RFC 9110's example: two challenges, an escaped quote",
      'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"',
      [
        challenge('newauth', { realm: 'apps', type: '1', title: 'Login to "apps"' }),
        challenge('basic', { realm: 'simple' }),
      ],
    ],
    [
      'a comma inside a quoted string',
      'Bearer realm="a, b", error="c"',
      [challenge('bearer', { realm: 'a, b', error: 'c' })],
    ],
    ['a backslash escaping any character', 'Bearer realm="a\\\\b\\c"', [challenge('bearer', { realm: 'a\\bc' })]],
    ['an empty quoted string', 'Bearer realm=""', [challenge('bearer', { realm: '' })]],
    ['several schemes without params', 'Negotiate, NTLM', [challenge('negotiate'), challenge('ntlm')]],
    [
      'two header lines joined',
      'Bearer realm="a", DPoP algs="ES256 PS256"',
      [challenge('bearer', { realm: 'a' }), challenge('dpop', { algs: 'ES256 PS256' })],
    ],
    [
      'a repeated parameter keeps its first value',
      'Bearer scope="a", Scope="b"',
      [challenge('bearer', { scope: 'a' })],
    ],
    ['empty list elements are skipped', ', Bearer ,, realm="a" ,', [challenge('bearer', { realm: 'a' })]],
    [
      'a parameter before any scheme is skipped',
      'realm="a, b", Bearer error="x"',
      [challenge('bearer', { error: 'x' })],
    ],
    [
      'an unterminated quoted string drops its parameter',
      'Bearer realm="a", error="oops',
      [challenge('bearer', { realm: 'a' })],
    ],
    ['an unterminated string ending in a backslash', 'Bearer realm="a\\', [challenge('bearer')]],
    [
      'junk after a value is skipped up to the next comma',
      'Bearer realm="a" junk "more, stuff", error="x"',
      [challenge('bearer', { error: 'x' })],
    ],
    [
      'a quote right after the scheme',
      'Basic"x", Bearer realm="y"',
      [challenge('basic'), challenge('bearer', { realm: 'y' })],
    ],
    [
      'a stray "=" element is skipped',
      'Bearer realm="a", =x, error="y"',
      [challenge('bearer', { realm: 'a', error: 'y' })],
    ],
    ['a token, spaces and "=" make a parameter (BWS), not a scheme', 'Bearer =x, error="y"', []],
    [
      'a name such as constructor is a plain key',
      'Bearer constructor=c, toString="t"',
      [challenge('bearer', { constructor: 'c', tostring: 't' })],
    ],
  ])('%s', (_what, header, expected) => {
    const parsed = parseAuthChallenges(header);
    expect(parsed).toEqual(expected);
    for (const c of parsed) expect(Object.getPrototypeOf(c.params)).toBeNull();
  });

  it('a __proto__ parameter pollutes nothing', () => {
    const [parsed] = parseAuthChallenges('Bearer __proto__="polluted"');
    expect(Object.keys(parsed!.params)).toEqual(['__proto__']);
    expect(parsed!.params.__proto__).toBe('polluted');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it(`reads at most ${MAX_CHALLENGE_CHARS} characters, cut at a comma: the challenge that crosses the limit is dropped`, () => {
    const filler = Array.from({ length: 2_000 }, (_, i) => `p${i}="${'v'.repeat(20)}"`).join(', ');
    const parsed = parseAuthChallenges(`Bearer realm="first", ${filler}, Basic realm="never read"`);
    expect(parsed).toHaveLength(1);
    expect(parsed[0]!.params.realm).toBe('first');
    expect(parsed.some((c) => c.scheme === 'basic')).toBe(false);
    // No comma before the limit: nothing is read (an element cut in two is no element).
    expect(parseAuthChallenges(`Bearer ${'a'.repeat(MAX_CHALLENGE_CHARS * 2)}`)).toEqual([]);
  });

  it('hostile values cost no more than reading the first limit of characters', () => {
    const huge = 4 * 1024 * 1024;
    const hostile = [
      `Bearer realm="${'\\"'.repeat(huge / 2)}`,
      `Bearer realm="${'x'.repeat(huge)}`,
      ','.repeat(huge),
      '='.repeat(huge),
      `${'a '.repeat(huge / 2)}`,
      `Bearer ${'a=b, '.repeat(huge / 5)}`,
      `${'Basic, '.repeat(huge / 7)}`,
    ];
    for (const header of hostile) {
      const started = performance.now();
      const parsed = parseAuthChallenges(header);
      // Bounded by MAX_CHALLENGE_CHARS, not by the 4 MiB value: well under a second even on a loaded machine.
      expect(performance.now() - started).toBeLessThan(1_000);
      const strings = parsed.flatMap((c) => [c.scheme, c.token68 ?? '', ...Object.entries(c.params).flat()]);
      expect(strings.join('').length).toBeLessThanOrEqual(MAX_CHALLENGE_CHARS);
      expect(parsed.length).toBeLessThanOrEqual(MAX_CHALLENGE_CHARS / 2);
    }
  });

  it('never throws, and every challenge has a token scheme and string params, whatever the input', () => {
    const piece = fc.constantFrom(
      'Bearer',
      'basic',
      ' ',
      '\t',
      ',',
      '=',
      '"',
      '\\',
      'realm',
      'a+b/',
      '==',
      'x',
      'é',
      '\u0000',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(piece, { maxLength: 60 }).map((parts) => parts.join('')),
        ),
        (header) => {
          const parsed = parseAuthChallenges(header);
          for (const c of parsed) {
            expect(c.scheme).toMatch(/^[!#$%&'*+\-.^_`|~0-9a-z]+$/);
            for (const [name, value] of Object.entries(c.params)) {
              expect(name).toMatch(/^[!#$%&'*+\-.^_`|~0-9a-z]+$/);
              expect(typeof value).toBe('string');
            }
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('reads back what a writer of the grammar wrote', () => {
    const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,11}$/);
    const value = fc.string({ maxLength: 30 }).filter((s) => !/[\u0000-\u0008\u000a-\u001f\u007f]/.test(s));
    const oneChallenge = fc.record({
      scheme: token,
      params: fc.uniqueArray(fc.tuple(token, value), { maxLength: 4, selector: ([name]) => name.toLowerCase() }),
    });
    fc.assert(
      fc.property(fc.array(oneChallenge, { minLength: 1, maxLength: 4 }), (written) => {
        const header = written
          .map(({ scheme, params }) =>
            [scheme, params.map(([name, v]) => `${name}="${v.replace(/["\\]/g, '\\$&')}"`).join(', ')]
              .filter(Boolean)
              .join(' '),
          )
          .join(', ');
        const parsed = parseAuthChallenges(header);
        expect(parsed.map((c) => ({ scheme: c.scheme, params: { ...c.params } }))).toEqual(
          written.map(({ scheme, params }) => ({
            scheme: scheme.toLowerCase(),
            params: Object.fromEntries(params.map(([name, v]) => [name.toLowerCase(), v])),
          })),
        );
      }),
      { numRuns: 500 },
    );
  });
});
