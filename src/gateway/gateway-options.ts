/**
 * The options of `createGateway`, checked: an unknown key or a value of the wrong type is an
 * `INVALID_ARGUMENT` error naming it, before anything starts.
 */
import { McpError } from '../protocol/errors.js';
import type { McpManager } from '../manager/mcp-manager.js';
import type { ManagerOptions } from '../manager/manager-types.js';
import { checkToolNaming } from '../manager/catalogue/tool-names.js';
import type { ServerLogger } from '../server/server-types.js';
import type { ServerStateOptions } from '../server/state/server-state.js';

/** Options of {@link createGateway}. */
export interface GatewayOptions {
  /**
   * The upstream servers: a manager's options (the gateway makes the manager, owns it and closes
   * it; its clients then route the upstreams' sampling, elicitation and roots requests to the
   * downstream caller), or a manager of your own (left open by `close()`; upstream requests for
   * input reach the handlers it was made with).
   */
  manager: ManagerOptions | McpManager;
  /** Between a server's name and its tool's or prompt's: `SERVER__TOOL` by default. 1–8 of `[A-Za-z0-9_-]`. */
  separator?: string;
  /** `serverInfo` of the gateway (default `mcpwire-gateway` and mcpwire's version). */
  name?: string;
  version?: string;
  /** Guidance for the model, sent in the `initialize` / `server/discover` result. */
  instructions?: string;
  /** Entries per page of the merged lists (default 100). */
  pageSize?: number;
  /** Where the gateway's own records go (default: JSON lines on stderr). */
  logger?: ServerLogger;
  /** The kit's state (sessions, events, tasks) shared by several gateway processes: see `docs/server-state.md`. */
  state?: ServerStateOptions;
  /** How long one upstream's lists may take to read before it is reported as failing (default 30 000 ms). */
  listTimeoutMs?: number;
}

const KEYS = new Set([
  'manager',
  'separator',
  'name',
  'version',
  'instructions',
  'pageSize',
  'logger',
  'state',
  'listTimeoutMs',
]);

/** `options` checked; throws `INVALID_ARGUMENT` naming the first bad key. */
export function checkGatewayOptions(options: GatewayOptions): void {
  if (options === null || typeof options !== 'object')
    throw new McpError('INVALID_ARGUMENT', 'createGateway needs an options object with "manager"');
  for (const key of Object.keys(options))
    if (!KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown createGateway option "${key}"`);
  if (options.manager === null || typeof options.manager !== 'object')
    throw new McpError('INVALID_ARGUMENT', 'createGateway option "manager" must be an McpManager or its options');
  if (options.separator !== undefined) checkToolNaming({ prefix: '', separator: options.separator });
  for (const key of ['name', 'version', 'instructions'] as const) {
    const value = options[key];
    if (value !== undefined && (typeof value !== 'string' || value === ''))
      throw new McpError('INVALID_ARGUMENT', `createGateway option "${key}" must be a non-empty string`);
  }
  const timeout = options.listTimeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0))
    throw new McpError('INVALID_ARGUMENT', 'createGateway option "listTimeoutMs" must be a positive number');
}
