/**
 * Watching config files for hot reload. Each file is watched through its directory, not its
 * inode, so editors that save by writing a temporary file and renaming it over the original
 * (vim, VS Code, JetBrains, `sed -i`) keep being noticed; a file that does not exist yet is
 * noticed when it appears. Bursts of events (one save is often three or four) are debounced into
 * one call. `close()` releases every watcher and timer.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Options of {@link watchConfigFiles}. */
export interface WatchOptions {
  /** Quiet time after the last event before `onChange` runs (default 150 ms). */
  debounceMs?: number;
  /** Called when a directory cannot be watched (missing, permissions); watching goes on for the rest. */
  onError?: (error: Error, directory: string) => void;
}

/** A running watch; `close()` is idempotent. */
export interface ConfigWatch {
  close(): void;
  /** The directories actually being watched. */
  readonly directories: readonly string[];
}

/**
 * Watches `files` and calls `onChange` (with the changed files' absolute paths) once per burst of
 * changes. Never throws: unwatchable directories go to `onError`.
 */
export function watchConfigFiles(
  files: readonly string[],
  onChange: (changed: string[]) => void,
  options: WatchOptions = {},
): ConfigWatch {
  const debounceMs = options.debounceMs ?? 150;
  const byDirectory = new Map<string, Set<string>>();
  for (const file of files) {
    const absolute = path.resolve(file);
    const directory = path.dirname(absolute);
    if (!byDirectory.has(directory)) byDirectory.set(directory, new Set());
    byDirectory.get(directory)!.add(path.basename(absolute));
  }
  const watchers: FSWatcher[] = [];
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const flush = (): void => {
    timer = undefined;
    if (closed || pending.size === 0) return;
    const changed = [...pending].sort();
    pending.clear();
    try {
      onChange(changed);
    } catch {
      // The caller's handler reports its own failures; the watch goes on.
    }
  };

  for (const [directory, names] of byDirectory) {
    try {
      const watcher = watch(directory, { persistent: false }, (_event, filename) => {
        if (closed) return;
        const name = filename?.toString();
        // Some platforms omit the name: then any event in the directory counts for all its files.
        const hits = name === undefined ? [...names] : names.has(name) ? [name] : [];
        if (hits.length === 0) return;
        for (const hit of hits) pending.add(path.join(directory, hit));
        if (timer) clearTimeout(timer);
        timer = setTimeout(flush, debounceMs);
      });
      watcher.on('error', (error) => options.onError?.(error, directory));
      watchers.push(watcher);
    } catch (error) {
      options.onError?.(error as Error, directory);
    }
  }

  return {
    directories: [...byDirectory.keys()].filter((_, i) => watchers[i] !== undefined),
    close() {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      for (const watcher of watchers) watcher.close();
    },
  };
}
