/**
 * The public options objects of the transports and their accepted keys (see
 * `protocol/option-keys.ts`): kept here, beside no transport in particular, so checking them
 * loads neither `child_process` nor undici, and the transports import them without a circle. The
 * compiler checks each key list against its interface.
 */
import { optionKeys } from '../protocol/option-keys.js';
import type { AuthorizeHook } from './http/authorize-hook.js';
import type { HttpDispatcher } from './http/dispatch.js';
import type { FetchFunction } from './http/fetch-engine.js';
import type { StdioServerSpec } from './stdio/stdio-spawn.js';

/** Options of {@link StdioTransport.spawn}. */
export interface StdioTransportOptions {
  /** Display name in errors (default: {@link commandDisplayName} of the command line). */
  name?: string;
  /** Largest accepted message in bytes (default 16 MiB); larger lines are reported and skipped. */
  maxMessageBytes?: number;
  /** Lines of stderr kept for {@link StdioTransport.stderrTail} and error messages (default 50). */
  stderrLines?: number;
  /** Receives each stderr line as it arrives. A throw is ignored. */
  onStderr?: (line: string) => void;
  /** Overrides `spec.inheritEnv`. */
  inheritEnv?: boolean;
  /**
   * Aborts the start: {@link StdioTransport.spawn} rejects with `CANCELLED` (`cause`: the
   * signal's reason) and nothing is left running. Only the start: once `spawn` resolved, the
   * signal is no longer watched (close or destroy the transport instead).
   */
  signal?: AbortSignal;
  /** Bounds of the graceful close. */
  closeTimeouts?: {
    /** How long the server may take to exit after stdin EOF before SIGTERM (default 2000 ms). */
    stdinEndMs?: number;
    /** How long it may take after SIGTERM before SIGKILL (default 2000 ms). */
    sigtermMs?: number;
  };
}

/** Options of {@link StreamableHttpTransport}. */
export interface StreamableHttpOptions {
  /** The server's display name, used in every error message. */
  name?: string;
  /** Headers sent on every request (e.g. `Authorization`); their values never appear in errors. */
  headers?: Record<string, string>;
  /** Largest accepted JSON body or SSE event, in bytes (default 16 MiB, like stdio). */
  maxMessageBytes?: number;
  /** TCP/TLS connect timeout in ms (default 10 s). */
  connectTimeoutMs?: number;
  /** Time allowed for a notification or response POST to be answered (default 30 s). */
  notificationTimeoutMs?: number;
  /** Legacy era: open the optional GET stream for server-initiated messages (default true). */
  getStream?: boolean;
  /** Wait before resuming a dropped SSE stream when the server sent no `retry` (default 1000 ms). */
  defaultRetryMs?: number;
  /** Consecutive resumption attempts without progress before a stream is given up (default 5). */
  maxResumeAttempts?: number;
  /**
   * An undici dispatcher to share (an `Agent`, `Pool`, `ProxyAgent`…; Node). Without it and
   * without `fetch`, the transport owns a keep-alive undici `Agent` on Node and Deno, and uses the
   * global `fetch` elsewhere (browsers, Workers, Bun).
   */
  dispatcher?: HttpDispatcher;
  /**
   * The `fetch` to send every request with (a wrapper of your own, a polyfill, a test double):
   * the transport then runs on it on any runtime. Called as `fetch(url, init)` with a string URL.
   */
  fetch?: FetchFunction;
  /** Headers per request (OAuth), and one resend after a 401/403 when it says so; see {@link AuthorizeHook}. */
  authorize?: AuthorizeHook;
}

/** Options of {@link LegacySseTransport.connect}. */
export interface LegacySseOptions {
  name?: string;
  /** Headers sent on the GET and every POST; their values never appear in errors. */
  headers?: Record<string, string>;
  maxMessageBytes?: number;
  /** How long to wait for the stream and its `endpoint` event (default 10 s). */
  connectTimeoutMs?: number;
  /** Time allowed for each POST to be accepted (default 30 s). */
  postTimeoutMs?: number;
  /** Aborts the connect (the GET and the wait for `endpoint`); no effect once connected. */
  signal?: AbortSignal;
  /** An undici dispatcher to share (Node); see {@link StreamableHttpOptions.dispatcher}. */
  dispatcher?: HttpDispatcher;
  /** The `fetch` to send every request with; see {@link StreamableHttpOptions.fetch}. */
  fetch?: FetchFunction;
}

/** A stdio server's command line (`McpClient.connect`'s stdio target, `StdioTransport.spawn`'s spec). */
export const STDIO_SPEC_KEYS = optionKeys<StdioServerSpec>(
  'stdio server spec',
  { command: true, args: true, env: true, cwd: true, inheritEnv: true },
  { cmd: 'command', arguments: 'args', argv: 'args', dir: 'cwd' },
);

/** {@link StdioTransportOptions}. */
export const STDIO_TRANSPORT_KEYS = optionKeys<StdioTransportOptions>('StdioTransport options', {
  name: true,
  maxMessageBytes: true,
  stderrLines: true,
  onStderr: true,
  inheritEnv: true,
  signal: true,
  closeTimeouts: true,
});

/** {@link StreamableHttpOptions}. */
export const STREAMABLE_HTTP_KEYS = optionKeys<StreamableHttpOptions>('StreamableHttpTransport options', {
  name: true,
  headers: true,
  maxMessageBytes: true,
  connectTimeoutMs: true,
  notificationTimeoutMs: true,
  getStream: true,
  defaultRetryMs: true,
  maxResumeAttempts: true,
  dispatcher: true,
  fetch: true,
  authorize: true,
});

/** {@link LegacySseOptions}. */
export const LEGACY_SSE_KEYS = optionKeys<LegacySseOptions>('LegacySseTransport options', {
  name: true,
  headers: true,
  maxMessageBytes: true,
  connectTimeoutMs: true,
  postTimeoutMs: true,
  signal: true,
  dispatcher: true,
  fetch: true,
});
