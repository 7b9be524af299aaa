/**
 * Era detection and version negotiation, as the 2026-07-28 backward-compatibility rules say:
 * probe with `server/discover` (`era-probe.ts`; on stdio with a `ping` behind it); a discover
 * result or a recognised modern error means modern; anything else (another error, a ping
 * answered while the probe is not, silence within the probe timeout, the server exiting) means
 * legacy, and the client runs the `initialize` handshake. The connect's one deadline
 * ({@link ConnectDeadline}) bounds all of it: the probe, a restart, the handshake and its retries
 * all spend from it.
 *
 * A remembered verdict (`eraHint`, the spec's "MAY persist per server config; re-probe if it
 * later fails", `basic/versioning.mdx`) only changes what is tried first: `legacy` sends
 * `initialize` without a probe, and when the server refuses it with an error or exits, the
 * client probes as if there were no hint; `modern` probes without the ping, which follows only
 * when the probe is still unanswered after {@link MODERN_HINT_PING_AFTER_MS}. A hint never fails
 * a connect that would have succeeded without it, with one exception: a server silent on
 * `initialize` spends the connect timeout, as with `era: 'legacy'`.
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
import { isStdioTransport } from '../transport/kinds.js';
import { probeEra, type ProbePing } from './era-probe.js';

/** The connect timeout when `ClientOptions.connectTimeoutMs` is not given. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
/**
 * How long the `server/discover` probe waits when `ClientOptions.probeTimeoutMs` is not given (stdio and transports).
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 3_000;
/** The probe's default for a URL: an HTTP server's first answer includes connecting (and TLS). */
export const DEFAULT_HTTP_PROBE_TIMEOUT_MS = 10_000;
/**
 * With a `modern` hint, how long the probe waits for its answer before the ping follows it (a
 * server known to answer is not pinged, which a 2026-only server would refuse).
 */
export const MODERN_HINT_PING_AFTER_MS = 300;

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
  /** The era an earlier connect found (see the file comment); read only when neither is pinned. */
  eraHint: Era | undefined;
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
 * on (a new one when the probe, or a hinted `initialize`, made a stdio server exit and it was
 * restarted). Rejects with `VERSION_UNSUPPORTED`, `TIMEOUT` (naming the phase that got no answer
 * within the connect timeout), `CANCELLED`, `CONNECTION_CLOSED` or `SERVER_ERROR`.
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
  if (input.eraHint !== 'legacy') return probeThenNegotiate(link, input, input.restart);

  try {
    return { negotiated: await initialize(connection, input, budget), link };
  } catch (error) {
    // The remembered verdict is wrong when the server refuses the handshake or exits on it:
    // probe as if there were none (at most one restart: the probe must not restart it again).
    if (isMcpError(error, 'CONNECTION_CLOSED') && input.restart) {
      budget.check(connection.name, 'before the server could be started again after initialize');
      return probeThenNegotiate(await input.restart(), input, undefined);
    }
    if (!(error instanceof McpError) || error.rpcCode === undefined) throw error;
    return probeThenNegotiate(link, input, input.restart);
  }
}

/** The probe (see `era-probe.ts`), then the handshake its outcome calls for. */
async function probeThenNegotiate(
  link: Link,
  input: NegotiateInput,
  restart: (() => Promise<Link>) | undefined,
): Promise<{ negotiated: Negotiated; link: Link }> {
  const budget = input.deadline;
  const { connection } = link;
  budget.check(connection.name, 'before the server/discover probe');
  // Silence on the probe must leave the handshake time to run: at most half of what is left.
  const probeMs = Math.min(input.probeTimeoutMs, Math.floor(budget.left() / 2));
  const ping: ProbePing = !isStdioTransport(link.transport)
    ? 'none'
    : input.eraHint === 'modern'
      ? { afterMs: MODERN_HINT_PING_AFTER_MS }
      : 'with-probe';
  input.onSession({ era: 'modern' }, connection);
  const outcome = await probeEra(connection, {
    meta: modernMeta(MODERN_REVISIONS[0], input.capabilities, input.clientInfo),
    timeoutMs: probeMs,
    ping,
    signal: input.signal,
  });
  if (outcome.kind === 'ignored') {
    budget.probeSilent = true;
    return { negotiated: await initializeAfterSilence(connection, input, budget), link };
  }
  if (outcome.kind === 'answered') {
    const version = pickModern(outcome.result.supportedVersions);
    if (version === undefined) return { negotiated: await initialize(connection, input, budget), link };
    return { negotiated: fromDiscover(outcome.result, version), link };
  }
  const { error } = outcome;
  // Nothing to learn from a server that cannot be reached or refuses the credentials.
  if (isMcpError(error, 'CANCELLED') || isMcpError(error, 'AUTH_REQUIRED') || isUnreachable(error)) throw error;
  const retryWith =
    error instanceof McpError && error.rpcCode === RpcErrorCode.UnsupportedProtocolVersion
      ? pickModern(supportedOf(error.data))
      : undefined;
  if (retryWith) return { negotiated: await discover(connection, input, budget, retryWith), link };
  if (isMcpError(error, 'CONNECTION_CLOSED') && restart) {
    // The probe made the server exit (some legacy servers die on an unknown first message).
    budget.check(connection.name, 'before the server could be started again after the probe');
    const restarted = await restart();
    return { negotiated: await initialize(restarted.connection, input, budget), link: restarted };
  }
  if (isMcpError(error, 'TIMEOUT')) {
    budget.probeSilent = true;
    return { negotiated: await initializeAfterSilence(connection, input, budget), link };
  }
  return { negotiated: await initialize(connection, input, budget), link };
}

/**
 * The handshake after a probe the server never answered: a server that then refuses
 * `initialize` with an error may be a modern one that was slow to answer the probe (or answered
 * the ping first), so discovery is tried once more before the refusal is final.
 */
async function initializeAfterSilence(
  connection: JsonRpcConnection,
  input: NegotiateInput,
  budget: ConnectDeadline,
): Promise<Negotiated> {
  try {
    return await initialize(connection, input, budget);
  } catch (error) {
    if (!(error instanceof McpError) || error.rpcCode === undefined) throw error;
    try {
      return await discover(connection, input, budget, MODERN_REVISIONS[0]);
    } catch {
      throw error;
    }
  }
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
