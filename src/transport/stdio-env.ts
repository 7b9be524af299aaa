/**
 * The environment a stdio server gets: a safe allowlist inherited from this process plus the
 * configured variables — never the whole environment (API keys in it are not the server's
 * business) unless the caller asks for that explicitly.
 */

/** Inherited on POSIX systems. */
export const POSIX_ALLOWLIST = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'TMPDIR', 'LANG', 'LC_ALL'] as const;

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
