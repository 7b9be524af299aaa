/**
 * Where in its file a config error is, for `config check`: a syntax error knows its line and
 * column already; an error about one server's entry (a missing `command`, a bad `env.TOKEN`) knows
 * its file, server and field, and is placed here at that field in a JSON or JSON-with-comments
 * file (or at the entry when the field is not written in it). YAML and TOML entries keep the
 * file alone.
 */
import { readFile } from 'node:fs/promises';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { lineColumn } from '../manager/config/text-formats.js';
import { ConfigError, type McpError } from '../protocol/errors.js';

/** The keys mcpwire reads a file's servers under (as the config loader does). */
const CONTAINERS = ['mcpServers', 'mcp_servers', 'servers'];

/**
 * `error`'s message with `FILE:LINE:COLUMN` where it said `FILE` alone and the entry (or field)
 * it is about is found in the file; the message unchanged otherwise. `texts` caches each file's
 * text across the errors of one run. Never rejects.
 */
export async function positionedMessage(
  error: McpError,
  texts: Map<string, Promise<string | undefined>>,
): Promise<string> {
  if (!(error instanceof ConfigError) || error.file === undefined || error.line !== undefined) return error.message;
  if (error.server === undefined || /\.(ya?ml|toml)$/i.test(error.file)) return error.message;
  const file = error.file;
  if (!texts.has(file))
    texts.set(
      file,
      readFile(file, 'utf8').catch(() => undefined),
    );
  const text = await texts.get(file);
  const root = text === undefined ? undefined : parseTree(text, [], { allowTrailingComma: true });
  if (text === undefined || root === undefined) return error.message;
  const node = locate(root, error.server, fieldPath(error.field));
  if (node === undefined) return error.message;
  const { line, column } = lineColumn(text, node.offset);
  return `${file}:${line}:${column}: server "${error.server}": ${error.reason}`;
}

/** `env.TOKEN`, `args[1]`, `headers.X-Key` as path segments. */
function fieldPath(field: string | undefined): Array<string | number> {
  if (field === undefined || field === '') return [];
  return field
    .split(/\.|(?=\[)/)
    .filter(Boolean)
    .map((part) => (/^\[\d+\]$/.test(part) ? Number(part.slice(1, -1)) : part));
}

/** The node of `field` in `server`'s entry (its key's property), the deepest part of it written, or undefined. */
function locate(root: Node, server: string, field: Array<string | number>): Node | undefined {
  for (const container of CONTAINERS) {
    if (findNodeAtLocation(root, [container, server]) === undefined) continue;
    for (let depth = field.length; depth >= 0; depth--) {
      const node = findNodeAtLocation(root, [container, server, ...field.slice(0, depth)]);
      if (node === undefined) continue;
      // A value inside an object is found at its key (the line a reader looks for).
      return node.parent?.type === 'property' ? node.parent : node;
    }
  }
  return undefined;
}
