/**
 * Whether a stdio server's command can be started: a path (with a `/`) must be an executable
 * file; a bare name must be found, executable, in a directory of `PATH` (as the stdio transport's
 * spawn looks it up; `PATHEXT` extensions on Windows).
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CheckOutcome } from './run-check.js';

async function executable(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Where `command` resolves, or undefined; `cwd` for a relative path, `envPath` the PATH to search. */
export async function resolveCommand(
  command: string,
  cwd: string,
  envPath: string | undefined,
): Promise<string | undefined> {
  if (command.includes('/') || (process.platform === 'win32' && command.includes('\\'))) {
    const full = path.resolve(cwd, command);
    return (await executable(full)) ? full : undefined;
  }
  const extensions =
    process.platform === 'win32' ? ['', ...(process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const dir of (envPath ?? '').split(path.delimiter).filter(Boolean)) {
    for (const extension of extensions) {
      const candidate = path.join(dir, command + extension);
      if (await executable(candidate)) return candidate;
    }
  }
  return undefined;
}

/** The `command` check. */
export async function checkCommand(command: string, cwd: string, envPath: string | undefined): Promise<CheckOutcome> {
  const found = await resolveCommand(command, cwd, envPath);
  if (found)
    return {
      verdict: 'ok',
      detail: found === command ? `${command} is an executable file` : `${command} resolves to ${found}`,
    };
  const isPath = command.includes('/') || command.includes('\\');
  return {
    verdict: 'fail',
    kind: 'unreachable',
    detail: isPath
      ? `${path.resolve(cwd, command)} is not an executable file`
      : `"${command}" is not found on PATH (${(envPath ?? '').split(path.delimiter).filter(Boolean).length} directories searched)`,
    fix: isPath
      ? 'check the path in "command" (relative paths start from the server\'s cwd), and that the file is executable'
      : `install ${command}, or give its full path in "command"`,
  };
}
