/**
 * The name table under the catalogue: each registered server's tools under their exposed names
 * (provider-safe, `^[A-Za-z0-9_-]{1,64}$`) and the way back from an exposed name to the server and
 * the tool's own name. Pure and synchronous. The names come from the rules in `tool-names.ts`,
 * applied to all servers' tools at once: every change renames the whole set, so a clash can appear
 * or disappear; a tool that is in no clash keeps its name.
 */
import type { Tool } from '../../protocol/types.js';
import {
  assignToolNames,
  checkToolNaming,
  compareToolPairs,
  MANAGER_TOOL_NAMING,
  type ToolNaming,
  type ToolRenameReason,
} from './tool-names.js';

export { canonicalToolName } from './tool-names.js';
export type { ToolNaming, ToolRenameReason } from './tool-names.js';

/** One tool as the catalogue exposes it. */
export interface RegisteredTool {
  /** The exposed, provider-safe name. */
  name: string;
  server: string;
  /** The tool's own name on its server. */
  tool: string;
  definition: Tool;
}

/** A tool whose exposed name differs from its canonical name, and why. */
export interface ToolRename {
  server: string;
  tool: string;
  /** `mcp__<server>__<tool>`, as it is. */
  canonical: string;
  /** The exposed name. */
  name: string;
  /** In the order characters, length, collision; never empty. */
  reasons: ToolRenameReason[];
}

/** The server and tool behind a name. */
export interface ToolAddress {
  server: string;
  tool: string;
}

/** The namespaced tools of many servers under provider-safe, order-independent names. */
export class ToolRegistry {
  /** Tools per server (duplicates dropped), in first-registration order of the servers. */
  private readonly byServer = new Map<string, Tool[]>();
  private entries: RegisteredTool[] = [];
  private byName = new Map<string, RegisteredTool>();
  private byCanonical = new Map<string, RegisteredTool>();
  private renamed: ToolRename[] = [];

  /** Names by `naming` (default the manager's `mcp__<server>__<tool>`); `INVALID_ARGUMENT` for a bad one. */
  constructor(private readonly naming: ToolNaming = MANAGER_TOOL_NAMING) {
    checkToolNaming(naming);
  }

  /**
   * Makes `tools` the whole tool set of `server` (replacing what it had) and renames every
   * server's tools as the new set requires. A tool name the server lists twice keeps its first
   * definition; entries without a string name are skipped. A server keeps its place in
   * {@link servers} when registered again.
   */
  register(server: string, tools: readonly Tool[]): void {
    const seen = new Set<string>();
    const kept: Tool[] = [];
    for (const tool of tools) {
      if (typeof tool?.name !== 'string' || seen.has(tool.name)) continue;
      seen.add(tool.name);
      kept.push(tool);
    }
    this.byServer.set(server, kept);
    this.rebuild();
  }

  /**
   * Removes `server` and its tools; the other servers stay (their names may lose a clash and
   * change back). Returns true if the server had tools, i.e. the catalogue changed. Idempotent.
   */
  unregister(server: string): boolean {
    const tools = this.byServer.get(server);
    if (!tools) return false;
    this.byServer.delete(server);
    this.rebuild();
    return tools.length > 0;
  }

  /** Every tool: servers in first-registration order, each server's tools in its own order. */
  list(): RegisteredTool[] {
    return [...this.entries];
  }

  /** The tool exposed as `name`, or undefined. */
  get(name: string): RegisteredTool | undefined {
    return this.byName.get(name);
  }

  /**
   * The server and tool behind an exposed name or a canonical `mcp__<server>__<tool>` name
   * (exposed names win; a canonical name two pairs share belongs to the shorter server).
   * Undefined for a name the registry does not hold.
   */
  resolveToolName(name: string): ToolAddress | undefined {
    const entry = this.byName.get(name) ?? this.byCanonical.get(name);
    return entry ? { server: entry.server, tool: entry.tool } : undefined;
  }

  /** Every tool whose exposed name differs from its canonical name, in {@link list} order. */
  renames(): ToolRename[] {
    return this.renamed.map((rename) => ({ ...rename, reasons: [...rename.reasons] }));
  }

  /** The registered servers (also those without tools), in first-registration order. */
  servers(): string[] {
    return [...this.byServer.keys()];
  }

  private rebuild(): void {
    const pairs = [...this.byServer].flatMap(([server, tools]) =>
      tools.map((definition) => ({ server, tool: definition.name, definition })),
    );
    const names = assignToolNames(pairs, this.naming);
    const entries: RegisteredTool[] = [];
    const byName = new Map<string, RegisteredTool>();
    const byCanonical = new Map<string, RegisteredTool>();
    const renamed: ToolRename[] = [];
    pairs.forEach((pair, i) => {
      const { canonical, name, reasons } = names[i]!;
      const entry: RegisteredTool = Object.freeze({
        name,
        server: pair.server,
        tool: pair.tool,
        definition: pair.definition,
      });
      entries.push(entry);
      byName.set(name, entry);
      const owner = byCanonical.get(canonical);
      if (!owner || compareToolPairs(entry, owner) < 0) byCanonical.set(canonical, entry);
      if (name !== canonical) renamed.push({ server: pair.server, tool: pair.tool, canonical, name, reasons });
    });
    this.entries = entries;
    this.byName = byName;
    this.byCanonical = byCanonical;
    this.renamed = renamed;
  }
}
