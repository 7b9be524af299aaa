/**
 * What a transport binding tells the router about one inbound request: the legacy session it
 * belongs to (if any), where its notifications go, and its abort signal.
 */
import type { AuthInfo } from '../auth-info.js';
import type { ProtocolRevision } from '../../protocol/revisions.js';
import type { ClientCapabilities, Implementation, LoggingLevel } from '../../protocol/types.js';

/**
 * The state of a legacy connection, made by `initialize` (stdio, HTTP sessions) or implied per request (stateless
 * legacy HTTP).
 */
export interface LegacySession {
  revision: ProtocolRevision;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** The least severe level the client wants (`logging/setLevel`); default `info`. */
  logLevel: LoggingLevel;
  /** URIs of `resources/subscribe`: `notifications/resources/updated` goes out for these. */
  subscriptions: Set<string>;
}

/** The state of a POST without a session (stateless legacy): `revision` from its header, the rest defaults. */
export function statelessLegacy(revision: ProtocolRevision): LegacySession {
  return { revision, clientCapabilities: {}, clientInfo: undefined, logLevel: 'info', subscriptions: new Set() };
}

/** One inbound request's ties to its transport. */
export interface RequestLink {
  /**
   * The connection's legacy session, or undefined before `initialize` (and always on a modern
   * or stateless connection). The router sets it when it answers `initialize`.
   */
  legacy: LegacySession | undefined;
  /**
   * True when `initialize` may make a session here (stdio, a new HTTP session, stateless
   * legacy HTTP where the session is the one request).
   */
  readonly canInitialize: boolean;
  /** Sends a notification tied to this request (stdio: the pipe; HTTP: its SSE stream, if any). Never throws. */
  notify(method: string, params: Record<string, unknown>): void;
  /**
   * Ends the request's HTTP response early while the request goes on, so the client resumes with
   * GET + `Last-Event-ID` (legacy Streamable HTTP sessions with SSE); absent elsewhere.
   */
  readonly closeStream?: () => void;
  /** Aborted when the client cancels the request or the connection goes down. */
  readonly signal: AbortSignal;
  /**
   * Aborted when the transport winds down gracefully (the server closes): a long-lived request
   * (`subscriptions/listen`) then answers with its completion result instead of being cut off.
   * Absent where nothing stays open that long.
   */
  readonly windDown?: AbortSignal;
  /** The request's verified bearer token facts (a protected HTTP endpoint), for `context.auth`. */
  readonly auth?: AuthInfo;
  /**
   * Sends a request to the client tied to this request (legacy server→client input), cancelled
   * with it, and resolves with its result; absent where the transport cannot carry one (stateless HTTP).
   */
  readonly request?: (method: string, params: Record<string, unknown>) => Promise<Record<string, unknown>>;
}

/** Severity order of the MCP log levels (RFC 5424 order). */
export const LOG_LEVEL_RANK: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && Object.hasOwn(LOG_LEVEL_RANK, value);
}
