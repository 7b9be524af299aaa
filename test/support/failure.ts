/**
 * The failure a call must end in: its error, checked to be of the given class and to carry the
 * given facts (`toMatchObject`). A call that succeeds fails the test.
 */
import { expect } from 'vitest';

/** Awaits `work`, expects it to reject with a `type` matching `facts`, and resolves with that error. */
export async function failureOf<E extends Error>(
  work: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
  facts: Record<string, unknown>,
): Promise<E> {
  const error = await work.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(type);
  expect(error).toMatchObject(facts);
  return error as E;
}
