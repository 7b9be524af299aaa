/**
 * Logins kept in files, one JSON file per server under a directory (default
 * `~/.mcpwire/oauth`, beside the manager's user files): the directory `0700`, each file `0600`,
 * written to a temporary file and renamed, so a reader never sees half a login.
 */
import { createHash, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { StoredLogin, TokenStore } from './token-store.js';

/** Options of {@link FileTokenStore}. */
export interface FileTokenStoreOptions {
  /** The directory (default `<home>/.mcpwire/oauth`). */
  dir?: string;
}

/** The default directory: `~/.mcpwire/oauth`. */
export function defaultTokenDir(): string {
  return path.join(os.homedir(), '.mcpwire', 'oauth');
}

/** A {@link TokenStore} in files; a file that cannot be read as a login counts as none. */
export class FileTokenStore implements TokenStore {
  readonly dir: string;

  constructor(options: FileTokenStoreOptions = {}) {
    this.dir = path.resolve(options.dir ?? defaultTokenDir());
  }

  /** The file of `key` (a hash: server URLs are not file names). */
  fileOf(key: string): string {
    return path.join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
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
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
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
}
