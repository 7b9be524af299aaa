/**
 * The names of the configured servers, read for shell completion without the config layer's
 * loader: the same files (`~/.mcpwire/config.json|yaml|yml`, the project's `.mcp.json`,
 * `mcp.yaml`, `.mcp.yaml`, and `--config` files), only the keys of their `mcpServers`,
 * `mcp_servers` or `servers` object, no validation, no variables. A file that is missing or
 * does not parse adds nothing: completion never reports an error. A YAML file is scanned by
 * lines (block mappings, as config files are written); only a flow mapping (`mcpServers: {…}`)
 * loads the YAML parser.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { stripJsonComments } from '../../manager/config/text-formats.js';

/** A configured server as completion offers it: its name and what it runs or where it is. */
export interface ServerName {
  name: string;
  /** The URL or the command line, for shells that show a description. */
  detail: string;
}

const SERVERS_KEYS = ['mcpServers', 'mcp_servers', 'servers'] as const;

/** Where to look: the home and project directories, and the `--config` files (absolute). */
export interface ServerNameSources {
  homeDir: string | undefined;
  cwd: string;
  configFiles: readonly string[];
}

/** The configured servers, later files winning by name (as the config layer merges them). */
export async function configuredServers(sources: ServerNameSources): Promise<ServerName[]> {
  const files = [
    ...(sources.homeDir
      ? ['config.json', 'config.yaml', 'config.yml'].map((name) => path.join(sources.homeDir!, '.mcpwire', name))
      : []),
    ...['.mcp.json', 'mcp.yaml', '.mcp.yaml'].map((name) => path.join(sources.cwd, name)),
    ...sources.configFiles,
  ];
  const found = new Map<string, ServerName>();
  const lists = await Promise.all(files.map((file) => serversIn(file)));
  for (const list of lists) for (const server of list) found.set(server.name, server);
  return [...found.values()];
}

async function serversIn(file: string): Promise<ServerName[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return [];
  }
  try {
    if (!/\.ya?ml$/i.test(file)) return entriesOf(JSON.parse(stripJsonComments(text)) as unknown);
    return yamlServers(text) ?? entriesOf((await import('yaml')).parse(text) as unknown);
  } catch {
    return [];
  }
}

function entriesOf(document: unknown): ServerName[] {
  if (!document || typeof document !== 'object') return [];
  const record = document as Record<string, unknown>;
  const key = SERVERS_KEYS.find((k) => record[k] !== undefined);
  const servers = key === undefined ? undefined : record[key];
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) return [];
  return Object.entries(servers as Record<string, unknown>).map(([name, entry]) => ({ name, detail: detailOf(entry) }));
}

function detailOf(entry: unknown): string {
  if (!entry || typeof entry !== 'object') return '';
  const e = entry as Record<string, unknown>;
  const url = e.url ?? e.serverUrl ?? e.httpUrl;
  if (typeof url === 'string') return url;
  const args = Array.isArray(e.args) ? e.args.filter((a) => typeof a === 'string') : [];
  return typeof e.command === 'string' ? [e.command, ...args].join(' ') : '';
}

/**
 * The keys (and `url` / `command` values) of the first servers mapping of a YAML text written in
 * block style; undefined when that mapping is written in flow style (`{…}`), which needs the parser.
 */
function yamlServers(text: string): ServerName[] | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => new RegExp(`^(${SERVERS_KEYS.join('|')})\\s*:`).test(line));
  if (start < 0) return [];
  if (/:\s*[{[]/.test(lines[start]!)) return undefined;
  const servers: ServerName[] = [];
  let indent: number | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const depth = /^ */.exec(line)![0].length;
    if (depth === 0) break;
    indent ??= depth;
    const server = servers.at(-1);
    if (depth === indent) {
      const key = /^\s*("([^"]*)"|'([^']*)'|[^\s:#][^:#]*?)\s*:(\s|$)/.exec(line);
      if (key) servers.push({ name: key[2] ?? key[3] ?? key[1]!, detail: '' });
    } else if (server && server.detail === '') {
      const field = /^\s*(url|command)\s*:\s*["']?([^"'#]*?)["']?\s*(#.*)?$/.exec(line);
      if (field) server.detail = field[2]!;
    }
  }
  return servers;
}
