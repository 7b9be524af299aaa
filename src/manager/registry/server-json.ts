/**
 * A `server.json` (the MCP Registry's server description, schema 2025-12-11) read from untrusted
 * JSON: {@link readServerJson} checks the fields mcpwire uses and keeps only those, so nothing
 * downstream handles a value of the wrong type. Pure: no I/O.
 */
import { ConfigError } from '../../protocol/errors.js';

/** One input (an argument's value, an environment variable, a header, a URL variable). */
export interface InputSpec {
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  format?: 'string' | 'number' | 'boolean' | 'filepath';
  /** A fixed value; `{name}` in it is replaced from {@link variables}. */
  value?: string;
  default?: string;
  placeholder?: string;
  choices?: string[];
  variables?: Record<string, InputSpec>;
}

/** A command-line argument: positional (`valueHint` names it) or named (`name` is the flag, dashes included). */
export interface ArgumentSpec extends InputSpec {
  type: 'positional' | 'named';
  name?: string;
  valueHint?: string;
  isRepeated?: boolean;
}

/** An environment variable or a header. */
export interface KeyValueSpec extends InputSpec {
  name: string;
}

/** A package registry's kinds in `registryType`. */
export type RegistryType = 'npm' | 'pypi' | 'oci' | 'nuget' | 'mcpb' | (string & {});

/** One entry of `packages[]`. */
export interface PackageJson {
  registryType: RegistryType;
  identifier: string;
  /** Never `latest`; optional for OCI and MCPB. */
  version?: string;
  registryBaseUrl?: string;
  /** 64 lowercase hex digits. */
  fileSha256?: string;
  runtimeHint?: string;
  transport: { type: 'stdio' | 'streamable-http' | 'sse'; url?: string };
  runtimeArguments: ArgumentSpec[];
  packageArguments: ArgumentSpec[];
  environmentVariables: KeyValueSpec[];
}

/** One entry of `remotes[]`: a hosted server, its URL a template (`{tenant}`) over `variables`. */
export interface RemoteJson {
  type: 'streamable-http' | 'sse';
  url: string;
  headers: KeyValueSpec[];
  variables: Record<string, InputSpec>;
}

/** The fields of a `server.json` mcpwire uses. */
export interface ServerJson {
  /** Reverse-DNS: `io.github.user/server`. */
  name: string;
  description: string;
  version: string;
  title?: string;
  websiteUrl?: string;
  repository?: { url: string; source?: string };
  packages: PackageJson[];
  remotes: RemoteJson[];
}

/**
 * `value` checked as a `server.json` from `source` (a file or a URL, for the message). Throws
 * `CONFIG_INVALID` naming `source` and the field (`packages[0].transport.type`) at fault.
 */
export function readServerJson(value: unknown, source: string): ServerJson {
  const r = new Reader(source);
  const doc = r.object(value, '');
  const server: ServerJson = {
    name: r.string(doc.name, 'name', true)!,
    description: r.string(doc.description, 'description', true)!,
    version: r.string(doc.version, 'version', true)!,
    packages: r.list(doc.packages, 'packages', (item, at) => readPackage(r, item, at)),
    remotes: r.list(doc.remotes, 'remotes', (item, at) => readRemote(r, item, at)),
  };
  if (!/^[A-Za-z0-9][\w.-]*\/[\w.@-]+$/.test(server.name))
    r.fail('name', `"${server.name}" is not a registry name (reverse-DNS namespace/name)`);
  const title = r.string(doc.title, 'title');
  if (title !== undefined) server.title = title;
  const website = r.string(doc.websiteUrl, 'websiteUrl');
  if (website !== undefined) server.websiteUrl = website;
  if (doc.repository !== undefined) {
    const repo = r.object(doc.repository, 'repository');
    server.repository = { url: r.string(repo.url, 'repository.url', true)! };
    const from = r.string(repo.source, 'repository.source');
    if (from !== undefined) server.repository.source = from;
  }
  return server;
}

function readPackage(r: Reader, value: unknown, at: string): PackageJson {
  const raw = r.object(value, at);
  const transport = r.object(raw.transport, `${at}.transport`);
  const type = r.oneOf(transport.type, `${at}.transport.type`, ['stdio', 'streamable-http', 'sse'] as const, true)!;
  const pkg: PackageJson = {
    registryType: r.string(raw.registryType, `${at}.registryType`, true)!,
    identifier: r.string(raw.identifier, `${at}.identifier`, true)!,
    transport: { type },
    runtimeArguments: r.list(raw.runtimeArguments, `${at}.runtimeArguments`, (item, where) =>
      readArgument(r, item, where),
    ),
    packageArguments: r.list(raw.packageArguments, `${at}.packageArguments`, (item, where) =>
      readArgument(r, item, where),
    ),
    environmentVariables: r.list(raw.environmentVariables, `${at}.environmentVariables`, (item, where) =>
      readKeyValue(r, item, where),
    ),
  };
  const url = r.string(transport.url, `${at}.transport.url`);
  if (url !== undefined) pkg.transport.url = url;
  const version = r.string(raw.version, `${at}.version`);
  if (version !== undefined) {
    if (version === 'latest' || version === '') r.fail(`${at}.version`, 'must be a specific version, not "latest"');
    pkg.version = version;
  }
  for (const key of ['registryBaseUrl', 'runtimeHint'] as const) {
    const text = r.string(raw[key], `${at}.${key}`);
    if (text !== undefined) pkg[key] = text;
  }
  const digest = r.string(raw.fileSha256, `${at}.fileSha256`);
  if (digest !== undefined) {
    if (!/^[a-f0-9]{64}$/.test(digest)) r.fail(`${at}.fileSha256`, 'must be 64 lowercase hex digits');
    pkg.fileSha256 = digest;
  }
  return pkg;
}

function readRemote(r: Reader, value: unknown, at: string): RemoteJson {
  const raw = r.object(value, at);
  return {
    type: r.oneOf(raw.type, `${at}.type`, ['streamable-http', 'sse'] as const, true)!,
    url: r.string(raw.url, `${at}.url`, true)!,
    headers: r.list(raw.headers, `${at}.headers`, (item, where) => readKeyValue(r, item, where)),
    variables: readVariables(r, raw.variables, `${at}.variables`),
  };
}

function readArgument(r: Reader, value: unknown, at: string): ArgumentSpec {
  const raw = r.object(value, at);
  const arg: ArgumentSpec = {
    ...readInput(r, raw, at),
    type: r.oneOf(raw.type, `${at}.type`, ['positional', 'named'] as const, true)!,
  };
  const name = r.string(raw.name, `${at}.name`, arg.type === 'named');
  if (name !== undefined) arg.name = name;
  const hint = r.string(raw.valueHint, `${at}.valueHint`);
  if (hint !== undefined) arg.valueHint = hint;
  const repeated = r.boolean(raw.isRepeated, `${at}.isRepeated`);
  if (repeated !== undefined) arg.isRepeated = repeated;
  if (arg.type === 'positional' && arg.value === undefined && arg.valueHint === undefined)
    r.fail(at, 'a positional argument needs value or valueHint');
  return arg;
}

function readKeyValue(r: Reader, value: unknown, at: string): KeyValueSpec {
  const raw = r.object(value, at);
  return { ...readInput(r, raw, at), name: r.string(raw.name, `${at}.name`, true)! };
}

function readInput(r: Reader, raw: Record<string, unknown>, at: string): InputSpec {
  const input: InputSpec = {};
  for (const key of ['description', 'value', 'default', 'placeholder'] as const) {
    const text = r.string(raw[key], `${at}.${key}`);
    if (text !== undefined) input[key] = text;
  }
  for (const key of ['isRequired', 'isSecret'] as const) {
    const yes = r.boolean(raw[key], `${at}.${key}`);
    if (yes !== undefined) input[key] = yes;
  }
  const format = r.oneOf(raw.format, `${at}.format`, ['string', 'number', 'boolean', 'filepath'] as const);
  if (format !== undefined) input.format = format;
  if (raw.choices !== undefined)
    input.choices = r.list(raw.choices, `${at}.choices`, (item, where) => r.string(item, where, true)!);
  if (raw.variables !== undefined) input.variables = readVariables(r, raw.variables, `${at}.variables`);
  return input;
}

function readVariables(r: Reader, value: unknown, at: string): Record<string, InputSpec> {
  if (value === undefined) return {};
  const raw = r.object(value, at);
  const out: Record<string, InputSpec> = {};
  for (const [key, item] of Object.entries(raw)) {
    if (!/^[A-Za-z_][\w-]*$/.test(key)) r.fail(`${at}.${key}`, 'is not a variable name');
    out[key] = readInput(r, r.object(item, `${at}.${key}`), `${at}.${key}`);
  }
  return out;
}

/** Typed reads that fail naming the field. */
class Reader {
  constructor(private readonly source: string) {}

  fail(field: string, why: string): never {
    throw new ConfigError(`${this.source}: ${field || 'the document'} ${why}`, {
      file: this.source,
      ...(field ? { field } : {}),
    });
  }

  object(value: unknown, field: string): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(field, 'must be an object');
    return value as Record<string, unknown>;
  }

  string(value: unknown, field: string, required = false): string | undefined {
    if (value === undefined || value === null) {
      if (required) this.fail(field, 'is required');
      return undefined;
    }
    if (typeof value !== 'string') this.fail(field, 'must be a string');
    return value;
  }

  boolean(value: unknown, field: string): boolean | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') this.fail(field, 'must be true or false');
    return value;
  }

  oneOf<T extends string>(value: unknown, field: string, allowed: readonly T[], required = false): T | undefined {
    const text = this.string(value, field, required);
    if (text !== undefined && !allowed.includes(text as T)) this.fail(field, `must be one of ${allowed.join(', ')}`);
    return text as T | undefined;
  }

  list<T>(value: unknown, field: string, item: (value: unknown, at: string) => T): T[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) this.fail(field, 'must be a list');
    return value.map((entry, i) => item(entry, `${field}[${i}]`));
  }
}
