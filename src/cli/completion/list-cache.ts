/**
 * What shell completion knows of a server's tools, prompts and resources: a small JSON file per
 * server under `$XDG_CACHE_HOME/mcpwire/completion/` (default `~/.cache/mcpwire/completion/`),
 * written whenever a command lists them (`tools`, `call`, `prompts`, `resources`, and the tools
 * of every server `servers` connected) and read by `mcpwire __complete`, which never connects to
 * a server. A server is keyed as the command line names it: `--server NAME`, `--url URL`, or the
 * command after `--` (the file name holds a hash of that; the file itself only the server's
 * display name, never a URL's credentials or the command's arguments). Writes are atomic (a
 * temporary file renamed over the old one) and best-effort: a cache that cannot be written or
 * read is no error, only no completion.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '../../protocol/types.js';
import { commandDisplayName } from '../../transport/command-name.js';
import { redactUrl } from '../../util/redact.js';
import { mcpwireCacheDir, writeCacheFile } from '../cache-files.js';

/** The lists kept per server. */
export type ListKind = 'tools' | 'prompts' | 'resources';

/** One entry: a tool or prompt name (or resource URI), a short description, argument names. */
export interface CachedEntry {
  name: string;
  description?: string;
  arguments?: string[];
}

/** How the command line named its server (none of it secret: headers and `-e` are not kept). */
export interface TargetWords {
  server?: string | undefined;
  url?: string | undefined;
  command: readonly string[];
}

interface CacheFile {
  /** The server as shown (`server:NAME`, `url:` + the redacted URL, `stdio:` + its display name). */
  target: string;
  lists: Partial<Record<ListKind, CachedEntry[]>>;
}

/** A target's cache identity: the key its file name is made from, and what the file shows. */
interface TargetKey {
  key: string;
  shown: string;
}

/** The cache key of a target, or undefined when the command line names none (or several). */
function targetKey(target: TargetWords): TargetKey | undefined {
  const [command, ...args] = target.command;
  const keys = [
    target.server !== undefined ? { key: `server:${target.server}`, shown: `server:${target.server}` } : undefined,
    target.url !== undefined ? { key: `url:${target.url}`, shown: `url:${redactUrl(target.url)}` } : undefined,
    command !== undefined
      ? { key: `stdio:${JSON.stringify(target.command)}`, shown: `stdio:${commandDisplayName(command, args)}` }
      : undefined,
  ].filter((key) => key !== undefined);
  return keys.length === 1 ? keys[0] : undefined;
}

/** The cache directory for this environment, or undefined without `XDG_CACHE_HOME` and `HOME`. */
export function cacheDir(env: Record<string, string | undefined>): string | undefined {
  const dir = mcpwireCacheDir(env);
  return dir ? path.join(dir, 'completion') : undefined;
}

/** A file name for the target: its shown form (bounded) and two 32-bit FNV-1a hashes of its key. */
function fileName({ key, shown }: TargetKey): string {
  const hash = (seed: number) => {
    let h = seed;
    for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
    return h.toString(16).padStart(8, '0');
  };
  return `${shown.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60)}-${hash(0x811c9dc5)}${hash(0x050c5d1f)}.json`;
}

async function readCache(file: string, shown: string): Promise<CacheFile | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as CacheFile;
    return parsed.target === shown && parsed.lists && typeof parsed.lists === 'object' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The cached list `kind` of the target, or `[]`. Never rejects. */
export async function cachedList(
  env: Record<string, string | undefined>,
  target: TargetWords,
  kind: ListKind,
): Promise<CachedEntry[]> {
  const dir = cacheDir(env);
  const key = targetKey(target);
  if (dir === undefined || key === undefined) return [];
  const list = (await readCache(path.join(dir, fileName(key)), key.shown))?.lists[kind];
  return Array.isArray(list) ? list.filter((entry) => typeof entry?.name === 'string') : [];
}

/** Replaces the cached list `kind` of the target. Never rejects; leaves no temporary file. */
export async function rememberList(
  env: Record<string, string | undefined>,
  target: TargetWords,
  kind: ListKind,
  entries: readonly CachedEntry[],
): Promise<void> {
  const dir = cacheDir(env);
  const key = targetKey(target);
  if (dir === undefined || key === undefined) return;
  const file = path.join(dir, fileName(key));
  const cache = (await readCache(file, key.shown)) ?? { target: key.shown, lists: {} };
  cache.lists[kind] = entries.map(({ name, description, arguments: args }) => ({
    name,
    ...(description ? { description: description.split('\n')[0]!.slice(0, 80) } : {}),
    ...(args?.length ? { arguments: args } : {}),
  }));
  await writeCacheFile(file, cache);
}

/** A server's tools as the cache keeps them: name, first description line, argument names. */
export function toolEntries(tools: readonly Tool[]): CachedEntry[] {
  return tools.map((t) => ({
    name: t.name,
    description: (t.description ?? t.title ?? '').trim().split('\n')[0]!,
    arguments: Object.keys((t.inputSchema?.properties as Record<string, unknown> | undefined) ?? {}),
  }));
}

/** Keeps the tools of several configured servers (as `--server NAME` names them). Never rejects. */
export async function rememberServerTools(
  env: Record<string, string | undefined>,
  tools: ReadonlyArray<{ server: string; definition: Tool }>,
): Promise<void> {
  const byServer = new Map<string, Tool[]>();
  for (const { server, definition } of tools) byServer.set(server, [...(byServer.get(server) ?? []), definition]);
  await Promise.all(
    [...byServer].map(([server, list]) => rememberList(env, { server, command: [] }, 'tools', toolEntries(list))),
  );
}
