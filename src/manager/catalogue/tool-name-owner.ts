/**
 * Which server a namespaced tool name (`mcp__<server>__<tool>`, or its provider-safe form,
 * `tool-names.ts`) belongs to, by its prefix alone: for a name no catalogue holds yet (a server
 * not connected, a command line naming one). Pure.
 */

/** Characters the catalogue replaces in exposed names (see `tool-names.ts`). */
const UNSAFE = /[^A-Za-z0-9_-]/gu;

/**
 * The server of `servers` whose canonical or provider-safe `mcp__<server>__` prefix `name` starts
 * with (the longest such server name, as `a__b` is more specific than `a`), or undefined.
 */
export function serverOfToolName(name: string, servers: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const server of servers) {
    const matches = name.startsWith(`mcp__${server}__`) || name.startsWith(`mcp__${server.replace(UNSAFE, '_')}__`);
    if (matches && (best === undefined || server.length > best.length)) best = server;
  }
  return best;
}
