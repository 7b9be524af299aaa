/**
 * Writing a config file so that no reader ever sees half of it: the new bytes go to a temporary
 * file in the same directory (same file system), are flushed, get the old file's mode, and are
 * renamed over it. The bytes it had before are kept in `FILE.bak` (one backup, replaced by each
 * write, with the file's mode). A file written through a symbolic link is written where the link
 * points, so the link stays. Writers in mcpwire processes take turns (`proper-lockfile`'s
 * `FILE.lock`), and a file that changed since it was read is never overwritten.
 */
import { randomBytes } from 'node:crypto';
import { chmod, copyFile, mkdir, open, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { ConfigError } from '../../../protocol/errors.js';

/** What {@link writeFileAtomic} did. */
export interface WriteResult {
  /** The file written (a symbolic link's target). */
  file: string;
  /** Whether the file (and maybe its directory) was created. */
  created: boolean;
  /** The backup of the bytes before, when there were any. */
  backup?: string;
}

/** The file changed between the read an edit was planned on and the write: plan again. */
export class FileChangedError extends ConfigError {
  override readonly name = 'FileChangedError';
}

/** The backup a write of `file` keeps. */
export function backupPath(file: string): string {
  return `${file}.bak`;
}

/**
 * Replaces `file`'s contents by `text` atomically, keeping its mode and a backup. `expected` is
 * what the caller read (undefined: the file did not exist): when the file holds anything else by
 * the time of the write (another program changed it), nothing is written and this rejects with
 * `CONFIG_INVALID` naming the file. A missing file is created (mode 0600: config files hold
 * secrets) with its directory. No temporary file is left behind, whatever fails.
 */
export async function writeFileAtomic(file: string, text: string, expected: string | undefined): Promise<WriteResult> {
  const target = await realpath(file).catch(() => file);
  await mkdir(path.dirname(target), { recursive: true });
  const release = await lockfile.lock(target, {
    realpath: false,
    stale: 10_000,
    retries: { retries: 200, minTimeout: 5, maxTimeout: 50 },
  });
  try {
    return await replace(file, target, text, expected);
  } finally {
    await release();
  }
}

async function replace(file: string, target: string, text: string, expected: string | undefined): Promise<WriteResult> {
  const current = await readFile(target, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (current !== expected)
    throw new FileChangedError(
      'the file changed while it was being edited; nothing was written (run the command again)',
      {
        file,
      },
    );
  const dir = path.dirname(target);
  const mode = current === undefined ? 0o600 : (await stat(target)).mode & 0o7777;
  let backup: string | undefined;
  if (current !== undefined) {
    backup = backupPath(target);
    await copyFile(target, backup);
    await chmod(backup, mode);
  }
  const temporary = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', mode);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.chmod(mode); // the umask may have narrowed it
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  return { file: target, created: current === undefined, ...(backup ? { backup } : {}) };
}
