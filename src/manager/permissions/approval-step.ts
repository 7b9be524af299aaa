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

export class ApprovalStep {
  private readonly options: Pick<ManagerOptions, 'approve' | 'requireApproval' | 'approvals'>;
  private readonly decisions = new Map<string, Promise<boolean>>();

  constructor(options: Pick<ManagerOptions, 'approve' | 'requireApproval' | 'approvals'>) {
    this.options = options;
  }

  /**
   * Whether `spec` may start: true at once for trusted servers. Rejects with the hook's error
   * when the hook rejects (a refusal with a reason), the same way every time it is asked again.
   */
  approved(spec: ManagedServer): Promise<boolean> {
    if (spec.trusted !== false) return Promise.resolve(true);
    const key = `${spec.provenance?.file ?? ''}\0${spec.name}\0${configFingerprint(spec)}`;
    let decision = this.decisions.get(key);
    if (!decision) {
      decision = this.decide(spec);
      this.decisions.set(key, decision);
    }
    return decision;
  }

  private async decide(spec: ManagedServer): Promise<boolean> {
    const { approve, requireApproval, approvals } = this.options;
    const stored = await approvals?.get(spec);
    if (stored !== undefined) return stored;
    if (!approve) return requireApproval === false;
    const decision = await approve(spec);
    await approvals?.set(spec, decision);
    return decision;
  }
}
