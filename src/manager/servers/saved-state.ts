/**
 * A manager's session state: which servers were connected and the revisions they spoke, saved
 * as plain JSON, and the reconnect that hands each server's era to its connect as `eraHint` while
 * its definition is unchanged: no era probe, and a server that changed era since is probed
 * (the client falls back by itself), never failed for it.
 */
import { McpError } from '../../protocol/errors.js';
import { configFingerprint } from '../config/fingerprint.js';
import type { ManagerState } from '../manager-types.js';
import type { ServerSlot } from './server-slot.js';

/** The record of the connected slots among `slots`. */
export function saveSlots(slots: Iterable<ServerSlot>): ManagerState {
  return {
    version: 1,
    savedAt: new Date().toISOString(),
    servers: [...slots].flatMap((slot) => {
      const client = slot.connectedClient();
      return client
        ? [
            {
              name: slot.spec.name,
              era: client.era,
              protocolVersion: client.protocolVersion,
              fingerprint: configFingerprint(slot.spec),
            },
          ]
        : [];
    }),
  };
}

/** What {@link restoreSlots} did, per server. */
export interface RestoreResult {
  connected: string[];
  failed: Array<{ server: string; error: McpError }>;
  skipped: string[];
}

/**
 * Reconnects the servers `state` lists, in parallel, through `slotOf`, each with its saved era as
 * the slot's `eraHint` when its definition's fingerprint is the saved one. Unknown and disabled
 * servers are skipped. Never rejects.
 */
export async function restoreSlots(
  state: ManagerState,
  slotOf: (name: string) => ServerSlot | undefined,
): Promise<RestoreResult> {
  const result: RestoreResult = { connected: [], failed: [], skipped: [] };
  await Promise.all(
    state.servers.map(async (saved) => {
      const slot = slotOf(saved.name);
      if (!slot || slot.spec.enabled === false) {
        result.skipped.push(saved.name);
        return;
      }
      if (configFingerprint(slot.spec) === saved.fingerprint && (saved.era === 'legacy' || saved.era === 'modern'))
        slot.offerEraHint(saved.era);
      try {
        await slot.connect();
        result.connected.push(saved.name);
      } catch (error) {
        result.failed.push({
          server: saved.name,
          error: error instanceof McpError ? error : new McpError('TRANSPORT', String(error), { server: saved.name }),
        });
      }
    }),
  );
  return result;
}
