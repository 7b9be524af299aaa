/**
 * The handshake of a supervised slot's connect: `McpClient.connect` to the server's
 * {@link slotTarget} with its client options plus what the slot adds (the era hint, every
 * signal that abandons the connect, a diagnostic watch from the first byte).
 */
import { McpClient } from '../../client/mcp-client.js';
import type { ClientOptions } from '../../client/options.js';
import { McpError } from '../../protocol/errors.js';
import type { Era } from '../../protocol/revisions.js';
import type { TransportDiagnostic } from '../../protocol/transport.js';
import { clientOptionsFor, slotTarget, type TargetWatch } from './connect-target.js';
import type { ManagedServer } from './managed-server.js';
import type { LoginHooks } from './server-oauth.js';

/** What a slot adds to its server's definition for one connect. */
export interface SlotConnect {
  /** The manager's client options, under the server's own (`clientOptionsFor`). */
  base: ClientOptions;
  eraHint: Era | undefined;
  /** Signals any of which abandons the connect (beside `base.signal`); undefined ones are skipped. */
  signals: Array<AbortSignal | undefined>;
  /** Every diagnostic of the client, from its first byte (after `base.onDiagnostic`). */
  onDiagnostic(diagnostic: TransportDiagnostic): void;
  /** The OAuth hooks of this connect, asked for once the options are built. */
  loginHooks(): LoginHooks;
  watch: TargetWatch;
}

/**
 * Connects a client to `spec` as `connect` says. Rejects with an `McpError`: the connect's own,
 * or `TRANSPORT` wrapping anything else (also a target that cannot be built: `CONFIG_INVALID`).
 */
export async function connectSlotClient(spec: ManagedServer, connect: SlotConnect): Promise<McpClient> {
  try {
    const options = clientOptionsFor(spec, connect.base);
    if (connect.eraHint !== undefined) options.eraHint = connect.eraHint;
    const signals = [options.signal, ...connect.signals];
    options.signal = AbortSignal.any(signals.filter((signal) => signal !== undefined));
    // From the first byte: a banner on stdout before the handshake counts too (the event would miss it).
    const own = options.onDiagnostic;
    options.onDiagnostic = (diagnostic) => {
      own?.(diagnostic);
      connect.onDiagnostic(diagnostic);
    };
    return await McpClient.connect(slotTarget(spec, connect.loginHooks(), connect.watch), options);
  } catch (error) {
    if (error instanceof McpError) throw error;
    throw new McpError('TRANSPORT', String(error), { server: spec.name, method: 'connect', cause: error });
  }
}
