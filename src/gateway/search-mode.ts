/**
 * The gateway's search mode: instead of the whole catalogue, two tools — `search_tools` (ranked
 * over the names, titles, descriptions and parameters of the tools the caller may reach) and
 * `call_tool` (one of them by name). Policies and pins apply to both: a search never shows a tool
 * the caller could not call, and `call_tool` of one is refused as unknown (or withheld, saying why).
 * The index is rebuilt on the first search after the catalogue changed.
 */
import type { Disposer } from '../protocol/transport.js';
import type { Tool } from '../protocol/types.js';
import type { McpServer } from '../server/mcp-server.js';
import type { RequestContext, ToolDefinition } from '../server/server-types.js';
import { ToolError } from '../server/tools/tool-error.js';
import { CALL_TOOL, parseCallToolArgs, SEARCH_TOOLS, searchResult } from './search/search-tools.js';
import { ToolSearchIndex } from './search/tool-index.js';

/** One tool of the catalogue as search mode serves it. */
export interface SearchEntry {
  name: string;
  server: string;
  wire: Tool;
  /** Whether the request may see it now (policies, pins). */
  reachable(context: RequestContext): boolean;
  /** Why a call is refused (withheld by its pin), or undefined. */
  refusal(): string | undefined;
  definition: ToolDefinition;
}

/** Registers the two tools on `server`, over `entries()` (the catalogue now). Returns their disposer. */
export function registerSearchMode(server: McpServer, entries: () => ReadonlyMap<string, SearchEntry>): Disposer {
  let indexed: { of: ReadonlyMap<string, SearchEntry>; index: ToolSearchIndex } | undefined;
  const indexOf = (all: ReadonlyMap<string, SearchEntry>): ToolSearchIndex => {
    if (indexed?.of !== all) {
      const index = new ToolSearchIndex(
        [...all.values()].map((entry) => ({ ...entry.wire, name: entry.name, server: entry.server })),
      );
      indexed = { of: all, index };
    }
    return indexed.index;
  };
  const offSearch = server.registerTool({
    ...(SEARCH_TOOLS as ToolDefinition),
    checkSchemas: false,
    handler: (args, context) => {
      const all = entries();
      const reachable = [...all.values()].filter((entry) => entry.reachable(context));
      const wires = new Map(reachable.map((entry) => [entry.name, entry.wire]));
      // Ask for every hit, then keep the reachable ones: the limit counts what the caller may use.
      const index = indexOf(all);
      const narrowed: ToolSearchIndex = {
        search: (query: string, options: { limit?: number; server?: string } = {}) =>
          index
            .search(query, { ...options, limit: all.size || 1 })
            .filter((hit) => wires.has(hit.name))
            .slice(0, options.limit ?? 10),
      } as ToolSearchIndex;
      return searchResult(narrowed, wires, args);
    },
  });
  const offCall = server.registerTool({
    ...(CALL_TOOL as ToolDefinition),
    checkSchemas: false,
    handler: (args, context) => {
      const { name, arguments: given } = parseCallToolArgs(args);
      const entry = entries().get(name);
      if (!entry || !entry.reachable(context)) {
        const withheld = entry?.refusal();
        throw new ToolError(
          withheld ? 'TOOL_WITHHELD' : 'UNKNOWN_TOOL',
          withheld ?? `No tool "${name}"; search_tools lists the tools there are.`,
        );
      }
      return entry.definition.handler(given ?? {}, context);
    },
  });
  return () => {
    offSearch();
    offCall();
  };
}
