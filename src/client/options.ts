/**
 * Options of `McpClient.connect` and of its calls.
 */
import type { RequestOptions } from '../protocol/connection.js';
import type { Era, ProtocolRevision } from '../protocol/revisions.js';
import type { Implementation, LoggingLevel } from '../protocol/types.js';
import type { ElicitationMode, ServerInputHandlers } from './server-input.js';
import type { TraceOptions } from './trace-hook.js';

/** How the client picks the era: probe (`auto`, default), or pin one. */
export type EraChoice = 'auto' | Era;

/** Options of {@link McpClient.connect}. */
export interface ClientOptions {
  /**
   * Display name of the server in errors, events and traces. Default: for a command line, the
   * one rule of `commandDisplayName` (`npx -y @scope/server-x` → `server-x`, `node …/pkg/dist/index.js`
   * → `pkg`, `node -e …` → `node`); for a URL, its host; for a transport, `server`.
   */
  name?: string;
  /** What the client says it is (default `{ name: 'mcpwire', version }`). */
  clientInfo?: Implementation;
  /** `auto` probes with `server/discover` (default); `legacy` or `modern` pins the era. */
  era?: EraChoice;
  /** Pins the exact revision (implies its era); the connection fails if the server cannot speak it. */
  protocolVersion?: ProtocolRevision;
  /** How long the `server/discover` probe waits before assuming a legacy server (default 3000 ms). */
  probeTimeoutMs?: number;
  /** Timeout of the handshake (`initialize` or `server/discover`) (default 30 000 ms). */
  connectTimeoutMs?: number;
  /** Default idle timeout of every request (default 30 000 ms). */
  requestTimeoutMs?: number;
  /** Default hard cap of every request, whatever progress says (default 600 000 ms). */
  maxTotalTimeoutMs?: number;
  /** Server input handlers; each one present declares its capability. */
  handlers?: ServerInputHandlers;
  /** Elicitation modes offered when an elicitation handler is given (default both). */
  elicitationModes?: readonly ElicitationMode[];
  /** Validate `structuredContent` against the tool's `outputSchema` (default true). */
  validateOutput?: boolean;
  /** Page cap of the list walks (default 64). */
  maxPages?: number;
  /** Round cap of 2026 multi-round-trip requests (default 10). */
  maxInputRounds?: number;
  /**
   * When the server did not advertise a list's capability: `error` rejects with
   * `CAPABILITY_MISSING` (default); `empty` resolves with an empty list. Neither sends a request.
   */
  missingCapability?: 'error' | 'empty';
  /** Log level: legacy sends `logging/setLevel` after the handshake; modern puts it on every request. */
  logLevel?: LoggingLevel;
  /** Modern era: open a `subscriptions/listen` stream for the list changes the server advertises (default true). */
  listen?: boolean;
  /** Options for a stdio target. */
  stdio?: {
    /** Pass the whole environment instead of the safe allowlist (default false). */
    inheritEnv?: boolean;
    /** Largest accepted message in bytes (default 16 MiB). */
    maxMessageBytes?: number;
    /** Lines of stderr kept for error messages (default 50). */
    stderrLines?: number;
  };
  /** Receives every stderr line of a stdio server from the start, before `connect` resolves (the `stderr` event only sees lines after). */
  onStderr?: (line: string) => void;
  /** Aborts the connect (handshake and spawn). */
  signal?: AbortSignal;
  /**
   * Traces the traffic: every frame both ways (the HTTP probe attempts included), the spawn and
   * exit of a stdio server, and the close, one `TraceRecord` each to `sink`, secrets replaced by
   * `***` (`Authorization` and other credential headers, and every value in `secrets`). Off by
   * default; without it the transport is not wrapped at all.
   */
  trace?: TraceOptions;
}

/** Options of every call: cancel, timeouts and progress. */
export type CallOptions = RequestOptions;

/** Options of the list walks. */
export interface ListOptions extends CallOptions {
  /** Skip every cache and ask the server. */
  refresh?: boolean;
}
