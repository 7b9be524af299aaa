/**
 * `diagnoseServer`: every check of one configured server, in the order they depend on each
 * other, each bounded by `timeoutMs`; a check whose ground failed is skipped, naming it.
 *
 * stdio: `definition` (the entry is complete and typed), `command` (found, executable), `start`
 * (the process starts and answers `initialize` in time; its last stderr lines when it does not),
 * `revision`, `tools`, `schemas`.
 * URL: `definition`, `dns`, `tcp`, `tls` (https), `http` (which shape it speaks: 2026-07-28,
 * legacy Streamable HTTP or 2024-11-05 HTTP+SSE, found as the client finds it, and whether it
 * answered), `oauth` (discovery, when it asked for authorization), `login` (the stored login),
 * `revision`, `tools`, `schemas`.
 *
 * The server's configured secrets never appear in what it returns; the connect uses the stored
 * login only (no browser).
 */
import { McpClient } from '../../client/mcp-client.js';
import { HttpRouteCache } from '../../client/http-routes.js';
import type { ClientOptions } from '../../client/options.js';
import type { TokenStore } from '../../auth/token-store.js';
import { errorMessage, McpError } from '../../protocol/errors.js';
import type { Tool } from '../../protocol/types.js';
import { redactUrl, scrubSecrets } from '../../util/redact.js';
import { secretValues } from '../config/redact.js';
import { redactError } from '../error-redaction.js';
import { checkServerDefinition } from '../servers/check-definition.js';
import { clientOptionsFor, connectTarget } from '../servers/connect-target.js';
import type { ManagedServer } from '../servers/managed-server.js';
import { checkCommand } from './command-check.js';
import { worstVerdict, type CheckResult, type FailureKind, type ServerDiagnosis } from './doctor-types.js';
import { checkDns, checkTcp, checkTls } from './network-checks.js';
import { checkDiscovery, checkLogin, refusalOf } from './oauth-checks.js';
import { runCheck, skipped, type CheckOutcome } from './run-check.js';
import { checkToolSchemas } from './tool-checks.js';

/** Options of {@link diagnoseServer}. */
export interface DiagnoseOptions {
  /** Each check's bound (default 10000 ms); the connect gets it as its connect timeout. */
  timeoutMs?: number;
  /** Where logins are kept (the CLI's store). */
  store: TokenStore;
  /** The command that logs this server in, for the fixes (`mcpwire auth login NAME`). */
  loginCommand: string;
  /** The `PATH` a bare command is looked up in (default `process.env.PATH`). */
  envPath?: string;
  /** Resolves relative stdio commands (default the process's cwd). */
  cwd?: string;
  /** False: the server comes from a project file nobody approved; it is not started. */
  approved?: boolean;
  /** The client's name in `initialize`. */
  clientInfo?: ClientOptions['clientInfo'];
}

export const DEFAULT_CHECK_TIMEOUT_MS = 10_000;

const SHAPES = {
  modern: '2026-07-28 Streamable HTTP (stateless)',
  legacy: 'legacy Streamable HTTP (sessions)',
  sse: '2024-11-05 HTTP+SSE (the old transport)',
} as const;

/** What `spec` looks like, for a report: its command line or URL, with secrets as `***`. */
export function targetText(spec: ManagedServer): string {
  const text =
    spec.transport === 'stdio' ? [spec.command ?? '', ...(spec.args ?? [])].join(' ') : redactUrl(spec.url ?? '');
  return scrubSecrets(text, secretValues(spec));
}

function failKind(error: unknown): FailureKind {
  if (!(error instanceof McpError)) return 'unreachable';
  if (error.code === 'TIMEOUT') return 'timeout';
  if (error.code === 'AUTH_REQUIRED') return 'auth';
  if (error.code === 'CONFIG_INVALID') return 'config';
  return 'unreachable';
}

/** Diagnoses `spec`. Never rejects; everything it started is closed when it resolves. */
export async function diagnoseServer(spec: ManagedServer, options: DiagnoseOptions): Promise<ServerDiagnosis> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;
  const secrets = secretValues(spec);
  const checks: CheckResult[] = [];
  const check = async (id: string, body: (signal: AbortSignal) => Promise<CheckOutcome>) => {
    const result = await runCheck(id, timeoutMs, secrets, body);
    checks.push(result);
    return result;
  };
  const skipRest = (ids: string[], reason: string) => {
    for (const id of ids) checks.push(skipped(id, reason));
  };
  const report = (): ServerDiagnosis => ({
    server: spec.name,
    transport: spec.transport,
    target: targetText(spec),
    verdict: worstVerdict(checks),
    checks,
  });
  const later = spec.transport === 'stdio' ? ['command', 'start'] : ['dns', 'tcp', 'tls', 'http', 'oauth', 'login'];
  const last = ['revision', 'tools', 'schemas'];

  const definition = await check('definition', async () => {
    checkServerDefinition(spec, `server "${spec.name}"`);
    return {
      verdict: 'ok',
      detail: `a complete ${spec.transport} entry${spec.provenance?.file ? ` in ${spec.provenance.file}` : ''}`,
    };
  });
  if (definition.verdict === 'fail') {
    definition.kind = 'config';
    definition.fix = 'correct the entry (mcpwire config check shows every problem of the file)';
    skipRest([...later, ...last], 'the definition is broken');
    return report();
  }
  if (spec.enabled === false) {
    skipRest([...later, ...last], 'the server is disabled in its config ("enabled": false)');
    return report();
  }
  if (options.approved === false) {
    checks.push({
      id: 'approval',
      verdict: 'fail',
      kind: 'config',
      detail: `defined in ${spec.provenance?.file ?? 'a project file'} and not approved to start`,
      fix: 'approve it by running a command with --server NAME on a terminal (it asks once), or pass --trust-project',
      ms: 0,
    });
    skipRest([...later, ...last], 'the server is not approved');
    return report();
  }

  let connected: { client: McpClient; ms: number } | undefined;
  let connectError: unknown;
  const routes = new HttpRouteCache();
  const stderr: string[] = [];
  const connect = async (signal: AbortSignal) => {
    const started = performance.now();
    try {
      const target = connectTarget(spec, { store: options.store });
      // A configured `http` leaves the shape to detection, as a bare --url does: the doctor says which it is.
      const detect = spec.transport === 'http' && 'url' in target ? { ...target, transport: 'auto' as const } : target;
      const base: ClientOptions = {
        connectTimeoutMs: timeoutMs,
        signal,
        http: { routes },
        onStderr: (line) => {
          stderr.push(line);
          if (stderr.length > 3) stderr.shift();
        },
        ...(options.clientInfo ? { clientInfo: options.clientInfo } : {}),
      };
      const client = await McpClient.connect(detect, { ...clientOptionsFor(spec, base), connectTimeoutMs: timeoutMs });
      // Connected just as the check ran out of time: nobody will use it.
      if (signal.aborted) await client.close();
      else connected = { client, ms: Math.round(performance.now() - started) };
    } catch (error) {
      connectError = redactError(error, secrets);
    }
  };

  try {
    if (spec.transport === 'stdio') {
      const command = await check('command', () =>
        checkCommand(spec.command!, spec.cwd ?? options.cwd ?? process.cwd(), options.envPath ?? process.env.PATH),
      );
      if (command.verdict === 'fail') {
        skipRest(['start', ...last], 'the command is not found');
        return report();
      }
      const start = await check('start', async (signal) => {
        await connect(signal);
        if (connected) {
          const info = connected.client.serverInfo;
          return {
            verdict: 'ok',
            detail: `answered ${connected.client.era === 'modern' ? 'server/discover' : 'initialize'} in ${connected.ms} ms${info ? ` (${info.name} ${info.version})` : ''}`,
          };
        }
        const message = errorMessage(connectError);
        const unsaid = stderr.filter((line) => !message.includes(line));
        const said = unsaid.length ? `; its stderr: ${unsaid.join(' | ')}` : '';
        return {
          verdict: 'fail',
          kind: failKind(connectError),
          detail: `${message}${said}`,
          fix: `run the command yourself to see why: ${targetText(spec)}`,
        };
      });
      if (start.verdict === 'fail') {
        skipRest(last, 'the server did not start');
        return report();
      }
    } else {
      const url = new URL(spec.url!);
      let address: string | undefined;
      const dns = await check('dns', async () => {
        const result = await checkDns(url);
        address = result.address;
        const { address: _address, ...outcome } = result;
        return outcome;
      });
      if (dns.verdict === 'fail') {
        skipRest(['tcp', 'tls', 'http', 'oauth', 'login', ...last], 'the host does not resolve');
        return report();
      }
      const tcp = await check('tcp', (signal) => checkTcp(url, address!, signal));
      if (tcp.verdict === 'fail') {
        skipRest(['tls', 'http', 'oauth', 'login', ...last], 'no connection');
        return report();
      }
      if (url.protocol === 'https:') {
        const tls = await check('tls', (signal) => checkTls(url, address!, signal));
        if (tls.verdict === 'fail') {
          skipRest(['http', 'oauth', 'login', ...last], 'the TLS handshake failed');
          return report();
        }
      } else checks.push(skipped('tls', 'plain http (no TLS)'));
      await check('http', async (signal) => {
        await connect(signal);
        const route = routes.get(url.toString()) ?? (spec.transport === 'sse' ? 'sse' : connected?.client.era);
        if (connected) {
          const shape = route ? SHAPES[route] : 'Streamable HTTP';
          const mismatch = spec.transport === 'sse' && route !== 'sse';
          return {
            verdict: mismatch ? 'warn' : 'ok',
            detail: `speaks ${shape}; answered in ${connected.ms} ms`,
            ...(mismatch ? { fix: 'its entry says "sse": "http" would use the newer transport' } : {}),
          };
        }
        const refusal = refusalOf(connectError);
        if (refusal)
          return {
            verdict: 'warn',
            detail: `answered HTTP ${refusal.status}: it wants authorization before it says more`,
            fix: 'see the oauth and login checks',
          };
        return {
          verdict: 'fail',
          kind: failKind(connectError),
          detail: errorMessage(connectError),
          fix: "check that the URL is the server's MCP endpoint (often /mcp)",
        };
      });
      const refusal = refusalOf(connectError);
      const useOAuth = spec.oauth !== false && spec.headersHelper === undefined;
      if (refusal && useOAuth) await check('oauth', (signal) => checkDiscovery(url, spec.name, refusal, signal));
      else
        checks.push(
          skipped(
            'oauth',
            refusal
              ? 'OAuth is off for this server'
              : connected
                ? 'the server asked for no authorization'
                : 'the server did not answer',
          ),
        );
      if (useOAuth)
        await check('login', () =>
          checkLogin(url, options.store, options.loginCommand, refusal !== undefined, connected !== undefined),
        );
      else
        checks.push(
          skipped('login', spec.headersHelper ? 'authorized by its headersHelper' : 'OAuth is off ("oauth": false)'),
        );
      if (!connected) {
        if (refusal && !checks.some((c) => c.verdict === 'fail'))
          checks.push({
            id: 'connect',
            verdict: 'fail',
            kind: 'auth',
            detail: errorMessage(connectError),
            fix: `run: ${options.loginCommand}`,
            ms: 0,
          });
        skipRest(last, 'the server did not answer the handshake');
        return report();
      }
    }

    const client = connected!.client;
    await check('revision', async () => ({
      verdict: 'ok',
      detail: `${client.protocolVersion} (${client.era === 'modern' ? 'modern, stateless' : 'legacy, initialize'})`,
    }));
    let tools: Tool[] | undefined;
    const listed = await check('tools', async (signal) => {
      if (!client.capabilities.tools) return { verdict: 'ok', detail: 'the server offers no tools' };
      tools = await client.listTools({ signal, timeoutMs });
      return { verdict: 'ok', detail: `${tools.length} tool(s) listed` };
    });
    if (listed.verdict === 'fail') {
      listed.kind = 'tool';
      listed.fix ??= 'the server fails tools/list: see its logs';
    }
    if (tools) {
      const all = tools;
      await check('schemas', async () => checkToolSchemas(all));
    } else checks.push(skipped('schemas', listed.verdict === 'fail' ? 'the tools did not list' : 'no tools'));
    return report();
  } finally {
    await connected?.client.close().catch(() => {});
  }
}
