/**
 * The errors for a name nothing answers to, each saying what was asked and what exists: a server
 * name no server has (`connect("fz")`, `mcp__fz__read`) names the configured servers and the
 * nearest; a tool name no connected server has names the nearest tools, each with its server, so
 * a model or a person can correct it. The two read differently on purpose: "unknown server" and
 * "no tool".
 */
import { McpError } from '../../protocol/errors.js';
import { closest, editDistance } from '../../protocol/option-keys.js';
import type { CatalogTool } from '../manager-types.js';

/** How many candidates a "no tool" error lists. */
const CANDIDATES = 3;

/**
 * `INVALID_ARGUMENT` for a server name that is not configured: `unknown server "fz" (configured:
 * fs, git; did you mean "fs"?)`. `asked` is how it was asked (`connect("fz")`, `tool mcp__fz__read`).
 * A server whose config entry was left out for an error (`broken`, by name) gets that error
 * instead (`CONFIG_INVALID`, naming its file), which is why it is not there.
 */
export function unknownServerError(
  server: string,
  configured: readonly string[],
  asked?: string,
  broken?: ReadonlyMap<string, McpError>,
): McpError {
  const left = broken?.get(server);
  if (left) return left;
  const meant = nearestServer(server, configured);
  const hint = meant === undefined ? '' : `; did you mean "${meant}"?`;
  const what = asked === undefined ? '' : ` in ${asked}`;
  return new McpError(
    'INVALID_ARGUMENT',
    `unknown server "${server}"${what} (configured: ${configured.join(', ') || 'none'}${hint})`,
  );
}

/**
 * `INVALID_ARGUMENT` for calling `name` when no connected server has such a tool: a name
 * `mcp__<server>__…` whose server is not configured is an unknown server ({@link
 * unknownServerError}); otherwise "no tool" with the nearest tools of `tools` by exposed name and
 * by the tool's own name (`read_fil` ⇒ `mcp__fs__read_file`, server "fs"), or how many tools
 * there are when none is near.
 */
export function unknownToolError(
  name: string,
  tools: readonly CatalogTool[],
  configured: readonly string[],
  broken?: ReadonlyMap<string, McpError>,
): McpError {
  const spelled = /^mcp__(.+?)__(.+)$/u.exec(name);
  const server = spelled?.[1];
  if (server !== undefined && !configured.some((s) => s === server || safe(s) === server))
    return broken?.get(server) ?? withMethod(unknownServerError(server, configured, `tool name ${name}`));
  const own = spelled?.[2] ?? name;
  const ofServer = server === undefined ? tools : tools.filter((t) => t.server === server || safe(t.server) === server);
  const near = nearest(name, own, ofServer.length > 0 ? ofServer : tools);
  const where = server === undefined ? '' : ` on server "${server}"`;
  const listed =
    near.length > 0
      ? `nearest: ${near.map((t) => `${t.name} (server "${t.server}")`).join(', ')}`
      : tools.length === 0
        ? 'no server is connected with tools yet'
        : `no tool is named like it: ${tools.length} tools on ${servers(tools, configured)}; getAllTools() lists them`;
  return withMethod(new McpError('INVALID_ARGUMENT', `tool not found: ${name}${where} (${listed})`));
}

/** The tools nearest to `name` (or to its tool part `own`), best first; only those close enough. */
function nearest(name: string, own: string, tools: readonly CatalogTool[]): CatalogTool[] {
  const lowerName = name.toLowerCase();
  const lowerOwn = own.toLowerCase();
  const scored = tools.map((tool) => {
    const whole = editDistance(lowerName, tool.name.toLowerCase());
    const part = editDistance(lowerOwn, tool.tool.toLowerCase());
    const contains =
      lowerOwn.length >= 3 &&
      (tool.tool.toLowerCase().includes(lowerOwn) || lowerOwn.includes(tool.tool.toLowerCase()));
    return {
      tool,
      score: Math.min(whole, part, contains ? 1 : Infinity),
      limit: Math.max(2, Math.floor(own.length / 3)),
    };
  });
  return (
    scored
      .filter((entry) => entry.score <= entry.limit)
      // Ties by name: the same list whichever server connected first.
      .sort((a, b) => a.score - b.score || (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0))
      .slice(0, CANDIDATES)
      .map((entry) => entry.tool)
  );
}

/**
 * The configured server `server` most likely stands for: what option keys would suggest, else one
 * letter off or two swapped (server names are short: `fz` for `fs`, `gti` for `git`).
 */
function nearestServer(server: string, configured: readonly string[]): string | undefined {
  const meant = closest(server, new Set(configured));
  if (meant !== undefined || server.length < 2) return meant;
  const sorted = (text: string) => [...text.toLowerCase()].sort().join('');
  return configured.find(
    (name) =>
      editDistance(server.toLowerCase(), name.toLowerCase()) <= 1 ||
      (name.length === server.length && sorted(name) === sorted(server)),
  );
}

/** The servers `tools` come from, in configuration order. */
function servers(tools: readonly CatalogTool[], configured: readonly string[]): string {
  const names = configured.filter((name) => tools.some((t) => t.server === name));
  return names.length === 1 ? `server "${names[0]}"` : `${names.length} servers (${names.join(', ')})`;
}

/** The provider-safe spelling of a server name in exposed tool names (see `tool-names.ts`). */
function safe(server: string): string {
  return server.replace(/[^A-Za-z0-9_-]/gu, '_');
}

function withMethod(error: McpError): McpError {
  return new McpError(error.code, error.reason, { method: 'tools/call' });
}
