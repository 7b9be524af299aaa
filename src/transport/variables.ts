/**
 * `${VAR}` references in configured strings: the one expander, shared by the stdio transport
 * (its `env` values) and the config loader (every field that takes variables), and its inverse
 * for values that are already final. Pure: the environment is passed in.
 *
 * Syntax: `${NAME}` and `${env:NAME}` are the variable's value; `${NAME:-text}` is its value, or
 * `text` when it is unset or empty; `$${…}` is a literal `${…}`. NAME is `[A-Za-z_][A-Za-z0-9_]*`;
 * anything else between `${` and `}` is left as it is. An unset or empty variable without a
 * default is an error (the caller says how to report it); nothing is expanded twice.
 */

const REFERENCE = /\$\$\{[^}]*\}|\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const ANY_REFERENCE = /\$\{[^}]*\}/g;

/** What {@link expandVariables} made of a string. */
export type Expansion =
  /** The expanded text, and the variable values it took (for redaction: they may be secrets). */
  | { ok: true; text: string; values: string[] }
  /** The first variable that is unset (or empty) and has no default. */
  | { ok: false; unset: string };

/** Expands the references in `text` from `env` (see the file comment for the syntax). Never throws. */
export function expandVariables(text: string, env: Readonly<Record<string, string | undefined>>): Expansion {
  if (!text.includes('${')) return { ok: true, text, values: [] };
  const values: string[] = [];
  let unset: string | undefined;
  const expanded = text.replace(REFERENCE, (match: string, name: string | undefined, fallback: string | undefined) => {
    if (name === undefined) return match.slice(1); // `$${X}` ⇒ literal `${X}`
    const value = env[name];
    if (value !== undefined && value !== '') {
      values.push(value);
      return value;
    }
    if (fallback !== undefined) return fallback;
    unset ??= name;
    return match;
  });
  return unset === undefined ? { ok: true, text: expanded, values } : { ok: false, unset };
}

/**
 * `text` written so that {@link expandVariables} gives it back unchanged: every `${…}` in it
 * becomes `$${…}`. For values that were expanded already (a loaded config's), so that a value
 * holding `${` — a literal from `$${…}`, a password — is not expanded a second time.
 */
export function escapeVariables(text: string): string {
  return text.includes('${') ? text.replace(ANY_REFERENCE, (reference) => `$${reference}`) : text;
}
