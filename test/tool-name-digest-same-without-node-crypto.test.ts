/**
 * The tool registry names clashing or overlong tools with a SHA-256 suffix, and it is in the
 * runtime-neutral root: where `node:crypto` is absent (browsers, Workers) the digest comes from
 * plain JavaScript (`util/sha256.ts`). It must be the same digest, or one catalogue would name the
 * same tool differently per runtime.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { sha256HexPortable } from '../src/util/sha256.js';

const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

it('gives the digest node:crypto gives, at the padding edges and for any text', () => {
  // 55 and 56 bytes: the last lengths with and without room for the length in one block; 64: a whole block.
  for (const text of [
    '',
    'abc',
    'a'.repeat(55),
    'a'.repeat(56),
    'a'.repeat(63),
    'a'.repeat(64),
    'é'.repeat(28),
    '🧪 tool',
  ]) {
    expect(sha256HexPortable(text), JSON.stringify(text)).toBe(nodeSha256(text));
  }
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => sha256HexPortable(text) === nodeSha256(text)),
    { numRuns: 300 },
  );
});
