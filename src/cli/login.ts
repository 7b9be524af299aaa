/**
 * The CLI's side of an OAuth login: where logins are kept (`~/.mcpwire/oauth` under the
 * command's `$HOME`, or `--store DIR`), how the authorization URL reaches the user (the system
 * browser, `$BROWSER` first, and the URL always printed on stderr for a remote terminal), and
 * the command that logs a server in, named in every "needs a login" error.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { OAuthOptions } from '../auth/auth-options.js';
import { OAuthError } from '../auth/auth-error.js';
import { NotOAuthError } from '../auth/discovery.js';
import { FileTokenStore } from '../auth/file-token-store.js';
import type { StoredLogin, TokenStore } from '../auth/token-store.js';
import type { LoginHooks } from '../manager/servers/server-oauth.js';
import type { McpManager } from '../manager/mcp-manager.js';
import type { ManagedServer } from '../manager/servers/managed-server.js';
import { errorMessage, McpError } from '../protocol/errors.js';
import { redactUrl } from '../util/redact.js';
import { flag, stringOption, type ParsedArgs } from './argv.js';
import { askYesNo } from './ask.js';
import { AuthRefusedError, LoginRequiredError } from './exit-codes.js';
import { paint, type CliIO } from './io.js';
import { shellLine } from '../util/shell-quote.js';
import { selfCommand } from '../util/self-command.js';

/** The directory logins are kept in: `--store DIR`, else `<$HOME>/.mcpwire/oauth` (the user's mcpwire directory). */
export function loginDir(args: ParsedArgs, io: CliIO): string {
  const given = stringOption(args, 'store');
  if (given !== undefined) return path.resolve(io.cwd, given);
  return path.join(io.env.HOME ?? os.homedir(), '.mcpwire', 'oauth');
}

/** The file store of {@link loginDir}. */
export function loginStore(args: ParsedArgs, io: CliIO): FileTokenStore {
  return new FileTokenStore({ dir: loginDir(args, io) });
}

/**
 * The command that logs `spec` in: `mcpwire auth login NAME` for a configured server,
 * `mcpwire auth login --url URL` for one named by URL (`byUrl`), as `npx mcpwire …` when npx
 * started this one ({@link selfCommand}). The URL is shown redacted.
 */
export function loginCommand(spec: ManagedServer, byUrl: boolean): string {
  return shellLine(
    byUrl && spec.url !== undefined
      ? [...selfCommand(), 'auth', 'login', '--url', redactUrl(spec.url)]
      : [...selfCommand(), 'auth', 'login', spec.name],
  );
}

/**
 * `error` as the CLI reports it: an `AUTH_REQUIRED` from a URL server that may log in becomes
 * exit 3 with a message that ends `run: mcpwire auth login NAME` (the original error kept as
 * `cause`); one from a server with a `headersHelper` says the helper's credentials were refused
 * (no login: the helper is how it authenticates); any other error (one of an `oauth: false`
 * server is still exit 3) is returned as it is.
 */
export function withLoginHint(error: unknown, spec: ManagedServer, byUrl: boolean): unknown {
  // `oauth: false` never logs in: the login command would refuse, so it is not offered.
  if (
    !(error instanceof McpError) ||
    error.code !== 'AUTH_REQUIRED' ||
    spec.transport === 'stdio' ||
    spec.oauth === false
  )
    return error;
  if (spec.headersHelper !== undefined) {
    // Not the helper's command line: it may carry a secret of its own.
    return new AuthRefusedError(
      `server "${spec.name}": the credentials its headersHelper printed were refused (${error.reason}); check the helper and what it prints (a login does not apply: the helper is how this server is authorized)`,
      error,
    );
  }
  // A server without OAuth: a login cannot help, its own message says what does.
  if (error instanceof NotOAuthError) return error;
  const command = loginCommand(spec, byUrl);
  // The OAuth layer's own advice is for library users (a hook, a store); a terminal user needs the command.
  const step = (error as McpError & { step?: unknown }).step;
  const why =
    step === 'authorization' && /no interactive login is possible/.test(error.reason)
      ? `server "${spec.name}" needs a login and has no stored login that works`
      : errorMessage(error);
  // What the server itself said (its status and challenge), when the login failed after its refusal.
  const refusal = error instanceof OAuthError && error.refusal !== undefined ? ` (after ${error.refusal.reason})` : '';
  return new LoginRequiredError(`${why}${refusal}; run: ${command}`, command, error);
}

/**
 * The login hooks of one command: the store of {@link loginStore}, and with `browser` a hook that
 * opens the authorization URL and prints it. `offer` asks first on the terminal ("log in now?")
 * and refuses the login when the user says no, naming the login command.
 */
export function cliLoginHooks(
  args: ParsedArgs,
  io: CliIO,
  browser: { offer?: { spec: ManagedServer; byUrl: boolean } } | false,
): LoginHooks {
  const store = loginStore(args, io);
  if (browser === false) return { store };
  const offer = browser.offer;
  const show = browserLoginHook(io);
  const onAuthorizationUrl: OAuthOptions['onAuthorizationUrl'] = async (url, context) => {
    if (offer) {
      const yes = await askYesNo(io, `server "${context.server}" needs a login. Log in now in a browser?`);
      if (!yes) throw new Error(`not logged in; run: ${loginCommand(offer.spec, offer.byUrl)}`);
    }
    await show(url, context);
  };
  return { store, onAuthorizationUrl };
}

/** The hook that prints the authorization URL (stderr) and opens the browser. */
export function browserLoginHook(io: CliIO): NonNullable<OAuthOptions['onAuthorizationUrl']> {
  return (url, context) => {
    showAuthorizationUrl(io, context.server, url);
    openBrowser(io, url);
  };
}

/**
 * The hook of `auth login --no-browser`: no browser is opened; the URL is handed over at once,
 * before the wait for the callback. With `json`, as one line on stdout,
 * `{"authorizationUrl":…,"redirectUri":…}` (the command's result envelope follows it once the
 * login ends); otherwise on stderr with where and how long the login waits.
 */
export function noBrowserLoginHook(io: CliIO, json: boolean): NonNullable<OAuthOptions['onAuthorizationUrl']> {
  return (url, context) => {
    if (json) {
      io.stdout.write(`${JSON.stringify({ authorizationUrl: url.toString(), redirectUri: context.redirectUri })}
`);
      return;
    }
    const p = paint(io.color);
    io.stderr.write(
      `Log in to server "${context.server}": open this URL in a browser (on this machine, or forward port ${new URL(context.redirectUri).port} to it):\n  ${p.cyan(url.toString())}\nWaiting up to ${Math.round(context.timeoutMs / 1000)} s for the callback on ${context.redirectUri} (Ctrl-C abandons the login).\n`,
    );
  };
}

/** True with `--stored-auth-only`: stored logins only (a stored refresh token still renews one), never a login. */
export function storedAuthOnly(args: ParsedArgs): boolean {
  return flag(args, 'stored-auth-only');
}

/**
 * With `--stored-auth-only`, the error for the servers `manager` left waiting for a login
 * (`needs-auth`) that a login would answer (not a `headersHelper` or `oauth: false` server):
 * exit 3, naming each and the command that logs it in; undefined for none.
 */
export function storedLoginsMissing(manager: McpManager): LoginRequiredError | undefined {
  const servers = manager
    .getStatus()
    .servers.filter((s) => s.status === 'needs-auth')
    .map((s) => manager.getServer(s.name))
    .filter((spec) => spec !== undefined && spec.oauth !== false && spec.headersHelper === undefined)
    .map((spec) => spec!.name);
  if (servers.length === 0) return undefined;
  const commands = servers.map((name) => shellLine([...selfCommand(), 'auth', 'login', name]));
  const which =
    servers.length === 1
      ? `server "${servers[0]}" needs a login and has`
      : `servers ${servers.map((name) => `"${name}"`).join(', ')} need a login and have`;
  const error = new McpError('AUTH_REQUIRED', `${which} no stored login that works (--stored-auth-only starts none)`);
  return new LoginRequiredError(`${error.message}; run: ${commands.join(', then ')}`, commands[0]!, error);
}

/** Prints the URL on stderr: the browser may open on another machine than the terminal. */
function showAuthorizationUrl(io: CliIO, server: string, url: URL): void {
  const p = paint(io.color);
  io.stderr.write(
    `Log in to server "${server}" in your browser. If it does not open, visit:\n  ${p.cyan(url.toString())}\n`,
  );
}

/**
 * Hands `url` to `$BROWSER` (the first of its `:`-separated commands; the URL replaces a `%s`
 * in it, else is its last argument), else the platform's opener (`open`, `xdg-open`, Windows' URL handler).
 * No shell is involved. Fire and forget: a missing opener is not an error (the URL is printed),
 * and nothing waits for the browser to close.
 */
export function openBrowser(io: CliIO, url: URL): void {
  const [command, ...args] = openerOf(io.env, process.platform);
  const text = url.toString();
  const withUrl = args.some((arg) => arg.includes('%s'))
    ? args.map((arg) => arg.replaceAll('%s', text))
    : [...args, text];
  try {
    const child = spawn(command!, withUrl, { stdio: 'ignore', detached: true, env: io.env });
    child.on('error', () => {}); // no opener here: the printed URL is the way
    child.unref();
  } catch {
    // A spawn that cannot even start (a malformed $BROWSER) leaves the printed URL too.
  }
}

/** The opener's command line without the URL. */
function openerOf(env: Record<string, string | undefined>, platform: NodeJS.Platform): string[] {
  const browser = env.BROWSER?.split(path.delimiter)[0]?.trim();
  if (browser) return browser.split(/\s+/);
  if (platform === 'darwin') return ['open'];
  // Not `cmd /c start`: cmd would split the URL at its `&`s.
  if (platform === 'win32') return ['rundll32', 'url.dll,FileProtocolHandler'];
  return ['xdg-open'];
}

/**
 * A view of `store` for a login the user asked for: the tokens kept before it are hidden (the
 * client registration and discovery stay), so the server refuses and the browser step runs; once
 * the login writes new tokens, reads see them. `loggedIn()` says whether that happened (a server
 * that never asks leaves it false).
 */
export function freshLoginView(store: TokenStore): TokenStore & { loggedIn(): boolean } {
  let written = false;
  return {
    loggedIn: () => written,
    async get(key: string): Promise<StoredLogin | undefined> {
      const login = await store.get(key);
      if (written || login === undefined) return login;
      const { tokens: _hidden, ...rest } = login;
      return rest;
    },
    async set(key: string, login: StoredLogin): Promise<void> {
      await store.set(key, login);
      if (login.tokens) written = true;
    },
    delete: (key: string) => store.delete(key),
    ...(store.lock ? { lock: store.lock.bind(store) } : {}),
  };
}
