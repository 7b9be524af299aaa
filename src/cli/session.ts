/**
 * Connects the command's target with the options the command line gave: era and revision pins,
 * the timeout, roots, an elicitation handler (interactive on a terminal), traffic tracing.
 * Closing the session closes the client and flushes the trace.
 */
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { HttpRouteCache } from '../client/http-routes.js';
import { McpClient } from '../client/mcp-client.js';
import type { ClientOptions } from '../client/options.js';
import { isMcpError } from '../protocol/errors.js';
import { isSupportedRevision, SUPPORTED_REVISIONS } from '../protocol/revisions.js';
import { VERSION } from '../util/version.js';
import { secretValues } from '../manager/config/redact.js';
import { redactError } from '../manager/error-redaction.js';
import type { LoginHooks } from '../manager/servers/server-oauth.js';
import { clientOptionsFor, connectTarget } from '../manager/servers/connect-target.js';
import { flag, listOption, numberOption, stringOption, UsageError, type ParsedArgs } from './argv.js';
import { promptElicitation } from './elicit-prompt.js';
import type { CliIO } from './io.js';
import { cliLoginHooks, storedAuthOnly, withLoginHint } from './login.js';
import { resolveTarget, type ResolvedTarget } from './target.js';
import { openTrace, type TraceOutput } from './trace-output.js';

export interface Session {
  client: McpClient;
  target: ResolvedTarget;
  /** The command line's trace outputs, when it asked for any (closed with the session). */
  trace?: TraceOutput;
  close(): Promise<void>;
}

/** The client options of this command line (shared by one-shot commands, the repl and servers). */
export function cliClientOptions(args: ParsedArgs, io: CliIO, trace?: TraceOutput): ClientOptions {
  const era = stringOption(args, 'era');
  if (era !== undefined && !['legacy', 'modern', 'auto'].includes(era))
    throw new UsageError(`--era must be legacy, modern or auto, got "${era}"`);
  const version = stringOption(args, 'protocol-version');
  if (version !== undefined && !isSupportedRevision(version))
    throw new UsageError(
      `--protocol-version "${version}" is not a revision mcpwire speaks (${SUPPORTED_REVISIONS.join(', ')})`,
    );
  const timeout = numberOption(args, 'timeout');
  const roots = listOption(args, 'root').map((dir) => ({
    uri: pathToFileURL(path.resolve(io.cwd, dir)).href,
    name: path.basename(path.resolve(io.cwd, dir)),
  }));
  const options: ClientOptions = {
    clientInfo: { name: 'mcpwire-cli', version: VERSION },
    ...(era ? { era: era as ClientOptions['era'] } : {}),
    ...(version ? { protocolVersion: version } : {}),
    ...(timeout !== undefined ? { requestTimeoutMs: timeout, connectTimeoutMs: timeout } : {}),
    handlers: {
      // Declared always: a server that asks gets a real answer (a person on a terminal, or a decline).
      elicitation: (params) =>
        io.interactive && !flag(args, 'json') ? promptElicitation(params, io.stdin, io.stderr) : { action: 'decline' },
      ...(roots.length ? { roots: () => roots } : {}),
    },
    elicitationModes: ['form', 'url'],
  };
  if (trace) Object.assign(options, trace.clientOptions);
  return options;
}

/** What a caller may settle before {@link openSession}: the target, the OAuth login hooks. */
export interface SessionOptions {
  /** The target, already resolved (default: from `args`). */
  target?: ResolvedTarget;
  /** The login hooks (default: the CLI's store, and on a terminal the offer to log in). */
  hooks?: LoginHooks;
  /** Extensions the client declares (`mcpwire app` declares MCP Apps). */
  extensions?: ClientOptions['extensions'];
}

/**
 * Connects the target of `args`; `signal` aborts the connect. On failure nothing is left running,
 * the trace is flushed and the error holds none of the target's secrets; a server that needs a
 * login fails with exit 3 naming `mcpwire auth login`. `close()` is idempotent.
 */
export async function openSession(
  args: ParsedArgs,
  io: CliIO,
  signal?: AbortSignal,
  given: SessionOptions = {},
): Promise<Session> {
  const target = given.target ?? (await resolveTarget(args, io));
  const trace = await openTrace(args, io);
  try {
    const options = clientOptionsFor(target.spec, cliClientOptions(args, io, trace));
    if (signal) options.signal = signal;
    if (given.extensions) options.extensions = { ...options.extensions, ...given.extensions };
    if (flag(args, 'trace')) options.onStderr = (line) => io.stderr.write(`[${target.spec.name} stderr] ${line}\n`);
    const configured = connectTarget(target.spec, given.hooks ?? sessionLoginHooks(args, io, target));
    // A bare --url leaves the shape to the client's probe (2026, Streamable HTTP, then HTTP+SSE).
    const connectTo = target.autoTransport && 'url' in configured ? withoutTransport(configured) : configured;
    const client = await connectRemembering(target, connectTo, options, io);
    let closing: Promise<void> | undefined;
    return {
      client,
      target,
      ...(trace ? { trace } : {}),
      close: () =>
        (closing ??= (async () => {
          await client.close();
          await trace?.close();
        })()),
    };
  } catch (error) {
    await trace?.close();
    // A server may echo a -e / --header / config secret in its refusal: never print it.
    throw withLoginHint(redactError(error, secretValues(target.spec)), target.spec, target.byUrl);
  }
}

/**
 * A command's login hooks: the CLI's store always; on a terminal (and without `--json` or
 * `--stored-auth-only`) the offer to log in when the server needs it, then the browser. Elsewhere
 * no browser or receiver is started: a server without a stored login fails with `AUTH_REQUIRED`
 * naming `mcpwire auth login`.
 */
function sessionLoginHooks(args: ParsedArgs, io: CliIO, target: ResolvedTarget): LoginHooks {
  // A server authorized by its headersHelper (or with oauth: false) is never offered a login.
  const mayLogIn = target.spec.headersHelper === undefined && target.spec.oauth !== false;
  return cliLoginHooks(
    args,
    io,
    mayLogIn && io.interactive && !flag(args, 'json') && !storedAuthOnly(args)
      ? { offer: { spec: target.spec, byUrl: target.byUrl } }
      : false,
  );
}

/**
 * `McpClient.connect`, with the era this definition was last found to speak as the hint (see
 * `era-cache.ts`) when the command line pins none, and the verdict kept for next time.
 */
async function connectRemembering(
  target: ResolvedTarget,
  connectTo: Parameters<typeof McpClient.connect>[0],
  options: ClientOptions,
  io: CliIO,
): Promise<McpClient> {
  const pinned = (options.era !== undefined && options.era !== 'auto') || options.protocolVersion !== undefined;
  if (pinned) return McpClient.connect(connectTo, options);
  const { eraCacheKey, rememberEra, rememberedEra } = await import('./era-cache.js');
  const url = 'url' in connectTo ? new URL(String(connectTo.url)).toString() : undefined;
  const key = eraCacheKey(target.spec, url !== undefined && target.autoTransport);
  const remembered = await rememberedEra(io.env, key);
  // A URL's shape goes through a route cache of this run's own, so what detection found can be read back.
  const routes = url !== undefined ? new HttpRouteCache() : undefined;
  if (routes && remembered?.route) routes.set(url!, remembered.route);
  let client: McpClient;
  try {
    client = await McpClient.connect(connectTo, {
      ...options,
      ...(remembered ? { eraHint: remembered.era } : {}),
      ...(routes ? { http: { ...options.http, routes } } : {}),
    });
  } catch (error) {
    // A login or a cancel says nothing of the era; any other failure may be the verdict's.
    if (remembered && !isMcpError(error, 'AUTH_REQUIRED') && !isMcpError(error, 'CANCELLED'))
      await rememberEra(io.env, key, undefined);
    throw error;
  }
  const route = url !== undefined ? routes?.get(url) : undefined;
  await rememberEra(io.env, key, { era: client.era, ...(route ? { route } : {}) });
  return client;
}

function withoutTransport<T extends { transport?: unknown }>(target: T): Omit<T, 'transport'> {
  const { transport: _probed, ...rest } = target;
  return rest;
}
