/** What a command hands back to `main()` for printing. */
export interface Outcome {
  /** The `result` of the `--json` envelope. */
  json: unknown;
  /** The human form (stdout). */
  text: string;
  /** Non-zero when the command ran but its subject failed (a tool's `isError`: 5). */
  exitCode?: number;
  /** With a non-zero `exitCode`: the envelope's `error` instead of `result`. */
  error?: { code: string; message: string; [key: string]: unknown };
  /**
   * With `error`, the human form's one stderr line instead of `error.message`: for a `text` that
   * already shows what went wrong (a tool's error text, the config errors it lists), so stderr
   * says so once without printing it again. `--json` keeps `error.message`.
   */
  notice?: string;
  /** Print nothing (the proxy: stdout belongs to the protocol). */
  silent?: boolean;
  /** End the process with this signal instead of an exit code (the proxy's server was killed by it). */
  signal?: NodeJS.Signals;
}
