/**
 * The manager's use of the permission rules: which catalogue tools the model may see, and the
 * check before a call (deny refuses, ask goes to the host's hook, allow passes). The rules are
 * the config files' blocks under the host's own, re-read on every config load.
 */
import type { PermissionBlock } from './permission-block.js';
import type { CatalogTool } from '../manager-types.js';
import { authorize, PermissionPolicy, type PermissionAskHook } from './permission-rules.js';

export class PermissionGate {
  private policy: PermissionPolicy;

  constructor(
    private readonly hostBlocks: readonly PermissionBlock[],
    private readonly ask: PermissionAskHook | undefined,
    private readonly hideDenied: boolean,
  ) {
    this.policy = new PermissionPolicy(hostBlocks);
  }

  /** The merged rules now in force. */
  get rules(): PermissionPolicy {
    return this.policy;
  }

  /** Takes the permission blocks of a fresh config load (the host's stay on top). */
  setFileBlocks(blocks: readonly PermissionBlock[]): void {
    this.policy = new PermissionPolicy([...blocks, ...this.hostBlocks]);
  }

  /** `tools`, without the denied ones when the host asked to hide them. */
  visible<T extends CatalogTool>(tools: T[]): T[] {
    return this.hideDenied ? tools.filter((tool) => this.policy.decide(tool).decision !== 'deny') : tools;
  }

  /**
   * Resolves when `entry` may be called with `args`; rejects with `PERMISSION_DENIED` (nothing was
   * sent). An `ask` verdict waits for the host's hook, which `signal` (the call's) cancels.
   */
  authorize(entry: CatalogTool, args: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<void> {
    return authorize(
      this.policy.decide(entry),
      this.ask,
      { name: entry.name, server: entry.server, tool: entry.tool, arguments: args },
      signal ? { signal } : {},
    );
  }
}
