/**
 * The end of a test that keeps what it started in module-level slots (`let manager: McpManager |
 * undefined`): each slot's value is ended by the method named beside it, in the order given.
 */
import { afterEach } from 'vitest';

/** The names of `T`'s methods that take no argument (`'close'`, `'disconnectAll'`, `'stop'` …). */
type EndMethod<T> = { [K in keyof T]-?: T[K] extends () => unknown ? K : never }[keyof T];

/** A slot's value (undefined when the test did not fill it) and the method that ends it. */
export type Slot<T> = readonly [value: T | undefined, end: EndMethod<T>];

/**
 * Awaits `value[end]()` for each filled slot, one after the other in the order given. Every slot
 * is ended even when an earlier one fails; the first failure is thrown after all ran. Answers
 * `undefined` for each slot, so `[a, b] = await endAll([a, 'close'], [b, 'stop'])` empties them
 * for the next test.
 */
export async function endAll<T extends unknown[]>(
  ...slots: { [I in keyof T]: Slot<T[I]> }
): Promise<{ [I in keyof T]: undefined }> {
  const failures: unknown[] = [];
  for (const [value, end] of slots as readonly Slot<Record<PropertyKey, () => unknown>>[]) {
    if (value === undefined) continue;
    try {
      await value[end]!();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
  return slots.map(() => undefined) as { [I in keyof T]: undefined };
}

/**
 * An array for what a test opens as it goes (clients, servers): an `afterEach` closes its members
 * one after the other, in the order they were added, and empties it.
 */
export function closedAfterEach<T extends { close(): unknown }>(): T[] {
  const members: T[] = [];
  afterEach(async () => {
    for (const member of members.splice(0)) await member.close();
  });
  return members;
}
