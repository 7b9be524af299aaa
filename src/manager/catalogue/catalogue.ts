/**
 * The catalogue as the manager keeps it: the name table ({@link ToolRegistry}) of every connected
 * server's tools, which server last held a name (to explain a call while that server is down),
 * and one `changed` call per change — or one for a whole batch (a reconcile). Synchronous.
 */
import { McpError } from '../../protocol/errors.js';
import type { Tool } from '../../protocol/types.js';
import type { CatalogTool } from '../manager-types.js';
import type { PermissionSubject } from '../permissions/permission-rules.js';
import { ToolRegistry, type ToolAddress, type ToolRename } from './tool-registry.js';

export class Catalogue {
  private readonly registry = new ToolRegistry();
  /** Exposed tool name → the server whose catalogue last held it. */
  private readonly lastOwners = new Map<string, string>();
  /** >0 while a batch runs: changes are reported once, at its end. */
  private batching = 0;
  private readonly changed: () => void;

  /** `changed` is called after every change outside a batch, and once at the end of a batch. */
  constructor(changed: () => void) {
    this.changed = changed;
  }

  /** Makes `tools` the entries of `server`; other servers' names change only if a clash appears or disappears. */
  publish(server: string, tools: readonly Tool[]): void {
    this.registry.register(server, tools);
    if (this.batching === 0) this.changed();
  }

  /** Removes `server`'s entries (remembering it as their last owner); a change only if it had any. */
  drop(server: string): void {
    for (const tool of this.registry.list()) if (tool.server === server) this.lastOwners.set(tool.name, server);
    if (this.registry.unregister(server) && this.batching === 0) this.changed();
  }

  /**
   * Runs `work` with change reports held back, then reports one change. If `work` rejects, its
   * error passes through and no change is reported.
   */
  async batch<T>(work: () => Promise<T>): Promise<T> {
    this.batching++;
    let result: T;
    try {
      result = await work();
    } finally {
      this.batching--;
    }
    this.changed();
    return result;
  }

  /** Every entry, in registration order. */
  list(): CatalogTool[] {
    return this.registry.list();
  }

  /** How many entries `server` has. */
  countOf(server: string): number {
    return this.registry.list().filter((tool) => tool.server === server).length;
  }

  /** The entry behind an exposed or canonical name, or undefined. */
  entryOf(name: string): CatalogTool | undefined {
    const address = this.registry.resolveToolName(name);
    return address
      ? this.registry.list().find((tool) => tool.server === address.server && tool.tool === address.tool)
      : undefined;
  }

  /**
   * What permission rules judge for `name`: its entry, else the server and tool a canonical
   * `mcp__<server>__<tool>` spells (a tool not connected yet). Throws `INVALID_ARGUMENT` for any
   * other name.
   */
  subjectOf(name: string): PermissionSubject {
    const entry = this.entryOf(name);
    if (entry) return { server: entry.server, tool: entry.tool, name: entry.name };
    const match = /^mcp__(.+?)__(.+)$/.exec(name);
    if (!match) throw new McpError('INVALID_ARGUMENT', `not a tool name: ${name} (expected mcp__<server>__<tool>)`);
    return { server: match[1]!, tool: match[2]! };
  }

  /** The server whose entries last held the exposed name `name`, if any did. */
  lastOwnerOf(name: string): string | undefined {
    return this.lastOwners.get(name);
  }

  /** The server and tool behind an exposed or canonical name, or undefined. */
  resolve(name: string): ToolAddress | undefined {
    return this.registry.resolveToolName(name);
  }

  /** Every entry whose exposed name differs from `mcp__<server>__<tool>`, and why. */
  renames(): ToolRename[] {
    return this.registry.renames();
  }
}
