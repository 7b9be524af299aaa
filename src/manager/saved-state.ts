/**
 * A manager's session state: which servers were connected and the revisions they spoke, saved
 * as plain JSON, and the reconnect that pins each server to that revision (no era probe) while
 * its definition is unchanged.
 */
import { McpError } from '../protocol/errors.js';
import { configFingerprint } from './config/fingerprint.js';
import type { ManagerState } from './manager-types.js';
import type { ServerSlot } from './servers/server-slot.js';

/** The record of the connected slots among `slots`. */
export function saveSlots(slots: Iterable<ServerSlot>): ManagerState {
  return {
    version: 1,
    savedAt: new Date().toISOString(),
    servers: [...slots]
      .filter((slot) => slot.status === 'connected' && slot.client)
      .map((slot) => ({
        name: slot.spec.name,
        era: slot.client!.era,
        protocolVersion: slot.client!.protocolVersion,
        fingerprint: configFingerprint(slot.spec),
      })),
  };
}

/** What {@link restoreSlots} did, per server. */
export interface RestoreResult {
  connected: string[];
  failed: Array<{ server: string; error: McpError }>;
  skipped: string[];
}

/**
 * Reconnects the servers `state` lists, in parallel, through `slotOf`. Unknown and disabled
 * servers are skipped. A pinned revision the server no longer speaks is dropped and the server
 * probed afresh, once. Never rejects.
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
      if (configFingerprint(slot.spec) === saved.fingerprint) slot.pinnedVersion = saved.protocolVersion;
      try {
        await slot.connect().catch((error: unknown) => {
          if (slot.pinnedVersion === undefined) throw error;
          slot.pinnedVersion = undefined; // the server moved on: probe afresh, once
          return slot.connect();
        });
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
