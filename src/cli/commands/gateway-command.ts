/**
 * `mcpwire gateway (--http HOST:PORT | --stdio)`: the configured servers (the user's, the
 * project's, `--config` files) served as one MCP endpoint by `createGateway`. Over HTTP it prints
 * `listening on http://HOST:PORT/mcp` once it serves; over stdio its stdout is the wire and it
 * writes only to stderr. The config files are watched: a server added, removed or changed
 * reaches downstream clients as `list_changed`. SIGINT / SIGTERM / SIGHUP close the listener,
 * the downstream sessions and every upstream (whole process trees) before the exit; so does the
 * end of stdin over stdio.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createGateway,
  gatewayHttp,
  keepSubjectTokens,
  type Gateway,
  type GatewayCardOptions,
  type GatewayHttp,
} from '../../gateway/index.js';
import { jwtBearer, StdioServerTransport, type HttpHandlerOptions, type ServerLogger } from '../../server/index.js';
import { gatewayFileOptions, type GatewayAuthConfig } from '../gateway-config.js';
import { openGatewayState, type OpenedGatewayState } from '../gateway-state.js';
import { flag, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { configOptions } from '../config-options.js';
import { withInterrupts, type Interrupt } from '../interrupt.js';
import type { CliIO } from '../io.js';
import { loginStore } from '../login.js';
import type { Outcome } from '../outcome.js';
import { cliClientOptions } from '../session.js';
import { openTrace } from '../trace-output.js';

export async function gatewayCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const sub = args.words[1];
  if (sub === 'approve') return (await import('./gateway-pins-commands.js')).gatewayApproveCommand(args, io);
  if (sub === 'pins') return (await import('./gateway-pins-commands.js')).gatewayPinsCommand(args, io);
  if (sub !== undefined) throw new UsageError(`unknown gateway command "${sub}"; try mcpwire gateway --help`);
  const address = stringOption(args, 'http');
  const stdio = flag(args, 'stdio');
  if ((address === undefined) === !stdio)
    throw new UsageError('mcpwire gateway needs one of --http HOST:PORT or --stdio');
  const listen = address === undefined ? undefined : hostPort(address);
  if (io.stdout !== process.stdout)
    throw new UsageError('mcpwire gateway runs until it is stopped, which a CLI run in-process cannot do');
  return withInterrupts(io, async (interrupt) => {
    const trace = await openTrace(args, io);
    const { handlers: _asksThePerson, ...client } = cliClientOptions(args, io, trace);
    const config = configOptions(args, io);
    const section = gatewayFileOptions(config.configPaths ?? []);
    const { auth, card, state: stateConfig, ...fromFile } = section.options;
    const logger: ServerLogger = (record) => io.stderr.write(`${JSON.stringify(record)}\n`);
    let shared: OpenedGatewayState | undefined;
    let gateway: Gateway;
    try {
      shared = stateConfig && (await openGatewayState(stateConfig, section.file!, process.env, logger));
      gateway = createGateway({
        ...fromFile,
        // The card's name is the server's too, so a client comparing them finds one server.
        ...(card ? { name: card.name } : {}),
        ...(shared ? { state: shared.state } : {}),
        manager: { config, client, requireApproval: true, tokenStore: loginStore(args, io) },
        logger,
      });
    } catch (error) {
      await shared?.close();
      await trace?.close();
      throw error;
    }
    let stopServing: () => Promise<void> = async () => {};
    const stop = async () => {
      await stopServing();
      await gateway.close();
      await shared?.close();
      await trace?.close();
    };
    interrupt.onInterrupt(stop);
    try {
      await gateway.ready;
      gateway.manager.watchConfig(gateway.manager.configFiles());
      note(io, gateway);
      let ended: Promise<unknown> | undefined;
      if (listen)
        stopServing = await serveHttp(gateway, listen, io, {
          auth,
          card,
          exchanges: fromFile.tokenExchange !== undefined,
        });
      else {
        const session = gateway.server.connect(new StdioServerTransport());
        stopServing = () => session.close();
        // The client ended its input (and the calls in flight finished): the gateway's end.
        ended = session.closed;
      }
      await stopped(interrupt, ended);
      await stop();
      return { json: { stopped: true }, text: '' };
    } catch (error) {
      await stop();
      throw error;
    }
  });
}

/** `HOST:PORT` (IPv6 in brackets); a usage error for anything else. */
function hostPort(text: string): { host: string; port: number } {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:\s]+):(\d{1,5})$/.exec(text);
  const port = match ? Number(match[2]) : NaN;
  if (!match || port > 65_535) throw new UsageError(`--http takes HOST:PORT (e.g. 127.0.0.1:8080), got "${text}"`);
  return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
}

/**
 * Listens; resolves once it serves (having printed the address) with the way to stop. The root
 * is `/mcp`, each virtual server `/mcp/NAME`; with `auth`, every one checks JWT bearer tokens
 * (kept for the token exchange when `exchanges`).
 */
async function serveHttp(
  gateway: Gateway,
  at: { host: string; port: number },
  io: CliIO,
  { auth, card, exchanges }: { auth?: GatewayAuthConfig; card?: GatewayCardOptions; exchanges: boolean },
): Promise<() => Promise<void>> {
  let routes: GatewayHttp | undefined;
  const listener = http.createServer((req, res) => {
    if (routes) routes.handle(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(at.port, at.host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const { address, port } = listener.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  const url = `http://${host}:${port}/mcp`;
  const options = (path: string): Omit<HttpHandlerOptions, 'path'> => {
    if (!auth) return {};
    const suffix = path.slice('/mcp'.length); // '' for the root, '/NAME' for a virtual server
    const resource = auth.resource ? `${auth.resource.replace(/\/$/, '')}${suffix}` : `${url}${suffix}`;
    const verifier = jwtBearer({
      issuer: auth.issuer,
      jwksUrl: auth.jwksUrl ?? `${auth.issuer.replace(/\/$/, '')}/jwks`,
      audience: auth.audience ?? resource,
      ...(auth.scopes ? { requiredScopes: auth.scopes } : {}),
    });
    return {
      auth: {
        resource,
        authorizationServers: [auth.issuer],
        verifyToken: exchanges ? keepSubjectTokens(verifier) : verifier,
      },
    };
  };
  routes = gatewayHttp(gateway, { root: '/mcp', ...(card ? { card } : {}), options });
  io.stdout.write(`listening on ${url}\n`);
  for (const name of gateway.virtualServers.keys()) io.stdout.write(`virtual server ${name} on ${url}/${name}\n`);
  return async () => {
    await routes?.close();
    listener.closeAllConnections();
    await new Promise((resolve) => listener.close(resolve));
  };
}

/** Waits for the interrupt (its handler closes everything and exits), or `end`. */
function stopped(interrupt: Interrupt, end: Promise<unknown> | undefined): Promise<unknown> {
  const interrupted = new Promise<never>((_resolve, reject) =>
    interrupt.signal.addEventListener('abort', () => reject(interrupt.signal.reason as Error), { once: true }),
  );
  return end ? Promise.race([end, interrupted]) : interrupted;
}

/** One stderr line per upstream that does not serve, so that the log says what is missing. */
function note(io: CliIO, gateway: Gateway): void {
  for (const line of gateway.status().servers)
    if (!line.serving)
      io.stderr.write(`mcpwire gateway: ${line.name} is ${line.status}${line.error ? `: ${line.error}` : ''}\n`);
}
