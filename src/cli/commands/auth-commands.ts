/**
 * `auth login`, `auth status`, `auth logout`: the OAuth logins of URL servers, kept in the
 * CLI's store (`~/.mcpwire/oauth`, or `--store DIR`). Nothing here prints a token, a refresh
 * token or a client secret: status shows whether a login exists, when it expires, its scopes and
 * the authorization server that issued it.
 */
import type { StoredLogin } from '../../auth/token-store.js';
import { serverKey } from '../../auth/token-store.js';
import type { ManagedServer } from '../../manager/servers/managed-server.js';
import { redactUrl } from '../../util/redact.js';
import { flag, headerPairs, listOption, numberOption, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { withConfigErrors } from '../config-errors.js';
import { CliError, EXIT, LoginRequiredError } from '../exit-codes.js';
import type { Interrupt } from '../interrupt.js';
import type { CliIO } from '../io.js';
import { DEFAULT_LOGIN_TIMEOUT_MS } from '../../auth/authorization-code.js';
import type { LoginHooks } from '../../manager/servers/server-oauth.js';
import {
  browserLoginHook,
  freshLoginView,
  loginDir,
  loginStore,
  noBrowserLoginHook,
  storedAuthOnly,
} from '../login.js';
import type { Outcome } from '../outcome.js';
import { openSession } from '../session.js';
import { table } from '../table.js';
import { configLoader, findServer, resolveTarget } from '../target.js';

/** `auth SUB …`; `interrupt` (a signal) abandons a login in progress. */
export async function authCommand(args: ParsedArgs, io: CliIO, interrupt?: Interrupt): Promise<Outcome> {
  const sub = args.words[1];
  switch (sub) {
    case 'login':
      return login(args, io, interrupt);
    case 'status':
      return status(args, io);
    case 'logout':
      return logout(args, io);
    default:
      throw new UsageError(
        sub === undefined
          ? 'auth needs a sub-command: login, status or logout'
          : `unknown auth sub-command "${sub}" (login, status, logout)`,
      );
  }
}

/** What a login is reported as (`--json` and the table): never a token. */
interface LoginStatus {
  server: string;
  url: string;
  /** false: `oauth: false` in the config (the server is never logged in to). */
  oauth: boolean;
  state: 'logged-in' | 'expired' | 'not-logged-in' | 'off';
  /** An expired login renews itself without a browser. */
  refreshable: boolean;
  expiresAt: string | null;
  scopes: string[];
  authorizationServer: string | null;
}

/**
 * Logs in to one server in the browser, even when a login is already stored (the user asked:
 * another account, more scopes), then connects once with it to show it works. `--no-browser`
 * hands the URL over instead (`--json`: one line before the wait); `--callback-port` fixes the
 * receiver's port; `--timeout` bounds the wait for the callback (default 300 s); a signal ends it
 * and closes the receiver.
 */
async function login(args: ParsedArgs, io: CliIO, interrupt?: Interrupt): Promise<Outcome> {
  if (storedAuthOnly(args))
    throw new UsageError('auth login starts a login, which --stored-auth-only forbids: leave one of them out');
  const { name } = operand(args, 'login');
  const loginTimeoutMs = numberOption(args, 'timeout') ?? DEFAULT_LOGIN_TIMEOUT_MS;
  const callbackPort = numberOption(args, 'callback-port');
  if (callbackPort !== undefined && (!Number.isInteger(callbackPort) || callbackPort < 1 || callbackPort > 65535))
    throw new UsageError(`--callback-port needs a port number from 1 to 65535, got ${callbackPort}`);
  // Resolved as a connect would (approval of a project server included).
  const target = await resolveTarget(
    name !== undefined ? { ...args, options: { ...args.options, server: name } } : args,
    io,
  );
  refuseWithoutOAuth(target.spec);
  const store = loginStore(args, io);
  const view = freshLoginView(store);
  const hooks: LoginHooks = {
    store: view,
    onAuthorizationUrl: flag(args, 'no-browser') ? noBrowserLoginHook(io, flag(args, 'json')) : browserLoginHook(io),
    loginTimeoutMs,
    ...(callbackPort !== undefined ? { callbackPort } : {}),
  };
  let session;
  try {
    // --timeout is the login's wait here; the connects around it keep their own bounds.
    const { timeout: _wait, ...options } = args.options;
    session = await openSession({ ...args, options }, io, interrupt?.signal, { target, hooks });
  } catch (error) {
    // The login command itself failed: its own advice ("run: mcpwire auth login") would be circular.
    throw error instanceof LoginRequiredError ? error.cause : error;
  }
  interrupt?.onInterrupt(() => session.close());
  await session.close();
  const shown = statusOf(target.spec, await store.get(serverKey(new URL(target.spec.url!))));
  if (!view.loggedIn()) {
    // It answered without asking: nothing to log in to (a stored login, if any, is left as it was).
    return {
      json: { ...shown, loggedIn: false },
      text: `Server "${shown.server}" (${shown.url}) did not ask for a login: nothing was stored.`,
    };
  }
  const text = [
    `Logged in to server "${shown.server}" (${shown.url}).`,
    ...describe(shown),
    `Kept in ${loginDir(args, io)}.`,
  ].join('\n');
  return { json: { ...shown, loggedIn: true }, text };
}

/**
 * The login state of every URL server in the config (or the one named, or `--url`), read from the store: no network.
 */
async function status(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const name = args.words[2];
  const url = stringOption(args, 'url');
  if (args.words.length > 3 || (name !== undefined && url !== undefined))
    throw new UsageError('auth status takes one server: NAME or --url URL (or none: every URL server)');
  const store = loginStore(args, io);
  let servers: ManagedServer[];
  let errors: string[] = [];
  if (url !== undefined) servers = [urlServer(args, url)];
  else {
    const loaded = await configLoader(args, io).load();
    errors = loaded.errors.map((e) => e.message);
    servers =
      name !== undefined ? [await findServer(name, args, io)] : loaded.servers.filter((s) => s.transport !== 'stdio');
    if (name !== undefined && servers[0]!.transport === 'stdio') throw notOAuth(servers[0]!);
  }
  const rows: LoginStatus[] = [];
  for (const server of servers)
    rows.push(statusOf(server, server.oauth === false ? undefined : await store.get(serverKey(new URL(server.url!)))));
  const text = rows.length
    ? table(
        ['SERVER', 'LOGIN', 'EXPIRES', 'SCOPES', 'AUTHORIZATION SERVER'],
        rows.map((r) => [r.server, stateText(r), r.expiresAt ?? '', r.scopes.join(' '), r.authorizationServer ?? '']),
        io.columns,
      )
    : 'no URL servers configured';
  return withConfigErrors({ json: { store: loginDir(args, io), servers: rows }, text }, errors);
}

/** Forgets one server's stored login (tokens, registration, discovery); says whether there was one. */
async function logout(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const { name, url } = operand(args, 'logout');
  let server: ManagedServer;
  if (url !== undefined) server = urlServer(args, url);
  else server = await findServer(name!, args, io);
  refuseWithoutOAuth(server, false);
  const store = loginStore(args, io);
  const key = serverKey(new URL(server.url!));
  const had = (await store.get(key)) !== undefined;
  await store.delete(key);
  const dir = loginDir(args, io);
  const text = had
    ? `Logged out of server "${server.name}": its stored login is removed from ${dir}.`
    : `Server "${server.name}" had no stored login in ${dir}: nothing to remove.`;
  return { json: { server: server.name, url: redactUrl(server.url!), removed: had, store: dir }, text };
}

/** NAME or `--url URL` (exactly one) of login and logout. */
function operand(args: ParsedArgs, sub: string): { name?: string; url?: string } {
  const name = args.words[2];
  const url = stringOption(args, 'url');
  if (args.words.length > 3) throw new UsageError(`auth ${sub} takes one server: NAME or --url URL`);
  if ((name === undefined) === (url === undefined))
    throw new UsageError(`auth ${sub} needs one server: NAME (from your config) or --url URL`);
  if (name !== undefined && stringOption(args, 'server') !== undefined)
    throw new UsageError(`auth ${sub} takes the server as NAME, not --server`);
  return { ...(name !== undefined ? { name } : {}), ...(url !== undefined ? { url } : {}) };
}

/** A server named by `--url` (its name is its host, as for every other command). */
function urlServer(args: ParsedArgs, url: string): ManagedServer {
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    throw new UsageError(`--url is not a URL: "${url}"`);
  }
  if (!/^https?:$/.test(new URL(url).protocol))
    throw new UsageError(`--url must be an http(s) URL: "${redactUrl(url)}"`);
  const headers = headerPairs(listOption(args, 'header'));
  return {
    name: host,
    transport: 'http',
    url,
    ...(Object.keys(headers).length ? { headers, secrets: Object.values(headers) } : {}),
  };
}

function notOAuth(spec: ManagedServer): CliError {
  return new CliError('NO_OAUTH', `server "${spec.name}" is a stdio server: it has no OAuth login`, EXIT.usage);
}

/** Throws for a stdio server, and (for a login) for one whose config says `oauth: false`. */
function refuseWithoutOAuth(spec: ManagedServer, forLogin = true): void {
  if (spec.transport === 'stdio') throw notOAuth(spec);
  if (forLogin && spec.oauth === false) {
    const where = spec.provenance ? ` in ${spec.provenance.file}` : '';
    throw new CliError(
      'NO_OAUTH',
      `server "${spec.name}" has "oauth": false${where}: mcpwire never logs in to it`,
      EXIT.config,
    );
  }
}

function statusOf(spec: ManagedServer, login: StoredLogin | undefined, now = Date.now()): LoginStatus {
  const tokens = login?.tokens;
  const expired = tokens?.expiresAt !== undefined && tokens.expiresAt <= now;
  return {
    server: spec.name,
    url: redactUrl(spec.url ?? ''),
    oauth: spec.oauth !== false,
    state: spec.oauth === false ? 'off' : !tokens ? 'not-logged-in' : expired ? 'expired' : 'logged-in',
    refreshable: tokens?.refreshToken !== undefined,
    expiresAt:
      tokens?.expiresAt !== undefined ? new Date(tokens.expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z') : null,
    scopes: tokens?.scope?.split(' ').filter(Boolean) ?? [],
    authorizationServer: login?.discovery?.authorizationServer.issuer ?? login?.client?.issuer ?? null,
  };
}

function stateText(row: LoginStatus): string {
  switch (row.state) {
    case 'logged-in':
      return 'logged in';
    case 'expired':
      return row.refreshable ? 'expired (renews itself)' : 'expired';
    case 'off':
      return 'off (oauth: false)';
    default:
      return 'not logged in';
  }
}

/** The lines under "Logged in to …". */
function describe(row: LoginStatus): string[] {
  return [
    `  expires: ${row.expiresAt ?? 'not said by the server'}${row.refreshable ? ' (renews itself)' : ''}`,
    `  scopes: ${row.scopes.join(' ') || 'none'}`,
    `  authorization server: ${row.authorizationServer ?? 'unknown'}`,
  ];
}
