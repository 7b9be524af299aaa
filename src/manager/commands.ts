/**
 * `/mcp` commands for hosts with a chat REPL: `handleCommand(manager, line)` parses one line and
 * answers with text for the user and a structured form for programs. It never throws: a bad
 * command, an unknown server or a failed connect is an answer with `ok: false` that says what
 * would work.
 */
import { errorMessage, McpError } from '../protocol/errors.js';
import { loginHint } from './login-hint.js';
import type { McpManager, ServerStatusReport } from './mcp-manager.js';

/** The answer to one command line. */
export interface CommandResult {
  ok: boolean;
  /** What to show the user. */
  text: string;
  /** The same, structured (status reports, tool lists, …). */
  data?: unknown;
}

const USAGE = [
  '/mcp                      status of every server, with tool counts',
  '/mcp servers              every configured server, with status and where it is defined',
  '/mcp connect <name>       connect one server',
  '/mcp disconnect <name>    disconnect one server',
  '/mcp reconnect <name>     disconnect, then connect again',
  '/mcp auth <name>          log in to a server (browser login, or its headersHelper again), then connect it',
  '/mcp tools [server]       tools, grouped by server',
  '/mcp resources            resources of every connected server',
  '/mcp prompts              prompts of every connected server',
  '/mcp reload               re-read the config files and apply the changes',
  '/mcp explain <tool>       which permission rule from which file decides a tool',
  '/mcp help                 this list',
].join('\n');

/** Runs one `/mcp …` line against `manager`. Lines not starting with `/mcp` are refused. */
export async function handleCommand(manager: McpManager, line: string): Promise<CommandResult> {
  const words = line.trim().split(/\s+/);
  if (words[0] !== '/mcp') return fail(`not an /mcp command: ${JSON.stringify(line.trim())}\n${USAGE}`);
  const [sub = '', arg, ...rest] = words.slice(1);
  if (rest.length > 0) return fail(`too many arguments for /mcp ${sub}\n${USAGE}`);
  try {
    switch (sub) {
      case '':
        return status(manager);
      case 'servers':
        return servers(manager);
      case 'connect':
      case 'disconnect':
      case 'reconnect':
        return await lifecycle(manager, sub, arg);
      case 'auth':
        return await login(manager, arg);
      case 'tools':
        return tools(manager, arg);
      case 'resources': {
        const all = await manager.getAllResources();
        const text =
          all.length === 0
            ? 'no resources'
            : all.map((r) => `${r.server}  ${r.uri}${r.name ? `  (${r.name})` : ''}`).join('\n');
        return { ok: true, text, data: all };
      }
      case 'prompts': {
        const all = await manager.getAllPrompts();
        const text =
          all.length === 0
            ? 'no prompts'
            : all.map((p) => `${p.server}  ${p.name}${p.description ? ` — ${p.description}` : ''}`).join('\n');
        return { ok: true, text, data: all };
      }
      case 'reload': {
        const result = await manager.reloadConfig();
        const parts = (['added', 'removed', 'changed', 'unchanged'] as const).map(
          (k) => `${k}: ${result[k].length ? result[k].join(', ') : '-'}`,
        );
        const failures = result.failed.map((f) => `failed: ${f.server}: ${f.error.message}`);
        // A broken file keeps its last good contents: say so rather than report "all unchanged".
        const broken = manager.getStatus().configErrors.map((message) => `config error: ${message}`);
        return {
          ok: result.failed.length === 0 && broken.length === 0,
          text: [`reloaded`, ...parts, ...failures, ...broken].join('\n'),
          data: result,
        };
      }
      case 'explain': {
        if (!arg) return fail(`/mcp explain needs a tool name, e.g. mcp__fs__write_file`);
        return { ok: true, text: manager.explain(arg), data: manager.checkPermission(arg) };
      }
      case 'help':
        return { ok: true, text: USAGE };
      default:
        return fail(`unknown /mcp command "${sub}"\n${USAGE}`);
    }
  } catch (error) {
    return fail(errorMessage(error), error instanceof McpError ? error.toJSON() : undefined);
  }
}

function status(manager: McpManager): CommandResult {
  const report = manager.getStatus();
  const head = `${report.connectedServers}/${report.configuredServers} servers connected, ${manager.getAllTools().length} tools`;
  const lines = report.servers.map((s) => {
    const head = `${mark(s)} ${s.name}  ${s.status}${s.status === 'connected' ? `  ${s.toolCount} tools  ${s.protocolVersion}` : ''}`;
    if (s.status === 'needs-auth') return `${head}  — ${loginHint(manager.getServer(s.name)!)}`;
    return `${head}${s.lastError && (s.status === 'error' || s.status === 'not-approved') ? `  — ${s.lastError}` : ''}`;
  });
  return { ok: true, text: [head, ...lines].join('\n'), data: report };
}

function servers(manager: McpManager): CommandResult {
  const report = manager.getStatus();
  if (report.servers.length === 0) return { ok: true, text: 'no servers configured', data: report };
  const lines = report.servers.map((s) => {
    const where = s.provenance ? `${s.provenance.file} (${s.provenance.scope})` : 'set in code';
    const flags = [
      s.enabled ? '' : 'disabled',
      s.circuitOpen ? 'circuit open' : '',
      s.restarts ? `${s.restarts} restarts` : '',
    ]
      .filter(Boolean)
      .join(', ');
    return `${mark(s)} ${s.name}  ${s.transport}  ${s.status}${flags ? ` [${flags}]` : ''}  from ${where}`;
  });
  return { ok: true, text: lines.join('\n'), data: report };
}

async function lifecycle(
  manager: McpManager,
  sub: 'connect' | 'disconnect' | 'reconnect',
  name: string | undefined,
): Promise<CommandResult> {
  if (!name) return fail(`/mcp ${sub} needs a server name (configured: ${manager.listServers().join(', ') || 'none'})`);
  if (!manager.getServer(name))
    return fail(`unknown server "${name}" (configured: ${manager.listServers().join(', ') || 'none'})`);
  if (sub === 'disconnect') {
    await manager.disconnect(name);
    return { ok: true, text: `disconnected ${name}` };
  }
  const client = sub === 'connect' ? await manager.connect(name) : await manager.reconnect(name);
  const count = manager.getAllTools().filter((t) => t.server === name).length;
  return { ok: true, text: `connected ${name} (${client.era}, ${client.protocolVersion}, ${count} tools)` };
}

async function login(manager: McpManager, name: string | undefined): Promise<CommandResult> {
  if (!name) return fail(`/mcp auth needs a server name (configured: ${manager.listServers().join(', ') || 'none'})`);
  const spec = manager.getServer(name);
  if (!spec) return fail(`unknown server "${name}" (configured: ${manager.listServers().join(', ') || 'none'})`);
  if (spec.transport === 'stdio')
    return fail(`${name} is a stdio server: it has no login (its credentials come from its env)`);
  try {
    const client = await manager.login(name);
    const count = manager.getAllTools().filter((t) => t.server === name).length;
    return {
      ok: true,
      text: `logged in to ${name}; connected (${client.era}, ${client.protocolVersion}, ${count} tools)`,
    };
  } catch (error) {
    return fail(errorMessage(error), error instanceof McpError ? error.toJSON() : undefined);
  }
}

function tools(manager: McpManager, server: string | undefined): CommandResult {
  if (server !== undefined && !manager.getServer(server))
    return fail(`unknown server "${server}" (configured: ${manager.listServers().join(', ') || 'none'})`);
  const all = manager.getAllTools().filter((t) => server === undefined || t.server === server);
  const groups = new Map<string, string[]>();
  for (const tool of all) {
    const line = `  ${tool.name}${tool.definition.description ? ` — ${firstLine(tool.definition.description)}` : ''}`;
    groups.set(tool.server, [...(groups.get(tool.server) ?? []), line]);
  }
  if (groups.size === 0)
    return {
      ok: true,
      text: server ? `no tools from ${server} (is it connected?)` : 'no tools (no server connected?)',
      data: [],
    };
  const text = [...groups].map(([name, lines]) => `${name} (${lines.length})\n${lines.join('\n')}`).join('\n');
  return {
    ok: true,
    text,
    data: all.map((t) => ({ name: t.name, server: t.server, tool: t.tool, description: t.definition.description })),
  };
}

function mark(s: ServerStatusReport): string {
  if (s.status === 'needs-auth') return '!';
  return s.status === 'connected'
    ? '●'
    : s.status === 'error' || s.status === 'not-approved'
      ? '✗'
      : s.status === 'connecting'
        ? '…'
        : '○';
}

function firstLine(text: string): string {
  const line = text.split('\n')[0]!;
  return line.length > 100 ? `${line.slice(0, 100)}…` : line;
}

function fail(text: string, data?: unknown): CommandResult {
  return data === undefined ? { ok: false, text } : { ok: false, text, data };
}
