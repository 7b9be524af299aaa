/**
 * The manager's approval step for untrusted (project-defined) servers: a stored decision, else
 * the host's `approve` hook, else the default (`requireApproval`, true unless the host says false: refused). Each
 * definition (file, name, fingerprint) is decided once for the manager's life: a restart after a crash does not ask
 * again, and a refusal — a hook that answers false or rejects — stays a refusal; an edited definition is a new
 * question.
 */
import { configFingerprint } from '../config/fingerprint.js';
import type { ManagerOptions } from '../manager-types.js';
import type { ManagedServer } from '../servers/managed-server.js';

/**
 * What decided a server's approval: `trusted` (not a project server), `store` (a decision in the
 * `approvals` store), `hook` (the `approve` hook) or `default` (no hook, no stored decision:
 * `requireApproval`).
 */
export interface ApprovalDecision {
  approved: boolean;
  by: 'trusted' | 'store' | 'hook' | 'default';
}

/**
 * How a host lets project servers start, for the error of a server that nothing approved (the
 * options are spelled as a host writes them; the CLI's flag for its users).
 */
export const HOW_TO_APPROVE =
  'to let it start, give the McpManager options an approve hook that asks your user (approve: (server) => boolean | Promise<boolean>; approvals: new ApprovalStore() remembers the answers), or requireApproval: false if you trust this project; on the command line, mcpwire asks on a terminal or takes --trust-project';

export class ApprovalStep {
  private readonly options: Pick<ManagerOptions, 'approve' | 'requireApproval' | 'approvals'>;
  private readonly decisions = new Map<string, Promise<ApprovalDecision>>();

  constructor(options: Pick<ManagerOptions, 'approve' | 'requireApproval' | 'approvals'>) {
    this.options = options;
  }

  /**
   * Whether `spec` may start, and what decided it: approved at once for trusted servers. Rejects
   * with the hook's error when the hook rejects (a refusal with a reason), the same way every time
   * it is asked again.
   */
  decide(spec: ManagedServer): Promise<ApprovalDecision> {
    if (spec.trusted !== false) return Promise.resolve({ approved: true, by: 'trusted' });
    const key = `${spec.provenance?.file ?? ''}\0${spec.name}\0${configFingerprint(spec)}`;
    let decision = this.decisions.get(key);
    if (!decision) {
      decision = this.ask(spec);
      this.decisions.set(key, decision);
    }
    return decision;
  }

  /**
   * Undefined when `spec` may start; otherwise why not and what to do, worded to follow
   * `was not approved to start (defined in FILE)`. Rejects as {@link decide} does.
   */
  async refusal(spec: ManagedServer): Promise<string | undefined> {
    const decision = await this.decide(spec);
    if (decision.approved) return undefined;
    if (decision.by === 'hook') return ': the approve hook refused it; it stays stopped until its definition changes';
    if (decision.by === 'store')
      return `: refused by the decision stored in ${this.options.approvals!.file} (ApprovalStore.delete(file, name) forgets it, to ask again)`;
    return `; project servers need approval: ${HOW_TO_APPROVE}`;
  }

  private async ask(spec: ManagedServer): Promise<ApprovalDecision> {
    const { approve, requireApproval, approvals } = this.options;
    const stored = await approvals?.get(spec);
    if (stored !== undefined) return { approved: stored, by: 'store' };
    if (!approve) return { approved: requireApproval === false, by: 'default' };
    const approved = await approve(spec);
    await approvals?.set(spec, approved);
    return { approved, by: 'hook' };
  }
}
