/**
 * Logins kept in files, one JSON file per server under a directory (default
 * `~/.mcpwire/oauth`, beside the manager's user files): the directory `0700`, each file `0600`,
 * written to a temporary file and renamed, so a reader never sees half a login. Processes that
 * share the directory refresh a login one at a time: {@link FileTokenStore.lock} is a lock
 * directory beside the login's file (`proper-lockfile`: `mkdir` is atomic, the holder keeps its
 * mtime fresh, and a lock whose mtime is older than the stale bound — its process died — is
 * broken).
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StoredLogin, TokenStore } from './token-store.js';
import { withFileLock } from './file-lock.js';

/** Options of {@link FileTokenStore}. */
export interface FileTokenStoreOptions {
  /** The directory (default `<home>/.mcpwire/oauth`). */
  dir?: string;
  /**
   * A lock not kept fresh for this long belongs to a process that died and is broken (default
   * 10000 ms, at least 2000). The holder refreshes it every half of this.
   */
  lockStaleMs?: number;
  /** How long {@link FileTokenStore.lock} waits for another process's lock (default 30000 ms). */
  lockWaitMs?: number;
}

/** The default directory: `~/.mcpwire/oauth`. */
export function defaultTokenDir(): string {
  return path.join(os.homedir(), '.mcpwire', 'oauth');
}

const DEFAULT_LOCK_STALE_MS = 10_000;
const DEFAULT_LOCK_WAIT_MS = 30_000;
/** A {@link TokenStore} in files; a file that cannot be read as a login counts as none. */
export class FileTokenStore implements TokenStore {
  readonly dir: string;
  private readonly lockStaleMs: number;
  private readonly lockWaitMs: number;

  constructor(options: FileTokenStoreOptions = {}) {
    this.dir = path.resolve(options.dir ?? defaultTokenDir());
    this.lockStaleMs = Math.max(options.lockStaleMs ?? DEFAULT_LOCK_STALE_MS, 2_000);
    this.lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
  }

  /** The file of `key` (a hash: server URLs are not file names). */
  fileOf(key: string): string {
    return path.join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
  }

  /** The lock directory of `key`, beside its file. */
  lockOf(key: string): string {
    return `${this.fileOf(key)}.lock`;
  }

  async get(key: string): Promise<StoredLogin | undefined> {
    let text: string;
    try {
      text = await readFile(this.fileOf(key), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed = JSON.parse(text) as { key?: unknown; login?: StoredLogin };
      return parsed.key === key && typeof parsed.login === 'object' && parsed.login !== null ? parsed.login : undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, login: StoredLogin): Promise<void> {
    await this.ensureDir();
    const file = this.fileOf(key);
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, JSON.stringify({ key, login }, null, 2), { mode: 0o600, flag: 'wx' });
      await rename(temp, file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.fileOf(key), { force: true });
  }

  /**
   * Runs `task` holding `key`'s lock across every process that uses this directory (see
   * {@link TokenStore.lock}). Waits for a held lock up to `lockWaitMs`, then rejects naming the
   * lock; a lock left by a dead process is broken once stale. Rejects with the signal's reason
   * when `signal` aborts the wait.
   */
  async lock<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.ensureDir();
    return withFileLock(
      {
        file: this.fileOf(key),
        lockfilePath: this.lockOf(key),
        staleMs: this.lockStaleMs,
        waitMs: this.lockWaitMs,
        what: 'login',
      },
      task,
      signal,
    );
  }

  private async ensureDir(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
  }
}
