/**
 * What `McpManager.getStatus()` reports: per configured server its state, era, revision, tool
 * count, last error (its secrets scrubbed), restarts, junk count and provenance; and the config
 * problems of the last load.
 */
import { scrubSecrets } from '../../util/redact.js';
import type { Catalogue } from '../catalogue/catalogue.js';
import type { ManagerStatus, ServerStatusReport } from '../manager-types.js';
import type { ServerSlot } from './server-slot.js';

/** The config facts a status shows beside the servers. */
export interface ConfigFacts {
  /** The messages of the last load's broken files and entries. */
  errors: string[];
  /** Unknown keys, rules that can never apply, and other things worth a look. */
  warnings: string[];
}

/** The status of `slots` (in configuration order), their tools counted in `catalogue`. */
export function statusReport(slots: Iterable<ServerSlot>, catalogue: Catalogue, config: ConfigFacts): ManagerStatus {
  const servers = [...slots].map((slot): ServerStatusReport => {
    const client = slot.connectedClient();
    const now = slot.snapshot();
    return {
      name: slot.spec.name,
      status: now.status,
      transport: slot.spec.transport,
      enabled: slot.spec.enabled !== false,
      era: client?.era,
      protocolVersion: client?.protocolVersion,
      toolCount: catalogue.countOf(slot.spec.name),
      lastError: now.lastError ? scrubSecrets(now.lastError.message, slot.secrets) : undefined,
      restarts: now.restarts,
      circuitOpen: now.circuitOpen,
      invalidMessages: now.invalidMessages,
      provenance: slot.spec.provenance,
    };
  });
  return {
    configuredServers: servers.length,
    connectedServers: servers.filter((s) => s.status === 'connected').length,
    servers,
    configErrors: config.errors,
    configWarnings: config.warnings,
  };
}
