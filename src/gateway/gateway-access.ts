/**
 * Who may reach what through the gateway, per request: the policies (per principal or scope),
 * the pins (a tool whose definition changed since it was approved is withheld) and the rate
 * limit (per principal). The kit asks `visibility` for every list entry and every use by name,
 * so a tool a principal may not reach is unknown to it, listed nowhere and -32602 on a call; a
 * withheld tool is listed nowhere but a call of it is answered with why (`refusal`).
 */
import type { Tool } from '../protocol/types.js';
import type { AuthInfo } from '../server/auth-info.js';
import { principalOf } from '../server/state/principal.js';
import { ToolError } from '../server/tools/tool-error.js';
import type { VisibilityOptions } from '../server/visibility.js';
import type { PinStore } from './pins/pin-store.js';
import { pinRefusal } from './pins/pin-verdict.js';
import type { PolicySet } from './policy/policies.js';
import type { RateLimiter, SharedRateLimiter } from './policy/rate-limit.js';
import type { BucketResult } from './policy/token-bucket.js';
import { upstreamUri } from './resource-uris.js';
import { GATEWAY_STATUS_URI } from './gateway-status.js';

/** An exposed tool or prompt name and the upstream pair behind it. */
export interface Owned {
  server: string;
  tool: string;
  definition: Tool;
}

export interface AccessOptions {
  policies: PolicySet | undefined;
  /** The pin store once it is open (pinning on), else undefined. */
  pins(): PinStore | undefined;
  /** Whether pinning is on (the store may still be opening: nothing is listed before it is). */
  pinning: boolean;
  trustOnFirstUse: boolean;
  /** In memory (answers at once), or shared by the nodes on one store (answers a promise). */
  limiter: RateLimiter | SharedRateLimiter | undefined;
  /** The upstream pair behind an exposed tool name, now. */
  tool(name: string): Owned | undefined;
  /** The server of an exposed prompt name, now. */
  promptServer(name: string): string | undefined;
}

export class GatewayAccess {
  constructor(private readonly options: AccessOptions) {}

  /** Whether `auth` may reach tool `name` of `owner` (policies only). */
  allows(auth: AuthInfo | undefined, name: string, owner: Owned): boolean {
    const policies = this.options.policies;
    return !policies || policies.decide(auth, { server: owner.server, tool: owner.tool, name }).allowed;
  }

  /** Why tool `name` is withheld by its pin, or undefined when it is served. */
  refusal(name: string, definition: Tool): string | undefined {
    if (!this.options.pinning) return undefined;
    const pins = this.options.pins();
    if (!pins) return 'the gateway is still reading its pins';
    const verdict = pins.check(name, definition);
    if (verdict.state === 'new' && this.options.trustOnFirstUse) return undefined;
    return pinRefusal(name, verdict);
  }

  /** The kit's `visibility`, or undefined when nothing limits what anyone sees. */
  visibility(): VisibilityOptions | undefined {
    const { policies, pinning } = this.options;
    if (!policies?.size && !pinning) return undefined;
    return {
      tool: (tool, request) => {
        const owner = this.options.tool(tool.name);
        if (!owner) return true; // the gateway's own tools (search mode)
        if (!this.allows(request.auth, tool.name, owner)) return false;
        return request.purpose === 'use' || this.refusal(tool.name, owner.definition) === undefined;
      },
      prompt: (prompt, request) => {
        const server = this.options.promptServer(prompt.name);
        return server === undefined || !policies || policies.decideServer(request.auth, server).allowed;
      },
      resource: (uri, request) => {
        if (uri === GATEWAY_STATUS_URI || !policies) return true;
        const server = upstreamUri(uri)?.server;
        return server === undefined || policies.decideServer(request.auth, server).allowed;
      },
    };
  }

  /**
   * Spends one call of `auth`'s principal; throws a `RATE_LIMITED` tool error when none is left.
   * With a shared limiter the answer is a promise, which rejects so too, or as the store does
   * when it cannot be reached (a call is never let through unrecorded).
   */
  spend(auth: AuthInfo | undefined): void | Promise<void> {
    const limiter = this.options.limiter;
    if (!limiter) return;
    const taken = limiter.take(principalOf(auth) ?? 'anonymous');
    return taken instanceof Promise ? taken.then(refuseWhenOut) : refuseWhenOut(taken);
  }
}

function refuseWhenOut(taken: BucketResult): void {
  if (!taken.ok)
    throw new ToolError(
      'RATE_LIMITED',
      `Too many calls through the gateway; try again in ${Math.ceil(taken.retryAfterMs / 1000)} s.`,
    );
}
