/**
 * One host's server entry → mcpwire's server entry shape, per host: the field names each host
 * uses (`serverUrl`, `httpUrl`, `cmd`/`envs`, an array `command`, `environment`, Codex's
 * `env_vars`, `bearer_token_env_var`, `http_headers`), its transport names, its units (seconds),
 * and its variable syntax ({@link translateText}). Pure.
 */
import { EntryBuilder, isObject, type TranslatedEntry } from './entry-builder.js';
import type { HostId } from './host-table.js';
import type { VariableContext, VariableSyntax } from './host-variables.js';

export type { TranslatedEntry } from './entry-builder.js';

/** The variable syntax of each host's values. */
const SYNTAX: Record<HostId, VariableSyntax> = {
  'claude-desktop': 'dollar',
  'claude-code': 'dollar',
  cursor: 'vscode',
  vscode: 'vscode',
  windsurf: 'dollar',
  codex: 'literal',
  gemini: 'gemini',
  goose: 'literal',
  zed: 'dollar',
  opencode: 'opencode',
  continue: 'continue',
  cline: 'dollar',
  'roo-code': 'vscode',
};

/**
 * `raw` (one entry of `host`'s file) in mcpwire's shape, with the problems that keep mcpwire from
 * running it as the host would and notes on fields not taken. `json`: the entry comes from a JSON
 * file in the Claude shape even though the host's own format differs (Continue's project folder
 * accepts such files).
 */
export function translateEntry(
  host: HostId,
  raw: Record<string, unknown>,
  context: VariableContext,
  json = false,
): TranslatedEntry {
  const b = new EntryBuilder(raw, SYNTAX[host], context);
  if (json && host === 'continue') mcpServersEntry(b, 'claude-desktop');
  else READERS[host](b);
  return b.finish();
}

const READERS: Record<HostId, (b: EntryBuilder) => void> = {
  'claude-desktop': (b) => mcpServersEntry(b, 'claude-desktop'),
  'claude-code': (b) => mcpServersEntry(b, 'claude-code'),
  cursor: (b) => mcpServersEntry(b, 'cursor'),
  vscode: vscodeEntry,
  windsurf: (b) => {
    const serverUrl = b.take('serverUrl');
    if (serverUrl !== undefined && b.raw.url === undefined) b.set('url', b.text(serverUrl, 'serverUrl'));
    b.set('excludeTools', b.list(b.take('disabledTools'), 'disabledTools'));
    mcpServersEntry(b, 'windsurf');
  },
  codex: codexEntry,
  gemini: geminiEntry,
  goose: gooseEntry,
  zed: zedEntry,
  opencode: opencodeEntry,
  continue: continueEntry,
  cline: (b) => {
    const type = b.take('type') ?? b.take('transportType');
    b.quiet('transportType', 'alwaysAllow', 'autoApprove');
    // Cline's older entries name a URL without a type and mean SSE.
    if (type === undefined && b.raw.url !== undefined && b.raw.command === undefined) {
      b.set('type', 'sse');
      b.note('a "url" without "type" is SSE in Cline');
    } else b.set('type', type);
    b.set('timeoutMs', b.seconds(b.take('timeout')));
    mcpServersEntry(b, 'cline');
  },
  'roo-code': (b) => {
    b.set('excludeTools', b.list(b.take('disabledTools'), 'disabledTools'));
    b.set('timeoutMs', b.seconds(b.take('timeout')));
    b.quiet('alwaysAllow', 'watchPaths');
    mcpServersEntry(b, 'roo-code');
  },
};

/**
 * The `mcpServers` shape most hosts share (Claude's): `type`, `command`, `args`, `env`, `cwd`,
 * `envFile`, `url`, `headers`, `headersHelper`, `disabled`/`enabled`, tool filters, `oauth`.
 */
function mcpServersEntry(b: EntryBuilder, host: HostId): void {
  b.copy('command', 'args', 'env', 'cwd', 'envFile', 'url', 'headers', 'headersHelper');
  b.copy('enabled', 'disabled', 'includeTools', 'excludeTools');
  const type = b.take('type');
  if (type !== undefined) b.set('type', type);
  if (type === 'ws') b.problem('a WebSocket server ("type": "ws"): mcpwire speaks stdio, Streamable HTTP and SSE');
  const oauth = b.take('oauth');
  if (oauth !== undefined) b.set('oauth', oauthOf(b, oauth));
  // Descriptive fields, and the host's own approval lists (mcpwire's permissions decide instead).
  b.quiet('description', 'gallery', 'version', 'alwaysAllow', 'autoApprove');
  if (host === 'claude-code' || host === 'claude-desktop') {
    const timeout = b.take('timeout');
    if (typeof timeout === 'number') b.set('timeoutMs', timeout);
  }
}

/** VS Code: `servers` entries, `inputs` references refused, sandboxed servers refused. */
function vscodeEntry(b: EntryBuilder): void {
  const url = b.raw.url;
  if (typeof url === 'string' && /^(unix|pipe):/.test(url))
    b.problem(`a local socket URL (${url.split(':')[0]}:): mcpwire connects to http(s) URLs`);
  if (b.take('sandboxEnabled') === true) {
    b.quiet('sandbox');
    b.problem('VS Code runs it sandboxed ("sandboxEnabled"); mcpwire has no sandbox and will not run it unconfined');
  }
  b.quiet('dev');
  mcpServersEntry(b, 'vscode');
}

/** Codex `[mcp_servers.NAME]`: variables by name only (`env_vars`, `bearer_token_env_var`, `env_http_headers`). */
function codexEntry(b: EntryBuilder): void {
  b.copy('command', 'args', 'cwd', 'url', 'enabled');
  const env = { ...((b.map(b.take('env'), 'env') as Record<string, unknown> | undefined) ?? {}) };
  const names = b.take('env_vars');
  if (Array.isArray(names)) {
    for (const name of names) {
      // `env_vars` items are names, or `{ name, source }` tables in newer Codex.
      const key = typeof name === 'string' ? name : isObject(name) ? name.name : undefined;
      if (typeof key === 'string') env[key] = b.reference(key);
    }
  }
  if (Object.keys(env).length) b.set('env', env);
  const headers: Record<string, unknown> = {
    ...((b.map(b.take('http_headers'), 'http_headers') as Record<string, unknown> | undefined) ?? {}),
  };
  const fromEnv = b.take('env_http_headers');
  if (isObject(fromEnv))
    for (const [header, name] of Object.entries(fromEnv))
      if (typeof name === 'string') headers[header] = b.reference(name);
  const bearer = b.take('bearer_token_env_var');
  if (typeof bearer === 'string') headers.Authorization = `Bearer ${b.reference(bearer)}`;
  if (Object.keys(headers).length) b.set('headers', headers);
  if (b.take('bearer_token') !== undefined)
    b.problem('an inline "bearer_token", which Codex refuses; use "bearer_token_env_var"');
  const startup = b.take('startup_timeout_sec');
  b.set('startupTimeoutMs', startup !== undefined ? b.seconds(startup) : b.take('startup_timeout_ms'));
  b.quiet('startup_timeout_ms');
  b.set('toolTimeoutMs', b.seconds(b.take('tool_timeout_sec')));
  b.set('includeTools', b.take('enabled_tools'));
  b.set('excludeTools', b.take('disabled_tools'));
  const oauth = b.take('oauth');
  if (isObject(oauth) && typeof oauth.client_id === 'string') b.set('oauth', { clientId: oauth.client_id });
  const scopes = b.take('scopes');
  if (Array.isArray(scopes)) b.set('oauth', { ...(isObject(b.entry.oauth) ? b.entry.oauth : {}), scopes });
}

/** Gemini CLI: `httpUrl` is Streamable HTTP, `url` is SSE; `timeout` in ms. */
function geminiEntry(b: EntryBuilder): void {
  const httpUrl = b.take('httpUrl');
  if (httpUrl !== undefined) {
    b.set('url', b.text(httpUrl, 'httpUrl'));
    b.set('type', 'http');
    b.quiet('url');
    if (b.raw.url !== undefined) b.note('"httpUrl" and "url" both given: "httpUrl" is used, as Gemini CLI does');
  } else if (b.raw.url !== undefined) b.set('type', b.raw.type ?? 'sse');
  b.copy('command', 'args', 'env', 'cwd', 'headers', 'includeTools', 'excludeTools');
  if (httpUrl === undefined) b.copy('url');
  b.quiet('type');
  b.set('timeoutMs', b.take('timeout'));
  if (b.take('trust') === true) b.note('"trust" (skip confirmations) is Gemini CLI\'s; mcpwire\'s permissions decide');
  const provider = b.take('authProviderType');
  if (provider !== undefined && provider !== 'dynamic_discovery')
    b.problem(`"authProviderType": "${String(provider)}" (Google credentials): mcpwire does not sign in to Google`);
  const oauth = b.take('oauth');
  if (isObject(oauth) && oauth.enabled !== false) b.set('oauth', oauthOf(b, oauth));
  b.quiet('description', 'disabled');
  if (b.raw.disabled === true) b.set('enabled', false);
}

/** Goose `extensions:` map: `cmd`/`args`/`envs`, `env_keys`, `uri`, `timeout` in seconds. */
function gooseEntry(b: EntryBuilder): void {
  const type = b.take('type') ?? (b.raw.cmd !== undefined ? 'stdio' : b.raw.uri !== undefined ? 'sse' : undefined);
  if (type === 'builtin' || type === 'platform' || type === 'frontend' || type === 'inline_python')
    b.problem(`a Goose "${String(type)}" extension runs inside Goose, not as an MCP server mcpwire can start`);
  else if (type === 'streamable_http') b.set('type', 'http');
  else b.set('type', type);
  b.set('command', b.text(b.take('cmd'), 'cmd'));
  b.set('url', b.text(b.take('uri'), 'uri'));
  b.copy('args', 'headers', 'enabled');
  const env = { ...((b.map(b.take('envs'), 'envs') as Record<string, unknown> | undefined) ?? {}) };
  const keys = b.take('env_keys');
  if (Array.isArray(keys) && keys.length) {
    for (const key of keys) if (typeof key === 'string') env[key] = b.reference(key);
    b.note('"env_keys" are read from the environment (Goose keeps them in its keyring)');
  }
  if (Object.keys(env).length) b.set('env', env);
  b.set('timeoutMs', b.seconds(b.take('timeout')));
  b.set('includeTools', b.take('available_tools'));
  b.quiet('name', 'description', 'bundled', 'display_name');
}

/** Zed `context_servers`: `source: "custom"` entries (older ones nest `command: { path, args, env }`). */
function zedEntry(b: EntryBuilder): void {
  const source = b.take('source');
  if (source === 'extension') b.problem('provided by a Zed extension, which only Zed can start');
  const command = b.raw.command;
  if (isObject(command)) {
    b.take('command');
    b.set('command', b.text(command.path, 'command.path'));
    b.set('args', b.list(command.args, 'command.args'));
    b.set('env', b.map(command.env, 'command.env'));
  }
  b.copy(...(isObject(command) ? [] : ['command', 'args', 'env']), 'url', 'headers', 'enabled');
  b.quiet('settings');
}

/** OpenCode `mcp`: `type` local|remote, array `command`, `environment`, `{env:VAR}`. */
function opencodeEntry(b: EntryBuilder): void {
  const type = b.take('type');
  b.set('type', type === 'local' ? 'stdio' : type === 'remote' ? 'http' : type);
  const command = b.take('command');
  b.set('command', Array.isArray(command) ? b.list(command, 'command') : b.text(command, 'command'));
  b.set('env', b.map(b.take('environment'), 'environment'));
  b.copy('url', 'headers', 'enabled', 'cwd');
  const timeout = b.take('timeout');
  if (timeout !== undefined) {
    b.set('startupTimeoutMs', timeout);
    b.note('"timeout" (waiting for the tool list) applies to connecting');
  }
  const oauth = b.take('oauth');
  if (oauth === false) b.set('oauth', false);
  else if (isObject(oauth)) {
    const scope = oauth.scope;
    b.set('oauth', {
      ...(oauthOf(b, { clientId: oauth.clientId, clientSecret: oauth.clientSecret }) as Record<string, unknown>),
      ...(typeof scope === 'string' ? { scopes: scope.split(/\s+/).filter(Boolean) } : {}),
    });
  }
}

/** Continue's list items: `name`, `type`, `command`, `args`, `env`, `cwd`, `url`, `requestOptions.headers`. */
function continueEntry(b: EntryBuilder): void {
  const type = b.take('type');
  if (type === 'websocket') b.problem('a WebSocket server: mcpwire speaks stdio, Streamable HTTP and SSE');
  else b.set('type', type);
  b.copy('command', 'args', 'env', 'cwd', 'url');
  const options = b.take('requestOptions');
  if (isObject(options)) {
    b.set('headers', b.map(options.headers, 'requestOptions.headers'));
    const other = Object.keys(options).filter((key) => key !== 'headers');
    if (other.length) b.note(`requestOptions not used by mcpwire (ignored): ${other.join(', ')}`);
  }
  b.set('startupTimeoutMs', b.take('connectionTimeout'));
  b.quiet('name');
}

/** The `oauth` fields mcpwire knows (`clientId`, `clientSecret`, `scopes`, `callbackPort`); others are noted. */
function oauthOf(b: EntryBuilder, oauth: unknown): unknown {
  if (!isObject(oauth)) return oauth;
  const out: Record<string, unknown> = {};
  for (const key of ['clientId', 'clientSecret', 'scopes', 'callbackPort'])
    if (oauth[key] !== undefined) out[key] = key === 'scopes' ? oauth[key] : b.text(oauth[key], `oauth.${key}`);
  const other = Object.keys(oauth).filter((key) => oauth[key] !== undefined && !(key in out) && key !== 'enabled');
  if (other.length) b.note(`oauth fields not used by mcpwire (ignored): ${other.join(', ')}`);
  return out;
}
