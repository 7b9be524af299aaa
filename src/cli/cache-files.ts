/**
 * The CLI's cache files (completion's lists, the era verdicts): where they live and how they are
 * written. Caches are best-effort: a file that cannot be written is no error, only no cache.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** `$XDG_CACHE_HOME/mcpwire` (default `~/.cache/mcpwire`), or undefined without `XDG_CACHE_HOME` and `HOME`. */
export function mcpwireCacheDir(env: Record<string, string | undefined>): string | undefined {
  const base = env.XDG_CACHE_HOME || (env.HOME ? path.join(env.HOME, '.cache') : undefined);
  return base ? path.join(base, 'mcpwire') : undefined;
}

/**
 * Writes `value` as one JSON line to `file` (mode 0600, its directory made): a temporary file
 * renamed over the old one, so every version a reader sees is whole and the last writer wins.
 * Never rejects; leaves no temporary file.
 */
export async function writeCacheFile(file: string, value: unknown): Promise<void> {
  const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(temporary, `${JSON.stringify(value)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  } catch {
    await rm(temporary, { force: true }).catch(() => {});
  }
}
