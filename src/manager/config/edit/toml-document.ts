/**
 * TOML files (Codex's `config.toml`) edited on the text, with `@decimalturn/toml-patch` as the
 * parser: its syntax tree gives each table and key's lines. Its own `patch()` keeps comments but
 * writes a new server as a dotted key at the top (`mcp_servers.x = {…}`) and drops comments when
 * a table goes, so an added server is written as a `[mcp_servers.NAME]` table of its own at the
 * end of the file (the body from toml-patch's `stringify`), and a removed one takes out exactly
 * its tables and keys (with the comment lines right above them). The result is parsed again and
 * must differ from the original only by that entry. toml-patch is an optional peer dependency:
 * without it, opening a TOML file throws `DEPENDENCY_MISSING`.
 */
import { ConfigError, errorMessage } from '../../../protocol/errors.js';
import {
  assertOneChange,
  entriesIn,
  eolOf,
  isObject,
  valueAt,
  type ConfigDocument,
  type ConfigFormat,
} from './config-document.js';
import { tomlPatchLibrary } from './editor-libraries.js';

interface Loc {
  start: { line: number };
  end: { line: number };
}
/** The parts of toml-patch's syntax tree read here. */
interface TomlNode {
  type: string;
  loc: Loc;
  key?: { item?: { value: string[] }; value?: string[] };
  items?: TomlNode[];
}

/**
 * Parses `text` of `file`; throws `CONFIG_INVALID` with the line and column of the syntax error,
 * `DEPENDENCY_MISSING` when toml-patch is not installed.
 */
export function openTomlDocument(file: string, text: string): ConfigDocument {
  const { stringify } = tomlPatchLibrary();
  const value = parseToml(file, text);
  return {
    file,
    format: 'toml' satisfies ConfigFormat,
    text,
    value,
    entries: entriesIn(value),
    withEntry(container, name, entry) {
      const existing = valueAt(value, container);
      const base = isObject(existing) && name in existing ? removeLines(text, container, name) : text;
      const eol = eolOf(text);
      const body = stringify(entry, { inlineTableStart: 0, newLine: eol, trailingNewline: 1 });
      const header = `[${[...container, name].map(tomlKey).join('.')}]${eol}`;
      const separator = base === '' ? '' : (base.endsWith('\n') ? '' : eol) + eol;
      const after = `${base}${separator}${header}${body}`;
      assertOneChange(file, value, parseToml(file, after), container, name, entry);
      return after;
    },
    withoutEntry(container, name) {
      const after = removeLines(text, container, name);
      assertOneChange(file, value, parseToml(file, after), container, name, undefined);
      return after;
    },
  };
}

function parseToml(file: string, text: string): Record<string, unknown> {
  // Outside the try: a missing library is not a syntax error of the file.
  const { parse } = tomlPatchLibrary();
  try {
    return parse(text, { integersAsBigInt: false }) as Record<string, unknown>;
  } catch (error) {
    const at = error as { line?: number; column?: number };
    throw new ConfigError(`invalid TOML: ${errorMessage(error).split('\n').at(-1)}; not edited`, {
      file,
      ...(typeof at.line === 'number' ? { line: at.line, column: (at.column ?? 0) + 1 } : {}),
    });
  }
}

/** A bare key when TOML allows one, else a quoted one. */
function tomlKey(key: string): string {
  return /^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key);
}

/**
 * `text` without the tables (`[c.name]`, `[c.name.env]`) and keys (`c.name = …` at the top,
 * `name = …` in `[c]`) that define entry `name` of container `c`, each with the comment lines
 * right above it; a blank line before a removed block goes too when a blank line or the end of
 * the file follows it, so an entry added at the end comes out without a trace.
 */
function removeLines(text: string, container: readonly string[], name: string): string {
  const path = [...container, name];
  const starts = (key: string[], prefix: readonly string[]) => prefix.every((part, i) => key[i] === part);
  const ranges: Array<[number, number]> = [];
  for (const block of tomlPatchLibrary().parseDocument(text).cst as unknown as TomlNode[]) {
    const key = keyOf(block);
    if (block.type === 'Table' && starts(key, path)) {
      const rows = (block.items ?? []).filter((item) => item.type === 'KeyValue');
      ranges.push([block.loc.start.line, rows.at(-1)?.loc.end.line ?? block.loc.start.line]);
    } else if (block.type === 'KeyValue' && starts(key, path)) ranges.push([block.loc.start.line, block.loc.end.line]);
    else if (block.type === 'Table' && key.length === container.length && starts(key, container))
      for (const item of block.items ?? [])
        if (item.type === 'KeyValue' && keyOf(item)[0] === name) ranges.push([item.loc.start.line, item.loc.end.line]);
  }
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const drop = new Set<number>();
  const blank = (line: number) => line >= 1 && line <= lines.length && /^\s*$/.test(lines[line - 1]!);
  const comment = (line: number) => /^\s*#/.test(lines[line - 1] ?? '');
  for (const [first, last] of ranges) {
    let start = first;
    while (start > 1 && comment(start - 1)) start--;
    for (let line = start; line <= last; line++) drop.add(line);
  }
  // A blank line between two removed blocks goes.
  for (let line = 1; line <= lines.length; line++) {
    if (!blank(line) || drop.has(line)) continue;
    let up = line - 1;
    while (up >= 1 && blank(up)) up--;
    let down = line + 1;
    while (down <= lines.length && blank(down)) down++;
    if (drop.has(up) && drop.has(down)) drop.add(line);
  }
  // A blank line before a removed run goes when a blank line or the end of the file follows the run.
  for (let line = 1; line <= lines.length; line++) {
    if (!drop.has(line) || drop.has(line - 1) || !blank(line - 1)) continue;
    let end = line;
    while (drop.has(end + 1)) end++;
    if (end === lines.length || blank(end + 1)) drop.add(line - 1);
  }
  return lines.filter((_, i) => !drop.has(i + 1)).join('');
}

function keyOf(node: TomlNode): string[] {
  return node.key?.item?.value ?? node.key?.value ?? [];
}
