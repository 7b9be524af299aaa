/**
 * JSON and JSONC files (Claude, Cursor, VS Code, Zed, OpenCode, mcpwire's own) edited through
 * `jsonc-parser`'s `modify`/`applyEdits`: an added entry is formatted with the file's own
 * indentation (spaces or tabs, and how many) and line ending; everything else keeps its bytes.
 */
import { lineColumn } from '../text-formats.js';
import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parseTree,
  printParseErrorCode,
  type FormattingOptions,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import { ConfigError } from '../../../protocol/errors.js';
import { assertOneChange, entriesIn, eolOf, type ConfigDocument, type ConfigFormat } from './config-document.js';

/**
 * Parses `text` of `file`; throws `CONFIG_INVALID` with the line and column of the first syntax
 * error. A byte order mark (Windows editors write one) is kept in front of the edited text.
 */
export function openJsonDocument(file: string, text: string, format: ConfigFormat = 'jsonc'): ConfigDocument {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const body = text.slice(bom.length);
  const value = parseJson(file, body);
  return {
    file,
    format,
    text,
    value,
    entries: entriesIn(value),
    withEntry(container, name, entry) {
      const after = insertEntry(body, [...container, name], entry);
      assertOneChange(file, value, parseJson(file, after), container, name, entry);
      return bom + after;
    },
    withoutEntry(container, name) {
      const after =
        onlyEntry(body, container, name) ?? applyEdits(body, modify(body, [...container, name], undefined, {}));
      assertOneChange(file, value, parseJson(file, after), container, name, undefined);
      return bom + after;
    },
  };
}

function parseJson(file: string, text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first) {
    const { line, column } = lineColumn(text, first.offset);
    throw new ConfigError(`invalid JSON: ${describe(printParseErrorCode(first.error))}; not edited`, {
      file,
      line,
      column,
    });
  }
  if (root?.type !== 'object') throw new ConfigError('the top level must be an object; not edited', { file });
  return nodeValue(root) as Record<string, unknown>;
}

function nodeValue(node: Node): unknown {
  if (node.type === 'object')
    return Object.fromEntries(
      (node.children ?? []).map((property) => [
        property.children![0]!.value as string,
        nodeValue(property.children![1]!),
      ]),
    );
  if (node.type === 'array') return (node.children ?? []).map(nodeValue);
  return node.value as unknown;
}

/** `PropertyNameExpected` as "property name expected". */
function describe(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

/**
 * The text without `name` when it is the only entry of its container and nothing else (no
 * comment) is inside the braces: `{}` again, as the container was before its first entry.
 */
function onlyEntry(text: string, container: readonly string[], name: string): string | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = root && findNodeAtLocation(root, [...container]);
  const property = node?.children?.length === 1 ? node.children[0] : undefined;
  if (!node || node.type !== 'object' || property?.children?.[0]?.value !== name) return undefined;
  const inside = text.slice(node.offset + 1, node.offset + node.length - 1);
  const rest =
    inside.slice(0, property.offset - node.offset - 1) +
    inside.slice(property.offset + property.length - node.offset - 1);
  if (!/^[\s,]*$/.test(rest)) return undefined;
  return text.slice(0, node.offset + 1) + text.slice(node.offset + node.length - 1);
}

/**
 * `text` with `value` at `path`: `modify` finds where (after the last entry, into an empty
 * object, creating the missing containers, or over an entry of that name), and the new text is
 * laid out like the file at that place: on lines of its own indented like its siblings, or, where
 * the object it goes into is written on one line (a file a program wrote with `JSON.stringify`),
 * on that line with the object's own spacing. Only the inserted text is formatted: `modify`'s own
 * formatting would re-lay the whole line it touches (a one-line sibling entry with it).
 */
function insertEntry(text: string, path: string[], value: unknown): string {
  const inline = oneLineStyle(text, path.slice(0, -1));
  if (inline) return insertInline(text, path, value, inline);
  const formatting = formattingOf(text);
  const eol = formatting.eol!;
  const unit = formatting.insertSpaces ? ' '.repeat(formatting.tabSize!) : '\t';
  const pretty = (item: unknown, indent: string) => JSON.stringify(item, null, unit).replace(/\n/g, eol + indent);
  if (text.trim() === '') return pretty(JSON.parse(applyEdits('', modify('', path, value, {}))), '') + eol;
  const edit = modify(text, path, value, {})[0]!;
  const indentAt = (offset: number) => /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1))![0];
  // Over an existing entry: the new value where the old one was.
  if (edit.length > 0)
    return applyEdits(text, [{ ...edit, content: pretty(JSON.parse(edit.content), indentAt(edit.offset)) }]);
  const afterSibling = edit.content.startsWith(',');
  const body = afterSibling ? edit.content.slice(1) : edit.content;
  const keyEnd = endOfJsonString(body);
  const key = body.slice(0, keyEnd);
  const item: unknown = JSON.parse(body.slice(keyEnd + 1));
  if (afterSibling) {
    const indent = indentAt(edit.offset);
    return applyEdits(text, [{ ...edit, content: `,${eol}${indent}${key}: ${pretty(item, indent)}` }]);
  }
  // Into an empty object: its inside (whitespace only) becomes the one entry on its own lines.
  const outer = indentAt(edit.offset - 1);
  const inner = outer + unit;
  const blank = /^\s*/.exec(text.slice(edit.offset))![0].length;
  return applyEdits(text, [
    { offset: edit.offset, length: blank, content: `${eol}${inner}${key}: ${pretty(item, inner)}${eol}${outer}` },
  ]);
}

/** How a one-line object spaces its parts: after `:`, after `,`, inside its braces. */
interface InlineStyle {
  colon: string;
  comma: string;
  pad: string;
}

/**
 * The spacing of the innermost object with entries on `container`'s path (the container itself
 * when it exists and has some, else the nearest ancestor) when that object is written on one line
 * (no line break between its braces); undefined for one laid out on lines, and when no object on
 * the path has an entry (`{}`: nothing to copy, so the entry gets lines of its own).
 */
function oneLineStyle(text: string, container: readonly string[]): InlineStyle | undefined {
  const root = parseTree(text, [], { allowTrailingComma: true });
  if (!root) return undefined;
  let node: Node | undefined;
  for (let depth = container.length; depth >= 0 && !node; depth--) {
    const found = depth === 0 ? root : findNodeAtLocation(root, [...container.slice(0, depth)]);
    if (found?.type === 'object' && found.children?.length) node = found;
  }
  if (!node) return undefined;
  const own = text.slice(node.offset, node.offset + node.length);
  if (own.includes('\n')) return undefined;
  return {
    colon: /"[ \t]*:([ \t]*)/.exec(own)?.[1] ?? '',
    comma: /,([ \t]*)"/.exec(own)?.[1] ?? /"[ \t]*:([ \t]*)/.exec(own)?.[1] ?? '',
    pad: /^\{([ \t]*)\S/.exec(own)?.[1] ?? '',
  };
}

/** {@link insertEntry} into an object written on one line: the entry joins that line. */
function insertInline(text: string, path: string[], value: unknown, style: InlineStyle): string {
  const edit = modify(text, path, value, {})[0]!;
  if (edit.length > 0) return applyEdits(text, [{ ...edit, content: compact(JSON.parse(edit.content), style) }]);
  const afterSibling = edit.content.startsWith(',');
  const body = afterSibling ? edit.content.slice(1) : edit.content;
  const keyEnd = endOfJsonString(body);
  const member = `${body.slice(0, keyEnd)}:${style.colon}${compact(JSON.parse(body.slice(keyEnd + 1)), style)}`;
  if (afterSibling) return applyEdits(text, [{ ...edit, content: `,${style.comma}${member}` }]);
  const blank = /^\s*/.exec(text.slice(edit.offset))![0].length;
  return applyEdits(text, [{ offset: edit.offset, length: blank, content: `${style.pad}${member}${style.pad}` }]);
}

/** `value` as JSON on one line, spaced as `style` says. */
function compact(value: unknown, style: InlineStyle): string {
  if (Array.isArray(value)) return `[${value.map((item) => compact(item, style)).join(`,${style.comma}`)}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${style.colon}${compact(v, style)}`);
    return members.length ? `{${style.pad}${members.join(`,${style.comma}`)}${style.pad}}` : '{}';
  }
  return JSON.stringify(value);
}

/** The index just past the JSON string `text` starts with. */
function endOfJsonString(text: string): number {
  let i = 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** The file's indentation (the smallest indent of a line that starts with a key or a bracket) and line ending. */
export function formattingOf(text: string): FormattingOptions {
  const eol = eolOf(text);
  const indents = [...text.matchAll(/^([ \t]+)["}\]{[]/gm)].map((m) => m[1]!);
  if (indents.some((indent) => indent.startsWith('\t'))) return { insertSpaces: false, tabSize: 1, eol };
  const smallest = Math.min(...indents.map((indent) => indent.length));
  return { insertSpaces: true, tabSize: Number.isFinite(smallest) ? smallest : 2, eol };
}
