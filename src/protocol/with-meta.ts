/**
 * A copy of request params with `_meta` set, made the fast way.
 *
 * On Node 20 (V8 11.3) `{ ...params, _meta }` — an object spread followed by a property — takes
 * a slow path: about 1.5 µs on the bench machine against 0.1 µs for a copy and one assignment.
 * On a client's sequential call that was the largest single cost above the raw floor (every
 * `tools/call` carries a progress token; every 2026-07-28 request its envelope).
 */

/**
 * Returns a new object with the own enumerable properties of `params` (none when undefined), in
 * their order, and `_meta` set to `meta` (last, or in its place when `params` had one): what
 * `{ ...params, _meta: meta }` returns. `params` is not changed.
 */
export function withMeta(params: Record<string, unknown> | undefined, meta: unknown): Record<string, unknown> {
  // Object.assign would run the __proto__ setter where a spread defines the property.
  if (params !== undefined && Object.hasOwn(params, '__proto__')) return { ...params, _meta: meta };
  const copy: Record<string, unknown> = Object.assign({}, params);
  copy._meta = meta;
  return copy;
}
