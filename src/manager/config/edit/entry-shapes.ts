/**
 * What a server entry looks like in each host's file: where the servers are kept (`mcpServers`,
 * `servers`, `mcp_servers`, `extensions`, `context_servers`, `mcp`), the names of its fields
 * (`serverUrl`, `httpUrl`, `cmd`/`envs`, an array `command`, `environment`, `http_headers`) and
 * how the host writes a reference to an environment variable (`${VAR}`, `${env:VAR}`,
 * `{env:VAR}`, or Codex's and Goose's lists of variable names). A host that expands no variables
 * refuses a reference rather than receiving a literal `${VAR}` it would pass on. Text a publisher
 * wrote ({@link LiteralText}, from the MCP Registry) stays literal: escaped in mcpwire's files
 * (`$${…}`), as it is in hosts that expand nothing, and refused by a host that would expand it.
 */
import { McpError } from '../../../protocol/errors.js';
import { escapeVariables } from '../../../transport/variables.js';
import type { Entry } from './config-document.js';

/** A value written as a reference to the environment variable `variable`, after `prefix` (`Bearer `). */
export interface VariableReference {
  variable: string;
  prefix: string;
}

/**
 * Text that must reach the server exactly as written, never expanded by mcpwire or a host: a
 * publisher's value (a registry's `server.json`), which must not be able to name the user's
 * variables (`${AWS_SECRET_ACCESS_KEY}`).
 */
export interface LiteralText {
  literal: string;
}

/** A value as given: the user's text, a reference (`--env-ref`, a registry secret), or {@link LiteralText}. */
export type GivenValue = string | VariableReference | LiteralText;

/** The server a `config add` writes, before it takes a host's shape. */
export interface ServerToWrite {
  transport: 'stdio' | 'http' | 'sse';
  command?: string;
  args?: GivenValue[];
  env?: Record<string, GivenValue>;
  url?: string | LiteralText;
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

/** How a host receives {@link LiteralText}: as text it will not expand, or a refusal. */
type Literal = (text: string, host: string, name: string) => string;

/**
 * mcpwire's own files escape (`$${…}`); Codex and Goose expand nothing; every other host expands
 * `${…}` (OpenCode `{env:…}`, Gemini `$VAR` too) with no escape, so such text is refused there.
 */
function literalFor(host: string): Literal {
  if (host === 'mcpwire') return (text) => escapeVariables(text);
  if (host === 'codex' || host === 'goose') return (text) => text;
  const expands = host === 'opencode' ? /\{(env|file):/ : host === 'gemini' ? /\$(\{|[A-Za-z_])/ : /\$\{/;
  return (text, _host, name) => {
    if (expands.test(text))
      throw refused(
        host,
        `the publisher's value ${JSON.stringify(text.slice(0, 80))} would be expanded as a variable there and cannot be escaped; add it to mcpwire's config instead`,
        name,
      );
    return text;
  };
}

/** `value` as text for `host` (a reference in its syntax; undefined `reference`: refused). */
function textOf(value: GivenValue, reference: Reference, host: string, name: string, what: string): string {
  const literal = literalFor(host);
  if (typeof value === 'string') return value;
  if ('literal' in value) return literal(value.literal, host, name);
  if (!reference) throw refused(host, `its file expands no variables, so ${what} cannot be written there`, name);
  return `${literal(value.prefix, host, name)}${reference(value.variable)}`;
}

/** The arguments as texts for `host`. */
function argTexts(server: ServerToWrite, reference: Reference, host: string, name: string): string[] {
  return (server.args ?? []).map((arg) => textOf(arg, reference, host, name, 'a secret argument'));
}

/** The URL as text for `host`. */
function urlText(server: ServerToWrite, host: string, name: string): string {
  return textOf(server.url!, undefined, host, name, 'a URL');
}

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
      ...(server.args?.length ? { args: argTexts(server, reference, host, name) } : {}),
      ...values(server.env, 'env'),
    };
  const type = server.transport === 'sse' ? 'sse' : (options.httpType ?? 'http');
  return {
    ...(options.typeHttp || server.transport === 'sse' ? { type } : {}),
    [options.urlKey ?? 'url']: urlText(server, host, name),
    ...values(server.headers, 'headers'),
  };
}

function openCode(server: ServerToWrite, name: string): Entry {
  const reference: Reference = (variable) => `{env:${variable}}`;
  if (server.transport === 'stdio')
    return {
      type: 'local',
      command: [server.command!, ...argTexts(server, reference, 'opencode', name)],
      ...(server.env && Object.keys(server.env).length
        ? { environment: texts(server.env, reference, 'opencode', name) }
        : {}),
      enabled: true,
    };
  return {
    type: 'remote',
    url: urlText(server, 'opencode', name),
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
      ...(server.args?.length ? { args: argTexts(server, undefined, 'codex', name) } : {}),
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
    url: urlText(server, 'codex', name),
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
      args: argTexts(server, undefined, 'goose', name),
      ...(Object.keys(literal).length ? { envs: literal } : {}),
      ...(referenced.length ? { env_keys: referenced.map(([key, ref]) => sameName(key, ref, 'goose', name)) } : {}),
    };
  }
  const { literal, referenced } = split(server.headers);
  if (referenced.length) throw refused('goose', 'headers cannot name variables there', name);
  return {
    ...common,
    type: server.transport === 'sse' ? 'sse' : 'streamable_http',
    uri: urlText(server, 'goose', name),
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
    else if ('literal' in value)
      literal[key] = value.literal; // Codex and Goose expand nothing
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
    Object.entries(record).map(([key, value]) => [key, textOf(value, reference, host, name, '--env-ref')]),
  );
}

function refused(host: string, why: string, name?: string): McpError {
  return new McpError('INVALID_ARGUMENT', `${host}: ${why}`, name !== undefined ? { server: name } : {});
}
