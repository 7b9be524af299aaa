/**
 * The config layer's lowest layer: servers read from other hosts' files. `import` takes them
 * under their own names (`config import`'s view: one host's servers as if they were ours);
 * `hosts` (the manager's `importHosts`) takes every host's usable servers under namespaced names
 * (`cursor:fs`), leaving out, with a warning naming file, server and reason, the ones mcpwire
 * cannot run as the host would or cannot start as they stand. A host file that mcpwire reads as
 * its own (Claude Code's `.mcp.json`) is not read twice. A file that breaks keeps its last good
 * entries.
 */
import type { McpError } from '../../../protocol/errors.js';
import type { Provenance } from '../../servers/managed-server.js';
import { discoverHosts, type DiscoveredServer } from './discover.js';
import { HOST_IDS, hostFiles, type HostId } from './host-table.js';

/** What the layer reads. */
export interface HostLayerOptions {
  homeDir: string;
  cwd: string;
  platform?: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** Hosts whose servers join under their own names. */
  import?: readonly HostId[];
  /** Hosts (`true`: every host) whose servers join as `HOST:NAME`. */
  hosts?: boolean | readonly HostId[];
  /** mcpwire's own files: a host file among them is not read again. */
  ownFiles: readonly string[];
}

/** One host file's servers, as a config document, and each server's host provenance. */
export interface HostLayerFile {
  file: string;
  /** `{ mcpServers }`, or undefined when the file failed and had no last good contents. */
  value: { mcpServers: Record<string, unknown> } | undefined;
  status: 'loaded' | 'error' | 'last-good';
  hosts: Map<string, NonNullable<Provenance['host']>>;
}

/** Where `hosts` asks to look: the host ids, in order. */
export function layerHosts(options: Pick<HostLayerOptions, 'import' | 'hosts'>): HostId[] {
  const namespaced = options.hosts === true ? HOST_IDS : options.hosts === false ? [] : (options.hosts ?? []);
  return [...new Set([...(options.import ?? []), ...namespaced])];
}

/** The host files the layer reads (for a watcher); directories (Continue's folder) are left out. */
export function hostLayerFiles(options: HostLayerOptions): string[] {
  const files = layerHosts(options).flatMap((host) =>
    hostFiles(host, options).flatMap((place) => (place.directory ? [] : [place.file])),
  );
  return [...new Set(files)].filter((file) => !options.ownFiles.includes(file));
}

/**
 * Reads the layer. Problems go to `errors` (an `import` host's broken file) or `warnings` (a
 * `hosts` server left out, a `hosts` file that broke); `lastGood` remembers each file's last good
 * document between loads.
 */
export async function readHostLayer(
  options: HostLayerOptions,
  lastGood: Map<string, unknown>,
  report: { errors: McpError[]; warnings: string[] },
): Promise<HostLayerFile[]> {
  const out: HostLayerFile[] = [];
  const own = new Set(options.ownFiles);
  const add = async (hosts: readonly HostId[], namespaced: boolean) => {
    if (hosts.length === 0) return;
    const found = await discoverHosts({ ...options, hosts });
    const failed = new Set(found.errors.map((e) => e.file ?? ''));
    if (namespaced) report.warnings.push(...found.errors.map((e) => `host file skipped: ${e.message}`));
    else report.errors.push(...found.errors);
    const byFile = new Map<string, DiscoveredServer[]>();
    for (const server of namespaced ? found.servers : found.entries) {
      if (own.has(server.file)) continue;
      const reason = server.problems.length ? server.problems.join('; ') : namespaced ? server.invalid : undefined;
      if (reason !== undefined) {
        report.warnings.push(
          `${server.file}: server "${namespaced ? server.id : server.name}" not imported: ${reason}`,
        );
        continue;
      }
      byFile.set(server.file, [...(byFile.get(server.file) ?? []), server]);
    }
    const files = found.files.filter((f) => !own.has(f.file) && (f.status === 'loaded' || failed.has(f.file)));
    for (const file of new Set(files.map((f) => f.file))) {
      const key = `${namespaced ? 'hosts' : 'import'}:${file}`;
      if (failed.has(file)) {
        const previous = lastGood.get(key) as HostLayerFile | undefined;
        out.push(
          previous
            ? { ...previous, status: 'last-good' }
            : { file, value: undefined, status: 'error', hosts: new Map() },
        );
        continue;
      }
      const servers = byFile.get(file) ?? [];
      const entry: HostLayerFile = {
        file,
        // Within one host file a later section (Claude Code's per-project servers) wins by name.
        value: {
          mcpServers: Object.fromEntries(servers.map((s) => [namespaced ? s.id : s.name, s.entry])),
        },
        status: 'loaded',
        hosts: new Map(
          servers.map((s) => [namespaced ? s.id : s.name, { id: s.host, scope: s.scope, at: s.at }] as const),
        ),
      };
      lastGood.set(key, entry);
      out.push(entry);
    }
  };
  await add(options.import ?? [], false);
  await add(layerHosts({ hosts: options.hosts }), true);
  return out;
}

/** What is wrong with `hosts` as the value of `option` (`true`, `false` or host ids), or undefined when nothing is. */
export function unknownHost(option: string, hosts: unknown): string | undefined {
  if (hosts === undefined || typeof hosts === 'boolean') return undefined;
  if (!Array.isArray(hosts)) return `${option} must be true, false or a list of host ids`;
  const bad: unknown = (hosts as unknown[]).find((host) => !(HOST_IDS as readonly unknown[]).includes(host));
  return bad === undefined ? undefined : `${option}: unknown host "${String(bad)}" (hosts: ${HOST_IDS.join(', ')})`;
}
