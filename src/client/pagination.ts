/**
 * Walks a paginated list to its end under a page cap. The cursor is opaque: it is passed back
 * exactly as received ("" included); a missing `nextCursor` ends the walk.
 */
import { McpError } from '../protocol/errors.js';

/** One page as the server returned it. */
export interface Page<T> {
  items: T[];
  nextCursor: string | undefined;
  ttlMs: number | undefined;
}

/** The concatenated items and the shortest TTL any page gave. */
export interface Walked<T> {
  items: T[];
  ttlMs: number;
}

/**
 * Fetches pages until one has no `nextCursor`. Rejects with `PAGINATION_LIMIT` after `maxPages`
 * pages (a server that never stops), naming the server and method.
 */
export async function walkPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  maxPages: number,
  server: string,
  method: string,
): Promise<Walked<T>> {
  const items: T[] = [];
  let ttlMs = Infinity;
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(cursor);
    for (const item of result.items) items.push(item);
    ttlMs = Math.min(ttlMs, ttlOf(result.ttlMs));
    if (result.nextCursor === undefined) return { items, ttlMs };
    cursor = result.nextCursor;
  }
  throw new McpError(
    'PAGINATION_LIMIT',
    `returned more than ${maxPages} pages; stopped (raise maxPages if the list is really that long)`,
    { server, method },
  );
}

/** The caching rule of 2026-07-28: absent or negative ⇒ 0. */
export function ttlOf(ttlMs: unknown): number {
  return typeof ttlMs === 'number' && ttlMs > 0 ? ttlMs : 0;
}
