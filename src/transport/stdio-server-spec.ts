/**
 * The shape of a stdio target, apart from the code that starts it (`stdio/stdio-spawn.ts`, Node
 * only), so the runtime-neutral root can name it: `McpClient.connect({ command })` type-checks
 * everywhere and runs where a process can be started (Node, Deno, Bun).
 */

/** How to start a stdio server. Arguments are an array: no shell is involved. */
export interface StdioServerSpec {
  /** The executable: a path, or a name looked up in the server's `PATH`. */
  command: string;
  args?: string[];
  /**
   * Added to the inherited allowlist (or to the whole environment with `inheritEnv`).
   * `StdioTransport.spawn` expands `${VAR}` references in the values from this process's
   * environment (`${NAME}`, `${NAME:-default}`, `$${…}` for a literal `${…}`); an unset variable
   * without a default fails the start with `CONFIG_INVALID`. Keys, `command`, `args` and `cwd`
   * are used as given.
   */
  env?: Record<string, string>;
  /** Working directory of the server (default: this process's). */
  cwd?: string;
  /** Pass this process's whole environment instead of the safe allowlist. */
  inheritEnv?: boolean;
}
