/**
 * The dotenv-style files a server's `envFile` names: `KEY=VALUE` lines. Pure: text in, variables
 * out; reading the file is the loader's job.
 */

/**
 * Parses `KEY=VALUE` lines. Blank lines and `#` comment lines are skipped, an `export ` prefix is
 * allowed, spaces around `=` and the value are trimmed, and one pair of matching single or double
 * quotes around the value is removed (nothing inside is interpreted: no escapes, no `${…}`).
 * Lines that are not assignments are ignored. A later line wins over an earlier one.
 */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trimStart().startsWith('#')) continue;
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    let value = match[2]!;
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0]))
      value = value.slice(1, -1);
    out[match[1]!] = value;
  }
  return out;
}
