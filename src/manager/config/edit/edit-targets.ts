/**
 * Which file a `config add` writes and which files a `config remove` looks in: mcpwire's own
 * (`~/.mcpwire/config.json|yaml|yml` for the user, `.mcp.json`, `mcp.yaml`, `.mcp.yaml` in the
 * project, where the loader reads them), or a host's from the host table, each with the key
 * path of its servers.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import { hostFiles, type HostFile, type HostId, type HostLocationOptions } from '../hosts/host-table.js';
import type { ConfigFormat } from './config-document.js';
import { formatOfPath } from './open-document.js';

/** A file an edit may touch. `at` undefined: mcpwire's own file (its servers key is read from the file). */
export interface EditFile {
  /** `mcpwire` or a host id. */
  host: 'mcpwire' | HostId;
  file: string;
  scope: 'user' | 'project';
  format: ConfigFormat;
  at?: readonly string[];
  /** The servers are a list of entries carrying their `name` (Continue). */
  list?: boolean;
}

/** mcpwire's own files of `scope`, in the loader's order. */
export function mcpwireFiles(scope: 'user' | 'project', options: HostLocationOptions): EditFile[] {
  const names =
    scope === 'user'
      ? ['config.json', 'config.yaml', 'config.yml'].map((name) => path.join(options.homeDir, '.mcpwire', name))
      : ['.mcp.json', 'mcp.yaml', '.mcp.yaml'].map((name) => path.join(path.resolve(options.cwd), name));
  return names.map((file) => ({ host: 'mcpwire', file, scope, format: formatOfPath(file) }));
}

/**
 * The files of `host` (or mcpwire's own) in `scope` (both when undefined) that hold servers,
 * lowest precedence first. Continue's project directory (a file per block) is left out.
 */
export function editableFiles(
  host: 'mcpwire' | HostId,
  scope: 'user' | 'project' | undefined,
  options: HostLocationOptions,
): EditFile[] {
  const scopes = scope ? [scope] : (['user', 'project'] as const);
  if (host === 'mcpwire') return scopes.flatMap((s) => mcpwireFiles(s, options));
  return hostFiles(host, options)
    .filter((file: HostFile) => scopes.includes(file.scope) && !file.directory)
    .map((file) => ({
      host,
      file: file.file,
      scope: file.scope,
      format: file.format,
      at: file.at,
      ...(file.container === 'list' ? { list: true } : {}),
    }));
}

/**
 * The one file `config add` writes for `host` in `scope`: the first of {@link editableFiles} that
 * exists, else the one the host itself writes (Claude Code: `~/.claude.json`'s top-level servers
 * for the user, `.mcp.json` for the project, never its settings files). Undefined when the host
 * keeps no servers in a file of that scope.
 */
export async function addTarget(
  host: 'mcpwire' | HostId,
  scope: 'user' | 'project',
  options: HostLocationOptions,
): Promise<EditFile | undefined> {
  let files = editableFiles(host, scope, options);
  if (host === 'claude-code')
    files = files.filter((file) => !/^settings/.test(path.basename(file.file)) && file.at?.length === 1);
  for (const file of files) if (await exists(file.file)) return file;
  return files[0];
}

/** Whether `file` exists. */
export async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}
