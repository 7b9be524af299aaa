/** Types of scripts/runtimes.mjs (the runtimes the server kit is tested under). */
export type Runtime = 'node' | 'deno' | 'bun' | 'workerd';
export type ServeRuntime = 'node' | 'deno' | 'bun';
/** The repository's root directory. */
export const ROOT: string;
/** The runtimes `runtimeCommand` starts scripts under. */
export const RUNTIMES: readonly ServeRuntime[];
/** The absolute path of a working binary of `runtime`; throws naming what it tried. */
export function runtimeBinary(runtime: Runtime): string;
/** The command line and added environment that run `script` under `runtime`. */
export function runtimeCommand(
  runtime: ServeRuntime,
  script: string,
  args?: readonly string[],
  options?: { denoDir?: string; allow?: readonly string[] },
): { command: string; args: string[]; env: Record<string, string> };
