/**
 * Era detection and version negotiation, as the 2026-07-28 backward-compatibility rules say:
 * probe with `server/discover`; a discover result or a recognised modern error means modern;
 * anything else (another error, silence within the probe timeout, the server exiting) means
 * legacy, and the client runs the `initialize` handshake. The connect's one deadline
 * ({@link ConnectDeadline}) bounds all of it: the probe, a restart, the handshake and its retries
 * all spend from it.
 */
import type { JsonRpcConnection } from '../protocol/connection.js';
import { HttpError, isMcpError, McpError } from '../protocol/errors.js';
import type { ConnectDeadline } from './connect-deadline.js';
import { RpcErrorCode } from '../protocol/jsonrpc.js';
import {
  eraOf,
  isSupportedRevision,
  LATEST_LEGACY_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  type Era,
  type ProtocolRevision,
} from '../protocol/revisions.js';
import type { Transport } from '../protocol/transport.js';
import type {
  ClientCapabilities,
  DiscoverResult,
  Implementation,
  InitializeParams,
  InitializeResult,
  LoggingLevel,
  Meta,
  ServerCapabilities,
} from '../protocol/types.js';
import type { HttpSession } from '../transport/http/legacy-session.js';
import { sampleValue } from '../protocol/value-sample.js';
import type { EraChoice } from './options.js';
import { META_KEYS } from '../protocol/meta-keys.js';

/** The connect timeout when `ClientOptions.connectTimeoutMs` is not given. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/**
 * How long the `server/discover` probe waits when `ClientOptions.probeTimeoutMs` is not given (stdio and transports).
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 3_000;
/** The probe's default for a URL: an HTTP server's first answer includes connecting (and TLS). */
export const DEFAULT_HTTP_PROBE_TIMEOUT_MS = 10_000;

/** What the handshake (legacy) or discovery (modern) established. */
export interface Negotiated {
  era: Era;
  protocolVersion: ProtocolRevision;
  capabilities: ServerCapabilities;
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** The modern `server/discover` result, when there was one. */
  discover?: DiscoverResult;
  /** Legacy: the `initialize` params the handshake sent (a lost HTTP session is re-established with them). */
  initialize?: InitializeParams;
}

/** A connection and the transport under it (the pipe it was built on). */
export interface Link {
  connection: JsonRpcConnection;
  transport: Transport;
}

/** Inputs of {@link negotiate}. */
export interface NegotiateInput {
  era: EraChoice;
  protocolVersion: ProtocolRevision | undefined;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  /**
   * Longest the probe may wait; never more than half of what is left of the connect timeout, so the handshake gets its
   * turn.
   */
  probeTimeoutMs: number;
  /** The connect's deadline, already running (it started with the connect, before any spawn). */
  deadline: ConnectDeadline;
  signal: AbortSignal | undefined;
  /** Starts the server again when the probe killed it; absent for caller-supplied transports. */
  restart: (() => Promise<Link>) | undefined;
  /**
   * Told what the session is as negotiation learns it, with the connection it runs on: modern
   * before a discover, legacy before `initialize`, with the revision once answered, and
   * `established` after `notifications/initialized` (the client passes it on to an HTTP transport).
   */
  onSession: (session: HttpSession, connection: JsonRpcConnection) => void;
}

/** The request `_meta` envelope of the modern era. */
export function modernMeta(
  version: string,
  capabilities: ClientCapabilities,
  clientInfo: Implementation,
  logLevel?: LoggingLevel,
): Meta {
  const meta: Meta = {
    [META_KEYS.protocolVersion]: version,
    [META_KEYS.clientCapabilities]: capabilities,
    [META_KEYS.clientInfo]: clientInfo,
  };
  if (logLevel !== undefined) meta[META_KEYS.logLevel] = logLevel;
  return meta;
}

/** The modern revision both sides support, newest first, or undefined. */
export function pickModern(offered: unknown): ProtocolRevision | undefined {
  if (!Array.isArray(offered)) return undefined;
  return MODERN_REVISIONS.find((revision) => offered.includes(revision));
}

/**
 * Establishes era and revision on `link`. Resolves with the result and the link to use from now
 * on (a new one when the probe made a stdio server exit and it was restarted).
 * Rejects with `VERSION_UNSUPPORTED`, `TIMEOUT` (naming the phase that got no answer within the
 * connect timeout), `CANCELLED`, `CONNECTION_CLOSED` or `SERVER_ERROR`.
 */
export async function negotiate(link: Link, input: NegotiateInput): Promise<{ negotiated: Negotiated; link: Link }> {
  const budget = input.deadline;
  const { connection } = link;
  const pinnedEra =
    input.protocolVersion !== undefined ? eraOf(input.protocolVersion) : input.era === 'auto' ? undefined : input.era;
  if (pinnedEra === 'legacy') return { negotiated: await initialize(connection, input, budget), link };
  if (pinnedEra === 'modern')
    return {
      negotiated: await discover(connection, input, budget, input.protocolVersion ?? MODERN_REVISIONS[0]),
      link,
    };

  let probe: DiscoverResult | undefined;
  budget.check(connection.name, 'before the server/discover probe');
  // Silence on the probe must leave the handshake time to run: at most half of what is left.
  const probeMs = Math.min(input.probeTimeoutMs, Math.floor(budget.left() / 2));
  input.onSession({ era: 'modern' }, connection);
  try {
    probe = await connection.request(
      'server/discover',
      { _meta: modernMeta(MODERN_REVISIONS[0], input.capabilities, input.clientInfo) },
      {
        timeoutMs: probeMs,
        maxTotalTimeoutMs: probeMs,
        // Before `initialize` a legacy server expects nothing but the handshake; stay silent.
        sendCancelNotice: false,
        ...(input.signal ? { signal: input.signal } : {}),
      },
    );
  } catch (error) {
    // Nothing to learn from a server that cannot be reached or refuses the credentials.
    if (isMcpError(error, 'CANCELLED') || isMcpError(error, 'AUTH_REQUIRED') || isUnreachable(error)) throw error;
    if (isMcpError(error, 'TIMEOUT')) budget.probeSilent = true;
    const retryWith =
      error instanceof McpError && error.rpcCode === RpcErrorCode.UnsupportedProtocolVersion
        ? pickModern(supportedOf(error.data))
        : undefined;
    if (retryWith) return { negotiated: await discover(connection, input, budget, retryWith), link };
    if (isMcpError(error, 'CONNECTION_CLOSED') && input.restart) {
      // The probe made the server exit (some legacy servers die on an unknown first message).
      budget.check(connection.name, 'before the server could be started again after the probe');
      const restarted = await input.restart();
      return { negotiated: await initialize(restarted.connection, input, budget), link: restarted };
    }
    return { negotiated: await initialize(connection, input, budget), link };
  }
  const version = pickModern(probe.supportedVersions);
  if (version === undefined) return { negotiated: await initialize(connection, input, budget), link };
  return { negotiated: fromDiscover(probe, version), link };
}

async function discover(
  connection: JsonRpcConnection,
  input: NegotiateInput,
  budget: ConnectDeadline,
  version: ProtocolRevision,
  retried = false,
): Promise<Negotiated> {
  input.onSession({ era: 'modern' }, connection);
  try {
    const result = await budget.request(connection.name, 'server/discover', (timeoutMs) =>
      connection.request(
        'server/discover',
        { _meta: modernMeta(version, input.capabilities, input.clientInfo) },
        {
          timeoutMs,
          maxTotalTimeoutMs: timeoutMs,
          ...(input.signal ? { signal: input.signal } : {}),
        },
      ),
    );
    const chosen = input.protocolVersion ?? pickModern(result.supportedVersions) ?? version;
    if (!Array.isArray(result.supportedVersions) || !result.supportedVersions.includes(chosen)) {
      throw new McpError(
        'VERSION_UNSUPPORTED',
        `supports ${sampleValue(result.supportedVersions)}, none of which is ${chosen}`,
        {
          server: connection.name,
          method: 'server/discover',
        },
      );
    }
    return fromDiscover(result, chosen);
  } catch (error) {
    // One retry with a revision from the server's `supported` list (the pin, when there is one).
    // The same revision again is allowed: a server may reject a first request to test exactly this.
    if (!retried && error instanceof McpError && error.rpcCode === RpcErrorCode.UnsupportedProtocolVersion) {
      const offered = supportedOf(error.data);
      const other =
        input.protocolVersion === undefined
          ? pickModern(offered)
          : Array.isArray(offered) && offered.includes(input.protocolVersion)
            ? input.protocolVersion
            : undefined;
      if (other) return discover(connection, input, budget, other, true);
    }
    throw error;
  }
}

function fromDiscover(result: DiscoverResult, version: ProtocolRevision): Negotiated {
  const serverInfo = (result.serverInfo ?? result._meta?.[META_KEYS.serverInfo]) as Implementation | undefined;
  return {
    era: 'modern',
    protocolVersion: version,
    capabilities: result.capabilities ?? {},
    serverInfo,
    instructions: result.instructions,
    discover: result,
  };
}

async function initialize(
  connection: JsonRpcConnection,
  input: NegotiateInput,
  budget: ConnectDeadline,
): Promise<Negotiated> {
  const offered = input.protocolVersion ?? LATEST_LEGACY_REVISION;
  const params: InitializeParams = {
    protocolVersion: offered,
    capabilities: input.capabilities,
    clientInfo: input.clientInfo,
  };
  let result: InitializeResult;
  input.onSession({ era: 'legacy' }, connection);
  try {
    result = await budget.request(connection.name, 'initialize', (timeoutMs) =>
      connection.request('initialize', params, {
        timeoutMs,
        maxTotalTimeoutMs: timeoutMs,
        ...(input.signal ? { signal: input.signal } : {}),
      }),
    );
  } catch (error) {
    // A modern-only server that missed the probe (slow start) rejects initialize with -32022.
    const modern =
      error instanceof McpError && input.era === 'auto' && input.protocolVersion === undefined
        ? pickModern(supportedOf(error.data))
        : undefined;
    if (modern) return discover(connection, input, budget, modern);
    throw error;
  }
  const answered = result.protocolVersion;
  const acceptable = isSupportedRevision(answered) && (LEGACY_REVISIONS as readonly string[]).includes(answered);
  if (!acceptable || (input.protocolVersion !== undefined && answered !== input.protocolVersion)) {
    throw new McpError(
      'VERSION_UNSUPPORTED',
      `answered protocol version ${sampleValue(answered)}, which this client ${acceptable ? 'was pinned against' : 'does not speak'} (offered ${offered})`,
      {
        server: connection.name,
        method: 'initialize',
      },
    );
  }
  input.onSession({ era: 'legacy', protocolVersion: answered }, connection);
  await connection.notify('notifications/initialized', undefined);
  input.onSession({ era: 'legacy', protocolVersion: answered, established: true }, connection);
  return {
    era: 'legacy',
    protocolVersion: answered,
    capabilities: result.capabilities ?? {},
    serverInfo: result.serverInfo,
    instructions: result.instructions,
    initialize: params,
  };
}

function isUnreachable(error: unknown): boolean {
  return error instanceof HttpError && error.unreachable;
}

function supportedOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? (data as { supported?: unknown }).supported : undefined;
}
