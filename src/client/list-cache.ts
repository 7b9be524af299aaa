/**
 * Caches of the four list methods and their freshness rule: legacy lists stay valid until the
 * server's list_changed (only when the server promised to send it); modern lists for `ttlMs`.
 * `McpClient` drops entries on list_changed notifications.
 */
import type { Era } from '../protocol/revisions.js';
import type { ServerCapabilities } from '../protocol/types.js';
import { ttlOf } from './pagination.js';

export type ListMethod = 'tools/list' | 'resources/list' | 'resources/templates/list' | 'prompts/list';

/** The result field holding each list's items. */
export const LIST_KEYS: Record<ListMethod, string> = {
  'tools/list': 'tools',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
  'prompts/list': 'prompts',
};

/** How long a freshly walked list stays valid, in ms (0 = do not cache; Infinity = until list_changed). */
export function cacheLifetime(era: Era, caps: ServerCapabilities, method: ListMethod, ttlMs: number): number {
  if (era === 'modern') return Number.isFinite(ttlMs) ? ttlOf(ttlMs) : 0;
  const promised =
    method === 'tools/list'
      ? caps.tools?.listChanged
      : method === 'prompts/list'
        ? caps.prompts?.listChanged
        : caps.resources?.listChanged;
  return promised ? Infinity : 0;
}

export class ListCache {
  private readonly entries = new Map<ListMethod, { items: unknown[]; expiresAt: number }>();

  /** The cached items while fresh, else undefined. */
  get(method: ListMethod): unknown[] | undefined {
    const entry = this.entries.get(method);
    if (!entry) return undefined;
    if (entry.expiresAt > performance.now()) return entry.items;
    this.entries.delete(method);
    return undefined;
  }

  /** Keeps `items` for `lifetimeMs` (nothing is kept for 0). */
  store(method: ListMethod, items: unknown[], lifetimeMs: number): void {
    if (lifetimeMs > 0) this.entries.set(method, { items, expiresAt: performance.now() + lifetimeMs });
    else this.entries.delete(method);
  }

  /** Drops the given lists (on list_changed). */
  delete(...methods: ListMethod[]): void {
    for (const method of methods) this.entries.delete(method);
  }
}
