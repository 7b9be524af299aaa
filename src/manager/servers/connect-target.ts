/**
 * How a {@link ManagedServer} is connected: {@link connectTarget} turns it into an
 * `McpClient.connect` target (a stdio spec, or a URL with its `headersHelper` hook or OAuth),
 * {@link clientOptionsFor} into the client options its fields imply (name, timeouts),
 * {@link connectServer} does both once, {@link slotTarget} adds the two watches a supervised
 * slot keeps, and {@link describeTarget} says what is started, for a log line. Shared by the
 * slots, the workflow step and the CLI, so a server behaves the same whoever connects it. A new
 * server field that changes how the client connects is read here.
 */
import { McpClient } from '../../client/mcp-client.js';
import { installNodeParts } from '../../client/node-parts.js';
import type { ClientOptions } from '../../client/options.js';
import { McpError } from '../../protocol/errors.js';
import { escapeVariables } from '../../transport/variables.js';
import { redactUrl } from '../../util/redact.js';
import { redactServer } from '../config/redact.js';
import { loginHint } from '../login-hint.js';
import { headersHelperHook } from './headers-helper.js';
import { oauthOptionsFor, type LoginHooks } from './server-oauth.js';
import type { ManagedServer } from './managed-server.js';

// The manager runs on Node: a deep import of it (the CLI, a test) starts stdio servers too.
installNodeParts();

/**
 * The connect target of `spec`. Throws `CONFIG_INVALID` (naming the server) when a field is
 * missing or its `oauth` block's key file cannot be read. A spec's `env` values are final (the
 * config layer expanded them), so they are escaped for the stdio transport's own `${VAR}`
 * expansion: a `${…}` in them reaches the server as written. A URL target's credentials come
 * from its `headersHelper` when it has one (the target's `authorize` hook, a fresh one per call:
 * it runs before the first request of each connect and again on a 401/403; no OAuth then),
 * otherwise from OAuth (see `oauthOptionsFor`) through `hooks`; without an `onAuthorizationUrl`
 * hook only a stored login is used.
 */
export function connectTarget(spec: ManagedServer, hooks?: LoginHooks): Parameters<typeof McpClient.connect>[0] {
  if (spec.transport === 'stdio') {
    if (!spec.command) throw new McpError('CONFIG_INVALID', 'a stdio server needs a "command"', { server: spec.name });
    return {
      command: spec.command,
      args: spec.args ?? [],
      ...(spec.env ? { env: literalEnv(spec.env) } : {}),
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
    };
  }
  if (!spec.url)
    throw new McpError('CONFIG_INVALID', `an ${spec.transport} server needs a "url"`, { server: spec.name });
  const base = { url: spec.url, ...(spec.headers ? { headers: spec.headers } : {}), transport: spec.transport };
  if (spec.headersHelper) return { ...base, authorize: headersHelperHook(spec) };
  const auth = oauthOptionsFor(spec, hooks);
  return { ...base, ...(auth ? { auth } : {}) };
}

/**
 * `base` plus what `spec` says (name, timeouts). When `base` traces traffic, the server's secrets
 * join the trace's redaction list.
 */
export function clientOptionsFor(spec: ManagedServer, base: ClientOptions = {}): ClientOptions {
  const options: ClientOptions = {
    ...base,
    name: spec.name,
    ...(spec.timeoutMs !== undefined ? { requestTimeoutMs: spec.timeoutMs } : {}),
    ...(spec.startupTimeoutMs !== undefined ? { connectTimeoutMs: spec.startupTimeoutMs } : {}),
  };
  if (base.trace && spec.secrets?.length)
    options.trace = { ...base.trace, secrets: [...(base.trace.secrets ?? []), ...spec.secrets] };
  return options;
}

/**
 * Connects `spec` once (no supervision): what a one-shot command or a workflow step needs.
 * `hooks` are its OAuth login's (see {@link connectTarget}).
 */
export function connectServer(spec: ManagedServer, base: ClientOptions = {}, hooks?: LoginHooks): Promise<McpClient> {
  let target: Parameters<typeof McpClient.connect>[0];
  try {
    target = connectTarget(spec, hooks);
  } catch (error) {
    return Promise.reject(error);
  }
  return McpClient.connect(target, clientOptionsFor(spec, base));
}

/** What the target asks of its slot. */
export interface TargetWatch {
  /** True while a login asked for (`login()`, `/mcp auth NAME`) is under way. */
  loginUnderWay(): boolean;
  /** Header values the authorize hook handed out (credentials: never to be shown). */
  credentialsSeen(values: string[]): void;
}

/**
 * The connect target of a supervised server: `connectTarget(spec, hooks)` under `watch`. Throws as
 * `connectTarget` does.
 * A login page is shown only while a login someone asked for is under way (the client's OAuth
 * session would otherwise show one by itself when a call finds its token gone; that call fails
 * with `AUTH_REQUIRED` instead and the slot waits in `needs-auth`), and the header values a
 * `headersHelper` hands out are reported, so the slot keeps them out of everything it shows.
 */
export function slotTarget(
  spec: ManagedServer,
  hooks: LoginHooks,
  watch: TargetWatch,
): Parameters<typeof McpClient.connect>[0] {
  const show = hooks.onAuthorizationUrl;
  const guarded: LoginHooks = { ...hooks };
  if (show) {
    guarded.onAuthorizationUrl = (url, context) => {
      if (!watch.loginUnderWay())
        throw new McpError('AUTH_REQUIRED', `needs a login: ${loginHint(spec)}`, { server: spec.name });
      return show(url, context);
    };
  }
  const target = connectTarget(spec, guarded);
  if (typeof target !== 'object' || !('authorize' in target) || !target.authorize) return target;
  const authorize = target.authorize;
  return {
    ...target,
    authorize: async (request) => {
      const headers = await authorize(request);
      if (headers) watch.credentialsSeen(credentialParts(Object.values(headers)));
      return headers;
    },
  };
}

/** Each value, and the credential after an auth scheme (`Bearer abc` gives `abc` too). */
function credentialParts(values: string[]): string[] {
  return values.flatMap((value) => {
    const scheme = /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(value);
    return scheme ? [value, scheme[1]!] : [value];
  });
}

function literalEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) out[key] = escapeVariables(value);
  return out;
}

/** What `spec` starts, for a log line (secrets hidden): `stdio CMD ARGS…` or `TRANSPORT URL`. */
export function describeTarget(spec: ManagedServer): string {
  const shown = redactServer(spec);
  return shown.transport === 'stdio'
    ? `stdio ${[shown.command, ...(shown.args ?? [])].join(' ')}`
    : `${shown.transport} ${redactUrl(shown.url ?? '')}`;
}
