/**
 * What a server entry looks like in each host's file: where the servers are kept (`mcpServers`,
 * `servers`, `mcp_servers`, `extensions`, `context_servers`, `mcp`), the names of its fields
 * (`serverUrl`, `httpUrl`, `cmd`/`envs`, an array `command`, `environment`, `http_headers`) and
 * how the host writes a reference to an environment variable (`${VAR}`, `${env:VAR}`,
 * `{env:VAR}`, or Codex's and Goose's lists of variable names). A host that expands no variables
 * refuses a reference rather than receiving a literal `${VAR}` it would pass on.
 */
import { McpError } from '../../../protocol/errors.js';
import type { Entry } from './config-document.js';

/** A value written as a reference to the environment variable `variable`, after `prefix` (`Bearer `). */
export interface VariableReference {
  variable: string;
  prefix: string;
}

/** A value as given: literal text, or a reference (`--env-ref`). */
export type GivenValue = string | VariableReference;

/** The server a `config add` writes, before it takes a host's shape. */
export interface ServerToWrite {
  transport: 'stdio' | 'http' | 'sse';
  command?: string;
  args?: string[];
  env?: Record<string, GivenValue>;
  url?: string;
  headers?: Record<string, GivenValue>;
}

/**
 * One host's entry for `server` named `name`; throws `INVALID_ARGUMENT` (naming the host and the
 * server) for what the host cannot hold.
 */
export type EntryShape = (server: ServerToWrite, name: string) => Entry;

/** Where mcpwire's own file `document` keeps its servers: the key it already uses, else `mcpServers`. */
export function mcpwireContainer(document: Record<string, unknown>): readonly string[] {
  return [['mcpServers', 'mcp_servers', 'servers'].find((key) => key in document) ?? 'mcpServers'];
}

type Reference = ((variable: string) => string) | undefined;

const dollar: Reference = (name) => `\${${name}}`;
const envColon: Reference = (name) => `\${env:${name}}`;

/**
 * The shape of `host`'s entries (`mcpwire`: mcpwire's own files); undefined for a host whose
 * entries `config add` cannot write.
 */
export function entryShape(host: string): EntryShape | undefined {
  switch (host) {
    case 'mcpwire':
      return (server, name) => plain(server, name, host, dollar, {});
    case 'claude-code':
      return (server, name) => plain(server, name, host, dollar, { typeStdio: true, typeHttp: true });
    case 'claude-desktop':
      return (server, name) => {
        if (server.transport !== 'stdio')
          throw refused(host, 'claude_desktop_config.json holds command servers only (remote ones are connectors)');
        return plain(server, name, host, undefined, {});
      };
    case 'cursor':
      return (server, name) => plain(server, name, host, envColon, {});
    case 'windsurf':
      return (server, name) => plain(server, name, host, envColon, { urlKey: 'serverUrl' });
    case 'gemini':
      return (server, name) =>
        plain(server, name, host, dollar, { urlKey: server.transport === 'http' ? 'httpUrl' : 'url' });
    case 'cline':
      return (server, name) => plain(server, name, host, undefined, { typeHttp: true, httpType: 'streamableHttp' });
    case 'roo-code':
      return (server, name) => plain(server, name, host, envColon, { typeHttp: true, httpType: 'streamable-http' });
    case 'vscode':
      return (server, name) => plain(server, name, host, envColon, { typeStdio: true, typeHttp: true });
    case 'zed':
      return (server, name) => ({ source: 'custom', ...plain(server, name, host, undefined, {}) });
    case 'opencode':
      return openCode;
    case 'codex':
      return codex;
    case 'goose':
      return goose;
    case 'continue':
      return continueEntry;
    default:
      return undefined;
  }
}

interface PlainOptions {
  urlKey?: string;
  typeStdio?: boolean;
  typeHttp?: boolean;
  httpType?: string;
}

/** The common `{command, args, env}` / `{url, headers}` entry, with the host's variations. */
function plain(server: ServerToWrite, name: string, host: string, reference: Reference, options: PlainOptions): Entry {
  const values = (record: Record<string, GivenValue> | undefined, what: string) =>
    record && Object.keys(record).length ? { [what]: texts(record, reference, host, name) } : {};
  if (server.transport === 'stdio')
    return {
      ...(options.typeStdio ? { type: 'stdio' } : {}),
      command: server.command!,
      ...(server.args?.length ? { args: server.args } : {}),
      ...values(server.env, 'env'),
    };
  const type = server.transport === 'sse' ? 'sse' : (options.httpType ?? 'http');
  return {
    ...(options.typeHttp || server.transport === 'sse' ? { type } : {}),
    [options.urlKey ?? 'url']: server.url!,
    ...values(server.headers, 'headers'),
  };
}

function openCode(server: ServerToWrite, name: string): Entry {
  const reference: Reference = (variable) => `{env:${variable}}`;
  if (server.transport === 'stdio')
    return {
      type: 'local',
      command: [server.command!, ...(server.args ?? [])],
      ...(server.env && Object.keys(server.env).length
        ? { environment: texts(server.env, reference, 'opencode', name) }
        : {}),
      enabled: true,
    };
  return {
    type: 'remote',
    url: server.url!,
    ...(server.headers && Object.keys(server.headers).length
      ? { headers: texts(server.headers, reference, 'opencode', name) }
      : {}),
    enabled: true,
  };
}

/** Codex takes variable names, not references: `env_vars`, `bearer_token_env_var`, `env_http_headers`. */
function codex(server: ServerToWrite, name: string): Entry {
  const { literal, referenced } = split(server.transport === 'stdio' ? server.env : server.headers);
  if (server.transport === 'stdio')
    return {
      command: server.command!,
      ...(server.args?.length ? { args: server.args } : {}),
      ...(Object.keys(literal).length ? { env: literal } : {}),
      ...(referenced.length ? { env_vars: referenced.map(([key, ref]) => sameName(key, ref, 'codex', name)) } : {}),
    };
  const bearer = referenced.find(([key, ref]) => /^authorization$/i.test(key) && /^bearer\s+$/i.test(ref.prefix));
  const others = referenced.filter((pair) => pair !== bearer);
  for (const [key, ref] of others)
    if (ref.prefix)
      throw refused(
        'codex',
        `header "${key}" can only be a whole variable there (no "${ref.prefix.trim()}" before it)`,
        name,
      );
  return {
    url: server.url!,
    ...(Object.keys(literal).length ? { http_headers: literal } : {}),
    ...(bearer ? { bearer_token_env_var: bearer[1].variable } : {}),
    ...(others.length ? { env_http_headers: Object.fromEntries(others.map(([key, ref]) => [key, ref.variable])) } : {}),
  };
}

/** Goose: `cmd`/`args`/`envs` (variables by name in `env_keys`), remote servers as `uri`. */
function goose(server: ServerToWrite, name: string): Entry {
  const common = { name, enabled: true, timeout: 300 };
  if (server.transport === 'stdio') {
    const { literal, referenced } = split(server.env);
    return {
      ...common,
      type: 'stdio',
      cmd: server.command!,
      args: server.args ?? [],
      ...(Object.keys(literal).length ? { envs: literal } : {}),
      ...(referenced.length ? { env_keys: referenced.map(([key, ref]) => sameName(key, ref, 'goose', name)) } : {}),
    };
  }
  const { literal, referenced } = split(server.headers);
  if (referenced.length) throw refused('goose', 'headers cannot name variables there', name);
  return {
    ...common,
    type: server.transport === 'sse' ? 'sse' : 'streamable_http',
    uri: server.url!,
    ...(Object.keys(literal).length ? { headers: literal } : {}),
  };
}

/** Continue: a list item (its `name` is added by the list), headers under `requestOptions`, `${{ secrets.K }}`. */
function continueEntry(server: ServerToWrite, name: string): Entry {
  const reference: Reference = (variable) => `\${{ secrets.${variable} }}`;
  if (server.transport === 'stdio') return plain(server, name, 'continue', reference, { typeStdio: true });
  const { headers, ...rest } = plain(server, name, 'continue', reference, {
    typeHttp: true,
    httpType: 'streamable-http',
  });
  return headers ? { ...rest, requestOptions: { headers } } : rest;
}

function split(record: Record<string, GivenValue> | undefined): {
  literal: Record<string, string>;
  referenced: Array<[string, VariableReference]>;
} {
  const literal: Record<string, string> = {};
  const referenced: Array<[string, VariableReference]> = [];
  for (const [key, value] of Object.entries(record ?? {}))
    if (typeof value === 'string') literal[key] = value;
    else referenced.push([key, value]);
  return { literal, referenced };
}

/** A host that passes variables on by name needs the variable to be named as the key it fills. */
function sameName(key: string, ref: VariableReference, host: string, name: string): string {
  if (ref.variable !== key || ref.prefix)
    throw refused(host, `"${key}" can only come from a variable of the same name`, name);
  return key;
}

function texts(
  record: Record<string, GivenValue>,
  reference: Reference,
  host: string,
  name: string,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(record).map(([key, value]) => {
      if (typeof value === 'string') return [key, value];
      if (!reference) throw refused(host, 'its file expands no variables, so --env-ref cannot be written there', name);
      return [key, `${value.prefix}${reference(value.variable)}`];
    }),
  );
}

function refused(host: string, why: string, name?: string): McpError {
  return new McpError('INVALID_ARGUMENT', `${host}: ${why}`, name !== undefined ? { server: name } : {});
}
