/**
 * Era detection and version negotiation, as the 2026-07-28 backward-compatibility rules say:
 * probe with `server/discover`; a discover result or a recognised modern error means modern;
 * anything else (another error, silence within the probe timeout, the server exiting) means
 * legacy, and the client runs the `initialize` handshake.
 */
import type { JsonRpcConnection } from '../protocol/connection.js';
import { isMcpError, McpError } from '../protocol/errors.js';
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
import type { ClientCapabilities, DiscoverResult, Implementation, InitializeResult, LoggingLevel, Meta, ServerCapabilities } from '../protocol/types.js';
import { sampleValue } from '../protocol/value-sample.js';
import type { EraChoice } from './options.js';

/** What the handshake (legacy) or discovery (modern) established. */
export interface Negotiated {
  era: Era;
  protocolVersion: ProtocolRevision;
  capabilities: ServerCapabilities;
  serverInfo: Implementation | undefined;
  instructions: string | undefined;
  /** The modern `server/discover` result, when there was one. */
  discover?: DiscoverResult;
}

/** Inputs of {@link negotiate}. */
export interface NegotiateInput {
  era: EraChoice;
  protocolVersion: ProtocolRevision | undefined;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  probeTimeoutMs: number;
  connectTimeoutMs: number;
  signal: AbortSignal | undefined;
  /** Starts the server again when the probe killed it; absent for caller-supplied transports. */
  restart: (() => Promise<JsonRpcConnection>) | undefined;
}

/** The request `_meta` envelope of the modern era. */
export function modernMeta(version: string, capabilities: ClientCapabilities, clientInfo: Implementation, logLevel?: LoggingLevel): Meta {
  const meta: Meta = {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': clientInfo,
  };
  if (logLevel !== undefined) meta['io.modelcontextprotocol/logLevel'] = logLevel;
  return meta;
}

/** The modern revision both sides support, newest first, or undefined. */
export function pickModern(offered: unknown): ProtocolRevision | undefined {
  if (!Array.isArray(offered)) return undefined;
  return MODERN_REVISIONS.find((revision) => offered.includes(revision));
}

/**
 * Establishes era and revision on `connection`. Resolves with the result and the connection to
 * use from now on (a new one when the probe made a stdio server exit and it was restarted).
 * Rejects with `VERSION_UNSUPPORTED`, `TIMEOUT`, `CONNECTION_CLOSED` or `SERVER_ERROR`.
 */
export async function negotiate(connection: JsonRpcConnection, input: NegotiateInput): Promise<{ negotiated: Negotiated; connection: JsonRpcConnection }> {
  const pinnedEra = input.protocolVersion !== undefined ? eraOf(input.protocolVersion) : input.era === 'auto' ? undefined : input.era;
  if (pinnedEra === 'legacy') return { negotiated: await initialize(connection, input), connection };
  if (pinnedEra === 'modern') return { negotiated: await discover(connection, input, input.protocolVersion ?? MODERN_REVISIONS[0], input.connectTimeoutMs), connection };

  let probe: DiscoverResult | undefined;
  try {
    probe = await connection.request('server/discover', { _meta: modernMeta(MODERN_REVISIONS[0], input.capabilities, input.clientInfo) }, {
      timeoutMs: input.probeTimeoutMs,
      maxTotalTimeoutMs: input.probeTimeoutMs,
      // Before `initialize` a legacy server expects nothing but the handshake; stay silent.
      sendCancelNotice: false,
      ...(input.signal ? { signal: input.signal } : {}),
    });
  } catch (error) {
    // Nothing to learn from a server that cannot be reached or refuses the credentials.
    if (isMcpError(error, 'CANCELLED') || isMcpError(error, 'AUTH_REQUIRED') || isUnreachable(error)) throw error;
    const retryWith = error instanceof McpError && error.rpcCode === RpcErrorCode.UnsupportedProtocolVersion ? pickModern(supportedOf(error.data)) : undefined;
    if (retryWith) return { negotiated: await discover(connection, input, retryWith, input.connectTimeoutMs), connection };
    if (isMcpError(error, 'CONNECTION_CLOSED') && input.restart) {
      // The probe made the server exit (some legacy servers die on an unknown first message).
      connection = await input.restart();
    }
    return { negotiated: await initialize(connection, input), connection };
  }
  const version = pickModern(probe.supportedVersions);
  if (version === undefined) return { negotiated: await initialize(connection, input), connection };
  return { negotiated: fromDiscover(probe, version), connection };
}

async function discover(connection: JsonRpcConnection, input: NegotiateInput, version: ProtocolRevision, timeoutMs: number, retried = false): Promise<Negotiated> {
  try {
    const result = await connection.request('server/discover', { _meta: modernMeta(version, input.capabilities, input.clientInfo) }, {
      timeoutMs,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    const chosen = input.protocolVersion ?? pickModern(result.supportedVersions) ?? version;
    if (!Array.isArray(result.supportedVersions) || !result.supportedVersions.includes(chosen)) {
      throw new McpError('VERSION_UNSUPPORTED', `supports ${sampleValue(result.supportedVersions)}, none of which is ${chosen}`, {
        server: connection.name,
        method: 'server/discover',
      });
    }
    return fromDiscover(result, chosen);
  } catch (error) {
    // One retry with a revision from the server's `supported` list (the pin, when there is one).
    // The same revision again is allowed: a server may reject a first request to test exactly this.
    if (!retried && error instanceof McpError && error.rpcCode === RpcErrorCode.UnsupportedProtocolVersion) {
      const offered = supportedOf(error.data);
      const other = input.protocolVersion === undefined ? pickModern(offered) : Array.isArray(offered) && offered.includes(input.protocolVersion) ? input.protocolVersion : undefined;
      if (other) return discover(connection, input, other, timeoutMs, true);
    }
    throw error;
  }
}

function fromDiscover(result: DiscoverResult, version: ProtocolRevision): Negotiated {
  const serverInfo = (result.serverInfo ?? result._meta?.['io.modelcontextprotocol/serverInfo']) as Implementation | undefined;
  return {
    era: 'modern',
    protocolVersion: version,
    capabilities: result.capabilities ?? {},
    serverInfo,
    instructions: result.instructions,
    discover: result,
  };
}

async function initialize(connection: JsonRpcConnection, input: NegotiateInput): Promise<Negotiated> {
  const offered = input.protocolVersion ?? LATEST_LEGACY_REVISION;
  let result: InitializeResult;
  try {
    result = await connection.request(
      'initialize',
      { protocolVersion: offered, capabilities: input.capabilities, clientInfo: input.clientInfo },
      { timeoutMs: input.connectTimeoutMs, ...(input.signal ? { signal: input.signal } : {}) },
    );
  } catch (error) {
    // A modern-only server that missed the probe (slow start) rejects initialize with -32022.
    const modern = error instanceof McpError && input.era === 'auto' && input.protocolVersion === undefined ? pickModern(supportedOf(error.data)) : undefined;
    if (modern) return discover(connection, input, modern, input.connectTimeoutMs);
    throw error;
  }
  const answered = result.protocolVersion;
  const acceptable = isSupportedRevision(answered) && (LEGACY_REVISIONS as readonly string[]).includes(answered);
  if (!acceptable || (input.protocolVersion !== undefined && answered !== input.protocolVersion)) {
    throw new McpError('VERSION_UNSUPPORTED', `answered protocol version ${sampleValue(answered)}, which this client ${acceptable ? 'was pinned against' : 'does not speak'} (offered ${offered})`, {
      server: connection.name,
      method: 'initialize',
    });
  }
  await connection.notify('notifications/initialized', undefined);
  return {
    era: 'legacy',
    protocolVersion: answered as ProtocolRevision,
    capabilities: result.capabilities ?? {},
    serverInfo: result.serverInfo,
    instructions: result.instructions,
  };
}

function isUnreachable(error: unknown): boolean {
  return error instanceof McpError && (error.data as { unreachable?: unknown } | undefined)?.unreachable === true;
}

function supportedOf(data: unknown): unknown {
  return typeof data === 'object' && data !== null ? (data as { supported?: unknown }).supported : undefined;
}
