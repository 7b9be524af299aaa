/**
 * {@link ManagerOptions} checked and normalised before a manager is built: unknown keys (the
 * nested `config` and `client` objects, and each hand-written server, included) are
 * `INVALID_ARGUMENT` errors naming the key,
 * the top-level `cwd` becomes `config.cwd`, and options that could not both take effect are
 * refused. Also what tells two option sets apart, for `McpManager.getInstance`.
 */
import { checkClientOptions, type ClientOptions } from '../client/options.js';
import { McpError } from '../protocol/errors.js';
import { UI_MIME_TYPE } from '../protocol/extensions/apps-types.js';
import { EXTENSION_IDS } from '../protocol/extensions/ids.js';
import { checkOptions, optionKeys } from '../protocol/option-keys.js';
import { unknownHost } from './config/hosts/host-layer.js';
import { checkConfigOptions } from './config/load-config.js';
import type { ManagerOptions } from './manager-types.js';
import { checkServerList } from './servers/check-definition.js';
import type { ManagedServer } from './servers/managed-server.js';

/** Keys of `ConfigOptions` and `ClientOptions` a caller may put at the top level by mistake. */
const NESTED_HINTS: Record<string, string> = {
  homeDir: 'config.homeDir',
  userConfigPath: 'config.userConfigPath',
  project: 'config.project',
  configPaths: 'config.configPaths',
  configPath: 'config.configPaths',
  inline: 'config.inline',
  env: 'config.env',
  import: 'config.import',
  hosts: 'importHosts',
  platform: 'config.platform',
  clientInfo: 'client.clientInfo',
  handlers: 'client.handlers',
  requestTimeoutMs: 'client.requestTimeoutMs',
  connectTimeoutMs: 'client.connectTimeoutMs',
  timeoutMs: 'client.requestTimeoutMs',
  trace: 'client.trace',
  mcpServers: 'config.inline: [{ mcpServers }]',
};

const MANAGER_OPTION_KEYS = optionKeys<ManagerOptions>(
  'McpManager options',
  {
    servers: true,
    client: true,
    load: true,
    cwd: true,
    config: true,
    approve: true,
    requireApproval: true,
    approvals: true,
    maxResultChars: true,
    permissions: true,
    ask: true,
    hideDeniedTools: true,
    logger: true,
    onAuthorizationUrl: true,
    tokenStore: true,
    importHosts: true,
    apps: true,
  },
  NESTED_HINTS,
);

/** Manager options after {@link normaliseManagerOptions}: every server with its transport. */
export type NormalOptions = Omit<ManagerOptions, 'servers'> & { servers?: ManagedServer[] };

/**
 * `options` checked (unknown keys, at every level this layer knows, are `INVALID_ARGUMENT`) and
 * with `cwd` and `importHosts` folded into `config`. Throws `INVALID_ARGUMENT` when `cwd` and `config.cwd` disagree,
 * or when `load` comes with `config`/`cwd` (only one of them could be the configuration); each of
 * `servers` is read by the config entry rules (`checkServerDefinition`: `CONFIG_INVALID` for a bad
 * field, naming the server; a server without `transport` gets the one its `command` or `url`
 * means), and two servers of one name are `INVALID_ARGUMENT`.
 */
export function normaliseManagerOptions(options: ManagerOptions): NormalOptions {
  checkOptions(options, MANAGER_OPTION_KEYS);
  if (options.client) checkClientOptions(options.client);
  if (options.apps !== undefined && typeof options.apps !== 'boolean')
    throw new McpError('INVALID_ARGUMENT', 'McpManager options: "apps" must be true or false');
  if (options.config) checkConfigOptions(options.config);
  let normal: NormalOptions =
    options.servers === undefined
      ? (options as NormalOptions)
      : { ...options, servers: checkServerList(options.servers, 'McpManager options') };
  if (options.importHosts !== undefined) {
    const bad = unknownHost('McpManager options: "importHosts"', options.importHosts);
    if (bad) throw new McpError('INVALID_ARGUMENT', bad);
    if (options.config?.hosts !== undefined)
      throw new McpError(
        'INVALID_ARGUMENT',
        'McpManager options: "importHosts" and "config.hosts" say the same thing; give one',
      );
    const { importHosts, ...rest } = normal;
    normal = importHosts === false ? rest : { ...rest, config: { ...rest.config, hosts: importHosts } };
  }
  if (normal.cwd !== undefined) {
    if (normal.config?.cwd !== undefined && normal.config.cwd !== options.cwd) {
      throw new McpError(
        'INVALID_ARGUMENT',
        `McpManager options: "cwd" (${options.cwd}) and "config.cwd" (${normal.config.cwd}) disagree; give one`,
      );
    }
    const { cwd, ...rest } = normal;
    normal = { ...rest, config: { ...normal.config, cwd } };
  }
  if (normal.config && normal.load) {
    throw new McpError(
      'INVALID_ARGUMENT',
      `McpManager options: "load" and "${options.cwd !== undefined ? 'cwd' : 'config'}" both say where the configuration comes from; give one`,
    );
  }
  return normal;
}

/**
 * The options every managed client gets: `client`, and with `apps: true` the MCP Apps declaration
 * (`extensions[EXTENSION_IDS.ui] = { mimeTypes: [UI_MIME_TYPE] }`) beside its other extensions.
 * A ui declaration `client.extensions` already makes is kept as given.
 */
export function managedClientOptions(options: NormalOptions): ClientOptions {
  const client = options.client ?? {};
  if (options.apps !== true || client.extensions?.[EXTENSION_IDS.ui] !== undefined) return client;
  return { ...client, extensions: { ...client.extensions, [EXTENSION_IDS.ui]: { mimeTypes: [UI_MIME_TYPE] } } };
}

/**
 * The dotted paths at which two option sets differ. Plain objects and arrays are compared by
 * content, everything else (functions, stores, signals) by identity; a key set to `undefined`
 * equals a missing key.
 */
export function differingOptions(a: unknown, b: unknown, at = ''): string[] {
  if (Object.is(a, b)) return [];
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => differingOptions(item, b[i]).length === 0)
      ? []
      : [at || '(options)'];
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((key) => differingOptions(a[key], b[key], at ? `${at}.${key}` : key));
  }
  return [at || '(options)'];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
