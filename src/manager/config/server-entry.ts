/**
 * One raw server entry (as a host's config file holds it) → a {@link ManagedServer}: the
 * transport inferred or mapped from the names hosts use, types checked with an ajv schema of our
 * own, required fields named in the error ("command" for stdio, "url" for http/sse), an unknown
 * key that looks like one of ours (`argz`) an error naming the key meant, other unknown keys
 * reported as warnings. Variables are expanded before this step.
 */
import { createRequire } from 'node:module';
import { ConfigError } from '../../protocol/errors.js';
import { closest } from '../../protocol/option-keys.js';
import type { ManagedServer, Provenance } from '../servers/managed-server.js';
import { inWords, type FieldComplaint } from './field-wording.js';
import { SERVER_ENTRY_SCHEMA } from './server-schema.js';

/** The keys this layer reads. */
const READ = new Set([
  'type',
  'transport',
  'command',
  'args',
  'env',
  'cwd',
  'envFile',
  'url',
  'headers',
  'headersHelper',
  'enabled',
  'disabled',
  'autoConnect',
  'timeoutMs',
  'startupTimeoutMs',
  'toolTimeoutMs',
  'includeTools',
  'excludeTools',
  'restart',
  'oauth',
]);

/** The keys of an entry that are no mistake: ours, and fields other hosts write that mean nothing here. */
const KNOWN = new Set([...READ, 'description', 'alwaysAllow', 'autoApprove', 'timeout', 'gallery', 'version', 'dev']);

/** The keys of a raw server entry that mean nothing here (a config file warns about them and ignores them). */
export function unknownEntryKeys(entry: Record<string, unknown>): string[] {
  return Object.keys(entry).filter((key) => !KNOWN.has(key));
}

/** Names people write for a key this layer reads. */
const MEANT: Record<string, string> = {
  arguments: 'args',
  argv: 'args',
  cmd: 'command',
  environment: 'env',
  workingDirectory: 'cwd',
  endpoint: 'url',
};

/**
 * The key an unknown entry key was probably meant to be (`argz` ⇒ `args`, `Command` ⇒ `command`),
 * or undefined when it looks like no key of ours. Such a key is an error, not a warning: the
 * server would start without what it meant (`node` with no script waits for its handshake until
 * the connect times out).
 */
export function meantEntryKey(key: string): string | undefined {
  return Object.hasOwn(MEANT, key) ? MEANT[key] : closest(key, READ);
}

interface Validator {
  (value: unknown): boolean;
  errors?: Array<FieldComplaint & { instancePath: string }> | null;
}
let validate: Validator | undefined;

/** Ajv, loaded on first use (a config with no servers never pays for it). */
function compile(schema: object): Validator {
  const require = createRequire(import.meta.url);
  const Ajv = require('ajv') as { default: new (o: object) => { compile(s: object): Validator } };
  return new Ajv.default({ allErrors: true, strict: false, verbose: true }).compile(schema);
}

/** Maps host transport names: VS Code `streamable-http`/`streamableHttp`, `local` ⇒ stdio, … */
function transportOf(entry: Record<string, unknown>): unknown {
  const named = entry.type ?? entry.transport;
  if (named === undefined) return inferredTransport(entry);
  if (typeof named !== 'string') return named;
  const key = named.toLowerCase().replace(/[-_]/g, '');
  if (key === 'stdio' || key === 'local' || key === 'process') return 'stdio';
  if (key === 'http' || key === 'streamablehttp' || key === 'streamable') return 'http';
  if (key === 'sse') return 'sse';
  return named;
}

/**
 * Checks and converts one expanded entry. Throws `CONFIG_INVALID` naming file, server and the
 * field (JSON path) at fault; pushes unknown keys to `warnings`.
 */
export function toManagedServer(
  name: string,
  raw: unknown,
  provenance: Provenance,
  warnings: string[],
  secrets: Set<string>,
): ManagedServer {
  const where = `${provenance.file}: server "${name}"`;
  const site = { file: provenance.file, server: name };
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError('must be an object', site);
  const entry = commandLine(raw as Record<string, unknown>, site);
  for (const key of unknownEntryKeys(entry)) {
    const meant = meantEntryKey(key);
    if (meant !== undefined)
      throw new ConfigError(
        `unknown key "${key}" (did you mean "${meant}"?); the server is left out until this is fixed`,
        {
          ...site,
          field: key,
        },
      );
    warnings.push(`${where}: unknown key "${key}" (ignored)`);
  }
  const transport = transportOf(entry);
  if (transport === undefined) throw new ConfigError('needs a "command" (stdio) or a "url" (http, sse)', site);
  const unknownTransport = transportProblem(transport);
  if (unknownTransport) throw new ConfigError(unknownTransport, { ...site, field: 'transport' });
  const missing = missingTarget(transport, entry);
  if (missing) throw new ConfigError(missing.message, { ...site, field: missing.field });
  const candidate: Record<string, unknown> = { ...entry, transport };
  delete candidate.type;
  if (transport === 'stdio' && candidate.headersHelper !== undefined) {
    // Headers mean nothing to a child process: never run it for one.
    warnings.push(
      `${where}: "headersHelper" applies to URL servers only; a stdio server takes its credentials from "env" (ignored)`,
    );
    delete candidate.headersHelper;
  }
  if (candidate.disabled === true) candidate.enabled = false;
  for (const key of Object.keys(candidate)) if (!(key in SERVER_ENTRY_SCHEMA.properties)) delete candidate[key];
  const problem = entryFieldProblem(candidate);
  if (problem) throw new ConfigError(`${problem.field} ${problem.message}`, { ...site, field: problem.field });
  const restart = candidate.restart === 'never' ? false : (candidate.restart as ManagedServer['restart']);
  const server: ManagedServer = {
    ...(candidate as unknown as ManagedServer),
    name,
    provenance,
    ...(restart !== undefined ? { restart } : {}),
  };
  if (secrets.size > 0) server.secrets = [...secrets];
  return server;
}

/**
 * The message for a `transport` (or `type`) that is none of ours, naming what it may be; undefined
 * for `stdio`, `http` and `sse`.
 */
export function transportProblem(transport: unknown): string | undefined {
  if (transport === 'stdio' || transport === 'http' || transport === 'sse') return undefined;
  const given = typeof transport === 'string' && transport.length <= 40 ? `"${transport}"` : `a ${typeof transport}`;
  return `transport must be "stdio", "http" (Streamable HTTP) or "sse", or left out ("command" means stdio, "url" http); got ${given}`;
}

/**
 * The transport an entry without one means: `stdio` when it has a `command`, `http` when it has a
 * `url`; undefined when it has neither.
 */
export function inferredTransport(entry: Record<string, unknown>): 'stdio' | 'http' | undefined {
  return entry.command !== undefined ? 'stdio' : entry.url !== undefined ? 'http' : undefined;
}

/**
 * The field a server of `transport` lacks to be reached (`command` for stdio, `url` for http and
 * sse), with the message that says so; undefined when it has it.
 */
export function missingTarget(
  transport: unknown,
  entry: Record<string, unknown>,
): { field: string; message: string } | undefined {
  if (transport === 'stdio' && typeof entry.command !== 'string')
    return { field: 'command', message: 'a stdio server needs a "command"' };
  if ((transport === 'http' || transport === 'sse') && typeof entry.url !== 'string')
    return { field: 'url', message: `an ${transport} server needs a "url"` };
  return undefined;
}

/**
 * The first problem of `candidate`'s fields under the entry schema (`transport` already one of
 * ours; keys the schema does not know are not read), as a dotted field path and a message such as
 * `must be a whole number, got a string`; undefined when every field is valid.
 */
export function entryFieldProblem(candidate: Record<string, unknown>): { field: string; message: string } | undefined {
  validate ??= compile(SERVER_ENTRY_SCHEMA);
  return validate(candidate) ? undefined : describeError(validate.errors!);
}

/**
 * `command: ["python", "db_server.py"]` (workflow files, Docker-style) as `command: "python"` with
 * `db_server.py` before any `args`. Throws `CONFIG_INVALID` for an array that is empty or holds
 * anything but non-empty strings.
 */
function commandLine(entry: Record<string, unknown>, site: { file: string; server: string }): Record<string, unknown> {
  if (!Array.isArray(entry.command)) return entry;
  const command: unknown[] = entry.command;
  if (command.length === 0 || !command.every((part) => typeof part === 'string' && part !== '')) {
    throw new ConfigError(
      'command must be a string or a non-empty array of non-empty strings (["python", "server.py"])',
      { ...site, field: 'command' },
    );
  }
  // The schema names "args".
  if (entry.args !== undefined && !Array.isArray(entry.args)) return { ...entry, command: command[0] };
  return {
    ...entry,
    command: command[0],
    args: [...command.slice(1), ...((entry.args as unknown[] | undefined) ?? [])],
  };
}

type SchemaError = NonNullable<Validator['errors']>[number];

/** What a field with several forms may be, for a value that matches none of them. */
const FORMS: Record<string, string> = {
  restart: 'must be false, "never" or { maxRestarts, initialDelayMs, maxDelayMs, resetAfterMs }',
  oauth:
    'must be false or { clientId, clientSecret, scopes, callbackPort, clientMetadataUrl, grant, privateKeyFile, signingAlgorithm, tokenEndpointAuthMethod }',
};

/**
 * The one error to show, as a dotted field path and a message. A value that matches none of an
 * `anyOf`'s forms (`restart`, `oauth`) is described by its allowed forms rather than by the
 * first form's complaint, unless it is an object with a key no form knows (then that key is
 * named), a field of the object form is at fault (then that field), or a rule of the object form
 * is broken (a `clientSecret` without a `clientId`).
 */
function describeError(errors: SchemaError[]): { field: string; message: string } {
  const pathOf = (error: SchemaError) =>
    error.instancePath
      .replace(/\/(\d+)(?=\/|$)/g, '[$1]')
      .replace(/^\//, '')
      .replace(/\//g, '.');
  const anyOf = errors.find((error) => error.keyword === 'anyOf');
  if (anyOf) {
    const field = pathOf(anyOf);
    const extra = errors.find((error) => error.keyword === 'additionalProperties' && pathOf(error) === field);
    if (extra) return { field, message: `has an unknown key "${String(extra.params?.additionalProperty)}"` };
    const inner = errors.find((error) => pathOf(error).startsWith(`${field}.`));
    if (inner) return { field: pathOf(inner), message: inWords(inner) };
    // An object that breaks a rule of its own form (a secret without a client id).
    const own = errors.find(
      (error) => pathOf(error) === field && (error.keyword === 'dependencies' || error.keyword === 'required'),
    );
    if (own) return { field, message: own.message ?? 'is invalid' };
    return { field, message: FORMS[field] ?? 'matches none of the allowed forms' };
  }
  const first = errors[0]!;
  const field = pathOf(first) || String(first.params?.missingProperty ?? '(entry)');
  return { field, message: inWords(first) };
}
