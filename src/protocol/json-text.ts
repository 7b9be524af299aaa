/**
 * The JSON text of a value a peer sent, or why there is none. `JSON.parse` reads a 100,000-level
 * nested array happily; `JSON.stringify` overflows the stack on it (a `RangeError`), and where it
 * gives up depends on how deep the caller's own stack already is. {@link jsonText} refuses
 * values nested deeper than {@link MAX_JSON_DEPTH} first, with an explicit stack, so what can be
 * written does not depend on where it is written from. Pure: no `node:*`.
 */
import { errorMessage } from './errors.js';

/** Deepest nesting of arrays and objects {@link jsonText} writes (no real result comes close). */
export const MAX_JSON_DEPTH = 1_000;

/** The text, or (`text` undefined) why `value` cannot be written, e.g. `nested more than 1000 levels deep`. */
export type JsonText = { text: string; problem?: undefined } | { text?: undefined; problem: string };

/**
 * `JSON.stringify(value, null, indent)`, or the problem: nested deeper than `maxDepth` (checked
 * without recursion, so any depth costs one walk and never throws), or a value JSON cannot write
 * (a `BigInt`, a cycle, a throwing `toJSON`). A top-level value JSON writes as nothing
 * (`undefined`, a function) is a problem too. Never throws.
 */
export function jsonText(value: unknown, indent?: number, maxDepth: number = MAX_JSON_DEPTH): JsonText {
  if (nestedDeeperThan(value, maxDepth)) return { problem: `nested more than ${maxDepth} levels deep` };
  try {
    const text = JSON.stringify(value, null, indent);
    return text === undefined ? { problem: `a ${typeof value} has no JSON form` } : { text };
  } catch (error) {
    return { problem: `not writable as JSON (${errorMessage(error)})` };
  }
}

/**
 * True when arrays and objects in `value` nest more than `limit` levels. Each object is walked
 * once (a value shared or cyclic, never the case in parsed JSON, is left to `JSON.stringify`).
 */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (item === null || typeof item !== 'object' || seen.has(item)) continue;
    if (depth + 1 > limit) return true;
    seen.add(item);
    for (const key of Object.keys(item))
      stack.push({ value: (item as Record<string, unknown>)[key], depth: depth + 1 });
  }
  return false;
}
