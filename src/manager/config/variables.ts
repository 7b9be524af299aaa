/**
 * `${VAR}`, `${VAR:-default}` and `${env:VAR}` in the fields where users put them (command,
 * args, env values, cwd, url, headers). Expansion records every value that came from a
 * variable, so the layers above can keep expanded secrets out of status output, logs and errors.
 * `$${…}` stands for a literal `${…}`. The syntax is the transport layer's one expander
 * (`transport/variables.ts`), which the stdio transport applies to a spec's `env` too.
 */
import { ConfigError } from '../../protocol/errors.js';
import { expandVariables } from '../../transport/variables.js';

/** Where a string being expanded sits, for the error message. */
export interface ExpandSite {
  file: string;
  server: string;
  field: string;
}

/**
 * Expands the references in `text`. Rejects (throws `CONFIG_INVALID`) on an unset variable
 * without a default, naming file, server, field and variable. Values taken from variables are
 * added to `secrets`.
 */
export function expandString(
  text: string,
  env: Record<string, string | undefined>,
  site: ExpandSite,
  secrets: Set<string>,
): string {
  const expansion = expandVariables(text, env);
  if (!expansion.ok) {
    const name = expansion.unset;
    throw new ConfigError(`${site.field}: variable ${name} is not set (write \${${name}:-default} for a default)`, {
      file: site.file,
      server: site.server,
      field: site.field,
      variable: name,
    });
  }
  for (const value of expansion.values) secrets.add(value);
  return expansion.text;
}

/** The fields of a raw server entry that take variables. */
export const EXPANDED_FIELDS = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'oauth'] as const;

/**
 * Expands every variable in the expandable fields of `entry` (a raw server object), returning a
 * new object; other fields are copied as they are.
 */
export function expandServer(
  entry: Record<string, unknown>,
  env: Record<string, string | undefined>,
  site: Omit<ExpandSite, 'field'>,
  secrets: Set<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...entry };
  for (const field of EXPANDED_FIELDS) {
    const value = entry[field];
    if (typeof value === 'string') out[field] = expandString(value, env, { ...site, field }, secrets);
    else if (Array.isArray(value))
      out[field] = (value as unknown[]).map((item, i) =>
        typeof item === 'string' ? expandString(item, env, { ...site, field: `${field}[${i}]` }, secrets) : item,
      );
    else if (value && typeof value === 'object') {
      out[field] = Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([key, item]) => [
          key,
          typeof item === 'string' ? expandString(item, env, { ...site, field: `${field}.${key}` }, secrets) : item,
        ]),
      );
    }
  }
  return out;
}

/**
 * Where the values of `entry` that use variables come from: field path (`env.TOKEN`,
 * `args[1]`, `url`) → the variables it names, as written (`${TOKEN}`, `${env:HOST} ${PORT:-80}`).
 * Only the references, never the literal text around them (a header could hold a token). Pure;
 * fields without `${` are left out.
 */
export function variableOrigins(entry: Record<string, unknown>): Record<string, string> {
  const origins: Record<string, string> = {};
  const note = (path: string, value: unknown) => {
    const references = typeof value === 'string' ? value.match(/\$\{[^}]*\}/g) : null;
    if (references) origins[path] = references.join(' ');
  };
  for (const field of EXPANDED_FIELDS) {
    const value = entry[field];
    if (Array.isArray(value)) value.forEach((item, i) => note(`${field}[${i}]`, item));
    else if (value && typeof value === 'object')
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) note(`${field}.${key}`, item);
    else note(field, value);
  }
  return origins;
}
