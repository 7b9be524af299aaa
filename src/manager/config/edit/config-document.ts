/**
 * A config file opened for editing: its servers container read, and new texts of the file with
 * one entry added or removed. Every format keeps what the edit does not touch (comments, key
 * order, indentation, line endings) byte for byte; a text that does not parse is refused with a
 * `CONFIG_INVALID` error naming the file, line and column, so it is never rewritten.
 */
import { isDeepStrictEqual } from 'node:util';
import { ConfigError } from '../../../protocol/errors.js';

/** The file formats the editors handle (`json` and `jsonc` share one editor: we never add comments). */
export type ConfigFormat = 'json' | 'jsonc' | 'toml' | 'yaml';

/** A plain JSON-like value as a config file holds it. */
export type Entry = Record<string, unknown>;

/**
 * One file's text, parsed, with its servers container at `container` (a key path such as
 * `['mcpServers']`, `['mcp_servers']`, `['extensions']`). Pure: nothing is read or written.
 */
export interface ConfigDocument {
  readonly file: string;
  readonly format: ConfigFormat;
  /** The text the document was opened from. */
  readonly text: string;
  /** The whole document as a value (`{}` for an empty file). */
  readonly value: Record<string, unknown>;
  /**
   * The container's entries by name (empty when the container is missing). A list container
   * (Continue's YAML) gives its items by their `name`.
   */
  entries(container: readonly string[]): Record<string, unknown>;
  /**
   * The file's text with `entry` under `name` in `container` (created when missing, as a list
   * when `list`; an entry of that name is replaced in place). Throws `CONFIG_INVALID` when the
   * file's layout cannot take it.
   */
  withEntry(container: readonly string[], name: string, entry: Entry, list?: boolean): string;
  /** The file's text without entry `name` of `container` (the caller checked it is there). */
  withoutEntry(container: readonly string[], name: string): string;
}

/** {@link ConfigDocument.entries} over the parsed `document`. */
export function entriesIn(document: Record<string, unknown>): ConfigDocument['entries'] {
  return (container) => {
    const found = valueAt(document, container);
    return isObject(found) ? found : {};
  };
}

/** `value` at `path` when every step is an object, else undefined. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) {
    if (!isObject(at)) return undefined;
    at = at[key];
  }
  return at;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks that `after` (the edited text, parsed by `parse`) is exactly `before` with the one
 * change made at `container`/`name` (`entry`, or removed when undefined), so an editor's slip
 * never reaches the disk. Throws `CONFIG_INVALID` naming the file otherwise.
 */
export function assertOneChange(
  file: string,
  before: Record<string, unknown>,
  after: unknown,
  container: readonly string[],
  name: string,
  entry: Entry | undefined,
): void {
  const expected = structuredClone(before);
  let at: Record<string, unknown> = expected;
  for (const key of container) {
    if (!isObject(at[key])) at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  if (entry === undefined) delete at[name];
  else at[name] = entry;
  // A container left empty may be gone (TOML has no empty implicit table): the same to the loaders.
  const got = structuredClone(after) as Record<string, unknown>;
  let into: unknown = got;
  for (const key of container) {
    if (!isObject(into)) break;
    into[key] ??= {};
    into = into[key];
  }
  assertSameDocument(file, name, got, expected);
}

/** Throws `CONFIG_INVALID` naming `file` unless `after` is `expected` (key order aside). */
export function assertSameDocument(file: string, name: string, after: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(normalize(after), normalize(expected)))
    throw new ConfigError(`editing server "${name}" would change more than that entry; nothing was written`, {
      file,
    });
}

/** Key order does not matter to the check; values are compared as JSON sees them. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (isObject(value))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, normalize(value[key])]),
    );
  return value instanceof Date ? value.toISOString() : value;
}

/** The line ending a text uses (`\r\n` when it has any), for the lines an edit adds. */
export function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}
