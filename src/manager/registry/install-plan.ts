/**
 * A `server.json` as the server entry that runs it ({@link planInstall}): npm ⇒ `npx -y id@ver`,
 * pypi ⇒ `uvx id==ver`, oci ⇒ `docker run -i --rm [-e NAME]… id:ver`, a remote ⇒ its URL and
 * headers. Runtime arguments go before the package, package arguments after it; a named argument
 * is two argv items (`--port`, `8080`). The result is argv, one element per argument, for a
 * spawn without a shell (the registry's `Argument` warns of `; rm -rf ~`).
 *
 * What a publisher wrote is {@link LiteralText}: never expanded as `${VAR}` by mcpwire or a host,
 * so a server.json cannot read the user's variables. Secret inputs become references to
 * environment variables (`${NAME}`), never values. NUL and line breaks are refused everywhere,
 * and so is an identifier or version that starts with `-` (it would be read as an option). Pure.
 */
import { McpError } from '../../protocol/errors.js';
import type { GivenValue, LiteralText, ServerToWrite, VariableReference } from '../config/edit/entry-shapes.js';
import type { ArgumentSpec, InputSpec, KeyValueSpec, PackageJson, RemoteJson, ServerJson } from './server-json.js';

/** What can be installed: a package kind, or a hosted server. */
export type InstallKind = 'npm' | 'pypi' | 'oci' | 'remote';

/** The kinds {@link planInstall} installs. */
export const INSTALL_KINDS: readonly InstallKind[] = ['npm', 'pypi', 'oci', 'remote'];

/** An input the plan needs a value for: pass it as `inputs[key]` (`--input key=V`). */
export interface MissingInput extends InputSpec {
  key: string;
  /** Where it is used: `packages[0].environmentVariables[1]`. */
  field: string;
}

/** What {@link planInstall} gives. */
export interface InstallPlan {
  /** The entry to write through `config add`'s editors (complete only when `missing` is empty). */
  server: ServerToWrite;
  kind: InstallKind;
  /** The package installed (undefined for a remote). */
  package?: PackageJson;
  /** Required inputs without a value. */
  missing: MissingInput[];
  /** The environment variables the entry refers to (the secrets): set them where the server runs. */
  secrets: string[];
  /** Warnings and facts worth showing before writing. */
  notices: string[];
}

export interface PlanInstallOptions {
  /** The kind to install; default the first package mcpwire can run, else the first remote. */
  pick?: string;
  /** Values by input key (an env var's or header's name, a named argument without dashes, a valueHint). */
  inputs: Readonly<Record<string, string>>;
  /** The registry's status of this version: `deleted` is refused, `deprecated` warned. */
  status?: string;
}

const RUNTIME: Record<'npm' | 'pypi' | 'oci', string> = { npm: 'npx', pypi: 'uvx', oci: 'docker' };
const DEFAULT_BASE: Record<'npm' | 'pypi' | 'oci', string[]> = {
  npm: ['https://registry.npmjs.org'],
  pypi: ['https://pypi.org'],
  oci: ['https://docker.io', 'https://registry-1.docker.io'],
};
const IDENTIFIER: Record<'npm' | 'pypi' | 'oci', RegExp> = {
  npm: /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i,
  pypi: /^[A-Za-z0-9][\w.-]*$/,
  oci: /^[a-z0-9][\w./:-]*$/i,
};

/**
 * `doc` as a server entry; see the file comment. Throws `INVALID_ARGUMENT` for what it will not
 * install (a deleted server, an mcpb or nuget package, an unsafe identifier, a value with a line
 * break, a choice not offered), naming the server and the field.
 */
export function planInstall(doc: ServerJson, options: PlanInstallOptions): InstallPlan {
  const notices: string[] = [];
  if (options.status === 'deleted') throw refuse(doc, 'is deleted in the registry; it is not installed');
  if (options.status === 'deprecated')
    notices.push(`${doc.name} ${doc.version} is deprecated in the registry; look for its replacement`);
  const state = new Inputs(doc, options.inputs);
  const choice = pickSource(doc, options.pick, notices);
  const plan =
    choice.kind === 'remote'
      ? planRemote(doc, choice.remote, choice.at, state)
      : planPackage(doc, choice.pkg, choice.kind, choice.at, state, notices);
  for (const key of Object.keys(options.inputs))
    if (!state.used.has(key)) notices.push(`--input ${key} is not an input of ${doc.name}; it was not used`);
  return {
    ...plan,
    missing: state.missing,
    secrets: [...state.secrets],
    notices: [...notices, ...state.notices],
  };
}

type Source =
  { kind: 'npm' | 'pypi' | 'oci'; pkg: PackageJson; at: string } | { kind: 'remote'; remote: RemoteJson; at: string };

function pickSource(doc: ServerJson, pick: string | undefined, notices: string[]): Source {
  if (pick !== undefined && !INSTALL_KINDS.includes(pick as InstallKind))
    throw refuse(
      doc,
      unsupported(pick) ?? `has no package kind "${pick}" (mcpwire installs ${INSTALL_KINDS.join(', ')})`,
    );
  const sources: Source[] = [];
  doc.packages.forEach((pkg, i) => {
    const kind: string = pkg.registryType;
    if (kind !== 'npm' && kind !== 'pypi' && kind !== 'oci') return;
    if (pkg.transport.type !== 'stdio') {
      if (pick === kind)
        throw refuse(
          doc,
          `packages[${i}] (${kind}) serves ${pkg.transport.type}, not stdio; mcpwire runs local packages over stdio only`,
        );
      notices.push(
        `packages[${i}] (${kind}) serves ${pkg.transport.type}; skipped (local packages run over stdio only)`,
      );
      return;
    }
    sources.push({ kind, pkg, at: `packages[${i}]` });
  });
  doc.remotes.forEach((remote, i) => sources.push({ kind: 'remote', remote, at: `remotes[${i}]` }));
  const found = sources.find((source) => pick === undefined || source.kind === pick);
  if (found) return found;
  const kinds = [...doc.packages.map((p) => p.registryType), ...doc.remotes.map(() => 'remote')];
  const odd = kinds.map(unsupported).find((why) => why !== undefined);
  if (pick !== undefined)
    throw refuse(doc, `has no ${pick} package${kinds.length ? ` (it has: ${[...new Set(kinds)].join(', ')})` : ''}`);
  throw refuse(doc, odd ?? 'has no package or remote that mcpwire can install');
}

function unsupported(kind: string): string | undefined {
  if (kind === 'mcpb')
    return 'is an mcpb bundle; mcpwire does not install mcpb packages (use a host that does, e.g. Claude Desktop)';
  if (kind === 'nuget')
    return 'is a nuget package; mcpwire does not install nuget packages (run it with dnx and add it with config add)';
  return undefined;
}

function planPackage(
  doc: ServerJson,
  pkg: PackageJson,
  kind: 'npm' | 'pypi' | 'oci',
  at: string,
  state: Inputs,
  notices: string[],
): Pick<InstallPlan, 'server' | 'kind' | 'package'> {
  const runtime = RUNTIME[kind];
  if (pkg.runtimeHint !== undefined && pkg.runtimeHint !== runtime)
    throw refuse(
      doc,
      `${at}.runtimeHint "${pkg.runtimeHint}" is not ${runtime}; mcpwire runs ${kind} packages with ${runtime} only`,
    );
  safeWord(doc, pkg.identifier, `${at}.identifier`);
  if (!IDENTIFIER[kind].test(pkg.identifier))
    throw refuse(doc, `${at}.identifier "${pkg.identifier}" is not a ${kind} package name`);
  if (pkg.version !== undefined) {
    safeWord(doc, pkg.version, `${at}.version`);
    if (!/^[\w.+!-]+$/.test(pkg.version)) throw refuse(doc, `${at}.version "${pkg.version}" is not a version`);
  } else notices.push(`${at} has no version: the newest ${kind} release will run, whatever it is`);
  const registry: GivenValue[] = [];
  const base = pkg.registryBaseUrl?.replace(/\/+$/, '');
  if (base !== undefined && !DEFAULT_BASE[kind].includes(base)) {
    if (!/^https:\/\/|^http:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/.test(base))
      throw refuse(doc, `${at}.registryBaseUrl "${base}" must be https`);
    safeWord(doc, base, `${at}.registryBaseUrl`);
    if (kind === 'npm') registry.push(lit('--registry'), lit(base));
    else if (kind === 'pypi') registry.push(lit('--index-url'), lit(base));
    else notices.push(`${at}.registryBaseUrl ${base}: docker pulls from the registry named in the image`);
  }
  const runtimeArgs = pkg.runtimeArguments.flatMap((arg, i) => argument(state, arg, `${at}.runtimeArguments[${i}]`));
  const packageArgs = pkg.packageArguments.flatMap((arg, i) => argument(state, arg, `${at}.packageArguments[${i}]`));
  const env: Record<string, GivenValue> = {};
  pkg.environmentVariables.forEach((spec, i) => {
    const field = `${at}.environmentVariables[${i}]`;
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(spec.name))
      throw refuse(doc, `${field}.name "${spec.name}" is not an environment variable name`);
    const value = state.value(spec, spec.name, field, spec.name);
    if (value !== undefined) env[spec.name] = value;
  });
  const v = pkg.version;
  const id = pkg.identifier;
  let args: GivenValue[];
  if (kind === 'npm') args = ['-y', ...registry, ...runtimeArgs, lit(v ? `${id}@${v}` : id), ...packageArgs];
  else if (kind === 'pypi') args = [...registry, ...runtimeArgs, lit(v ? `${id}==${v}` : id), ...packageArgs];
  else {
    const passed = Object.keys(env).flatMap((name) => ['-e', name]);
    args = ['run', '-i', '--rm', ...runtimeArgs, ...passed, lit(v ? `${id}:${v}` : id), ...packageArgs];
    if (!id.includes('@sha256:'))
      notices.push(`${id} is not pinned by digest; docker cannot check it (pin it with @sha256:…)`);
  }
  const server: ServerToWrite = {
    transport: 'stdio',
    command: runtime,
    args,
    ...(Object.keys(env).length ? { env } : {}),
  };
  return { server, kind, package: pkg };
}

function planRemote(
  doc: ServerJson,
  remote: RemoteJson,
  at: string,
  state: Inputs,
): Pick<InstallPlan, 'server' | 'kind'> {
  let incomplete = false;
  const url = remote.url.replace(/\{([A-Za-z_][\w-]*)\}/g, (match, key: string) => {
    const spec = remote.variables[key];
    if (!spec) return match;
    if (spec.isSecret) throw refuse(doc, `${at}.url: variable {${key}} is a secret; a secret cannot be part of a URL`);
    const value = state.plain(spec, key, `${at}.variables.${key}`);
    if (value === undefined) {
      incomplete = true;
      return match;
    }
    return encodeURIComponent(value);
  });
  safeWord(doc, url, `${at}.url`);
  if (!incomplete) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(url);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
      throw refuse(doc, `${at}.url "${url}" is not an http(s) URL`);
  }
  const headers: Record<string, GivenValue> = {};
  remote.headers.forEach((spec: KeyValueSpec, i) => {
    const field = `${at}.headers[${i}]`;
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(spec.name))
      throw refuse(doc, `${field}.name "${spec.name}" is not a header name`);
    const value = state.value(spec, spec.name, field, envName(spec.name));
    if (value !== undefined) headers[spec.name] = value;
  });
  return {
    kind: 'remote',
    server: {
      transport: remote.type === 'sse' ? 'sse' : 'http',
      url: lit(url),
      ...(Object.keys(headers).length ? { headers } : {}),
    },
  };
}

/** One argument as argv items: a named one is its flag and value (two items) or a bare flag. */
function argument(state: Inputs, arg: ArgumentSpec, field: string): GivenValue[] {
  if (arg.type === 'positional') {
    const key = arg.valueHint ?? field;
    const value = state.value(arg, key, field, envName(key));
    return value === undefined ? [] : [value];
  }
  const name = arg.name!;
  safeWord(state.doc, name, `${field}.name`);
  if (!/^-{1,2}[A-Za-z0-9][\w.:-]*$/.test(name))
    throw refuse(state.doc, `${field}.name "${name}" is not an option name (--name)`);
  const key = name.replace(/^-+/, '');
  const declaresInput =
    arg.value !== undefined ||
    arg.default !== undefined ||
    arg.isRequired === true ||
    arg.isSecret === true ||
    arg.valueHint !== undefined ||
    arg.choices !== undefined ||
    arg.format !== undefined ||
    key in state.given;
  if (!declaresInput) return [lit(name)]; // a bare flag
  const value = state.value(arg, key, field, envName(key));
  return value === undefined ? [] : [lit(name), value];
}

/** The inputs of one plan: values given, values used, what is missing, the secrets referred to. */
class Inputs {
  readonly used = new Set<string>();
  readonly missing: MissingInput[] = [];
  readonly secrets = new Set<string>();
  readonly notices: string[] = [];

  constructor(
    readonly doc: ServerJson,
    readonly given: Readonly<Record<string, string>>,
  ) {}

  /**
   * The value of input `spec` (keyed `key`): a reference to `variable` for a secret without a
   * fixed value; else the given value, the fixed `value` (its `{vars}` filled), the `default`;
   * undefined when optional and unset (a required one is added to `missing`).
   */
  value(spec: InputSpec, key: string, field: string, variable: string): GivenValue | undefined {
    if (spec.isSecret && spec.value === undefined) return this.secret(key, variable);
    if (spec.value !== undefined) return this.template(spec, field);
    const text = this.plain(spec, key, field);
    return text === undefined ? undefined : lit(text);
  }

  /** A non-secret input as text (given, else default), checked; undefined when unset. */
  plain(spec: InputSpec, key: string, field: string): string | undefined {
    const given = Object.hasOwn(this.given, key) ? this.given[key] : undefined;
    if (given !== undefined) this.used.add(key);
    const text = given ?? (spec.value !== undefined && !spec.value.includes('{') ? spec.value : spec.default);
    if (text === undefined) {
      if (spec.isRequired) this.missing.push({ ...spec, key, field });
      return undefined;
    }
    safeWord(this.doc, text, given !== undefined ? `--input ${key}` : field);
    if (given !== undefined && spec.choices?.length && !spec.choices.includes(given))
      throw new McpError('INVALID_ARGUMENT', `--input ${key} must be one of ${spec.choices.join(', ')}`, {
        server: this.doc.name,
      });
    if (given !== undefined && spec.format === 'number' && !Number.isFinite(Number(given)))
      throw new McpError('INVALID_ARGUMENT', `--input ${key} must be a number`, { server: this.doc.name });
    if (given !== undefined && spec.format === 'boolean' && given !== 'true' && given !== 'false')
      throw new McpError('INVALID_ARGUMENT', `--input ${key} must be true or false`, { server: this.doc.name });
    return text;
  }

  private secret(key: string, variable: string): VariableReference {
    if (Object.hasOwn(this.given, key)) {
      this.used.add(key);
      this.notices.push(`${key} is a secret: the value given was not written; set ${variable} where the server runs`);
    }
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable))
      throw refuse(this.doc, `secret "${key}" cannot be named as an environment variable`);
    this.secrets.add(variable);
    return { variable, prefix: '' };
  }

  /** A fixed `value` with its `{vars}` filled: literal text, or literal text ending in one secret reference. */
  private template(spec: InputSpec, field: string): GivenValue | undefined {
    const text = spec.value!;
    safeWord(this.doc, text, `${field}.value`);
    let prefix = '';
    let reference: VariableReference | undefined;
    let incomplete = false;
    const pattern = /\{([A-Za-z_][\w-]*)\}/g;
    let last = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const key = match[1]!;
      const variable = spec.variables?.[key];
      if (!variable) continue; // left as written (the schema's rule)
      if (reference)
        throw refuse(this.doc, `${field}.value has text after its secret {…}; only a trailing secret can be written`);
      const before = text.slice(last, match.index);
      last = match.index + match[0].length;
      if (variable.isSecret && variable.value === undefined) {
        reference = { ...this.secret(key, envName(key)), prefix: prefix + before };
        prefix = '';
        continue;
      }
      const filled = this.plain(variable, key, `${field}.variables.${key}`);
      if (filled === undefined) incomplete = true;
      prefix += before + (filled ?? match[0]);
    }
    const rest = text.slice(last);
    if (reference) {
      if (rest !== '')
        throw refuse(this.doc, `${field}.value has text after its secret {…}; only a trailing secret can be written`);
      return reference;
    }
    return incomplete ? undefined : lit(prefix + rest);
  }
}

function lit(text: string): LiteralText {
  return { literal: text };
}

/** Refuses NUL and line breaks (`field` names where), and a leading `-` in identifiers and versions. */
function safeWord(doc: ServerJson, text: string, field: string): void {
  if (/[\u0000\r\n]/.test(text)) throw refuse(doc, `${field} holds a NUL or a line break; not installed`);
  if (/\.(identifier|version)$/.test(field) && text.startsWith('-'))
    throw refuse(doc, `${field} "${text}" starts with "-" and would be read as an option; not installed`);
}

function refuse(doc: ServerJson, why: string): McpError {
  return new McpError('INVALID_ARGUMENT', `${doc.name} ${why}`, { server: doc.name });
}

/** `my-header` as `MY_HEADER`. */
function envName(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^(?=\d)/, '_');
}

/**
 * The command line of `server` as a person reads it, one argv element per item (quoted when it
 * holds anything a shell would split), secrets as `***`; or the URL and headers of a remote.
 */
export function shownInstall(server: ServerToWrite): string[] {
  const text = (value: GivenValue): string =>
    typeof value === 'string' ? value : 'literal' in value ? value.literal : `${value.prefix}***`;
  const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
  if (server.transport === 'stdio') {
    const lines = [[server.command!, ...(server.args ?? []).map(text)].map(quote).join(' ')];
    for (const [key, value] of Object.entries(server.env ?? {}))
      lines.push(
        `env ${key}=${typeof value !== 'string' && 'variable' in value ? `\${${value.variable}}` : text(value)}`,
      );
    return lines;
  }
  const lines = [`${server.transport === 'sse' ? 'sse' : 'http'} ${text(server.url!)}`];
  for (const [key, value] of Object.entries(server.headers ?? {}))
    lines.push(
      `header ${key}: ${typeof value !== 'string' && 'variable' in value ? `${value.prefix}\${${value.variable}}` : text(value)}`,
    );
  return lines;
}
