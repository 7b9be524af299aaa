/**
 * Options of `McpClient.connect` and of its calls.
 */
import type { RequestOptions } from '../protocol/connection.js';
import { checkOptions, optionKeys } from '../protocol/option-keys.js';
import type { Era, ProtocolRevision } from '../protocol/revisions.js';
import type { TransportDiagnostic } from '../protocol/transport.js';
import type { Implementation, LoggingLevel } from '../protocol/types.js';
import type { ElicitationMode, ServerInputHandlers } from './server-input.js';
import type { HttpRouteCache } from './http-routes.js';
import type { TraceOptions } from './trace-hook.js';
import { checkExtensionDeclarations, type ExtensionDeclaration } from './extensions.js';

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
  /**
   * `auto` probes with `server/discover` (default; on stdio with a `ping` behind it, so a legacy
   * server that ignores the probe is known in about a round trip); `legacy` or `modern` pins the
   * era: no probe, and a server of the other era fails the connect.
   */
  era?: EraChoice;
  /**
   * The era an earlier connect to this server found (e.g. `client.era`, kept by the caller), tried
   * first when neither `era` nor `protocolVersion` pins one: `legacy` sends `initialize` without a
   * probe, `modern` probes without the ping (for a URL: that route is tried first). Unlike `era` it
   * is never trusted over the server: a wrong hint (the server refuses the handshake, exits, or
   * answers as the other era) falls back to probing, and the connect succeeds as without it. The
   * one exception is a server silent on `initialize`, which spends the connect timeout as
   * `era: 'legacy'` does.
   */
  eraHint?: Era;
  /** Pins the exact revision (implies its era); the connection fails if the server cannot speak it. */
  protocolVersion?: ProtocolRevision;
  /**
   * How long the `server/discover` probe waits before assuming a legacy server (default 3000 ms;
   * 10 000 ms for a URL), never more than half of what is left of `connectTimeoutMs`, which it
   * spends from. On stdio a server that answers the probe's `ping` but not the probe ends the wait
   * early: only a server silent on both waits this long.
   */
  probeTimeoutMs?: number;
  /**
   * One deadline for the whole connect (default 30 000 ms), counted from the call to `connect`:
   * starting a stdio server (loading the transport, the process start), the probe, a restart
   * after it, the handshake (`initialize` or `server/discover`), the `logging/setLevel` sent after
   * it when `logLevel` is set, and for a URL every route tried. Running out rejects with one
   * `TIMEOUT` naming the step that got no answer or could not start.
   */
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
  /** Options for a stdio target (`connect({ command, args })`); a URL or a transport target does not read them. */
  stdio?: {
    /** Pass the whole environment instead of the safe allowlist (default false). */
    inheritEnv?: boolean;
    /** Largest accepted message in bytes (default 16 MiB). */
    maxMessageBytes?: number;
    /** Lines of stderr kept for error messages (default 50). */
    stderrLines?: number;
  };
  /**
   * Options for a URL target (`connect({ url })`), whichever HTTP shape it speaks; a command or a
   * transport target does not read them.
   */
  http?: {
    /**
     * Largest accepted message in bytes (default 16 MiB, as on stdio): a JSON response body, or
     * one SSE event. A response over it fails its request with `TRANSPORT` naming the limit.
     */
    maxMessageBytes?: number;
    /**
     * Where the route each URL was found to speak is kept (default: the process's cache, shared
     * by every client): a cache of your own keeps its verdicts apart from everyone else's.
     */
    routes?: HttpRouteCache;
  };
  /**
   * Receives every stderr line of a stdio server from the start, before `connect` resolves (the `stderr` event only
   * sees lines after).
   */
  onStderr?: (line: string) => void;
  /**
   * Receives every diagnostic (junk on stdout, a message that is not JSON-RPC, an oversize line,
   * …) from the first byte, before `connect` resolves: the same values as the `diagnostic` event,
   * which only sees those after. A throw is ignored.
   */
  onDiagnostic?: (diagnostic: TransportDiagnostic) => void;
  /**
   * Aborts the connect: the spawn of a stdio server (nothing is started when it is already
   * aborted), the handshake and the `logging/setLevel` after it. `connect` rejects with
   * `CANCELLED` whose `cause` is the signal's reason; a server it started is killed with its
   * process tree at once.
   */
  signal?: AbortSignal;
  /**
   * Traces the traffic: every frame both ways (the HTTP probe attempts included), the spawn and
   * exit of a stdio server, and the close, one `TraceRecord` each to `sink`, secrets replaced by
   * `***` (`Authorization` and other credential headers, and every value in `secrets`). Off by
   * default; without it the transport is not wrapped at all.
   */
  trace?: TraceOptions;
  /**
   * Extensions this client supports, by id (`{vendor-prefix}/{name}`): settings, or `true` for
   * `{}`. Declared in every era (legacy: `initialize`'s capabilities; 2026-07-28: each request's
   * client capabilities). An extension is on only where the server advertises it too
   * (`client.serverExtensions`). Default: none.
   */
  extensions?: Readonly<Record<string, ExtensionDeclaration>>;
}

/** Options of every call: cancel, timeouts and progress. */
export type CallOptions = RequestOptions;

/** Options of the list walks. */
export interface ListOptions extends CallOptions {
  /** Skip every cache and ask the server. */
  refresh?: boolean;
}

const CLIENT_OPTION_KEYS = optionKeys<ClientOptions>(
  'McpClient.connect options',
  {
    name: true,
    clientInfo: true,
    era: true,
    eraHint: true,
    protocolVersion: true,
    probeTimeoutMs: true,
    connectTimeoutMs: true,
    requestTimeoutMs: true,
    maxTotalTimeoutMs: true,
    handlers: true,
    elicitationModes: true,
    validateOutput: true,
    maxPages: true,
    maxInputRounds: true,
    missingCapability: true,
    logLevel: true,
    listen: true,
    stdio: true,
    http: true,
    onStderr: true,
    onDiagnostic: true,
    signal: true,
    trace: true,
    extensions: true,
  },
  {
    timeoutMs: 'requestTimeoutMs',
    timeout: 'requestTimeoutMs',
    inheritEnv: 'stdio.inheritEnv',
    maxMessageBytes: 'stdio.maxMessageBytes or http.maxMessageBytes',
    sampling: 'handlers.sampling',
    elicitation: 'handlers.elicitation',
    roots: 'handlers.roots',
    headers: 'the target: connect({ url, headers })',
    env: 'the target: connect({ command, args, env })',
    cwd: 'the target: connect({ command, args, cwd })',
  },
);
const STDIO_OPTION_KEYS = optionKeys<NonNullable<ClientOptions['stdio']>>('McpClient.connect options.stdio', {
  inheritEnv: true,
  maxMessageBytes: true,
  stderrLines: true,
});
const HTTP_OPTION_KEYS = optionKeys<NonNullable<ClientOptions['http']>>(
  'McpClient.connect options.http',
  { maxMessageBytes: true, routes: true },
  { maxBytes: 'maxMessageBytes', headers: 'the target: connect({ url, headers })' },
);
const HANDLER_KEYS = optionKeys<ServerInputHandlers>(
  'McpClient.connect options.handlers',
  { sampling: true, elicitation: true, roots: true },
  { elicit: 'elicitation', elicitations: 'elicitation', createMessage: 'sampling', listRoots: 'roots' },
);
const TRACE_KEYS = optionKeys<TraceOptions>('McpClient.connect options.trace', { sink: true, secrets: true });

/**
 * Throws `INVALID_ARGUMENT` naming the first unknown key of `options` or of its nested `stdio`,
 * `http`, `handlers` and `trace` objects (a misspelt option would otherwise do nothing, silently).
 */
export function checkClientOptions(options: ClientOptions): void {
  checkOptions(options, CLIENT_OPTION_KEYS);
  checkOptions(options.stdio, STDIO_OPTION_KEYS);
  checkOptions(options.http, HTTP_OPTION_KEYS);
  checkOptions(options.handlers, HANDLER_KEYS);
  checkOptions(options.trace, TRACE_KEYS);
  checkExtensionDeclarations(options.extensions);
}
