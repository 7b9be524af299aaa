/**
 * The era each server was last found to speak, kept across CLI runs beside completion's cache:
 * `$XDG_CACHE_HOME/mcpwire/eras.json` (default `~/.cache/mcpwire/eras.json`), so a command
 * connects to a server it has met without the era probe (`eraHint`; for a URL also the HTTP
 * route that worked). An entry is keyed by the fingerprint of the server's whole definition
 * (command, args, env, cwd, URL, headers, …: `configFingerprint`, a hash, so no value of it is
 * in the file), so a changed definition is probed afresh. Read and written only when the command
 * line pins no era or revision. A wrong entry costs a probe, never the connect (the client falls
 * back by itself); an entry whose connect failed is dropped. The file is written atomically and
 * best-effort: one that cannot be read or written is no error, only no hint. At most
 * {@link MAX_ENTRIES} servers are kept, the oldest verdicts dropped first.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { HttpRoute } from '../client/http-routes.js';
import type { Era } from '../protocol/revisions.js';
import { configFingerprint } from '../manager/config/fingerprint.js';
import type { ManagedServer } from '../manager/servers/managed-server.js';
import { mcpwireCacheDir, writeCacheFile } from './cache-files.js';

/** How many servers the file keeps. */
export const MAX_ENTRIES = 200;

/** What is remembered of one server. */
export interface EraVerdict {
  era: Era;
  /** For a URL whose shape the client detected: the route that worked. */
  route?: HttpRoute;
}

interface Entry extends EraVerdict {
  /** When it was written (ms since the epoch), for the cap. */
  at: number;
}

interface CacheFile {
  version: 1;
  servers: Record<string, Entry>;
}

/** The cache file for this environment, or undefined without `XDG_CACHE_HOME` and `HOME`. */
export function eraCacheFile(env: Record<string, string | undefined>): string | undefined {
  const dir = mcpwireCacheDir(env);
  return dir ? path.join(dir, 'eras.json') : undefined;
}

/** The key of a definition; `probedShape`: a URL whose HTTP shape the client detects (no `--transport`). */
export function eraCacheKey(spec: ManagedServer, probedShape: boolean): string {
  return `${probedShape ? 'auto:' : ''}${configFingerprint(spec)}`;
}

async function readCache(file: string): Promise<CacheFile> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as CacheFile;
    if (parsed?.version === 1 && parsed.servers && typeof parsed.servers === 'object') return parsed;
  } catch {
    // missing or unreadable: an empty cache
  }
  return { version: 1, servers: {} };
}

/** The remembered verdict for `key`, when there is a well-formed one. Never rejects. */
export async function rememberedEra(
  env: Record<string, string | undefined>,
  key: string,
): Promise<EraVerdict | undefined> {
  const file = eraCacheFile(env);
  if (file === undefined) return undefined;
  const entry = (await readCache(file)).servers[key];
  if (entry?.era !== 'legacy' && entry?.era !== 'modern') return undefined;
  const route = entry.route === 'modern' || entry.route === 'legacy' || entry.route === 'sse' ? entry.route : undefined;
  return { era: entry.era, ...(route ? { route } : {}) };
}

/**
 * Writes `verdict` for `key` (undefined: forgets it). Never rejects; leaves no temporary file.
 * Concurrent runs may each write: the last rename wins, and every version of the file is whole.
 */
export async function rememberEra(
  env: Record<string, string | undefined>,
  key: string,
  verdict: EraVerdict | undefined,
): Promise<void> {
  const file = eraCacheFile(env);
  if (file === undefined) return;
  const cache = await readCache(file);
  if (verdict === undefined) {
    if (!(key in cache.servers)) return;
    delete cache.servers[key];
  } else {
    const previous = cache.servers[key];
    if (previous && previous.era === verdict.era && previous.route === verdict.route) return;
    cache.servers[key] = { ...verdict, at: Date.now() };
  }
  const kept = Object.entries(cache.servers)
    .sort(([, a], [, b]) => (b.at ?? 0) - (a.at ?? 0))
    .slice(0, MAX_ENTRIES);
  cache.servers = Object.fromEntries(kept);
  await writeCacheFile(file, cache);
}
