/**
 * The accepted keys of the transports' public options objects (see `protocol/option-keys.ts`):
 * kept here, beside no transport in particular, so checking them loads neither `child_process`
 * nor undici. The compiler checks each list against its interface.
 */
import { optionKeys } from '../protocol/option-keys.js';
import type { LegacySseOptions } from './http/legacy-sse.js';
import type { StreamableHttpOptions } from './http/streamable-http.js';
import type { StdioServerSpec } from './stdio/stdio-spawn.js';
import type { StdioTransportOptions } from './stdio/stdio.js';

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
});
