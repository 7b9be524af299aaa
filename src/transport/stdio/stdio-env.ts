/**
 * The environment a stdio server gets: a safe allowlist inherited from this process plus the
 * configured variables — never the whole environment (API keys in it are not the server's
 * business) unless the caller asks for that explicitly. Configured values may name variables of
 * this process (`${GITHUB_TOKEN}`), which is how a secret reaches one server and no other.
 */
import { ConfigError } from '../../protocol/errors.js';
import { expandVariables } from '../variables.js';

/** Inherited on POSIX systems. */
export const POSIX_ALLOWLIST = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'TMPDIR',
  'LANG',
  'LC_ALL',
] as const;

/** Inherited on Windows, where programs break without these. */
export const WINDOWS_ALLOWLIST = [
  'APPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
  'LOCALAPPDATA',
  'PATH',
  'PATHEXT',
  'PROCESSOR_ARCHITECTURE',
  'SYSTEMDRIVE',
  'SYSTEMROOT',
  'TEMP',
  'TMP',
  'USERNAME',
  'USERPROFILE',
  'PROGRAMFILES',
  'COMSPEC',
] as const;

/**
 * Builds a server's environment: the allowlisted variables of `base` (or all of them with
 * `inheritAll`), then `extra` on top. Values that are functions in the shell (`()…`) are dropped
 * because they are a known injection vector.
 */
export function buildServerEnv(
  extra: Record<string, string> | undefined,
  inheritAll = false,
  base: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  const env: Record<string, string> = {};
  if (inheritAll) {
    for (const [key, value] of Object.entries(base)) if (value !== undefined) env[key] = value;
  } else {
    const names = platform === 'win32' ? WINDOWS_ALLOWLIST : POSIX_ALLOWLIST;
    for (const name of names) {
      const value = base[name];
      if (value !== undefined && !value.startsWith('()')) env[name] = value;
    }
  }
  if (extra) Object.assign(env, extra);
  return env;
}

/**
 * Expands the `${VAR}` references in the values of a spec's `env` from `source` (default: this
 * process's whole environment, not the allowlist). The syntax is `transport/variables.ts`'s:
 * `${NAME}`, `${env:NAME}`, `${NAME:-default}`, and `$${…}` for a literal `${…}`. Throws
 * `CONFIG_INVALID` naming the server, the key and the variable when a variable is unset or empty
 * and has no default — as a config file with that value would fail to load.
 */
export function expandServerEnv(
  env: Record<string, string> | undefined,
  server: string,
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> | undefined {
  if (env === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    const expansion = expandVariables(value, source);
    if (!expansion.ok) {
      throw new ConfigError(
        `env.${key}: variable ${expansion.unset} is not set (write \${${expansion.unset}:-default} for a default)`,
        { server, field: `env.${key}`, variable: expansion.unset },
      );
    }
    out[key] = expansion.text;
  }
  return out;
}
