/**
 * `servers` (`--all`: with other hosts' servers), `config show`, `config check`, `config
 * import`: the user's configuration as the manager sees it. Nothing here prints an expanded
 * secret: servers are shown through the config layer's redaction.
 */
import { writeFile, access } from 'node:fs/promises';
import path from 'node:path';
import { IMPORT_HOSTS, importFrom, type ImportHost } from '../../manager/config/hosts/host-import.js';
import { McpManager } from '../../manager/mcp-manager.js';
import { PermissionPolicy } from '../../manager/permissions/permission-rules.js';
import { flag, stringOption, UsageError, type ParsedArgs } from '../argv.js';
import { CliError, EXIT } from '../exit-codes.js';
import type { Interrupt } from '../interrupt.js';
import type { CliIO } from '../io.js';
import { browserLoginHook, loginStore, storedAuthOnly, storedLoginsMissing } from '../login.js';
import type { Outcome } from '../outcome.js';
import { cliClientOptions } from '../session.js';
import { openTrace } from '../trace-output.js';
import { notedTable } from '../table.js';
import { allServers, shortPath } from '../host-servers.js';
import { configLoader, configOptions, findServer } from '../target.js';
import { configErrorCount, withConfigErrors } from '../config-errors.js';
import { positionedMessage } from '../config-positions.js';
import { ConfigError, type McpError } from '../../protocol/errors.js';
import { cliApproval } from '../approval.js';
import { rememberServerTools } from '../completion/list-cache.js';
import { describeServer, shownServer } from '../server-description.js';

/**
 * A manager over the command line's config files, tracing every server when `--trace` /
 * `--trace-file` asks; `close()` disconnects every server and flushes the trace.
 */
export async function cliManager(
  args: ParsedArgs,
  io: CliIO,
): Promise<{ manager: McpManager; close: () => Promise<void> }> {
  const trace = await openTrace(args, io);
  // The logins of `mcpwire auth login` (same store, `--store DIR` too), and its browser for `/mcp auth NAME`.
  const manager = McpManager.create({
    config: configOptions(args, io),
    client: cliClientOptions(args, io, trace),
    approve: cliApproval(args, io),
    requireApproval: true,
    tokenStore: loginStore(args, io),
    ...(storedAuthOnly(args) ? {} : { onAuthorizationUrl: browserLoginHook(io) }),
  });
  return {
    manager,
    async close() {
      await manager.disconnectAll();
      await trace?.close();
    },
  };
}

/** `servers`; `interrupt` (a signal) disconnects every server before the process exits. */
export async function serversCommand(args: ParsedArgs, io: CliIO, interrupt?: Interrupt): Promise<Outcome> {
  const { manager, close } = await cliManager(args, io);
  interrupt?.onInterrupt(close);
  try {
    if (flag(args, 'no-connect')) await manager.init();
    else await manager.connectAll();
    const status = manager.getStatus();
    await rememberServerTools(io.env, manager.getAllTools());
    if (flag(args, 'all')) return withConfigErrors(await allServers(args, io, status), status.configErrors, true);
    const cwd = configOptions(args, io).cwd!;
    const rows = status.servers.map((s) => [
      s.name,
      s.enabled ? s.status : 'disabled',
      s.transport,
      s.status === 'connected' ? String(s.toolCount) : '',
      s.provenance ? `${s.provenance.scope} ${shortPath(s.provenance.file, cwd, io.env.HOME)}` : '',
      s.lastError ?? '',
    ]);
    const lines = [
      status.servers.length
        ? notedTable(['NAME', 'STATUS', 'TRANSPORT', 'TOOLS', 'DEFINED IN', 'ERROR'], rows, io.columns)
        : 'no servers configured',
    ];
    for (const error of status.configErrors) lines.push(`config error: ${error}`);
    for (const warning of status.configWarnings) lines.push(`config warning: ${warning}`);
    const outcome = withConfigErrors({ json: status, text: lines.join('\n') }, status.configErrors, true);
    return storedAuthOnly(args) ? withMissingLogins(outcome, manager) : outcome;
  } finally {
    await close();
  }
}

/**
 * `--stored-auth-only`: the same output, exit 3 with `AUTH_REQUIRED` naming each server left
 * waiting for a login (a broken config's exit 2 comes first).
 */
function withMissingLogins(outcome: Outcome, manager: McpManager): Outcome {
  const missing = storedLoginsMissing(manager);
  if (missing === undefined || outcome.exitCode !== undefined) return outcome;
  return {
    ...outcome,
    exitCode: missing.exitCode,
    error: { code: missing.code, message: missing.message, loginCommand: missing.loginCommand, result: outcome.json },
  };
}

export async function configCommand(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const sub = args.words[1];
  switch (sub) {
    case 'show':
      return show(args, io);
    case 'check':
      return check(args, io);
    case 'import':
      return importHost(args, io);
    case 'add':
    case 'remove':
    case 'get':
      return (await import('./config-edit-commands.js')).configEditCommand(sub, args, io);
    default:
      throw new UsageError(
        sub === undefined
          ? 'config needs a sub-command: show, check, import, add, remove or get'
          : `unknown config sub-command "${sub}" (show, check, import, add, remove, get)`,
      );
  }
}

async function show(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const loaded = await configLoader(args, io).load();
  const only = stringOption(args, 'server');
  let servers = loaded.servers.filter((s) => only === undefined || s.name === only);
  // Another host's server (`--server cursor:fs`, or a name only one host has).
  if (only !== undefined && servers.length === 0) servers = [await findServer(only, args, io)];
  const shown = servers.map(shownServer);
  const json = {
    servers: shown,
    files: loaded.files,
    permissions: loaded.permissions,
    errors: loaded.errors.map((e) => e.message),
    warnings: loaded.warnings,
  };
  const lines = shown.flatMap(describeServer);
  if (!only) {
    lines.push('', 'files:', ...loaded.files.map((f) => `  ${f.status.padEnd(9)} ${f.scope.padEnd(8)} ${f.file}`));
    for (const error of loaded.errors) lines.push(`error: ${error.message}`);
    for (const warning of loaded.warnings) lines.push(`warning: ${warning}`);
  }
  return withConfigErrors({ json, text: lines.join('\n') || 'no servers configured' }, json.errors, only === undefined);
}

async function check(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const loaded = await configLoader(args, io).load();
  loaded.warnings.push(
    ...new PermissionPolicy(loaded.permissions)
      .unreachable({ servers: loaded.servers.map((s) => s.name) })
      .map((u) => u.reason),
  );
  const json = {
    ok: loaded.errors.length === 0,
    servers: loaded.servers.map((s) => s.name),
    files: loaded.files,
    errors: loaded.errors.map((e) => e.message),
    warnings: loaded.warnings,
  };
  const files = loaded.files.filter((f) => f.status !== 'missing');
  const texts = new Map<string, Promise<string | undefined>>();
  const messages = new Map(
    await Promise.all(loaded.errors.map(async (e) => [e, await positionedMessage(e, texts)] as const)),
  );
  json.errors = loaded.errors.map((e) => messages.get(e)!);
  const errorsOf = (file: string) => loaded.errors.filter((e) => fileOf(e) === file);
  const lines: string[] = [];
  // Each file once with its verdict, its errors (each naming FILE[:LINE:COLUMN]) under it.
  for (const f of files) {
    const own = errorsOf(f.file);
    const broken = own.length > 0 || f.status !== 'loaded';
    lines.push(`${broken ? 'error' : 'ok   '}  ${f.file}`, ...own.map((e) => `         ${messages.get(e)!}`));
  }
  const listed = new Set(files.map((f) => f.file));
  for (const e of loaded.errors.filter((e) => !listed.has(fileOf(e) ?? ''))) lines.push(`error: ${messages.get(e)!}`);
  lines.push(...loaded.warnings.map((w) => `warning: ${w}`));
  const bad = files.filter((f) => f.status !== 'loaded' || errorsOf(f.file).length > 0).length;
  const servers = `${loaded.servers.length} server(s): ${loaded.servers.map((s) => s.name).join(', ') || 'none'}`;
  const checked = `${files.length} file(s) checked: ${files.length - bad} ok`;
  if (loaded.errors.length === 0) return { json, text: [...lines, `${checked}; ${servers}`].join('\n') };
  // The summary is the last line either way: on stderr as the error, since the errors are all above.
  const outcome = withConfigErrors({ json, text: lines.join('\n') }, json.errors);
  const errors = configErrorCount(loaded.errors.length);
  return { ...outcome, notice: `${checked}, ${bad} with errors; ${errors}; ${servers}` };
}

/** The file a config error is in, when it names one. */
function fileOf(error: McpError): string | undefined {
  return error instanceof ConfigError ? error.file : undefined;
}

async function importHost(args: ParsedArgs, io: CliIO): Promise<Outcome> {
  const host = stringOption(args, 'from');
  if (!host || !IMPORT_HOSTS.includes(host as ImportHost))
    throw new UsageError(`config import needs --from ${IMPORT_HOSTS.join('|')}`);
  const result = await importFrom(host as ImportHost, {
    ...(io.env.HOME ? { homeDir: io.env.HOME } : {}),
    cwd: path.resolve(io.cwd, stringOption(args, 'project') ?? stringOption(args, 'cwd') ?? '.'),
    env: io.env,
  });
  const mcpServers: Record<string, unknown> = {};
  for (const server of result.servers) mcpServers[server.name] = server.entry; // later (more specific) entries win
  const document = { mcpServers };
  const target = stringOption(args, 'write');
  const notes = [...result.errors.map((e) => `error: ${e.message}`), ...result.warnings.map((w) => `warning: ${w}`)];
  if (result.files.length === 0 && result.errors.length === 0) notes.push(`no ${host} config file found`);
  if (target !== undefined) {
    const file = path.resolve(io.cwd, target);
    if (
      !flag(args, 'force') &&
      (await access(file).then(
        () => true,
        () => false,
      ))
    )
      throw new CliError('FILE_EXISTS', `${file} exists; use --force to overwrite it`, EXIT.usage);
    await writeFile(file, `${JSON.stringify(document, null, 2)}\n`);
    notes.push(`wrote ${Object.keys(mcpServers).length} server(s) to ${file}`);
  }
  const json = {
    host,
    files: result.files,
    servers: Object.keys(mcpServers),
    document,
    written: target !== undefined ? path.resolve(io.cwd, target) : null,
    errors: result.errors.map((e) => e.message),
    warnings: result.warnings,
  };
  // Printed as-is (not redacted): this is the user's own file, copied for them to save.
  const text =
    target !== undefined
      ? notes.join('\n')
      : [JSON.stringify(document, null, 2), ...notes.map((n) => `# ${n}`)].join('\n');
  if (result.errors.length && Object.keys(mcpServers).length === 0) {
    return {
      json,
      text,
      exitCode: EXIT.config,
      error: { code: 'CONFIG_INVALID', message: result.errors.map((e) => e.message).join('; ') },
      // The text lists each error (`# error: …`): stderr counts them.
      notice: `${configErrorCount(result.errors.length)} (each listed above): nothing to import from ${host}`,
    };
  }
  return { json, text };
}
