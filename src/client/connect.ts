/**
 * The connect of `McpClient`: from a target (a ready transport, the command line of a stdio
 * server, a URL) to a negotiated client. It checks the options, starts the server (stdio, loaded
 * on demand through the launcher Node registers: `stdio-launcher.ts`) or hands a URL to
 * `connect-http.ts`, wraps the transport for tracing, builds the client over it, negotiates era
 * and revision (`negotiate.ts`, which may restart a server the probe killed), and runs what
 * follows the handshake (`logging/setLevel`, the listen stream).
 *
 * Contract: one deadline (`connectTimeoutMs`, from the call on) bounds every step and runs out
 * with one `TIMEOUT` naming the step; `signal` rejects every step with `CANCELLED`. On any
 * rejection nothing is left running: the client is closed, and after an abort or once the time
 * is up a server this connect started is destroyed with its tree rather than closed politely.
 * Where no stdio launcher is registered (no Node, Deno or Bun: a browser, a Worker), a command
 * line rejects with `UNSUPPORTED` naming the server, before anything is loaded or started.
 */
import { errorMessage, isMcpError, McpError } from '../protocol/errors.js';
import { checkOptions } from '../protocol/option-keys.js';
import type { Era } from '../protocol/revisions.js';
import type { Transport } from '../protocol/transport.js';
import type { Implementation } from '../protocol/types.js';
import { VERSION } from '../util/version.js';
import { commandDisplayName } from '../transport/command-name.js';
import { STDIO_SPEC_KEYS } from '../transport/transport-options.js';
import type { StdioServerSpec } from '../transport/stdio-server-spec.js';
import type { StdioTransport } from '../transport/stdio/stdio.js';
import type { ClientSession, Held, SessionSetup } from './client-session.js';
import { ConnectDeadline } from './connect-deadline.js';
import { connectHttp, isHttpSpec, type HttpServerSpec } from './connect-http.js';
import { DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_PROBE_TIMEOUT_MS, negotiate } from './negotiate.js';
import { checkClientOptions, type ClientOptions } from './options.js';
import type { ServerInputHandlers } from './server-input.js';
import { stdioLauncher, type StdioLauncher } from './stdio-launcher.js';
import type { ConnectTracer } from './trace-hook.js';

/** What `connect` accepts: a ready transport, the command line of a stdio server, or a URL. */
export type ConnectTarget = Transport | StdioServerSpec | HttpServerSpec;

/** What a connected client shows the URL connect (which keeps the route that worked, by era). */
type Connected = { readonly era: Era };

/** Builds the client over a held transport, with the session it runs on. */
export type ClientFactory<C extends Connected> = (
  held: Held,
  setup: Omit<SessionSetup, 'listsChanged'>,
) => { client: C; session: ClientSession };

/** What the connect settled before the client is built. */
interface OpenSetup {
  /** Starts the stdio server (again, after a probe killed it); undefined for a transport or URL. */
  start: (() => Promise<Held>) | undefined;
  deadline: ConnectDeadline;
  clientInfo: Implementation;
  handlers: ServerInputHandlers;
  /** The stderr listener slot the spawned server reports to; filled once the client exists. */
  stderr: Array<(line: string) => void>;
  /** The stdio transport this connect started last, so an abort can kill it rather than wait for a polite close. */
  started: () => StdioTransport | undefined;
}

function isTransport(target: ConnectTarget): target is Transport {
  return typeof (target as Transport).send === 'function';
}

/** Starts a stdio server under tracing: its transport wrapped, a failed start recorded. */
async function spawnTraced(
  spawn: () => Promise<StdioTransport>,
  spec: StdioServerSpec,
  tracer: ConnectTracer,
): Promise<Held> {
  const spawned = { command: spec.command, args: spec.args ?? [] };
  let transport: StdioTransport;
  try {
    transport = await spawn();
  } catch (error) {
    tracer.event('spawn-failed', { ...spawned, error: errorMessage(error) });
    throw error;
  }
  return { concrete: transport, pipe: tracer.wrap(transport, spawned) };
}

/** Connects to `target` (see the file comment); `build` makes the client. */
export async function connectTarget<C extends Connected>(
  target: ConnectTarget,
  options: ClientOptions,
  build: ClientFactory<C>,
): Promise<C> {
  checkClientOptions(options);
  if (isHttpSpec(target))
    return connectHttp(target, options, (transport, pipe, routeOptions) =>
      connectOver(transport, pipe, routeOptions, build),
    );
  // The spec is checked before its fields are read for the display name (a `{ cmd }` typo has no command).
  if (!isTransport(target)) checkOptions(target, STDIO_SPEC_KEYS);
  const name = options.name ?? (isTransport(target) ? 'server' : commandDisplayName(target.command, target.args));
  const launch = isTransport(target) ? undefined : stdioLauncherFor(name);
  const { signal } = options;
  // Nothing to start: a given transport is closed by the failed handshake below, as on any failure.
  if (signal?.aborted && !isTransport(target))
    throw new McpError('CANCELLED', 'connect was cancelled by the caller', { server: name, cause: signal.reason });
  // The clock starts here, before anything is loaded or started (see the file comment).
  const deadline = new ConnectDeadline(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  const clientInfo = options.clientInfo ?? { name: 'mcpwire', version: VERSION };
  const handlers = options.handlers ?? {};
  const stderr: Array<(line: string) => void> = [];
  let started: StdioTransport | undefined;
  // `launch` is set for a command line only.
  const spawn = !launch
    ? undefined
    : async () => {
        // Loaded on demand: a caller with its own transport never pays for child_process.
        const { StdioTransport } = await launch();
        deadline.check(name, 'before the server was started');
        const transport = await StdioTransport.spawn(target as StdioServerSpec, {
          name,
          onStderr: (line: string) => stderr[0]?.(line),
          ...(signal ? { signal } : {}),
          ...(options.stdio?.inheritEnv !== undefined ? { inheritEnv: options.stdio.inheritEnv } : {}),
          ...(options.stdio?.maxMessageBytes !== undefined ? { maxMessageBytes: options.stdio.maxMessageBytes } : {}),
          ...(options.stdio?.stderrLines !== undefined ? { stderrLines: options.stdio.stderrLines } : {}),
        });
        if (deadline.left() <= 0) {
          // The start itself overran the whole budget: nothing of this server may stay behind.
          transport.destroy();
          await transport.closed;
          throw deadline.ranOut(name, 'while the server was being started');
        }
        started = transport;
        return transport;
      };
  const tracer = options.trace ? (await import('./trace-hook.js')).connectTracer(options.trace, name) : undefined;
  const start: (() => Promise<Held>) | undefined = !spawn
    ? undefined
    : tracer
      ? () => spawnTraced(spawn, target as StdioServerSpec, tracer)
      : async () => {
          const transport = await spawn();
          return { concrete: transport, pipe: transport };
        };
  const given = target as Transport;
  const held = start ? await start() : { concrete: given, pipe: tracer ? tracer.wrap(given) : given };
  return open(
    held,
    { ...options, name },
    { start, deadline, clientInfo, handlers, stderr, started: () => started },
    build,
  );
}

/** The registered stdio launcher, or the `UNSUPPORTED` error naming `server` where there is none. */
function stdioLauncherFor(server: string): StdioLauncher {
  const launch = stdioLauncher();
  if (!launch)
    throw new McpError(
      'UNSUPPORTED',
      'stdio servers need Node, Deno or Bun to start their process; on this runtime connect to a URL or pass a Transport',
      { server },
    );
  return launch;
}

/**
 * Connects over a transport already held (the connect of a URL comes here for each route it
 * tries, with the transport it built and, when tracing, the decorator around it).
 */
function connectOver<C extends Connected>(
  concrete: Transport,
  pipe: Transport,
  options: ClientOptions,
  build: ClientFactory<C>,
): Promise<C> {
  const deadline = new ConnectDeadline(options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS);
  const clientInfo = options.clientInfo ?? { name: 'mcpwire', version: VERSION };
  const name = options.name ?? 'server';
  return open(
    { concrete, pipe },
    { ...options, name },
    { start: undefined, deadline, clientInfo, handlers: options.handlers ?? {}, stderr: [], started: () => undefined },
    build,
  );
}

/**
 * Builds the client over `held`, negotiates, and runs what follows the handshake; on failure leaves nothing running.
 */
async function open<C extends Connected>(
  held: Held,
  options: ClientOptions & { name: string },
  setup: OpenSetup,
  build: ClientFactory<C>,
): Promise<C> {
  const { start, deadline, clientInfo, handlers } = setup;
  const { signal } = options;
  const { client, session } = build(held, { options, handlers, clientInfo });
  setup.stderr.push((line) => {
    options.onStderr?.(line);
    session.events.emit('stderr', line);
  });
  try {
    const { negotiated, link } = await negotiate(
      { connection: session.connection, transport: held.concrete },
      {
        era: options.era ?? 'auto',
        protocolVersion: options.protocolVersion,
        eraHint: options.eraHint,
        clientInfo,
        capabilities: session.declared,
        probeTimeoutMs: options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
        deadline,
        signal: options.signal,
        restart: start
          ? async () => {
              await session.connection.close();
              return session.wire(await start());
            }
          : undefined,
        onSession: (learned, connection) => session.sessionLearned(learned, connection),
      },
    );
    session.adopt(link, negotiated);
    await session.afterHandshake(signal, deadline);
  } catch (error) {
    // The caller wants out now, or the connect's time is up: the polite close could spend its
    // whole budget (4 s) on a server that ignores stdin EOF and SIGTERM — and a server that
    // hangs is often the reason for the abort or the timeout. A TIMEOUT counts even when the
    // clock still shows a fraction of a millisecond left: Node's timers run on a millisecond
    // loop clock and can fire just before `performance.now()` reaches the deadline.
    if (signal?.aborted || deadline.left() <= 0 || isMcpError(error, 'TIMEOUT')) setup.started()?.destroy();
    await session.close();
    throw error;
  }
  return client;
}
