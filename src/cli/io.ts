/**
 * What a CLI run may touch: its streams, environment and working directory. `main()` takes one,
 * so the command can run in-process (tests, a host embedding it) as well as from `dist/cli.js`.
 */
import type { Readable, Writable } from 'node:stream';

export interface CliIO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  env: Record<string, string | undefined>;
  cwd: string;
  /** stdin and stderr are a terminal: interactive prompts and live progress are allowed. */
  interactive: boolean;
  /** ANSI colours on stderr/stdout. */
  color: boolean;
  /** Width tables are fitted to: the terminal's; when stdout is not one, `COLUMNS` or 80. */
  columns: number;
}

/** The process's own streams and environment. `NO_COLOR` and `--no-color` turn colours off. */
export function processIO(): CliIO {
  const stderrTty = process.stderr.isTTY === true;
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
    interactive: process.stdin.isTTY === true && stderrTty,
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
    // Piped output is read at 80 columns too (a pager, a log, an issue): tables wrap, never cut.
    columns: process.stdout.isTTY ? (process.stdout.columns ?? 80) : widthOf(process.env.COLUMNS),
  };
}

/** `COLUMNS` as a width when it is a positive integer; else 80. */
export function widthOf(value: string | undefined): number {
  const width = Number(value);
  return Number.isInteger(width) && width > 0 ? width : 80;
}

/** ANSI helpers that do nothing when colours are off. */
export function paint(enabled: boolean) {
  const wrap = (code: number) => (text: string) => (enabled ? `\u001b[${code}m${text}\u001b[0m` : text);
  return { bold: wrap(1), dim: wrap(2), red: wrap(31), green: wrap(32), yellow: wrap(33), cyan: wrap(36) };
}
