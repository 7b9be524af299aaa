/**
 * The manager's use of the permission rules: which catalogue tools the model may see, and the
 * check before a call (deny refuses, ask goes to the host's hook, allow passes). The rules are
 * the config files' blocks under the host's own, re-read on every config load.
 */
import { McpError } from '../protocol/errors.js';
import type { PermissionBlock } from './config/permissions.js';
import type { CatalogTool, PermissionRequest } from './manager-types.js';
import { PermissionPolicy } from './permission-rules.js';

export class PermissionGate {
  private policy: PermissionPolicy;

  constructor(
    private readonly hostBlocks: readonly PermissionBlock[],
    private readonly ask: ((request: PermissionRequest) => boolean | Promise<boolean>) | undefined,
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

  /** Resolves when `entry` may be called with `args`; rejects with `PERMISSION_DENIED` (nothing was sent). */
  async authorize(entry: CatalogTool, args: Record<string, unknown> | undefined): Promise<void> {
    const verdict = this.policy.decide(entry);
    const refuse = (why: string) => new McpError('PERMISSION_DENIED', `${entry.name} ${why}`, { server: entry.server, method: 'tools/call', data: { verdict } });
    if (verdict.decision === 'allow') return;
    if (verdict.decision === 'deny') throw refuse(`is denied (${verdict.reason})`);
    if (!this.ask) throw refuse(`needs the user's approval (${verdict.reason}), and no ask hook is configured (ManagerOptions.ask)`);
    let approved: boolean;
    try {
      approved = await this.ask({ name: entry.name, server: entry.server, tool: entry.tool, arguments: args, verdict });
    } catch (error) {
      throw new McpError('PERMISSION_DENIED', `${entry.name}: the ask hook failed: ${error instanceof Error ? error.message : String(error)}`, { server: entry.server, method: 'tools/call', cause: error });
    }
    if (!approved) throw refuse(`was refused by the user (${verdict.reason})`);
  }
}
