/**
 * What the gateway says about its upstreams: every configured server, whether it serves through
 * the gateway now, and why not. Read by downstream clients as the resource
 * `mcpwire://gateway/status` (JSON) and by code as `gateway.status()`. Errors are the manager's
 * (secrets already scrubbed).
 */
import type { ManagerStatus } from '../manager/manager-types.js';
import type { UpstreamLists } from './upstream-lists.js';

/** The URI of the status resource. */
export const GATEWAY_STATUS_URI = 'mcpwire://gateway/status';

/** One upstream in {@link GatewayStatus}. */
export interface UpstreamStatus {
  name: string;
  /** The manager's state: `connected`, `connecting`, `disconnected`, `error`, `needs-auth`, `not-approved`. */
  status: string;
  /** Whether its tools, prompts and resources are served now. */
  serving: boolean;
  era?: string;
  protocolVersion?: string;
  tools: number;
  prompts: number;
  resources: number;
  templates: number;
  /** The last connect or call error, or a list that could not be read. */
  error?: string;
}

export interface GatewayStatus {
  servers: UpstreamStatus[];
  /** Broken config files and entries (each names its file); their servers are not served. */
  configErrors: string[];
}

/** The status from the manager's report and the lists the gateway serves. */
export function gatewayStatus(
  manager: ManagerStatus,
  listsOf: (server: string) => UpstreamLists | undefined,
  toolCount: (server: string) => number,
): GatewayStatus {
  return {
    servers: manager.servers.map((report) => {
      const lists = listsOf(report.name);
      const line: UpstreamStatus = {
        name: report.name,
        status: report.status,
        serving: lists !== undefined,
        tools: lists ? toolCount(report.name) : 0,
        prompts: lists?.prompts.length ?? 0,
        resources: lists?.resources.length ?? 0,
        templates: lists?.templates.length ?? 0,
      };
      if (report.era !== undefined) line.era = report.era;
      if (report.protocolVersion !== undefined) line.protocolVersion = report.protocolVersion;
      const listErrors = Object.entries(lists?.errors ?? {}).map(([kind, message]) => `${kind}: ${message}`);
      const error = report.lastError ?? (listErrors.length > 0 ? listErrors.join('; ') : undefined);
      if (error !== undefined) line.error = error;
      return line;
    }),
    configErrors: [...manager.configErrors],
  };
}
