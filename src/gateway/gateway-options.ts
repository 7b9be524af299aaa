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
import type { GatewayPolicy } from './policy/policies.js';
import type { VirtualServerConfig } from './policy/virtual-servers.js';
import { checkBucketLimits, type BucketLimits } from './policy/token-bucket.js';
import { checkTokenExchangeOptions, type TokenExchangeOptions } from './credentials/token-exchange.js';

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
  /**
   * The kit's state (sessions, events, tasks) shared by several gateway processes: see
   * `docs/server-state.md`. With `postgresState` or `redisState`, the rate limit's buckets are
   * kept there too (same pool or connection), so every node spends from the same buckets.
   */
  state?: ServerStateOptions;
  /** How long one upstream's lists may take to read before it is reported as failing (default 30 000 ms). */
  listTimeoutMs?: number;
  /**
   * Allow and deny rules on servers and tools per principal or scope (`policy/policies.ts`),
   * applied to every list and enforced on every call, get and read: what a request may not reach
   * is unknown to it. The principal is the verified bearer token of a protected HTTP endpoint.
   */
  policies?: GatewayPolicy[];
  /** Named tool sets, each served as a server of its own (`/mcp/NAME` in `mcpwire gateway`). */
  virtualServers?: Record<string, VirtualServerConfig>;
  /**
   * Calls per principal (a token bucket: `capacity` at once, `refillPerSecond` after); default
   * none. In memory, or in the PostgreSQL or Redis `state` when it is one (a call is then refused
   * while that store cannot be reached).
   */
  rateLimit?: BucketLimits;
  /**
   * Rug-pull pinning: each tool's definition is fingerprinted when first seen (or first approved,
   * with `trustOnFirstUse: false`); a later change upstream withholds the tool until
   * `mcpwire gateway approve NAME`. `true` uses `~/.mcpwire/gateway-pins.json`.
   */
  pins?: true | { file?: string; trustOnFirstUse?: boolean };
  /**
   * `catalogue` (default): every tool is listed. `search`: two tools only, `search_tools` (ranked
   * over names and descriptions) and `call_tool`, for catalogues too large to hand a model whole.
   */
  mode?: 'catalogue' | 'search';
  /**
   * Upstream servers reached as the calling user: the caller's verified bearer token (kept by a
   * `keepSubjectTokens` verifier) is exchanged (RFC 8693) for a token of the upstream's audience,
   * cached per user until it expires, and each user gets a connection of their own to the server.
   * Every other server is reached with the manager's credentials (its stored OAuth login, its
   * headers). The caller's own token is never sent upstream.
   */
  tokenExchange?: TokenExchangeOptions;
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
  'policies',
  'virtualServers',
  'rateLimit',
  'pins',
  'mode',
  'tokenExchange',
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
  if (options.mode !== undefined && options.mode !== 'catalogue' && options.mode !== 'search')
    throw new McpError('INVALID_ARGUMENT', 'createGateway option "mode" must be "catalogue" or "search"');
  if (options.rateLimit !== undefined) checkBucketLimits(options.rateLimit, 'createGateway option "rateLimit"');
  if (options.tokenExchange !== undefined)
    checkTokenExchangeOptions(options.tokenExchange, 'createGateway option "tokenExchange"');
  const pins = options.pins;
  if (pins !== undefined && pins !== true && (pins === null || typeof pins !== 'object'))
    throw new McpError('INVALID_ARGUMENT', 'createGateway option "pins" must be true or { file?, trustOnFirstUse? }');
  const timeout = options.listTimeoutMs;
  if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0))
    throw new McpError('INVALID_ARGUMENT', 'createGateway option "listTimeoutMs" must be a positive number');
}
